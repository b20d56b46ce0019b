//! `PodSummary`: the pod as podscope shows it, built once per watch event from a `Pod`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{Pod, PodSpec, PodStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;

use super::backoff::Backoff;
use super::container::{containers_in_kubelet_order, owned, time};
use super::printer::{PodPrint, PodRow, age, print_pod};
use super::sanitize::sanitize;

/// The role of a container in the pod, in kubelet start order.
///
/// `Sidecar` is an init container with `restartPolicy: Always` (native sidecar, KEP-753).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ContainerKind {
    /// `spec.initContainers[]` without `restartPolicy: Always`; runs to completion, one at a time.
    Init,
    /// `spec.initContainers[]` with `restartPolicy: Always`.
    Sidecar,
    /// `spec.containers[]`.
    Main,
    /// `spec.ephemeralContainers[]` (added by `kubectl debug`).
    Ephemeral,
}

/// One `metadata.ownerReferences` entry (sanitised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerRef {
    /// `apiVersion`, e.g. `batch/v1`.
    pub api_version: String,
    /// `kind`, e.g. `Job`.
    pub kind: String,
    /// `name`.
    pub name: String,
    /// `uid`: the owner object this pod belongs to (a re-created owner has another).
    pub uid: String,
}

impl OwnerRef {
    /// The controller reference (`controller: true`), else the first one; `None` without any.
    #[must_use]
    pub fn of(refs: &[OwnerReference]) -> Option<OwnerRef> {
        let r = refs
            .iter()
            .find(|r| r.controller == Some(true))
            .or_else(|| refs.first())?;
        let clean = |s: &str| sanitize(s).into_owned();
        Some(OwnerRef {
            api_version: clean(&r.api_version),
            kind: clean(&r.kind),
            name: clean(&r.name),
            uid: clean(&r.uid),
        })
    }
}

/// A finished container instance: `state.terminated` or `lastState.terminated`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Terminated {
    /// `reason`, e.g. `Error`, `Completed`, `OOMKilled`, `StartError`; empty when the runtime gave none.
    pub reason: String,
    /// `exitCode`; 128+N means killed by signal N.
    pub exit_code: i32,
    /// `signal` as reported by the runtime (often 0 even for 137).
    pub signal: i32,
    /// `message`: the termination message (from `terminationMessagePath`), sanitised.
    pub message: Option<String>,
    /// `startedAt`; `None` when absent. The Unix epoch (1970) means "never started" (StartError).
    pub started_at: Option<Timestamp>,
    /// `finishedAt`.
    pub finished_at: Option<Timestamp>,
    /// `containerID`; empty means the runtime has no such instance (logs are unavailable).
    pub container_id: String,
}

/// The current state of a container, `containerStatuses[].state`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContainerState {
    /// No status reported yet (the kubelet has not seen it) or an empty state object.
    Unknown,
    /// `state.waiting`: `reason` (e.g. `CrashLoopBackOff`, `ContainerCreating`) and `message`.
    Waiting {
        /// `waiting.reason`, may be empty.
        reason: String,
        /// `waiting.message`, sanitised.
        message: Option<String>,
    },
    /// `state.running` with `startedAt`.
    Running {
        /// `running.startedAt`.
        started_at: Option<Timestamp>,
    },
    /// `state.terminated`.
    Terminated(Terminated),
}

/// The three probes of a container in `kubectl describe` form
/// (`http-get http://:http/healthz delay=0s timeout=2s period=10s #success=1 #failure=3`).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct Probes {
    /// `startupProbe`.
    pub startup: Option<String>,
    /// `livenessProbe`.
    pub liveness: Option<String>,
    /// `readinessProbe`.
    pub readiness: Option<String>,
}

/// One container: its spec facts joined with its status, in kubelet order.
#[derive(Debug, Clone, PartialEq)]
pub struct ContainerSummary {
    /// `name`.
    pub name: String,
    /// Where it sits in the start order.
    pub kind: ContainerKind,
    /// `image` from the spec.
    pub image: String,
    /// `command` followed by `args`, as one argv (empty when the image default is used).
    pub command: Vec<String>,
    /// `ready` from the status (false when there is no status).
    pub ready: bool,
    /// `started` from the status (`None` when absent).
    pub started: Option<bool>,
    /// `restartCount`.
    pub restart_count: i32,
    /// `state`.
    pub state: ContainerState,
    /// `lastState.terminated`, if any.
    pub last_state: Option<Terminated>,
    /// Probes in describe form.
    pub probes: Probes,
    /// `resources.limits.memory` as written in the spec (e.g. `512Mi`), for OOMKilled diagnosis.
    pub memory_limit: Option<String>,
    /// Declared `ports[]` as `(name, containerPort, protocol)`.
    pub ports: Vec<(Option<String>, i32, String)>,
    /// The CrashLoopBackOff back-off, when `state.waiting.reason == "CrashLoopBackOff"`.
    pub backoff: Option<Backoff>,
    /// Command, args, env, envFrom, mounts and securityContext essentials from the spec
    /// (empty for a status naming no spec entry).
    pub spec: super::container_spec::ContainerSpec,
}

/// A pod condition (`status.conditions[]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionSummary {
    /// `type`, e.g. `Ready`.
    pub type_: String,
    /// `status`: `True`, `False` or `Unknown`.
    pub status: String,
    /// `reason`, may be empty.
    pub reason: String,
    /// `message`, sanitised, may be empty.
    pub message: String,
    /// `lastTransitionTime`.
    pub last_transition_time: Option<Timestamp>,
}

/// Everything podscope shows about one pod, independent of the clock.
///
/// Time-dependent columns (AGE, `RESTARTS (x ago)`, countdowns) are computed from the
/// timestamps here and a `now` passed by the caller.
#[derive(Debug, Clone, PartialEq)]
pub struct PodSummary {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.uid`.
    pub uid: String,
    /// `metadata.resourceVersion`.
    pub resource_version: String,
    /// `metadata.creationTimestamp`.
    pub creation_timestamp: Option<Timestamp>,
    /// `metadata.deletionTimestamp`: when the deletion was requested plus the grace period.
    pub deletion_timestamp: Option<Timestamp>,
    /// `metadata.deletionGracePeriodSeconds` (seconds), set with `deletionTimestamp`.
    pub deletion_grace_period_seconds: Option<i64>,
    /// `metadata.finalizers`, sanitised, in order.
    pub finalizers: Vec<String>,
    /// The owner from `metadata.ownerReferences`: the `controller: true` one, else the first.
    pub owner: Option<OwnerRef>,
    /// `status.phase` (`Pending`, `Running`, `Succeeded`, `Failed`, `Unknown`), empty if absent.
    pub phase: String,
    /// `status.reason` (e.g. `Evicted`, `NodeLost`).
    pub reason: String,
    /// `status.message`, sanitised.
    pub message: String,
    /// `spec.nodeName`.
    pub node: Option<String>,
    /// `status.podIP`.
    pub pod_ip: Option<String>,
    /// `status.hostIP`.
    pub host_ip: Option<String>,
    /// `status.qosClass`.
    pub qos_class: Option<String>,
    /// `spec.restartPolicy` (`Always` when absent).
    pub restart_policy: String,
    /// `spec.terminationGracePeriodSeconds` (30 when absent).
    pub termination_grace_period_seconds: i64,
    /// The server-side printer's clock-free result (READY, STATUS, restarts, last restart).
    pub print: PodPrint,
    /// Containers in kubelet order: init and sidecars (spec order), main, ephemeral.
    pub containers: Vec<ContainerSummary>,
    /// `status.conditions` in the order the server gave them.
    pub conditions: Vec<ConditionSummary>,
    /// The pod's spec as the server sent it (unsanitised: sanitise any text taken from it before
    /// it is shown). The diagnosis reads what the summary does not carry: env references,
    /// resources, probe parameters, volumes, affinity, `imagePullSecrets`.
    pub spec: Arc<PodSpec>,
    /// `metadata.annotations["kubernetes.io/config.source"]` (`file` or `http` for a static pod
    /// whose API object is only a mirror; `api` or absent otherwise), sanitised.
    pub config_source: Option<String>,
    /// `metadata.labels`, sanitised (a workload's selector and revision hash read them).
    pub labels: BTreeMap<String, String>,
}

impl PodSummary {
    /// When the deletion was requested: the API server sets `deletionTimestamp` to the request's
    /// time plus `deletionGracePeriodSeconds`, so this is their difference (`None` before a
    /// deletion, or without the grace period). Source: k8s.io/apiserver's
    /// `rest.BeforeDelete` (registry/rest/delete.go).
    #[must_use]
    pub fn deletion_requested_at(&self) -> Option<Timestamp> {
        let at = self.deletion_timestamp?;
        let grace = self.deletion_grace_period_seconds?;
        at.checked_sub(jiff::SignedDuration::from_secs(grace)).ok()
    }

    /// Builds the summary of `pod`: every string from the cluster sanitised
    /// ([`crate::sanitize`]), containers in kubelet order (init and sidecars in spec order,
    /// then main, then ephemeral), each joined by name with its status, back-offs on the default
    /// curve, and `print` from the server-side printer (`docs/protocols.md` §6).
    pub fn from_pod(pod: &Pod) -> PodSummary {
        let meta = &pod.metadata;
        let default_spec = PodSpec::default();
        let spec = pod.spec.as_ref().unwrap_or(&default_spec);
        let default_status = PodStatus::default();
        let status = pod.status.as_ref().unwrap_or(&default_status);

        let containers = containers_in_kubelet_order(spec, status);

        let mut print = print_pod(pod);
        for cell in [
            &mut print.status,
            &mut print.ip,
            &mut print.node,
            &mut print.nominated_node,
        ] {
            if let Cow::Owned(clean) = sanitize(cell) {
                *cell = clean;
            }
        }
        let some = |s: &Option<String>| s.as_deref().map(|v| sanitize(v).into_owned());
        PodSummary {
            namespace: owned(&meta.namespace),
            name: owned(&meta.name),
            uid: owned(&meta.uid),
            resource_version: owned(&meta.resource_version),
            creation_timestamp: time(&meta.creation_timestamp),
            deletion_timestamp: time(&meta.deletion_timestamp),
            deletion_grace_period_seconds: meta.deletion_grace_period_seconds,
            finalizers: meta
                .finalizers
                .iter()
                .flatten()
                .map(|f| sanitize(f).into_owned())
                .collect(),
            owner: OwnerRef::of(meta.owner_references.as_deref().unwrap_or(&[])),
            phase: owned(&status.phase),
            reason: owned(&status.reason),
            message: owned(&status.message),
            node: some(&spec.node_name),
            pod_ip: some(&status.pod_ip).or_else(|| {
                status
                    .pod_ips
                    .as_ref()
                    .and_then(|ips| ips.first())
                    .map(|p| sanitize(&p.ip).into_owned())
            }),
            host_ip: some(&status.host_ip),
            qos_class: some(&status.qos_class),
            restart_policy: some(&spec.restart_policy).unwrap_or_else(|| "Always".to_string()),
            termination_grace_period_seconds: spec.termination_grace_period_seconds.unwrap_or(30),
            print,
            containers,
            conditions: status
                .conditions
                .iter()
                .flatten()
                .map(|c| ConditionSummary {
                    type_: sanitize(&c.type_).into_owned(),
                    status: sanitize(&c.status).into_owned(),
                    reason: owned(&c.reason),
                    message: owned(&c.message),
                    last_transition_time: time(&c.last_transition_time),
                })
                .collect(),
            spec: Arc::new(spec.clone()),
            config_source: meta
                .annotations
                .as_ref()
                .and_then(|a| a.get("kubernetes.io/config.source"))
                .map(|v| sanitize(v).into_owned()),
            labels: meta
                .labels
                .iter()
                .flatten()
                .map(|(k, v)| (sanitize(k).into_owned(), sanitize(v).into_owned()))
                .collect(),
        }
    }

    /// The `kubectl get pod -o wide` row at `now`, from `self.print` (READY, STATUS, RESTARTS with
    /// "(x ago)", AGE from `creation_timestamp`, wide cells).
    pub fn row(&self, now: Timestamp) -> PodRow {
        PodRow {
            name: self.name.clone(),
            ready: self.print.ready_text(),
            status: self.print.status.clone(),
            restarts: self.print.restarts_text(now),
            age: age(self.creation_timestamp, now),
            ip: self.print.ip.clone(),
            node: self.print.node.clone(),
            nominated_node: self.print.nominated_node.clone(),
            readiness_gates: self.print.readiness_gates.clone(),
        }
    }

    /// The container named `name` (any kind), if the pod has one.
    pub fn container(&self, name: &str) -> Option<&ContainerSummary> {
        self.containers.iter().find(|c| c.name == name)
    }

    /// Whether the kubelet will start `c` again after its instance exited with `exit_code`:
    /// never once the pod's `phase` is `Succeeded`/`Failed` or for an ephemeral container; always
    /// for a native sidecar; for an init container on a non-zero exit unless `restartPolicy` is
    /// `Never`; for a main container under `Always`, or `OnFailure` with a non-zero exit.
    #[must_use]
    pub fn will_restart(&self, c: &ContainerSummary, exit_code: i32) -> bool {
        if matches!(self.phase.as_str(), "Succeeded" | "Failed") {
            return false;
        }
        let policy = self.restart_policy.as_str();
        match c.kind {
            ContainerKind::Sidecar => true,
            ContainerKind::Init => exit_code != 0 && policy != "Never",
            ContainerKind::Main => policy == "Always" || (policy == "OnFailure" && exit_code != 0),
            ContainerKind::Ephemeral => false,
        }
    }
}

impl ContainerSummary {
    /// How long the previous instance ran: `lastState.terminated.finishedAt − startedAt`.
    ///
    /// `None` without a `lastState.terminated`, without either timestamp, or when `startedAt` is
    /// the Unix epoch (the runtime never started the process, e.g. `StartError`).
    pub fn ran_for(&self) -> Option<SignedDuration> {
        let last = self.last_state.as_ref()?;
        let started = last.started_at.filter(|t| *t != Timestamp::UNIX_EPOCH)?;
        Some(last.finished_at?.duration_since(started))
    }
}
