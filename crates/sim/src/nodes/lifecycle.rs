//! The node lifecycle controller and taint eviction, for the simulated node (`docs/nodes.md`
//! §1, §4; `pkg/controller/nodelifecycle/node_lifecycle_controller.go`,
//! `pkg/controller/tainteviction/taint_eviction.go`, `MarkPodsNotReady` in
//! `pkg/controller/util/node/controller_utils.go`).
//!
//! [`monitor`] runs every [`MONITOR_PERIOD`]: when neither the node's Lease nor its `Ready`
//! heartbeat was renewed for [`GRACE`], every condition becomes `Unknown`
//! (`NodeStatusUnknown`, "Kubelet stopped posting node status."), the node is tainted
//! `node.kubernetes.io/unreachable` (`NoSchedule` and `NoExecute`), a `NodeNotReady` event is
//! recorded on the node and on each of its pods and the pods' `Ready` condition set `False`.
//! Then each pod on the tainted node that does not tolerate the `NoExecute` taint, or whose
//! `tolerationSeconds` ran out (counted from the taint's `timeAdded`), gets a
//! `DisruptionTarget` condition (`DeletionByTaintManager`), a `TaintManagerEviction` event and a
//! graceful delete — which the unreachable kubelet never completes.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{Node, Pod, PodCondition, Taint};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::events::{About, event};
use crate::api::object::{Object, Resource};
use crate::api::store::Store;

/// How often the controller looks at the node (`--node-monitor-period`, 5 s).
pub const MONITOR_PERIOD: SignedDuration = SignedDuration::from_secs(5);
/// How long a node may stay silent before it is marked `Unknown`
/// (`--node-monitor-grace-period`, 40 s).
pub const GRACE: SignedDuration = SignedDuration::from_secs(40);
/// The taint of a node whose kubelet stopped posting.
pub const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
const COMPONENT: (&str, Option<&str>) = ("node-controller", None);

/// The node's stored object.
pub(super) fn node(store: &Store, name: &str) -> Option<Node> {
    match store.object(Resource::Nodes, "", name)? {
        Object::Node(n) => Some((*n).clone()),
        _ => None,
    }
}

/// Whether the node's `Ready` condition is `Unknown`: the control plane lost its kubelet.
#[must_use]
pub fn unreachable(store: &Store, name: &str) -> bool {
    node(store, name).is_some_and(|n| ready_status(&n) == Some("Unknown"))
}

fn ready_status(n: &Node) -> Option<&str> {
    n.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == "Ready")
        .map(|c| c.status.as_str())
}

/// When the node was last heard from: the newer of its Lease's `renewTime` and its `Ready`
/// condition's `lastHeartbeatTime`.
fn last_heard(store: &Store, n: &Node, name: &str) -> Option<Timestamp> {
    let lease = match store.object(Resource::Leases, super::object::LEASE_NAMESPACE, name) {
        Some(Object::Lease(l)) => l
            .spec
            .as_ref()
            .and_then(|s| s.renew_time.as_ref())
            .map(|t| t.0),
        _ => None,
    };
    let ready = n
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "Ready"))
        .and_then(|c| c.last_heartbeat_time.as_ref())
        .map(|t| t.0);
    lease.max(ready)
}

/// The pods bound to node `name`.
pub(super) fn pods_on(store: &Store, name: &str) -> Vec<Pod> {
    store
        .list(Resource::Pods, None)
        .0
        .into_iter()
        .filter_map(|o| match o {
            Object::Pod(p)
                if p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name) =>
            {
                Some((*p).clone())
            }
            _ => None,
        })
        .collect()
}

/// One pass of the controller over node `name` at `now` (see the module docs).
pub fn monitor(store: &Store, name: &str, now: Timestamp) {
    let Some(n) = node(store, name) else {
        return;
    };
    let silent = last_heard(store, &n, name).is_some_and(|t| now.duration_since(t) > GRACE);
    if silent && ready_status(&n) != Some("Unknown") {
        mark_unknown(store, &n, name, now);
    }
    if let Some(added) = node(store, name).as_ref().and_then(unreachable_since) {
        evict(store, name, added, now);
    }
}

fn unreachable_since(n: &Node) -> Option<Timestamp> {
    n.spec
        .as_ref()?
        .taints
        .as_ref()?
        .iter()
        .find(|t| t.key == UNREACHABLE && t.effect == "NoExecute")
        .map(|t| t.time_added.as_ref().map_or(Timestamp::UNIX_EPOCH, |t| t.0))
}

fn mark_unknown(store: &Store, n: &Node, name: &str, now: Timestamp) {
    let written = store.update_object(Resource::Nodes, "", name, |o| {
        let Object::Node(node) = o else {
            return Ok(());
        };
        let node = std::sync::Arc::make_mut(node);
        let status = node.status.get_or_insert_with(Default::default);
        for c in status.conditions.iter_mut().flatten() {
            c.status = "Unknown".into();
            c.reason = Some("NodeStatusUnknown".into());
            c.message = Some("Kubelet stopped posting node status.".into());
            c.last_transition_time = Some(Time(now));
        }
        let taints = node
            .spec
            .get_or_insert_with(Default::default)
            .taints
            .get_or_insert_with(Vec::new);
        for effect in ["NoSchedule", "NoExecute"] {
            if !taints
                .iter()
                .any(|t| t.key == UNREACHABLE && t.effect == effect)
            {
                taints.push(Taint {
                    key: UNREACHABLE.into(),
                    effect: effect.into(),
                    time_added: Some(Time(now)),
                    value: None,
                });
            }
        }
        Ok(())
    });
    if let Err(e) = written {
        tracing::warn!("node lifecycle: {e}");
        return;
    }
    let uid = n.metadata.uid.clone().unwrap_or_default();
    let about = About::node(name, &uid);
    let message = format!("Node {name} status is now: NodeNotReady");
    let _ = store.add_event(event(
        &about,
        "Normal",
        "NodeNotReady",
        &message,
        COMPONENT,
        now,
    ));
    for pod in pods_on(store, name) {
        mark_pod_not_ready(store, &pod, now);
    }
}

/// `MarkPodsNotReady`: the pod's `Ready` condition `False` (transition now) and a
/// `NodeNotReady` "Node is not ready" event on it.
fn mark_pod_not_ready(store: &Store, pod: &Pod, now: Timestamp) {
    let (ns, name) = (
        pod.metadata.namespace.clone().unwrap_or_default(),
        pod.metadata.name.clone().unwrap_or_default(),
    );
    if matches!(
        pod.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Succeeded" | "Failed")
    ) {
        return;
    }
    let _ = store.try_update_pod(&ns, &name, |p| {
        for c in p
            .status
            .iter_mut()
            .flat_map(|s| s.conditions.iter_mut().flatten())
        {
            if c.type_ == "Ready" && c.status != "False" {
                c.status = "False".into();
                c.last_transition_time = Some(Time(now));
            }
        }
        Ok(())
    });
    let about = About::pod(pod);
    let _ = store.add_event(event(
        &about,
        "Warning",
        "NodeNotReady",
        "Node is not ready",
        COMPONENT,
        now,
    ));
}

/// When the pod must go for the unreachable taint added at `added`: at once without a matching
/// toleration, `added + tolerationSeconds` with one, never when it tolerates it forever.
fn eviction_due(pod: &Pod, added: Timestamp) -> Option<Timestamp> {
    let tolerations = pod.spec.as_ref().and_then(|s| s.tolerations.as_ref());
    let matching = tolerations.into_iter().flatten().find(|t| {
        let key_ok = match t.key.as_deref() {
            None | Some("") => t.operator.as_deref() == Some("Exists"),
            Some(k) => k == UNREACHABLE,
        };
        let effect_ok = t
            .effect
            .as_deref()
            .is_none_or(|e| e.is_empty() || e == "NoExecute");
        key_ok && effect_ok
    });
    match matching {
        None => Some(added),
        Some(t) => t.toleration_seconds.map(|s| {
            added
                .checked_add(SignedDuration::from_secs(s.max(0)))
                .unwrap_or(added)
        }),
    }
}

fn evict(store: &Store, name: &str, added: Timestamp, now: Timestamp) {
    for pod in pods_on(store, name) {
        if pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let Some(due) = eviction_due(&pod, added) else {
            continue;
        };
        if due > now {
            continue;
        }
        let (ns, pod_name) = (
            pod.metadata.namespace.clone().unwrap_or_default(),
            pod.metadata.name.clone().unwrap_or_default(),
        );
        let _ = store.try_update_pod(&ns, &pod_name, |p| {
            let conditions = p
                .status
                .get_or_insert_with(Default::default)
                .conditions
                .get_or_insert_with(Vec::new);
            if !conditions.iter().any(|c| c.type_ == "DisruptionTarget") {
                conditions.push(PodCondition {
                    type_: "DisruptionTarget".into(),
                    status: "True".into(),
                    reason: Some("DeletionByTaintManager".into()),
                    message: Some("Taint manager: deleting due to NoExecute taint".into()),
                    last_transition_time: Some(Time(now)),
                    ..PodCondition::default()
                });
            }
            Ok(())
        });
        let about = About::pod(&pod);
        let _ = store.add_event(event(
            &about,
            "Normal",
            "TaintManagerEviction",
            &format!("Marking for deletion Pod {ns}/{pod_name}"),
            ("taint-eviction-controller", None),
            now,
        ));
        if let Err(e) = crate::api::writes::delete_pod_gracefully(store, &ns, &pod_name, None) {
            tracing::warn!("taint eviction of {ns}/{pod_name}: {e}");
        }
    }
}

/// The next instant a pod on the tainted node is due for eviction after `now`, if any.
pub fn next_eviction(store: &Store, name: &str, now: Timestamp) -> Option<Timestamp> {
    let added = node(store, name).as_ref().and_then(unreachable_since)?;
    pods_on(store, name)
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter_map(|p| eviction_due(p, added))
        .filter(|t| *t > now)
        .min()
}
