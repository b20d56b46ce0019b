//! One-shot resolution of a workload target (`docs/workloads.md` "Resolution"): GET the
//! workload, LIST its ReplicaSets (a Deployment) or Jobs (a CronJob) and its pods by label
//! selector — never every pod of the namespace — and, when RBAC refuses the workload but allows
//! pods, fall back to what the pods say of their owners ([`fallback`]).

mod fallback;
mod read;

use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::Pod;

use crate::model::workload::summary::{
    from_cron_job, from_daemon_set, from_deployment, from_job, from_replica_set, from_stateful_set,
    latest_job,
};
use crate::model::workload::{TargetRef, WorkloadKind, WorkloadPod, WorkloadRef, WorkloadSummary};
use read::{Got, get, list, list_all};

/// What a target resolved to.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The workload's summary; `None` for a selector, a pod without a readable owner, or when
    /// RBAC refused the workload.
    pub summary: Option<WorkloadSummary>,
    /// The workload podscope names (a Deployment found from a pod's owner chain, too); `None`
    /// for a selector or a pod without an owner.
    pub workload: Option<WorkloadRef>,
    /// The label selector the pods were listed with (kubectl's syntax); empty when no list was
    /// made (a pod without an owner: `pods` holds just it).
    pub selector: String,
    /// The pods the selector matched (those of another controller left out), in the API's order.
    pub pods: Vec<WorkloadPod>,
    /// A Deployment's ReplicaSets (owned by its uid); empty for other kinds.
    pub replica_sets: Vec<ReplicaSet>,
    /// What RBAC refused and what is shown instead, one line, e.g. `cannot get
    /// deployments.apps "web": forbidden (…); showing the pods of its owner chain`.
    pub refused: Option<String>,
}

/// Why a target could not be resolved; `Display` is the one line to print.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// 404, in kubectl's words (`Error from server (NotFound): deployments.apps "web" not found`).
    #[error("{0}")]
    NotFound(String),
    /// RBAC refused what the target needs, with what to pass instead.
    #[error("{0}")]
    Forbidden(String),
    /// Anything else (transport, 5xx, a malformed answer).
    #[error("{0}")]
    Other(String),
}

/// Resolves `target` in `namespace`: one GET of the workload (a pod target: the pod and its
/// owner chain), the LISTs by label selector, the summary.
///
/// # Errors
/// [`ResolveError::NotFound`] when the named object does not exist, [`ResolveError::Forbidden`]
/// when the workload (or the pods) cannot be read, [`ResolveError::Other`] otherwise.
pub async fn resolve(
    client: &kube::Client,
    namespace: &str,
    target: &TargetRef,
) -> Result<Resolved, ResolveError> {
    match target {
        TargetRef::Pod(name) => fallback::from_pod(client, namespace, name).await,
        TargetRef::Selector(selector) => Ok(Resolved {
            summary: None,
            workload: None,
            selector: selector.clone(),
            pods: pods(client, namespace, selector, &[]).await?,
            replica_sets: Vec::new(),
            refused: None,
        }),
        TargetRef::Workload(w) => workload(client, namespace, w).await,
    }
}

/// The summary of `w` and the ReplicaSets it used, from one GET (plus the LIST of ReplicaSets or
/// Jobs); [`Got::Refused`] when RBAC refused the GET (the text says what was refused).
///
/// # Errors
/// 404 and other failures, as [`resolve`].
pub(super) async fn summarise(
    client: &kube::Client,
    namespace: &str,
    w: &WorkloadRef,
) -> Result<Got<(WorkloadSummary, Vec<ReplicaSet>)>, ResolveError> {
    let found = match w.kind {
        WorkloadKind::Deployment => match get::<Deployment>(client, namespace, w).await? {
            Got::Found(d) => {
                let owned = replica_sets_of(client, namespace, &d).await;
                Got::Found((from_deployment(&d, &owned), owned))
            }
            Got::Refused(r) => Got::Refused(r),
        },
        WorkloadKind::ReplicaSet => get::<ReplicaSet>(client, namespace, w)
            .await?
            .map(|rs| (from_replica_set(&rs), vec![rs])),
        WorkloadKind::StatefulSet => get::<StatefulSet>(client, namespace, w)
            .await?
            .map(|s| (from_stateful_set(&s), Vec::new())),
        WorkloadKind::DaemonSet => get::<DaemonSet>(client, namespace, w)
            .await?
            .map(|d| (from_daemon_set(&d), Vec::new())),
        WorkloadKind::Job => get::<Job>(client, namespace, w)
            .await?
            .map(|j| (from_job(&j), Vec::new())),
        WorkloadKind::CronJob => match get::<CronJob>(client, namespace, w).await? {
            Got::Found(cj) => {
                // A CronJob's Jobs carry no label naming it: list the namespace's Jobs (never
                // its pods) and keep those it owns. A refused list leaves no Job to show.
                let jobs = list_all::<Job>(client, namespace).await.unwrap_or_default();
                let uid = cj.metadata.uid.clone().unwrap_or_default();
                Got::Found((from_cron_job(&cj, latest_job(&jobs, &uid)), Vec::new()))
            }
            Got::Refused(r) => Got::Refused(r),
        },
    };
    Ok(found)
}

/// The ReplicaSets of `d`: one LIST by its selector, those owned by its uid (none when the list
/// is refused: the summary then has no revisions).
async fn replica_sets_of(
    client: &kube::Client,
    namespace: &str,
    d: &Deployment,
) -> Vec<ReplicaSet> {
    let selector = crate::model::workload::selector::render(&d.spec.selector);
    if selector.is_empty() {
        return Vec::new();
    }
    let uid = d.metadata.uid.clone().unwrap_or_default();
    match list::<ReplicaSet>(client, namespace, &selector).await {
        Ok(all) => all
            .into_iter()
            .filter(|rs| crate::model::workload::summary::owned_by(&rs.metadata, &uid))
            .collect(),
        Err(e) => {
            tracing::warn!("no ReplicaSets for the rollout: {e:?}");
            Vec::new()
        }
    }
}

async fn workload(
    client: &kube::Client,
    namespace: &str,
    w: &WorkloadRef,
) -> Result<Resolved, ResolveError> {
    match summarise(client, namespace, w).await? {
        Got::Found((summary, replica_sets)) => {
            complete(client, namespace, w, summary, replica_sets).await
        }
        Got::Refused(reason) => Err(ResolveError::Forbidden(format!(
            "{reason}; pass one of its pods (podscope POD) or its pods' labels (-l KEY=VALUE)"
        ))),
    }
}

/// The [`Resolved`] of a summarised workload: its pods by its selector, those of other
/// controllers left out (a Deployment's pods are its ReplicaSets').
async fn complete(
    client: &kube::Client,
    namespace: &str,
    w: &WorkloadRef,
    summary: WorkloadSummary,
    replica_sets: Vec<ReplicaSet>,
) -> Result<Resolved, ResolveError> {
    let owners: Vec<String> = match w.kind {
        WorkloadKind::Deployment => replica_sets
            .iter()
            .filter_map(|rs| rs.metadata.uid.clone())
            .collect(),
        WorkloadKind::CronJob => Vec::new(),
        _ => vec![summary.uid.clone()],
    };
    let pods = pods(client, namespace, &summary.selector, &owners).await?;
    Ok(Resolved {
        selector: summary.selector.clone(),
        workload: Some(w.clone()),
        summary: Some(summary),
        pods,
        replica_sets,
        refused: None,
    })
}

/// The pods `selector` matches in `namespace` (one label-selected LIST); with `owners`, a pod
/// whose controller is not one of them is left out (another workload whose labels overlap).
async fn pods(
    client: &kube::Client,
    namespace: &str,
    selector: &str,
    owners: &[String],
) -> Result<Vec<WorkloadPod>, ResolveError> {
    let items = list::<Pod>(client, namespace, selector)
        .await
        .map_err(|e| match e {
            read::ListError::Forbidden(m) => ResolveError::Forbidden(m),
            read::ListError::Other(m) => ResolveError::Other(m),
        })?;
    Ok(items
        .iter()
        .map(WorkloadPod::from_pod)
        .filter(|p| {
            owners.is_empty() || p.pod.owner.as_ref().is_none_or(|o| owners.contains(&o.uid))
        })
        .collect())
}
