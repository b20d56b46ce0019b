//! The StatefulSet controller (`pkg/controller/statefulset/stateful_set_control.go`,
//! `stateful_set_utils.go`): pods with stable names `<set>-0 … <set>-(n-1)`.
//!
//! - Each pod: the template plus labels `statefulset.kubernetes.io/pod-name: <pod>`,
//!   `apps.kubernetes.io/pod-index: <i>`, `controller-revision-hash: <set>-<hash>` (the update
//!   revision: [`template_hash`] of the template), `spec.hostname` the pod's name and
//!   `spec.subdomain` `spec.serviceName`; controlled by the StatefulSet.
//! - `OrderedReady` (default): the lowest missing ordinal is created only when every lower one is
//!   Running and Ready, one per pass; scale-down removes the highest ordinal first, one at a time
//!   and only while the others are healthy. `Parallel`: all missing pods at once, all surplus
//!   deleted at once.
//! - A pod deleted (by anyone) is re-created **under the same name** once the old one is gone;
//!   a `Failed` or `Succeeded` pod is deleted to be re-created.
//! - `RollingUpdate` (default, `partition` honoured): when all pods are healthy, the highest
//!   ordinal still at an older revision is deleted (and re-created at the new one); `OnDelete`:
//!   only pods someone deletes are re-created at the new revision.
//! - Events `SuccessfulCreate` `create Pod db-0 in StatefulSet db successful` and
//!   `SuccessfulDelete` `delete Pod db-2 in StatefulSet db successful`.
//! - `status`: `replicas`, `readyReplicas`, `availableReplicas`, `currentReplicas`,
//!   `updatedReplicas`, `currentRevision`/`updateRevision` (the current one becomes the update
//!   one when every pod runs it), `observedGeneration`, `collisionCount` 0.
//!
//! Not modelled: `volumeClaimTemplates` (no PersistentVolumeClaims are made; the simulator has
//! no volumes) and ControllerRevision objects (the revision names are only labels and status).

use std::collections::BTreeMap;

use jiff::Timestamp;
use k8s_openapi::api::apps::v1::{StatefulSet, StatefulSetStatus};
use k8s_openapi::api::core::v1::Pod;

use super::events::event;
use super::hash::template_hash;
use super::pods::{self, is_running_and_ready};
use super::{Action, Kind, Outcome, Snapshot, Workload, ids, owner_reference};

const COMPONENT: &str = "statefulset-controller";
/// The label naming a StatefulSet pod's revision (also on DaemonSet pods).
pub const REVISION_LABEL: &str = "controller-revision-hash";

/// Reconciles every StatefulSet of `snap` (see the module docs).
pub fn reconcile(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    for set in &snap.stateful_sets {
        if set.metadata.deletion_timestamp.is_none() {
            reconcile_one(snap, set, now, &mut out);
        }
    }
    out
}

fn revision(pod: &Pod) -> Option<&str> {
    pod.metadata
        .labels
        .as_ref()?
        .get(REVISION_LABEL)
        .map(String::as_str)
}

fn reconcile_one(snap: &Snapshot, set: &StatefulSet, now: Timestamp, out: &mut Outcome) {
    let (ns, name, uid) = ids(&set.metadata);
    let spec = &set.spec;
    let replicas = spec.replicas.unwrap_or(1).max(0);
    let parallel = spec.pod_management_policy.as_deref() == Some("Parallel");
    let update_revision = format!("{name}-{}", template_hash(&spec.template, None));
    let prefix = format!("{name}-");
    let mut by_ordinal: BTreeMap<i32, &Pod> = BTreeMap::new();
    for p in snap.pods_of(&uid) {
        let ordinal = p
            .metadata
            .name
            .as_deref()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|o| o.parse::<i32>().ok());
        if let Some(o) = ordinal {
            by_ordinal.insert(o, p);
        }
    }
    let delete = |p: &Pod, out: &mut Outcome| {
        let (pns, pname, puid) = ids(&p.metadata);
        out.actions.push(Action::DeletePod {
            namespace: pns,
            name: pname.clone(),
            uid: puid,
        });
        out.actions.push(event(
            Kind::StatefulSet,
            &set.metadata,
            "Normal",
            "SuccessfulDelete",
            format!("delete Pod {pname} in StatefulSet {name} successful"),
            COMPONENT,
            now,
        ));
    };
    let mut blocked = false;
    for ordinal in 0..replicas {
        if blocked && !parallel {
            break;
        }
        match by_ordinal.get(&ordinal) {
            Some(p) if pods::is_terminating(p) => blocked = true,
            Some(p) if pods::is_terminal(p) => {
                delete(p, out);
                blocked = true;
            }
            Some(p) => blocked = !is_running_and_ready(p),
            None => {
                let pod = new_pod(set, &ns, &name, ordinal, &update_revision);
                let pod_name = format!("{name}-{ordinal}");
                out.actions.push(Action::CreatePod(Box::new(pod)));
                out.actions.push(event(
                    Kind::StatefulSet,
                    &set.metadata,
                    "Normal",
                    "SuccessfulCreate",
                    format!("create Pod {pod_name} in StatefulSet {name} successful"),
                    COMPONENT,
                    now,
                ));
                blocked = true;
            }
        }
    }
    let healthy = (0..replicas).all(|o| {
        by_ordinal
            .get(&o)
            .is_some_and(|p| is_running_and_ready(p) && !pods::is_terminating(p))
    });
    let condemned: Vec<&&Pod> = by_ordinal.range(replicas..).map(|(_, p)| p).rev().collect();
    let any_terminating = by_ordinal.values().any(|p| pods::is_terminating(p));
    if parallel {
        for p in condemned.iter().filter(|p| !pods::is_terminating(p)) {
            delete(p, out);
        }
    } else if let Some(p) = condemned.first()
        && healthy
        && !any_terminating
    {
        delete(p, out);
    }
    let rolling = spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_.as_deref())
        .unwrap_or("RollingUpdate")
        == "RollingUpdate";
    let partition = spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.rolling_update.as_ref())
        .and_then(|r| r.partition)
        .unwrap_or(0);
    if rolling && healthy && !any_terminating && condemned.is_empty() {
        let stale = (partition..replicas)
            .rev()
            .filter_map(|o| by_ordinal.get(&o))
            .find(|p| revision(p) != Some(update_revision.as_str()));
        if let Some(p) = stale {
            delete(p, out);
        }
    }
    let st = status(set, &by_ordinal, replicas, &update_revision, now, out);
    if set.status.as_ref() != Some(&st) {
        let mut new = set.clone();
        new.status = Some(st);
        out.actions
            .push(Action::Status(Box::new(Workload::StatefulSet(new))));
    }
}

fn new_pod(set: &StatefulSet, ns: &str, name: &str, ordinal: i32, revision: &str) -> Pod {
    let spec = Some(&set.spec);
    let template = spec.map(|s| s.template.clone()).unwrap_or_default();
    let pod_name = format!("{name}-{ordinal}");
    let mut pod = pods::from_template(
        &template,
        ns,
        &pod_name,
        None,
        owner_reference(Kind::StatefulSet, &set.metadata),
    );
    let labels = pod.metadata.labels.get_or_insert_with(BTreeMap::new);
    labels.insert(
        "statefulset.kubernetes.io/pod-name".into(),
        pod_name.clone(),
    );
    labels.insert("apps.kubernetes.io/pod-index".into(), ordinal.to_string());
    labels.insert(REVISION_LABEL.into(), revision.to_string());
    if let Some(ps) = pod.spec.as_mut() {
        ps.hostname = Some(pod_name);
        ps.subdomain = spec
            .and_then(|s| s.service_name.clone())
            .filter(|s| !s.is_empty());
    }
    pod
}

fn status(
    set: &StatefulSet,
    by_ordinal: &BTreeMap<i32, &Pod>,
    replicas: i32,
    update_revision: &str,
    now: Timestamp,
    out: &mut Outcome,
) -> StatefulSetStatus {
    let old = set.status.clone().unwrap_or_default();
    let min_ready = Some(&set.spec)
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0);
    let current_revision = old
        .current_revision
        .clone()
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| update_revision.to_string());
    let live: Vec<&Pod> = by_ordinal
        .values()
        .copied()
        .filter(|p| !pods::is_terminating(p))
        .collect();
    let count = |f: &dyn Fn(&Pod) -> bool| live.iter().filter(|p| f(p)).count() as i32;
    let mut available = 0;
    for p in &live {
        match pods::available_at(p, min_ready) {
            Some(t) if t <= now => available += 1,
            Some(t) => out.wake_at(t),
            None => {}
        }
    }
    let updated = count(&|p| revision(p) == Some(update_revision));
    let mut current = count(&|p| revision(p) == Some(current_revision.as_str()));
    let mut current_revision = current_revision;
    if updated == replicas && live.len() as i32 == replicas {
        current_revision = update_revision.to_string();
        current = updated;
    }
    StatefulSetStatus {
        replicas: live.len() as i32,
        ready_replicas: Some(count(&|p| pods::is_ready(p))),
        available_replicas: Some(available),
        current_replicas: Some(current),
        updated_replicas: Some(updated),
        current_revision: Some(current_revision),
        update_revision: Some(update_revision.to_string()),
        observed_generation: set.metadata.generation,
        collision_count: Some(old.collision_count.unwrap_or(0)),
        conditions: old.conditions,
    }
}
