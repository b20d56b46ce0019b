//! The scheduler for the one simulated node (`docs/kubelet-references.md` §Scheduling): the
//! node filters of [`node_fit`] (nodeSelector, required node affinity, taints, cordon) and the `VolumeBinding` plugin's PreFilter (`pkg/scheduler/framework/plugins/
//! volumebinding/volume_binding.go`) rejects a pod whose `persistentVolumeClaim` volume names
//! a claim that does not exist, is being deleted, or is not bound yet (every claim binds
//! immediately here: there are no StorageClasses). Such a pod is not handed to the kubelet: it
//! stays `Pending` with `PodScheduled: False`, reason `Unschedulable`, and a `FailedScheduling`
//! Warning from `default-scheduler` with the scheduler's message
//! (`0/1 nodes are available: <why>. preemption: 0/1 nodes are available: 1 Preemption is not
//! helpful for scheduling.`). [`retry`] runs on every store change (from the controller
//! driver) and admits it once the claims are bound, as the scheduler's queue moves a pod back
//! on a PVC or PV event.
//!
//! A pod created with `spec.schedulingGates` is not even tried: the API server's pod strategy
//! (`applySchedulingGatedCondition`, `pkg/registry/core/pod/strategy.go`) gives it `PodScheduled:
//! False`, reason `SchedulingGated`, message `Scheduling is blocked due to non-empty scheduling
//! gates` — kubectl's STATUS `SchedulingGated` — and the scheduler's `SchedulingGates`
//! PreEnqueue plugin keeps it out of the queue: no `FailedScheduling` event. Once an update
//! removed the last gate ([`crate::api::pod_update`] allows deletions only) it is
//! scheduled as any pod.

pub mod node_fit;

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

use k8s_openapi::api::core::v1::{
    Event, EventSource, ObjectReference, Pod, PodCondition, PodStatus,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

use crate::api::object::{Object, Resource};
use crate::api::store::{Intent, Store};

/// The uids of the pods one simulator's scheduler holds back (fixture pods that show
/// `Unschedulable` are never picked up), kept per store ([`Store::scheduler_held`]); uids are
/// unique per pod incarnation. A uid goes when its pod is admitted or seen being deleted; one
/// whose pod was removed otherwise stays (a few bytes, and it matches no pod again).
#[derive(Default)]
pub struct Held(Mutex<HashSet<String>>);

impl Held {
    fn lock(&self) -> MutexGuard<'_, HashSet<String>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Why the pod cannot be placed (the plugin's reason, without the `0/1 nodes` frame), `None`
/// when its claims are all bound.
pub fn volume_reason(store: &Store, pod: &Pod) -> Option<String> {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let spec = pod.spec.as_ref()?;
    let mut unbound = false;
    for v in spec.volumes.iter().flatten() {
        let Some(claim) = &v.persistent_volume_claim else {
            continue;
        };
        let name = &claim.claim_name;
        match store.object(Resource::PersistentVolumeClaims, ns, name) {
            Some(Object::PersistentVolumeClaim(pvc)) => {
                if pvc.metadata.deletion_timestamp.is_some() {
                    return Some(format!("persistentvolumeclaim \"{name}\" is being deleted"));
                }
                let bound = pvc.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Bound");
                unbound |= !bound;
            }
            _ => return Some(format!("persistentvolumeclaim \"{name}\" not found")),
        }
    }
    unbound.then(|| "pod has unbound immediate PersistentVolumeClaims".to_string())
}

/// The `FailedScheduling` message when `pod` cannot be placed now, `None` when it can: the
/// volume check (a PreFilter: its reason stands alone) first, then the node filters of
/// [`node_fit`] against the simulated node (a Filter: its reason counts the nodes, `1 …`).
/// Without any Node object the pod is placed (the kubelet's node registers at start).
pub fn unschedulable(store: &Store, pod: &Pod) -> Option<String> {
    if let Some(reason) = volume_reason(store, pod) {
        return Some(message(&reason));
    }
    let nodes = store.list(Resource::Nodes, None).0;
    let node = nodes.iter().find_map(|o| match o {
        Object::Node(n) => Some(n),
        _ => None,
    })?;
    node_fit::reason(pod, node).map(|r| message(&format!("1 {r}")))
}

/// The `FailedScheduling` message for `reason` on the one-node cluster.
pub fn message(reason: &str) -> String {
    format!(
        "0/1 nodes are available: {reason}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
    )
}

fn failed_scheduling(store: &Store, pod: &Pod, msg: &str) {
    let ns = pod.metadata.namespace.clone().unwrap_or_default();
    let name = pod.metadata.name.clone().unwrap_or_default();
    let now = store.now();
    let uid = pod.metadata.uid.clone().unwrap_or_default();
    let ev = Event {
        metadata: ObjectMeta {
            name: Some(format!(
                "{name}.{:x}",
                crate::kubelet::hash64(3, &[&uid, msg])
            )),
            namespace: Some(ns.clone()),
            ..Default::default()
        },
        involved_object: ObjectReference {
            api_version: Some("v1".into()),
            kind: Some("Pod".into()),
            namespace: Some(ns),
            name: Some(name),
            uid: Some(uid),
            ..Default::default()
        },
        reason: Some("FailedScheduling".into()),
        message: Some(msg.to_string()),
        type_: Some("Warning".into()),
        source: Some(EventSource {
            component: Some("default-scheduler".into()),
            ..Default::default()
        }),
        reporting_component: Some("default-scheduler".into()),
        first_timestamp: Some(Time(now)),
        last_timestamp: Some(Time(now)),
        count: Some(1),
        ..Default::default()
    };
    if let Err(e) = store.add_event(ev) {
        tracing::debug!("FailedScheduling event refused: {e}");
    }
}

/// Whether `pod` still has scheduling gates.
fn gated(pod: &Pod) -> bool {
    pod.spec
        .as_ref()
        .and_then(|s| s.scheduling_gates.as_ref())
        .is_some_and(|g| !g.is_empty())
}

/// The status the API server gives a gated pod at its creation.
fn gated_status(at: jiff::Timestamp) -> PodStatus {
    PodStatus {
        phase: Some("Pending".into()),
        conditions: Some(vec![PodCondition {
            type_: "PodScheduled".into(),
            status: "False".into(),
            reason: Some("SchedulingGated".into()),
            message: Some("Scheduling is blocked due to non-empty scheduling gates".into()),
            last_transition_time: Some(Time(
                jiff::Timestamp::from_second(at.as_second()).unwrap_or(at),
            )),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

fn unschedulable_status(msg: &str, at: jiff::Timestamp) -> PodStatus {
    PodStatus {
        phase: Some("Pending".into()),
        conditions: Some(vec![PodCondition {
            type_: "PodScheduled".into(),
            status: "False".into(),
            reason: Some("Unschedulable".into()),
            message: Some(msg.to_string()),
            last_transition_time: Some(Time(
                jiff::Timestamp::from_second(at.as_second()).unwrap_or(at),
            )),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

/// Schedules the just-created pod `ns/name`: hands it to the kubelet ([`Intent::Admit`]) when
/// its volumes and the node allow ([`unschedulable`]), else holds it back as Unschedulable (see the module docs).
pub(crate) fn schedule(store: &Store, ns: &str, name: &str) {
    let Some(pod) = store.pod(ns, name) else {
        return;
    };
    if gated(&pod) {
        let now = store.now();
        let _ = store.try_update_pod(ns, name, |p| {
            p.status = Some(gated_status(now));
            Ok(())
        });
        if let Some(uid) = pod.metadata.uid.clone() {
            store.scheduler_held().lock().insert(uid);
        }
        return;
    }
    match unschedulable(store, &pod) {
        None => store.submit(Intent::Admit {
            namespace: ns.to_string(),
            name: name.to_string(),
        }),
        Some(msg) => {
            let now = store.now();
            let _ = store.try_update_pod(ns, name, |p| {
                p.status = Some(unschedulable_status(&msg, now));
                Ok(())
            });
            failed_scheduling(store, &pod, &msg);
            if let Some(uid) = pod.metadata.uid.clone() {
                store.scheduler_held().lock().insert(uid);
            }
        }
    }
}

/// Looks again at every held pod of this store (after any change, a Node's labels or taints
/// too, as the scheduler's queue moves pods back on Node events): admits the ones that fit now,
/// updates the reason of the others when it changed, forgets the ones being deleted.
pub(crate) fn retry(store: &Store) {
    let uids: Vec<String> = store.scheduler_held().lock().iter().cloned().collect();
    if uids.is_empty() {
        return;
    }
    let pods: Vec<Pod> = store
        .list(Resource::Pods, None)
        .0
        .into_iter()
        .filter_map(|o| match o {
            Object::Pod(p) => Some((*p).clone()),
            _ => None,
        })
        .filter(|p| p.metadata.uid.as_ref().is_some_and(|u| uids.contains(u)))
        .collect();
    for pod in pods {
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        let name = pod.metadata.name.clone().unwrap_or_default();
        let uid = pod.metadata.uid.clone().unwrap_or_default();
        if pod.metadata.deletion_timestamp.is_some() {
            store.scheduler_held().lock().remove(&uid);
            continue;
        }
        if gated(&pod) {
            continue;
        }
        match unschedulable(store, &pod) {
            None => {
                store.scheduler_held().lock().remove(&uid);
                let _ = store.try_update_pod(&ns, &name, |p| {
                    p.status = Some(PodStatus {
                        phase: Some("Pending".into()),
                        ..Default::default()
                    });
                    Ok(())
                });
                store.submit(Intent::Admit {
                    namespace: ns,
                    name,
                });
            }
            Some(msg) => {
                let same = pod
                    .status
                    .as_ref()
                    .and_then(|s| s.conditions.as_ref())
                    .and_then(|c| c.first())
                    .and_then(|c| c.message.as_deref())
                    == Some(msg.as_str());
                if !same {
                    let now = store.now();
                    let _ = store.try_update_pod(&ns, &name, |p| {
                        p.status = Some(unschedulable_status(&msg, now));
                        Ok(())
                    });
                    failed_scheduling(store, &pod, &msg);
                }
            }
        }
    }
}
