//! Memory pressure on the simulated node (`docs/nodes.md` §4): the kubelet's eviction manager
//! (`pkg/kubelet/eviction/eviction_manager.go`, messages from `pkg/kubelet/eviction/helpers.go`)
//! sees `memory.available` below its hard threshold ([`EVICTION_THRESHOLD`]), posts
//! `MemoryPressure=True` (`KubeletHasInsufficientMemory`), the node lifecycle controller taints
//! the node `node.kubernetes.io/memory-pressure:NoSchedule`, and the kubelet evicts one pod —
//! BestEffort pods rank first (their usage is above their request of 0) — with no grace period
//! (a hard threshold): `phase: Failed`, `reason: Evicted`, the message
//! `The node was low on resource: memory. Threshold quantity: 100Mi, available: 91364Ki. `
//! followed by `Container C was using U, request is 0, has larger consumption of memory. `, a
//! `DisruptionTarget` condition (`TerminationByKubelet`), its containers terminated with exit
//! code 137, an `Evicted` event on the pod, and `EvictionThresholdMet` on the node.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{
    ContainerState, ContainerStateTerminated, Pod, PodCondition, Taint,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::events::{About, event};
use super::lifecycle::{node, pods_on};
use super::object::{EVICTION_THRESHOLD, MEMORY_PRESSURE, condition};
use crate::api::object::{Object, Resource};
use crate::api::store::Store;

/// The taint of a node under memory pressure.
pub const MEMORY_PRESSURE_TAINT: &str = "node.kubernetes.io/memory-pressure";
/// `memory.available` the kubelet reports when it evicts: 91364Ki, just under the threshold.
pub const AVAILABLE: &str = "91364Ki";
/// What the evicted pod's container is said to use.
const USAGE: &str = "512000Ki";

/// The eviction message for a pod whose container `container` used [`USAGE`].
#[must_use]
pub fn message(container: Option<&str>) -> String {
    let mut m = format!(
        "The node was low on resource: memory. Threshold quantity: {EVICTION_THRESHOLD}, available: {AVAILABLE}. "
    );
    if let Some(c) = container {
        m.push_str(&format!(
            "Container {c} was using {USAGE}, request is 0, has larger consumption of memory. "
        ));
    }
    m
}

/// Puts node `name` under memory pressure at `now` and evicts its first running BestEffort pod.
pub fn start(store: &Store, name: &str, now: Timestamp) {
    let written = store.update_object(Resource::Nodes, "", name, |o| {
        let Object::Node(n) = o else {
            return Ok(());
        };
        let n = std::sync::Arc::make_mut(n);
        let status = n.status.get_or_insert_with(Default::default);
        for c in status.conditions.iter_mut().flatten() {
            if c.type_ == "MemoryPressure" {
                *c = condition(MEMORY_PRESSURE, now, now);
            }
        }
        let taints = n
            .spec
            .get_or_insert_with(Default::default)
            .taints
            .get_or_insert_with(Vec::new);
        if !taints.iter().any(|t| t.key == MEMORY_PRESSURE_TAINT) {
            taints.push(Taint {
                key: MEMORY_PRESSURE_TAINT.into(),
                effect: "NoSchedule".into(),
                time_added: Some(Time(now)),
                value: None,
            });
        }
        Ok(())
    });
    if let Err(e) = written {
        tracing::warn!("memory pressure on {name}: {e}");
        return;
    }
    let uid = node(store, name)
        .and_then(|n| n.metadata.uid)
        .unwrap_or_default();
    let about = About::node(name, &uid);
    let kubelet = ("kubelet", Some(name));
    let _ = store.add_event(event(
        &about,
        "Normal",
        "NodeHasInsufficientMemory",
        &format!("Node {name} status is now: NodeHasInsufficientMemory"),
        kubelet,
        now,
    ));
    let _ = store.add_event(event(
        &about,
        "Warning",
        "EvictionThresholdMet",
        "Attempting to reclaim memory",
        kubelet,
        now,
    ));
    let victim = pods_on(store, name).into_iter().find(|p| {
        let st = p.status.as_ref();
        st.and_then(|s| s.qos_class.as_deref()) == Some("BestEffort")
            && st.and_then(|s| s.phase.as_deref()) == Some("Running")
            && p.metadata.deletion_timestamp.is_none()
    });
    if let Some(pod) = victim {
        evict(store, &pod, name, now);
    }
}

/// Evicts `pod` at `now` (see the module docs).
fn evict(store: &Store, pod: &Pod, node_name: &str, now: Timestamp) {
    let (ns, name) = (
        pod.metadata.namespace.clone().unwrap_or_default(),
        pod.metadata.name.clone().unwrap_or_default(),
    );
    let first = pod
        .spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .map(|c| c.name.clone());
    let text = message(first.as_deref());
    let _ = store.try_update_pod(&ns, &name, |p| {
        let status = p.status.get_or_insert_with(Default::default);
        status.phase = Some("Failed".into());
        status.reason = Some("Evicted".into());
        status.message = Some(text.clone());
        let conditions = status.conditions.get_or_insert_with(Vec::new);
        for c in conditions.iter_mut() {
            if matches!(c.type_.as_str(), "Ready" | "ContainersReady") {
                c.status = "False".into();
                c.reason = Some("PodFailed".into());
                c.last_transition_time = Some(Time(now));
            }
        }
        conditions.insert(
            0,
            PodCondition {
                type_: "DisruptionTarget".into(),
                status: "True".into(),
                reason: Some("TerminationByKubelet".into()),
                message: Some(text.clone()),
                last_transition_time: Some(Time(now)),
                ..PodCondition::default()
            },
        );
        for cs in status.container_statuses.iter_mut().flatten() {
            let started = cs
                .state
                .as_ref()
                .and_then(|s| s.running.as_ref())
                .and_then(|r| r.started_at.clone());
            cs.ready = false;
            cs.started = Some(false);
            cs.state = Some(ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: 137,
                    reason: Some("Error".into()),
                    started_at: started,
                    finished_at: Some(Time(now)),
                    container_id: cs.container_id.clone(),
                    ..ContainerStateTerminated::default()
                }),
                ..ContainerState::default()
            });
        }
        Ok(())
    });
    let about = About::pod(pod);
    let _ = store.add_event(event(
        &about,
        "Warning",
        "Evicted",
        &text,
        ("kubelet", Some(node_name)),
        now,
    ));
}
