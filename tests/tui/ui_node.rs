//! The header's node line: `node NAME  Ready`, a NotReady node in red with its reason and how
//! long, pressure conditions in yellow; nothing before the watch answered or after a refusal.

use crate::common;
use common::{container, pod, render, rows, state, t0};
use podscope::app::{Msg, State, update};
use podscope::model::ContainerKind;
use podscope::model::node::NodeSummary;
use ratatui::style::Color;
use serde_json::{Value, json};

fn summary(conditions: Value, spec: Value) -> NodeSummary {
    let n: k8s_openapi::api::core::v1::Node = serde_json::from_value(json!({
        "metadata": {"name": "node-1"}, "spec": spec, "status": {"conditions": conditions}
    }))
    .expect("node json");
    NodeSummary::from_node(&n)
}

fn since(secs: i64) -> String {
    (t0() - jiff::SignedDuration::from_secs(secs)).to_string()
}

fn with_node(node: Option<NodeSummary>) -> State {
    with_pod_ready(node, "True")
}

/// The pod `default/web` on `node-1` with its `Ready` condition `ready`, then the node's answer.
fn with_pod_ready(node: Option<NodeSummary>, ready: &str) -> State {
    let mut s = state();
    let mut p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    p.conditions = vec![podscope::model::ConditionSummary {
        type_: "Ready".to_owned(),
        status: ready.to_owned(),
        reason: String::new(),
        message: String::new(),
        last_transition_time: Some(t0() - jiff::SignedDuration::from_secs(100)),
    }];
    update(&mut s, Msg::PodApplied(Box::new(p)));
    if let Some(n) = node {
        update(&mut s, Msg::NodeApplied(Box::new(n)));
    }
    s
}

fn node_row(s: &State) -> Option<String> {
    rows(&render(s, 80, 24))
        .into_iter()
        .take(5)
        .find(|r| r.starts_with("node "))
}

#[test]
fn no_line_until_the_watch_answers() {
    let s = with_node(None);
    assert_eq!(node_row(&s), None);
    // The placement keeps naming the node meanwhile.
    assert!(rows(&render(&s, 80, 24))[2].contains("node node-1"));
}

#[test]
fn ready_node() {
    let s = with_node(Some(summary(
        json!([{"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status"}]),
        json!({}),
    )));
    assert_eq!(
        node_row(&s).as_deref().map(str::trim_end),
        Some("node node-1  Ready")
    );
}

fn node_y(backend: &ratatui::backend::TestBackend) -> u16 {
    rows(backend)
        .iter()
        .position(|r| r.starts_with("node "))
        .and_then(|y| u16::try_from(y).ok())
        .expect("node row")
}

#[test]
fn not_ready_node_in_red_with_reason_and_age() {
    let s = with_pod_ready(
        Some(summary(
            json!([
                {"type": "MemoryPressure", "status": "Unknown", "reason": "NodeStatusUnknown", "lastTransitionTime": since(130)},
                {"type": "Ready", "status": "Unknown", "reason": "NodeStatusUnknown", "message": "Kubelet stopped posting node status.", "lastTransitionTime": since(130)}
            ]),
            json!({"taints": [{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}]}),
        )),
        "False",
    );
    let backend = render(&s, 80, 24);
    assert_eq!(
        node_row(&s).as_deref().map(str::trim_end),
        Some("node node-1  NotReady (Kubelet stopped posting node status.) 2m10s")
    );
    let y = node_y(&backend);
    assert_eq!(
        backend.buffer()[(14, y)].fg,
        Color::Red,
        "NotReady in the error style"
    );
    // The pod's placement no longer repeats the node.
    assert!(
        !rows(&backend)[2].contains("node node-1"),
        "{}",
        rows(&backend)[2]
    );
    insta::assert_snapshot!("node-not-ready@80x24", backend);
}

#[test]
fn pressure_and_cordon_in_the_warning_style() {
    let s = with_node(Some(summary(
        json!([
            {"type": "MemoryPressure", "status": "True", "reason": "KubeletHasInsufficientMemory", "lastTransitionTime": since(60)},
            {"type": "DiskPressure", "status": "False", "reason": "KubeletHasNoDiskPressure"},
            {"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status"}
        ]),
        json!({"unschedulable": true}),
    )));
    let backend = render(&s, 80, 24);
    assert_eq!(
        node_row(&s).as_deref().map(str::trim_end),
        Some("node node-1  Ready · MemoryPressure · SchedulingDisabled")
    );
    let y = node_y(&backend);
    let warn = podscope::ui::theme::Theme::colored().warn.fg;
    assert_eq!(backend.buffer()[(13, y)].fg, Color::Green);
    assert_eq!(Some(backend.buffer()[(22, y)].fg), warn);
}

#[test]
fn a_refusal_hides_the_line() {
    let mut s = with_node(Some(summary(
        json!([{"type": "Ready", "status": "True"}]),
        json!({}),
    )));
    update(
        &mut s,
        Msg::NodeRefused {
            name: "node-1".into(),
            reason: "forbidden".into(),
        },
    );
    assert_eq!(node_row(&s), None);
}
