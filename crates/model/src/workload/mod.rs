//! Workloads: the controller objects a person names instead of a pod (`deploy/web`, `sts/db`,
//! `job/migrate`, a label selector), summarised as podscope shows them — replicas and
//! readiness, rollout conditions, the ReplicaSets of a rollout and what changed between their
//! pod templates — and the pods that belong to them (see `docs/workloads.md`).
//!
//! Pure: built from k8s-openapi objects at the edge, like [`crate::PodSummary`].

pub mod choice;
pub mod diff;
pub mod header;
pub mod parse;
pub mod selector;
pub mod summary;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;

use super::PodSummary;
use summary::{CONTROLLER_REVISION_HASH, POD_TEMPLATE_HASH};

/// A workload kind podscope can attach to (what `kubectl get KIND/NAME` accepts for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum WorkloadKind {
    /// `apps/v1` Deployment (`deploy/`, `deployment/`, `deployments/`, `deployment.apps/`).
    Deployment,
    /// `apps/v1` ReplicaSet (`rs/`).
    ReplicaSet,
    /// `apps/v1` StatefulSet (`sts/`).
    StatefulSet,
    /// `apps/v1` DaemonSet (`ds/`).
    DaemonSet,
    /// `batch/v1` Job (`job/`).
    Job,
    /// `batch/v1` CronJob (`cronjob/`, `cj/`): attached through its most recent Job.
    CronJob,
}

/// A workload named on the command line: its kind and `metadata.name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadRef {
    /// The kind.
    pub kind: WorkloadKind,
    /// `metadata.name`.
    pub name: String,
}

/// What podscope was asked to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetRef {
    /// One pod by name (`NAME`, `pod/NAME`).
    Pod(String),
    /// A workload's pods (`deploy/web`, …).
    Workload(WorkloadRef),
    /// The pods a label selector matches (`-l app=web`), in kubectl's selector syntax.
    Selector(String),
}

/// A workload condition (`status.conditions[]`, e.g. `Progressing` /
/// `ProgressDeadlineExceeded`), sanitised.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WorkloadCondition {
    /// `type`, e.g. `Available`, `Progressing`, `Complete`, `Failed`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `status`: `True`, `False` or `Unknown`.
    pub status: String,
    /// `reason`, e.g. `ProgressDeadlineExceeded`; may be empty.
    pub reason: String,
    /// `message`; may be empty.
    pub message: String,
}

/// One ReplicaSet of a Deployment's rollout (or one revision of another controller).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Revision {
    /// The ReplicaSet's `metadata.name`, e.g. `web-6c8f9d4b7`.
    pub name: String,
    /// Its `pod-template-hash` label (`controller-revision-hash` for a StatefulSet).
    pub hash: String,
    /// `deployment.kubernetes.io/revision`, when set.
    pub revision: Option<i64>,
    /// `status.replicas` (pods it has).
    pub replicas: i32,
    /// `status.readyReplicas`.
    pub ready: i32,
    /// Whether it is the Deployment's current template (the "new" ReplicaSet).
    pub new: bool,
}

/// One difference between the previous and the new pod template, for one container (or the
/// pod, `container` empty), e.g. `hello`, `env PORT`, `8080`, `abc`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TemplateChange {
    /// The container's name; empty for pod-level fields (volumes).
    pub container: String,
    /// What changed: `image`, `command`, `args`, `env NAME`, `envFrom`, `resources`,
    /// `livenessProbe`, `readinessProbe`, `startupProbe`, `volume NAME`.
    pub field: String,
    /// The previous value (empty when added).
    pub from: String,
    /// The new value (empty when removed).
    pub to: String,
}

/// A workload as podscope shows it, independent of the clock.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WorkloadSummary {
    /// The kind.
    pub kind: WorkloadKind,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.uid`.
    pub uid: String,
    /// `spec.selector` in kubectl's label-selector syntax (`app=web,tier in (a,b)`).
    pub selector: String,
    /// Desired pods (`spec.replicas`, a DaemonSet's `desiredNumberScheduled`, a Job's
    /// `completions`); `None` when the kind has no such number.
    pub replicas: Option<i32>,
    /// Ready pods (`status.readyReplicas`, `numberReady`, a Job's `ready`).
    pub ready: i32,
    /// Pods of the current template (`status.updatedReplicas`, `updatedNumberScheduled`).
    pub updated: i32,
    /// Available pods (`status.availableReplicas`, `numberAvailable`).
    pub available: i32,
    /// `status.conditions`.
    pub conditions: Vec<WorkloadCondition>,
    /// The rollout's ReplicaSets (Deployment), newest revision first; empty for other kinds.
    pub revisions: Vec<Revision>,
    /// What changed between the previous and the new ReplicaSet's pod templates.
    pub changes: Vec<TemplateChange>,
    /// A Job's (or a CronJob's latest Job's) pod counts; `None` for other kinds.
    pub jobs: Option<JobCounts>,
    /// A CronJob's most recent Job's name (its pods are the ones shown); `None` otherwise.
    pub job: Option<String>,
}

/// A Job's `status.active`, `status.succeeded`, `status.failed` (pods).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct JobCounts {
    /// Pods running or pending.
    pub active: i32,
    /// Pods that succeeded.
    pub succeeded: i32,
    /// Pods that failed.
    pub failed: i32,
    /// `spec.backoffLimit` (absent: 6, the API's default); `None` when the spec was not read.
    pub backoff_limit: Option<i32>,
}

/// A pod of a workload, with what the choice rule and the switcher need beyond the pod.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadPod {
    /// The pod.
    pub pod: PodSummary,
    /// Its `pod-template-hash` (or `controller-revision-hash`) label, when set.
    pub hash: Option<String>,
    /// `metadata.creationTimestamp`.
    pub created: Option<Timestamp>,
}

impl WorkloadSummary {
    /// The revision (ReplicaSet) whose `pod-template-hash` is `hash`, if the summary has it.
    #[must_use]
    pub fn revision_for(&self, hash: &str) -> Option<&Revision> {
        self.revisions
            .iter()
            .find(|r| !hash.is_empty() && r.hash == hash)
    }
}

impl WorkloadPod {
    /// The REVISION cell of this pod: its ReplicaSet's `deployment.kubernetes.io/revision` when
    /// `summary` knows it (`3`), else its revision hash, else empty.
    #[must_use]
    pub fn revision_text(&self, summary: Option<&WorkloadSummary>) -> String {
        let hash = self.hash.as_deref().unwrap_or("");
        summary
            .and_then(|s| s.revision_for(hash))
            .and_then(|r| r.revision)
            .map_or_else(|| hash.to_owned(), |n| n.to_string())
    }

    /// `pod` summarised ([`PodSummary::from_pod`]) with its `pod-template-hash` (else
    /// `controller-revision-hash`) label and `creationTimestamp`.
    #[must_use]
    pub fn from_pod(pod: &Pod) -> WorkloadPod {
        let summary = PodSummary::from_pod(pod);
        let hash = summary
            .labels
            .get(POD_TEMPLATE_HASH)
            .or_else(|| summary.labels.get(CONTROLLER_REVISION_HASH))
            .cloned();
        WorkloadPod {
            created: summary.creation_timestamp,
            hash,
            pod: summary,
        }
    }
}
