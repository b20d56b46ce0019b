//! The pod's node as podscope shows it: its `Ready` condition, the pressure conditions, whether it
//! is cordoned and its taints, built once per watch event from a k8s-openapi `Node`
//! (`docs/nodes.md`).
//!
//! kubectl's STATUS column for a node (`printNode` in `pkg/printers/internalversion/printers.go`)
//! reads only the `Ready` condition: `Ready` when it is `True`, `NotReady` for `False` or
//! `Unknown`, `Unknown` when the node has no `Ready` condition at all, then `,SchedulingDisabled`
//! when `spec.unschedulable` is set.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Node;

use super::sanitize::sanitize;

/// One entry of `status.conditions`, sanitised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeCondition {
    /// `type`: `Ready`, `MemoryPressure`, `DiskPressure`, `PIDPressure`, `NetworkUnavailable`, …
    pub type_: String,
    /// `status`: `True`, `False` or `Unknown`.
    pub status: String,
    /// `reason` (`KubeletReady`, `NodeStatusUnknown`, `KubeletHasInsufficientMemory`), may be empty.
    pub reason: String,
    /// `message` (`kubelet is posting ready status`), may be empty.
    pub message: String,
    /// `lastTransitionTime`: since when the condition has its status.
    pub last_transition_time: Option<Timestamp>,
    /// `lastHeartbeatTime`: when the kubelet (or the node lifecycle controller) last wrote it.
    pub last_heartbeat_time: Option<Timestamp>,
}

impl NodeCondition {
    /// Whether the condition is in its healthy state: `Ready=True`, every other condition
    /// (`MemoryPressure`, `DiskPressure`, `PIDPressure`, `NetworkUnavailable`) `False`.
    #[must_use]
    pub fn healthy(&self) -> bool {
        if self.type_ == "Ready" {
            self.status == "True"
        } else {
            self.status == "False"
        }
    }
}

/// What podscope knows of one Node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSummary {
    /// `metadata.name`.
    pub name: String,
    /// `status.conditions`, in the server's order.
    pub conditions: Vec<NodeCondition>,
    /// `spec.unschedulable` (`kubectl cordon`).
    pub unschedulable: bool,
    /// `spec.taints` as `key:effect` (`node.kubernetes.io/unreachable:NoExecute`).
    pub taints: Vec<String>,
}

impl NodeSummary {
    /// The summary of `node`; every string sanitised (it reaches the terminal).
    #[must_use]
    pub fn from_node(node: &Node) -> NodeSummary {
        let clean = |s: &Option<String>| sanitize(s.as_deref().unwrap_or("")).into_owned();
        let status = node.status.as_ref();
        let conditions = status
            .and_then(|s| s.conditions.as_ref())
            .map(|cs| {
                cs.iter()
                    .map(|c| NodeCondition {
                        type_: sanitize(&c.type_).into_owned(),
                        status: sanitize(&c.status).into_owned(),
                        reason: clean(&c.reason),
                        message: clean(&c.message),
                        last_transition_time: c.last_transition_time.as_ref().map(|t| t.0),
                        last_heartbeat_time: c.last_heartbeat_time.as_ref().map(|t| t.0),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let spec = node.spec.as_ref();
        NodeSummary {
            name: clean(&node.metadata.name),
            conditions,
            unschedulable: spec.and_then(|s| s.unschedulable).unwrap_or(false),
            taints: spec
                .and_then(|s| s.taints.as_ref())
                .map(|ts| {
                    ts.iter()
                        .map(|t| sanitize(&format!("{}:{}", t.key, t.effect)).into_owned())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// The `Ready` condition, if the node has one.
    #[must_use]
    pub fn ready_condition(&self) -> Option<&NodeCondition> {
        self.conditions.iter().find(|c| c.type_ == "Ready")
    }

    /// Whether `Ready` is `True`.
    #[must_use]
    pub fn is_ready(&self) -> bool {
        self.ready_condition().is_some_and(|c| c.status == "True")
    }

    /// kubectl's STATUS: `Ready`, `NotReady` or `Unknown` (no `Ready` condition), with
    /// `,SchedulingDisabled` when cordoned.
    #[must_use]
    pub fn status_text(&self) -> String {
        let ready = match self.ready_condition() {
            Some(c) if c.status == "True" => "Ready",
            Some(_) => "NotReady",
            None => "Unknown",
        };
        if self.unschedulable {
            format!("{ready},SchedulingDisabled")
        } else {
            ready.to_owned()
        }
    }

    /// The conditions other than `Ready` that are not `False` (`MemoryPressure=True`, or
    /// `Unknown` after the kubelet stopped posting), in the server's order.
    #[must_use]
    pub fn pressures(&self) -> Vec<&NodeCondition> {
        self.conditions
            .iter()
            .filter(|c| c.type_ != "Ready" && !c.healthy())
            .collect()
    }

    /// The pressure conditions that are `True` (`MemoryPressure`, `DiskPressure`, …).
    #[must_use]
    pub fn under_pressure(&self) -> Vec<&NodeCondition> {
        self.conditions
            .iter()
            .filter(|c| c.type_ != "Ready" && c.status == "True")
            .collect()
    }

    /// The conditions not in their healthy state as `Type=Status (reason)`, the shape of a
    /// Node's [`crate::diagnosis::Lookup::Found`] `conditions`.
    #[must_use]
    pub fn unhealthy(&self) -> Vec<String> {
        self.conditions
            .iter()
            .filter(|c| !c.healthy())
            .map(|c| {
                if c.reason.is_empty() {
                    format!("{}={}", c.type_, c.status)
                } else {
                    format!("{}={} ({})", c.type_, c.status, c.reason)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(v: serde_json::Value) -> NodeSummary {
        NodeSummary::from_node(&serde_json::from_value(v).expect("node"))
    }

    #[test]
    fn kubectl_status_from_the_ready_condition_and_cordon() {
        let ready = node(serde_json::json!({
            "metadata": {"name": "n1"},
            "status": {"conditions": [
                {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory"},
                {"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status"}
            ]}
        }));
        assert_eq!(ready.status_text(), "Ready");
        assert!(ready.is_ready());
        assert!(ready.pressures().is_empty());
        assert!(ready.unhealthy().is_empty());
        let lost = node(serde_json::json!({
            "metadata": {"name": "n1"},
            "spec": {"unschedulable": true, "taints": [{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}]},
            "status": {"conditions": [
                {"type": "MemoryPressure", "status": "Unknown", "reason": "NodeStatusUnknown"},
                {"type": "Ready", "status": "Unknown", "reason": "NodeStatusUnknown", "message": "Kubelet stopped posting node status."}
            ]}
        }));
        assert_eq!(lost.status_text(), "NotReady,SchedulingDisabled");
        assert_eq!(lost.taints, ["node.kubernetes.io/unreachable:NoExecute"]);
        assert_eq!(
            lost.unhealthy(),
            [
                "MemoryPressure=Unknown (NodeStatusUnknown)",
                "Ready=Unknown (NodeStatusUnknown)"
            ]
        );
        assert_eq!(lost.pressures().len(), 1);
        assert!(lost.under_pressure().is_empty());
        assert_eq!(
            node(serde_json::json!({"metadata": {"name": "n"}})).status_text(),
            "Unknown"
        );
    }
}
