//! What the pod's node says, when podscope watches it (`Inputs::node`, `docs/nodes.md`).
//!
//! - Rule `node-not-ready`: the pod is not ready and its node's `Ready` condition is not
//!   `True`, and the pod itself shows none of the lost-node signs ([`super::pod_level`]'s
//!   `node-lost` did not fire): the node is the cause. A kubelet that posts `Ready=False`
//!   (`KubeletNotReady`, e.g. the container runtime's network not ready) stops starting and
//!   probing containers; `Ready=Unknown` (`NodeStatusUnknown`, "Kubelet stopped posting node
//!   status.", from the node lifecycle controller in
//!   `pkg/controller/nodelifecycle/node_lifecycle_controller.go`) means nobody knows.
//! - An `evicted` finding gains the node's pressure conditions (`MemoryPressure=True
//!   KubeletHasInsufficientMemory`, set by the kubelet's eviction manager when a signal crosses
//!   its threshold) and a `node-lost` finding the node's own `Ready` message and taints.

use super::facts::clock;
use super::{Finding, Inputs, Severity};
use crate::duration::human_duration;
use crate::node::{NodeCondition, NodeSummary};

/// `Ready=Unknown (NodeStatusUnknown) since 14:02:10 (2m ago): "Kubelet stopped posting node
/// status."`.
fn condition_line(c: &NodeCondition, inp: &Inputs<'_>) -> String {
    let mut s = format!("{}={}", c.type_, c.status);
    if !c.reason.is_empty() {
        s.push_str(&format!(" ({})", c.reason));
    }
    if let Some(t) = c.last_transition_time {
        s.push_str(&format!(
            " since {} ({} ago)",
            clock(t, inp.now),
            human_duration(inp.now.duration_since(t))
        ));
    }
    if !c.message.is_empty() {
        s.push_str(&format!(": \"{}\"", c.message));
    }
    s
}

/// The node the pod is on, when it is the one watched.
fn pods_node<'a>(inp: &Inputs<'a>) -> Option<&'a NodeSummary> {
    inp.node
        .filter(|n| inp.pod.node.as_deref() == Some(n.name.as_str()))
}

/// Adds the node's facts to the findings already made, and `node-not-ready` when the node
/// explains a pod that is not ready.
pub(super) fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    let Some(node) = pods_node(inp) else {
        return;
    };
    let name = &node.name;
    if let Some(f) = out.iter_mut().find(|f| f.rule == "evicted") {
        for c in node.under_pressure() {
            f.evidence
                .push(format!("Node {name} now: {}", condition_line(c, inp)));
        }
    }
    if let Some(f) = out.iter_mut().find(|f| f.rule == "node-lost") {
        if let Some(c) = node.ready_condition() {
            f.evidence
                .push(format!("Node {name} now: {}", condition_line(c, inp)));
        }
        if !node.taints.is_empty() {
            f.evidence
                .push(format!("Node {name} taints: {}", node.taints.join(", ")));
        }
        return;
    }
    // Only a pod whose own `Ready` condition says it is not ready (not one without conditions).
    let pod_ready = inp
        .pod
        .conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .is_none_or(|c| c.status == "True");
    let finished = matches!(inp.pod.phase.as_str(), "Succeeded" | "Failed");
    let Some(ready) = node.ready_condition().filter(|c| c.status != "True") else {
        return;
    };
    if pod_ready || finished || inp.pod.deletion_timestamp.is_some() {
        return;
    }
    let why = if ready.message.is_empty() {
        ready.reason.clone()
    } else {
        ready.message.clone()
    };
    let mut f = Finding::new(
        "node-not-ready",
        Severity::Error,
        None,
        format!(
            "node {name} is NotReady ({why}): the pod cannot become ready while its node is not"
        ),
    )
    .with(format!("Node {name}: {}", condition_line(ready, inp)));
    for c in node.pressures() {
        f.evidence
            .push(format!("Node {name}: {}", condition_line(c, inp)));
    }
    if !node.taints.is_empty() {
        f.evidence.push(format!(
            "Node {name} taints: {} (a NoExecute taint deletes pods that do not tolerate it)",
            node.taints.join(", ")
        ));
    }
    out.push(f.action(format!(
        "kubectl describe node {name} (conditions, events); on the machine: the kubelet's log (journalctl -u kubelet) and the container runtime"
    )));
}
