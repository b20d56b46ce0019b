//! A pod target resolved to its workload through the pod's `ownerReferences`, and what is shown
//! when RBAC refuses the workload but allows pods (`docs/workloads.md` "RBAC"): the owner's
//! name from the chain (a ReplicaSet `web-6c8f9` with `pod-template-hash=6c8f9` belongs to the
//! Deployment `web`, as `pkg/controller/deployment/sync.go` names them) and the pod's own labels,
//! less the per-revision and per-pod ones, as the selector.

use k8s_openapi::api::core::v1::Pod;
use kube::Api;

use super::read::Got;
use super::{ResolveError, Resolved, complete, pods, summarise};
use crate::cluster::config::describe_error;
use crate::model::sanitize::sanitize;
use crate::model::workload::selector::from_labels;
use crate::model::workload::summary::POD_TEMPLATE_HASH;
use crate::model::workload::{WorkloadKind, WorkloadPod, WorkloadRef};

/// Labels a controller sets per revision or per pod, which no selector of the owner holds.
const PER_POD_LABELS: [&str; 6] = [
    POD_TEMPLATE_HASH,
    "controller-revision-hash",
    "statefulset.kubernetes.io/pod-name",
    "apps.kubernetes.io/pod-index",
    "batch.kubernetes.io/job-completion-index",
    "pod-template-generation",
];

/// The workload the pod's controller reference leads to: a ReplicaSet named `NAME-HASH` with
/// the pod's `pod-template-hash` is the Deployment `NAME`'s; StatefulSet, DaemonSet, Job and
/// other ReplicaSets are themselves. `None` for any other owner (a Node's static pod, a custom
/// controller).
fn owner_workload(pod: &WorkloadPod) -> Option<WorkloadRef> {
    let owner = pod.pod.owner.as_ref()?;
    let kind = WorkloadKind::ALL
        .into_iter()
        .find(|k| k.kind() == owner.kind)?;
    if kind == WorkloadKind::ReplicaSet
        && let Some(hash) = pod.pod.labels.get(POD_TEMPLATE_HASH)
        && let Some(name) = owner.name.strip_suffix(&format!("-{hash}"))
    {
        return Some(WorkloadRef {
            kind: WorkloadKind::Deployment,
            name: name.to_owned(),
        });
    }
    Some(WorkloadRef {
        kind,
        name: owner.name.clone(),
    })
}

/// Resolves pod `name`: GETs it, then its workload ([`owner_workload`]); a Deployment that does
/// not exist falls back to the ReplicaSet itself. When the workload is refused, the pods its
/// labels select are listed instead and `refused` says so.
///
/// # Errors
/// The pod's 404 in kubectl's words, a refused pod GET or pod LIST, other failures.
pub(super) async fn from_pod(
    client: &kube::Client,
    namespace: &str,
    name: &str,
) -> Result<Resolved, ResolveError> {
    let api: Api<Pod> = Api::namespaced(client.clone(), namespace);
    let pod = match api.get_opt(name).await {
        Ok(Some(p)) => WorkloadPod::from_pod(&p),
        Ok(None) => {
            return Err(ResolveError::NotFound(format!(
                "Error from server (NotFound): pods \"{}\" not found",
                sanitize(name)
            )));
        }
        Err(e) => {
            let line = describe_error(&e, "get", "pods", namespace);
            return Err(match e {
                kube::Error::Api(s) if s.code == 403 => ResolveError::Forbidden(line),
                _ => ResolveError::Other(line),
            });
        }
    };
    let Some(mut w) = owner_workload(&pod) else {
        return Ok(alone(pod));
    };
    let mut got = match summarise(client, namespace, &w).await {
        Err(ResolveError::NotFound(_)) if w.kind == WorkloadKind::Deployment => None,
        other => Some(other?),
    };
    if got.is_none()
        && let Some(owner) = &pod.pod.owner
    {
        // A ReplicaSet named like a Deployment's but without one: the ReplicaSet itself.
        w = WorkloadRef {
            kind: WorkloadKind::ReplicaSet,
            name: owner.name.clone(),
        };
        got = Some(summarise(client, namespace, &w).await?);
    }
    match got {
        Some(Got::Found((summary, sets))) => complete(client, namespace, &w, summary, sets).await,
        Some(Got::Refused(reason)) => {
            let selector = from_labels(&pod.pod.labels, &PER_POD_LABELS);
            if selector.is_empty() {
                let mut r = alone(pod);
                r.workload = Some(w);
                r.refused = Some(format!(
                    "{reason}; showing the pod alone (it has no labels)"
                ));
                return Ok(r);
            }
            Ok(Resolved {
                summary: None,
                workload: Some(w),
                pods: pods(client, namespace, &selector, &[]).await?,
                selector,
                replica_sets: Vec::new(),
                refused: Some(format!("{reason}; showing the pods of its owner chain")),
            })
        }
        None => Ok(alone(pod)),
    }
}

/// A pod without a workload: itself, no list.
fn alone(pod: WorkloadPod) -> Resolved {
    Resolved {
        summary: None,
        workload: None,
        selector: String::new(),
        pods: vec![pod],
        replica_sets: Vec::new(),
        refused: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(owner_kind: &str, owner: &str, labels: serde_json::Value) -> WorkloadPod {
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "p", "namespace": "default", "labels": labels,
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": owner_kind,
                                              "name": owner, "uid": "u", "controller": true}]}
        }))
        .expect("pod");
        WorkloadPod::from_pod(&pod)
    }

    #[test]
    fn the_owner_chain_strips_the_pod_template_hash() {
        let p = pod(
            "ReplicaSet",
            "web-6c8f9",
            serde_json::json!({"app": "web", "pod-template-hash": "6c8f9"}),
        );
        assert_eq!(
            owner_workload(&p).map(|w| w.display()).as_deref(),
            Some("deploy/web")
        );
        assert_eq!(from_labels(&p.pod.labels, &PER_POD_LABELS), "app=web");
        let bare = pod("ReplicaSet", "cache", serde_json::json!({"app": "cache"}));
        assert_eq!(
            owner_workload(&bare).map(|w| w.display()).as_deref(),
            Some("rs/cache")
        );
        let sts = pod(
            "StatefulSet",
            "db",
            serde_json::json!({"app": "db", "statefulset.kubernetes.io/pod-name": "db-0",
                               "controller-revision-hash": "db-7b9"}),
        );
        assert_eq!(
            owner_workload(&sts).map(|w| w.display()).as_deref(),
            Some("sts/db")
        );
        assert_eq!(from_labels(&sts.pod.labels, &PER_POD_LABELS), "app=db");
        assert!(owner_workload(&pod("Node", "n1", serde_json::json!({}))).is_none());
    }
}
