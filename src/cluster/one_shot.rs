//! One-shot reads (single GETs and LISTs, no watch): the preflight GET before the TUI starts, the
//! `--once` snapshot (pod, events, owner, previous log tails, then the lookups its diagnosis
//! wants; printed by the `cmd` layer), and the TUI's owner and namespace checks
//! (`Cmd::CheckOwner`, `Cmd::CheckNamespace`).

use k8s_openapi::api::core::v1::{Event, Pod};
use kube::Api;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind, ListParams};

use super::config::{Target, describe_error};
use super::logs_ws::LogSource;
use super::watch::events_selector;
use crate::model::deletion::OwnerStatus;
use crate::model::diagnosis::{Finding, Inputs, LogTails, Related, wanted_lookups};
use crate::model::{EventSummary, OwnerRef, PodSummary};

/// Why a one-shot read failed; `Display` is the one line to print.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The pod does not exist (kubectl's wording).
    #[error("pods \"{name}\" not found in namespace \"{namespace}\"")]
    NotFound {
        /// Namespace searched.
        namespace: String,
        /// Pod name.
        name: String,
    },
    /// Any other failure: RBAC denial, unreachable server, malformed answer.
    #[error("{0}")]
    Other(String),
}

/// GETs the pod once. `Ok(None)` when it does not exist (the TUI then waits for it);
/// an error for 401/403, an unreachable server or a malformed answer.
///
/// # Errors
/// [`ReadError::Other`] with a line naming verb, resource and namespace.
pub async fn preflight(target: &Target) -> Result<Option<Pod>, ReadError> {
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
    match api.get_opt(&target.pod).await {
        Ok(p) => Ok(p),
        Err(e) => Err(ReadError::Other(format!(
            "{} (server {})",
            describe_error(&e, "get", "pods", &target.namespace),
            target.server
        ))),
    }
}

/// The names of the pods in `target`'s namespace (one LIST), to suggest what a mistyped pod
/// name meant ([`crate::model::pod_ref::closest_names`]).
///
/// # Errors
/// [`ReadError::Other`] with a line naming verb, resource and namespace (an RBAC refusal of
/// `list pods` is common: callers log it and suggest nothing).
pub async fn pod_names(target: &Target) -> Result<Vec<String>, ReadError> {
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
    match api.list(&ListParams::default()).await {
        Ok(list) => Ok(list
            .items
            .into_iter()
            .filter_map(|p| p.metadata.name)
            .collect()),
        Err(e) => Err(ReadError::Other(describe_error(
            &e,
            "list",
            "pods",
            &target.namespace,
        ))),
    }
}

/// What `--once` read: the pod, its events, its owner's existence and the previous log tails
/// of its restarted containers (the lookups are added by [`confirm`]).
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The pod.
    pub pod: PodSummary,
    /// Its events, newest first.
    pub events: Vec<EventSummary>,
    /// Whether the owner of a pod held by finalizers exists (`Unknown` when not needed).
    pub owner: OwnerStatus,
    /// `previous`: the tail of the dead instance of every container with a
    /// `lastState.terminated` ([`super::evidence::read_log_tail`]).
    pub log_tails: LogTails,
    /// Answers about the objects the findings rest on.
    pub related: Related,
    /// The workload the pod was chosen from (`podscope deploy/web --once`), for the rollout
    /// findings; `None` for a pod target. Set by the caller after [`read_snapshot`].
    pub workload: Option<crate::model::workload::WorkloadSummary>,
    /// The one PodMetrics sample `--once` read (`docs/usage.md`), for `memory-near-limit`;
    /// empty when the metrics API answered nothing. Set by the caller after [`read_snapshot`].
    pub usage: crate::model::usage::UsageHistory,
}

impl Snapshot {
    /// The diagnosis of what was read, at `now`.
    #[must_use]
    pub fn diagnose(&self, now: jiff::Timestamp) -> Vec<Finding> {
        crate::model::diagnosis::diagnose(
            &Inputs::new(
                &self.pod,
                &self.events,
                &self.log_tails,
                &self.related,
                &self.owner,
                now,
            )
            .with_workload(self.workload.as_ref())
            .with_usage(Some(&self.usage)),
        )
    }
}

/// Diagnoses `snap` at `now`, GETs the objects the findings want confirmed
/// ([`wanted_lookups`], concurrently, answers stored in `snap.related`) and diagnoses again, at
/// most twice; returns the last diagnosis. Refusals (403) and absences (404) are answers.
pub async fn confirm(target: &Target, snap: &mut Snapshot, now: jiff::Timestamp) -> Vec<Finding> {
    let mut findings = snap.diagnose(now);
    for _ in 0..2 {
        let wanted = wanted_lookups(&findings, &snap.related);
        if wanted.is_empty() {
            break;
        }
        let ns = snap.pod.namespace.clone();
        let answers = futures::future::join_all(
            wanted
                .iter()
                .map(|o| super::evidence::look_up(target.client.clone(), &ns, o)),
        )
        .await;
        snap.related.extend(wanted.into_iter().zip(answers));
        findings = snap.diagnose(now);
    }
    findings
}

/// Reads the pod, then at once its events (newest first), for a pod held by finalizers whether
/// its owner still exists ([`check_owner`]; `Unknown` when not needed), and the previous log
/// tail of every container with a `lastState.terminated`, for `--once`.
///
/// # Errors
/// [`ReadError::NotFound`] when the pod does not exist; [`ReadError::Other`] otherwise.
pub async fn read_snapshot(target: &Target) -> Result<Snapshot, ReadError> {
    let pod = preflight(target)
        .await?
        .ok_or_else(|| ReadError::NotFound {
            namespace: target.namespace.clone(),
            name: target.pod.clone(),
        })?;
    let summary = PodSummary::from_pod(&pod);
    let api: Api<Event> = Api::namespaced(target.client.clone(), &target.namespace);
    let lp = ListParams::default().fields(&events_selector(
        &summary.name,
        &summary.namespace,
        &summary.uid,
    ));
    let owner = async {
        match crate::model::deletion::owner_check_needed(&summary) {
            Some(o) => check_owner(target.client.clone(), &summary.namespace, o).await,
            None => OwnerStatus::Unknown,
        }
    };
    let source = LogSource::Http(Api::namespaced(target.client.clone(), &target.namespace));
    let restarted: Vec<_> = summary
        .containers
        .iter()
        .filter(|c| c.last_state.is_some())
        .collect();
    let tails = futures::future::join_all(restarted.iter().map(|c| {
        super::evidence::read_log_tail(&source, &summary.name, &c.name, true, c.restart_count)
    }));
    // A container that terminated without restarting (a Job's pod): its dead instance is the
    // current one, so its current tail is what it said last (`docs/diagnosis.md`).
    // A running container of a pod that is not well (not ready, an init container still
    // running): what it says now may name the cause, its own or another container's.
    let unwell = summary
        .conditions
        .iter()
        .any(|c| c.type_ == "Ready" && c.status != "True");
    let ended: Vec<_> = summary
        .containers
        .iter()
        .filter(|c| {
            crate::model::diagnosis::facts::ended_without_restart(&summary, c)
                || matches!(c.state, crate::model::ContainerState::Running { .. })
                    && (unwell || !c.ready || c.kind == crate::model::ContainerKind::Init)
        })
        .collect();
    let current = futures::future::join_all(ended.iter().map(|c| {
        super::evidence::read_log_tail(&source, &summary.name, &c.name, false, c.restart_count)
    }));
    let (events, owner, tails, current) = futures::join!(api.list(&lp), owner, tails, current);
    let events = events
        .map_err(|e| ReadError::Other(describe_error(&e, "list", "events", &target.namespace)))?;
    let mut events: Vec<EventSummary> = events.items.iter().map(EventSummary::from_event).collect();
    crate::model::event::sort_newest_first(&mut events);
    let log_tails = LogTails {
        previous: restarted
            .iter()
            .map(|c| c.name.clone())
            .zip(tails)
            .collect(),
        current: ended.iter().map(|c| c.name.clone()).zip(current).collect(),
    };
    Ok(Snapshot {
        pod: summary,
        events,
        owner,
        log_tails,
        related: Related::new(),
        workload: None,
        usage: crate::model::usage::UsageHistory::default(),
    })
}

/// GETs the owner `owner` of a pod in `namespace` once, to tell whether a pod held by its
/// finalizers still has someone to remove them. The resource is derived from `apiVersion` and
/// `kind` the way kube-rs guesses plurals (`Job` → `batch/v1` `jobs`).
///
/// Returns [`OwnerStatus::Gone`] on 404 or when the object found has another `uid` (the owner
/// was re-created), [`OwnerStatus::Failed`] with a line naming verb, resource and namespace for
/// any other error (RBAC, transport).
pub async fn check_owner(client: kube::Client, namespace: &str, owner: &OwnerRef) -> OwnerStatus {
    let (group, version) = match owner.api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", owner.api_version.as_str()),
    };
    let gvk = GroupVersionKind::gvk(group, version, &owner.kind);
    let resource = ApiResource::from_gvk(&gvk);
    let api: Api<DynamicObject> = Api::namespaced_with(client, namespace, &resource);
    match api.get_opt(&owner.name).await {
        Ok(None) => OwnerStatus::Gone,
        Ok(Some(obj)) if obj.metadata.uid.as_deref() == Some(owner.uid.as_str()) => {
            OwnerStatus::Exists
        }
        Ok(Some(_)) => OwnerStatus::Gone,
        Err(e) => OwnerStatus::Failed(
            crate::model::sanitize::sanitize(&describe_error(
                &e,
                "get",
                &resource.plural,
                namespace,
            ))
            .into_owned(),
        ),
    }
}

/// Whether namespace `namespace` exists: `Some(false)` on 404, `None` when the GET fails (RBAC
/// often forbids reading namespaces; then nothing can be said).
pub async fn check_namespace(client: kube::Client, namespace: &str) -> Option<bool> {
    let api: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client);
    api.get_opt(namespace)
        .await
        .ok()
        .map(|found| found.is_some())
}
