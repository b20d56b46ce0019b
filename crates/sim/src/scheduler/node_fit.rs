//! The scheduler's node filters that look at the Node object (`docs/kubelet-references.md`
//! §Scheduling), in kube-scheduler's default Filter order, the first failing one giving the
//! reason (`pkg/scheduler/framework/runtime/framework.go` stops at the first rejection):
//!
//! 1. `NodeUnschedulable` (`pkg/scheduler/framework/plugins/nodeunschedulable`): a cordoned
//!    node (`spec.unschedulable: true`) rejects a pod that does not tolerate the
//!    `node.kubernetes.io/unschedulable:NoSchedule` taint — `node(s) were unschedulable`.
//! 2. `TaintToleration` (`pkg/scheduler/framework/plugins/tainttoleration`): the first
//!    `NoSchedule` or `NoExecute` taint no toleration of the pod matches —
//!    `node(s) had untolerated taint {KEY: VALUE}`.
//! 3. `NodeAffinity` (`pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go`): every
//!    `spec.nodeSelector` pair must be a label of the node, and when
//!    `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution` is set one of its
//!    `nodeSelectorTerms` must match (terms are ORed, a term's requirements ANDed; an empty
//!    term matches nothing) — `node(s) didn't match Pod's node affinity/selector`.
//!
//! All three are `UnschedulableAndUnresolvable`, so the preemption part of the message is
//! `1 Preemption is not helpful for scheduling.`

use k8s_openapi::api::core::v1::{
    Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, Taint, Toleration,
};

/// `NodeUnschedulable`'s reason.
pub const REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// `NodeAffinity`'s reason (`ErrReasonPod`).
pub const REASON_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";

/// The first filter's reason why `pod` cannot run on `node` (without the count and the
/// `0/N nodes` frame), `None` when the node fits.
pub fn reason(pod: &Pod, node: &Node) -> Option<String> {
    let spec = pod.spec.as_ref()?;
    let tolerations = spec.tolerations.as_deref().unwrap_or(&[]);
    let node_spec = node.spec.as_ref();
    if node_spec.and_then(|s| s.unschedulable) == Some(true) {
        let cordon = Taint {
            key: "node.kubernetes.io/unschedulable".into(),
            effect: "NoSchedule".into(),
            ..Default::default()
        };
        if !tolerations.iter().any(|t| tolerates(t, &cordon)) {
            return Some(REASON_UNSCHEDULABLE.into());
        }
    }
    let taints = node_spec.and_then(|s| s.taints.as_deref()).unwrap_or(&[]);
    if let Some(t) = taints.iter().find(|t| {
        (t.effect == "NoSchedule" || t.effect == "NoExecute")
            && !tolerations.iter().any(|tol| tolerates(tol, t))
    }) {
        return Some(format!(
            "node(s) had untolerated taint {{{}: {}}}",
            t.key,
            t.value.as_deref().unwrap_or("")
        ));
    }
    (!matches_affinity(pod, node)).then(|| REASON_AFFINITY.into())
}

/// Whether toleration `t` tolerates `taint` (`Toleration.ToleratesTaint` in
/// `staging/src/k8s.io/api/core/v1/toleration.go`): an empty effect matches every effect, an
/// empty key with `Exists` every key; `Exists` ignores the value, `Equal` (or no operator)
/// compares it.
pub fn tolerates(t: &Toleration, taint: &Taint) -> bool {
    let effect = t.effect.as_deref().unwrap_or("");
    if !effect.is_empty() && effect != taint.effect {
        return false;
    }
    let key = t.key.as_deref().unwrap_or("");
    let op = t.operator.as_deref().unwrap_or("Equal");
    if !key.is_empty() && key != taint.key {
        return false;
    }
    match op {
        "Exists" => true,
        "Equal" | "" => t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        _ => false,
    }
}

fn matches_affinity(pod: &Pod, node: &Node) -> bool {
    let Some(spec) = pod.spec.as_ref() else {
        return true;
    };
    let labels = node.metadata.labels.clone().unwrap_or_default();
    let selector_ok = spec
        .node_selector
        .iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v));
    if !selector_ok {
        return false;
    }
    let required = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        });
    match required {
        None => true,
        Some(sel) => sel
            .node_selector_terms
            .iter()
            .any(|term| term_matches(term, node, &labels)),
    }
}

fn term_matches(
    term: &NodeSelectorTerm,
    node: &Node,
    labels: &std::collections::BTreeMap<String, String>,
) -> bool {
    let exprs = term.match_expressions.as_deref().unwrap_or(&[]);
    let fields = term.match_fields.as_deref().unwrap_or(&[]);
    if exprs.is_empty() && fields.is_empty() {
        return false;
    }
    let name = node.metadata.name.clone().unwrap_or_default();
    exprs
        .iter()
        .all(|r| requirement_matches(r, labels.get(&r.key).map(String::as_str)))
        && fields.iter().all(|r| {
            let value = (r.key == "metadata.name").then_some(name.as_str());
            requirement_matches(r, value)
        })
}

/// One `NodeSelectorRequirement` against the value of its key (`None`: the node lacks the
/// label); `Gt`/`Lt` compare both sides as integers and fail when either is not one
/// (`staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity`).
fn requirement_matches(r: &NodeSelectorRequirement, value: Option<&str>) -> bool {
    let values = r.values.as_deref().unwrap_or(&[]);
    match r.operator.as_str() {
        "In" => value.is_some_and(|v| values.iter().any(|x| x == v)),
        "NotIn" => !value.is_some_and(|v| values.iter().any(|x| x == v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" | "Lt" => {
            let (Some(v), [bound]) = (value, values) else {
                return false;
            };
            match (v.parse::<i64>(), bound.parse::<i64>()) {
                (Ok(v), Ok(b)) if r.operator == "Gt" => v > b,
                (Ok(v), Ok(b)) => v < b,
                _ => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(spec: serde_json::Value) -> Pod {
        serde_json::from_value(serde_json::json!({"metadata": {"name": "p"}, "spec": spec}))
            .expect("pod")
    }

    fn node(v: serde_json::Value) -> Node {
        serde_json::from_value(v).expect("node")
    }

    #[test]
    fn selector_affinity_and_taints() {
        let n = node(serde_json::json!({
            "metadata": {"name": "sim-node-1", "labels": {"zone": "a", "cores": "8"}}
        }));
        let base = serde_json::json!({"containers": [{"name": "c", "image": "i"}]});
        assert_eq!(reason(&pod(base.clone()), &n), None);
        let mut s = base.clone();
        s["nodeSelector"] = serde_json::json!({"disktype": "ssd"});
        assert_eq!(reason(&pod(s), &n).as_deref(), Some(REASON_AFFINITY));
        let term = |e: serde_json::Value| {
            let mut s = base.clone();
            s["affinity"] = serde_json::json!({"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{"matchExpressions": [e]}]}}});
            reason(&pod(s), &n)
        };
        let expr =
            |op: &str, v: &[&str]| serde_json::json!({"key": "cores", "operator": op, "values": v});
        assert_eq!(term(expr("Gt", &["4"])), None);
        assert_eq!(term(expr("Lt", &["4"])).as_deref(), Some(REASON_AFFINITY));
        assert_eq!(term(expr("In", &["8", "16"])), None);
        assert_eq!(
            term(expr("NotIn", &["8"])).as_deref(),
            Some(REASON_AFFINITY)
        );
        assert_eq!(term(expr("Exists", &[])), None);
        assert_eq!(
            term(expr("DoesNotExist", &[])).as_deref(),
            Some(REASON_AFFINITY)
        );
        let tainted = node(serde_json::json!({
            "metadata": {"name": "sim-node-1"},
            "spec": {"taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]}
        }));
        assert_eq!(
            reason(&pod(base.clone()), &tainted).as_deref(),
            Some("node(s) had untolerated taint {dedicated: gpu}")
        );
        let mut s = base;
        s["tolerations"] = serde_json::json!([{"key": "dedicated", "operator": "Exists"}]);
        assert_eq!(reason(&pod(s), &tainted), None);
    }
}
