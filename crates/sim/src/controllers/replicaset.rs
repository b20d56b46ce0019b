//! The ReplicaSet controller (`pkg/controller/replicaset/replica_set.go`): keeps
//! `spec.replicas` active pods made from `spec.template` and reports them in `status`.
//!
//! - Owned pods are those whose controller `ownerReference` is the ReplicaSet (no adoption).
//!   Pods that are terminal or terminating do not count, so a deleted pod is replaced at once.
//!   An active owned pod whose labels no longer match `spec.selector` (relabelled, e.g.
//!   `kubectl label pod … app=quarantine --overwrite`) is released, as
//!   `pkg/controller/controller_ref_manager.go`'s `ClaimPods` does: its ownerReference to the
//!   ReplicaSet is removed, it stops counting, and a replacement is created in the same pass.
//! - Too few: new pods `<rs>-<5 chars>` (`generateName: <rs>-`), the template's labels and
//!   annotations, `ownerReferences [{apps/v1 ReplicaSet, controller, blockOwnerDeletion}]`;
//!   Event `SuccessfulCreate` `Created pod: <name>`.
//! - Too many: the surplus is deleted in [`sort_for_deletion`] order; `SuccessfulDelete`
//!   `Deleted pod: <name>`. The status written in the same pass no longer counts them, so a
//!   Deployment reading it never sees pods that are on their way out as available.
//! - `status`: `replicas` (active pods), `fullyLabeledReplicas` (those carrying every template
//!   label), `readyReplicas`, `availableReplicas` (Ready for `minReadySeconds`),
//!   `observedGeneration`; a pod that becomes available later is a wake-up.

use jiff::Timestamp;
use k8s_openapi::api::apps::v1::{ReplicaSet, ReplicaSetStatus};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

use super::events::event;
use super::pods::{self, is_active, is_ready, sort_for_deletion};
use super::{Action, Kind, Outcome, Snapshot, Workload, ids, owner_reference};
use crate::api::label_selector;

const COMPONENT: &str = "replicaset-controller";

/// Reconciles every ReplicaSet of `snap` (see the module docs).
pub fn reconcile(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    for rs in &snap.replica_sets {
        if rs.metadata.deletion_timestamp.is_none() {
            reconcile_one(snap, rs, now, &mut out);
        }
    }
    out
}

fn reconcile_one(snap: &Snapshot, rs: &ReplicaSet, now: Timestamp, out: &mut Outcome) {
    let (ns, name, uid) = ids(&rs.metadata);
    let spec = &rs.spec;
    let want = spec.replicas.unwrap_or(1).max(0) as usize;
    let min_ready = spec.min_ready_seconds.unwrap_or(0);
    let (mut active, released): (Vec<&Pod>, Vec<&Pod>) = snap
        .pods_of(&uid)
        .into_iter()
        .filter(|p| is_active(p))
        .partition(|p| selected(&spec.selector, p));
    // A template its own selector does not match would have every new pod released at once
    // (the API refuses such a ReplicaSet; one made otherwise keeps its pods).
    let template_selected = spec.template.as_ref().is_some_and(|t| {
        let labels = t.metadata.as_ref().and_then(|m| m.labels.clone());
        label_selector::matches(&spec.selector, &labels.unwrap_or_default())
    });
    if !template_selected {
        active.extend(released.iter().copied());
    }
    for p in released.into_iter().filter(|_| template_selected) {
        let (pns, pname, _) = ids(&p.metadata);
        out.actions.push(Action::ReleaseDependent {
            kind: None,
            namespace: pns,
            name: pname,
            owner_uid: uid.clone(),
        });
    }
    if active.len() < want {
        let Some(template) = spec.template.as_ref() else {
            return;
        };
        for _ in active.len()..want {
            let pod_name = format!("{name}-{}", pods::random_suffix());
            let pod = pods::from_template(
                template,
                &ns,
                &pod_name,
                Some(format!("{name}-")),
                owner_reference(Kind::ReplicaSet, &rs.metadata),
            );
            out.actions.push(Action::CreatePod(Box::new(pod)));
            out.actions.push(event(
                Kind::ReplicaSet,
                &rs.metadata,
                "Normal",
                "SuccessfulCreate",
                format!("Created pod: {pod_name}"),
                COMPONENT,
                now,
            ));
        }
    } else if active.len() > want {
        sort_for_deletion(&mut active);
        let surplus: Vec<&Pod> = active.drain(..active.len() - want).collect();
        for p in &surplus {
            let (pns, pname, puid) = ids(&p.metadata);
            out.actions.push(Action::DeletePod {
                namespace: pns,
                name: pname.clone(),
                uid: puid,
            });
            out.actions.push(event(
                Kind::ReplicaSet,
                &rs.metadata,
                "Normal",
                "SuccessfulDelete",
                format!("Deleted pod: {pname}"),
                COMPONENT,
                now,
            ));
        }
    }
    let status = status(rs, &active, min_ready, now, out);
    if rs.status.as_ref() != Some(&status) {
        let mut new = rs.clone();
        new.status = Some(status);
        out.actions
            .push(Action::Status(Box::new(Workload::ReplicaSet(new))));
    }
}

/// Whether `pod`'s labels match the ReplicaSet's `selector` (an owned pod that no longer does
/// is released, as `ClaimPods` does).
pub(super) fn selected(selector: &LabelSelector, pod: &Pod) -> bool {
    let labels = pod.metadata.labels.clone().unwrap_or_default();
    label_selector::matches(selector, &labels)
}

/// The status for the `active` pods at `now`; asks `out` to wake when a ready pod becomes
/// available.
fn status(
    rs: &ReplicaSet,
    active: &[&Pod],
    min_ready: i32,
    now: Timestamp,
    out: &mut Outcome,
) -> ReplicaSetStatus {
    let template_labels = rs
        .spec
        .template
        .as_ref()
        .and_then(|t| t.metadata.as_ref())
        .and_then(|m| m.labels.clone())
        .unwrap_or_default();
    let fully = active
        .iter()
        .filter(|p| {
            let labels = p.metadata.labels.clone().unwrap_or_default();
            template_labels
                .iter()
                .all(|(k, v)| labels.get(k) == Some(v))
        })
        .count();
    let ready = active.iter().filter(|p| is_ready(p)).count();
    let mut available = 0;
    for p in active {
        match pods::available_at(p, min_ready) {
            Some(t) if t <= now => available += 1,
            Some(t) => out.wake_at(t),
            None => {}
        }
    }
    let old = rs.status.clone().unwrap_or_default();
    ReplicaSetStatus {
        replicas: active.len() as i32,
        fully_labeled_replicas: Some(fully as i32),
        ready_replicas: Some(ready as i32),
        available_replicas: Some(available),
        observed_generation: rs.metadata.generation,
        conditions: old.conditions,
        terminating_replicas: old.terminating_replicas,
    }
}

#[cfg(test)]
mod tests;
