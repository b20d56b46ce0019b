//! `update` scripts for the pod's node: one `Cmd::WatchNode` when the pod names its node, the
//! watch's answers in `state.target.node` (and as the diagnosis' answer about the node, so no
//! extra GET), a NotReady node diagnosed as the cause of a pod that is not ready, a refusal
//! hiding the line.

use crate::common;
use common::{container, pod, state, t0};
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::diagnosis::{Lookup, ObjectRef};
use podscope::model::node::NodeSummary;
use podscope::model::{ConditionSummary, ContainerKind, PodSummary};
use serde_json::json;

/// A node summary built from a Node's JSON as the API server serves it.
fn node(ready: &str, reason: &str, message: &str) -> NodeSummary {
    let n: k8s_openapi::api::core::v1::Node = serde_json::from_value(json!({
        "metadata": {"name": "node-1"},
        "status": {"conditions": [
            {"type": "MemoryPressure", "status": if ready == "Unknown" { "Unknown" } else { "False" },
             "reason": if ready == "Unknown" { "NodeStatusUnknown" } else { "KubeletHasSufficientMemory" }},
            {"type": "Ready", "status": ready, "reason": reason, "message": message,
             "lastTransitionTime": (t0() - jiff::SignedDuration::from_secs(120)).to_string()}
        ]}
    }))
    .expect("node json");
    NodeSummary::from_node(&n)
}

fn not_ready_pod() -> PodSummary {
    let mut p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    p.conditions = vec![ConditionSummary {
        type_: "Ready".to_owned(),
        status: "False".to_owned(),
        reason: String::new(),
        message: String::new(),
        last_transition_time: Some(t0() - jiff::SignedDuration::from_secs(100)),
    }];
    p
}

fn node_watches(cmds: &[Cmd]) -> Vec<String> {
    cmds.iter()
        .filter_map(|c| match c {
            Cmd::WatchNode { name } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

fn applied_pod(s: &mut State, p: PodSummary) -> Vec<Cmd> {
    update(s, Msg::PodApplied(Box::new(p)))
}

#[test]
fn the_node_is_watched_once_and_its_answer_feeds_the_diagnosis() {
    let mut s = state();
    let p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    assert_eq!(node_watches(&applied_pod(&mut s, p.clone())), ["node-1"]);
    assert!(
        node_watches(&applied_pod(&mut s, p)).is_empty(),
        "one watch per node"
    );
    update(
        &mut s,
        Msg::NodeApplied(Box::new(node(
            "True",
            "KubeletReady",
            "kubelet is posting ready status",
        ))),
    );
    let shown = s.target.node.shown().expect("node shown");
    assert_eq!(shown.status_text(), "Ready");
    assert_eq!(
        s.target.related.get(&ObjectRef::Node("node-1".into())),
        Some(&Lookup::Found {
            keys: vec![],
            phase: None,
            conditions: vec![]
        })
    );
    // A node of another name (an old watch's message) is dropped.
    let mut other = node("False", "KubeletNotReady", "x");
    other.name = "node-9".into();
    update(&mut s, Msg::NodeApplied(Box::new(other)));
    assert_eq!(
        s.target.node.shown().map(|n| n.name.as_str()),
        Some("node-1")
    );
}

#[test]
fn a_not_ready_node_is_the_cause_of_a_pod_that_is_not_ready() {
    let mut s = state();
    applied_pod(&mut s, not_ready_pod());
    let cmds = update(
        &mut s,
        Msg::NodeApplied(Box::new(node(
            "False",
            "KubeletNotReady",
            "container runtime network not ready: NetworkReady=false",
        ))),
    );
    // The watch answered for the node: the diagnosis does not GET it again.
    assert!(
        !cmds
            .iter()
            .any(|c| matches!(c, Cmd::Lookup(ObjectRef::Node(_)))),
        "{cmds:?}"
    );
    let f = s
        .target
        .diagnosis
        .iter()
        .find(|f| f.rule == "node-not-ready")
        .unwrap_or_else(|| panic!("{:#?}", s.target.diagnosis));
    assert_eq!(
        f.headline,
        "node node-1 is NotReady (container runtime network not ready: NetworkReady=false): the pod cannot become ready while its node is not"
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e.contains("Ready=False (KubeletNotReady) since 07:18:15 (2m ago)")),
        "{:?}",
        f.evidence
    );
    assert!(
        f.action
            .as_deref()
            .unwrap_or("")
            .contains("kubectl describe node node-1")
    );
}

#[test]
fn a_lost_node_adds_its_own_words_to_the_node_lost_finding() {
    let mut s = state();
    let mut p = not_ready_pod();
    p.conditions[0].status = "Unknown".into();
    applied_pod(&mut s, p);
    update(
        &mut s,
        Msg::NodeApplied(Box::new(node(
            "Unknown",
            "NodeStatusUnknown",
            "Kubelet stopped posting node status.",
        ))),
    );
    let f = &s.target.diagnosis[0];
    assert_eq!(f.rule, "node-lost", "{:#?}", s.target.diagnosis);
    let said = f.evidence.join("\n");
    assert!(
        said.contains("Node node-1: exists, conditions: MemoryPressure=Unknown (NodeStatusUnknown), Ready=Unknown (NodeStatusUnknown)"),
        "{said}"
    );
    assert!(
        said.contains("Node node-1 now: Ready=Unknown (NodeStatusUnknown) since 07:18:15 (2m ago): \"Kubelet stopped posting node status.\""),
        "{said}"
    );
    assert!(
        !s.target
            .diagnosis
            .iter()
            .any(|f| f.rule == "node-not-ready")
    );
}

#[test]
fn a_refused_watch_hides_the_line_and_lets_the_diagnosis_ask_once() {
    let mut s = state();
    applied_pod(&mut s, not_ready_pod());
    update(
        &mut s,
        Msg::NodeApplied(Box::new(node("True", "KubeletReady", ""))),
    );
    assert!(s.target.node.shown().is_some());
    update(
        &mut s,
        Msg::NodeRefused {
            name: "node-1".into(),
            reason: "nodes \"node-1\" is forbidden".into(),
        },
    );
    assert!(s.target.node.shown().is_none());
    assert!(s.target.node.hidden);
    // Nothing of the refusal on screen.
    let screen = common::text(&common::render(&s, 80, 24));
    assert!(!screen.contains("forbidden"), "{screen}");
    update(&mut s, Msg::NodeGone("node-1".into()));
    assert_eq!(
        s.target.related.get(&ObjectRef::Node("node-1".into())),
        Some(&Lookup::Absent)
    );
}

#[test]
fn a_pod_without_a_node_watches_none() {
    let mut s = state();
    let mut p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    p.node = None;
    assert!(node_watches(&applied_pod(&mut s, p)).is_empty());
}
