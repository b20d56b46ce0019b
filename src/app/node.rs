//! The pod's node: one watch of the Node named by `spec.nodeName`, started when the pod names a
//! node (and again if it names another), and what it said (`docs/nodes.md`).
//!
//! - A pod with `spec.nodeName` not yet watched → `Cmd::WatchNode{name}`; its answers arrive as
//!   `Msg::NodeApplied` / `Msg::NodeGone` / `Msg::NodeRefused`, stamped with the target's
//!   generation (a re-created or switched-to pod starts over with a new target).
//! - The watch stands in for the diagnosis' one GET of the node (`Cmd::Lookup(Node)`): while it
//!   runs, the lookup is marked asked and each sighting is stored as the node's answer in
//!   `Target::related`, so the engine reads the live conditions without another request.
//! - A refusal (403) or an absent node (404) hides the header's node line; the reason goes to
//!   the log file only (`cluster::node_watch` logs it), and the diagnosis may then GET the
//!   node once as before.
//!
//! Pure, like `update`.

use super::Cmd;
use super::state::State;
use crate::model::diagnosis::{Lookup, ObjectRef};
use crate::model::node::NodeSummary;

/// What is known of the pod's node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeView {
    /// The node being watched (`spec.nodeName` when the watch was asked for).
    pub watching: Option<String>,
    /// The node as last seen; `None` before the first answer and after a refusal or deletion.
    pub summary: Option<NodeSummary>,
    /// The watch was refused or the node does not exist: no line is shown.
    pub hidden: bool,
}

impl NodeView {
    /// The node to show in the header: seen, not hidden.
    #[must_use]
    pub fn shown(&self) -> Option<&NodeSummary> {
        self.summary.as_ref().filter(|_| !self.hidden)
    }
}

/// After the pod changed: asks for the watch of its node when it names one not watched yet.
pub fn pod_changed(state: &mut State) -> Vec<Cmd> {
    let Some(node) = state.target.pod.as_ref().and_then(|p| p.node.clone()) else {
        return Vec::new();
    };
    if node.is_empty() || state.target.node.watching.as_deref() == Some(node.as_str()) {
        return Vec::new();
    }
    state.target.node = NodeView {
        watching: Some(node.clone()),
        summary: None,
        hidden: false,
    };
    // The watch answers what the diagnosis' GET of the node would.
    state
        .target
        .evidence
        .lookups
        .insert(ObjectRef::Node(node.clone()));
    vec![Cmd::WatchNode { name: node }]
}

/// The watch saw the node (listed, added or changed): shown, and stored as the diagnosis'
/// answer about it. A node of another name than the one watched is dropped.
pub fn applied(state: &mut State, node: NodeSummary) {
    if state.target.node.watching.as_deref() != Some(node.name.as_str()) {
        return;
    }
    let answer = Lookup::Found {
        keys: Vec::new(),
        phase: None,
        conditions: node.unhealthy(),
    };
    state
        .target
        .evidence
        .lookups
        .insert(ObjectRef::Node(node.name.clone()));
    state
        .target
        .related
        .insert(ObjectRef::Node(node.name.clone()), answer);
    state.target.node.hidden = false;
    state.target.node.summary = Some(node);
    state.dirty = true;
}

/// The watch found no node of that name (a list without it, or DELETED): the line is hidden and
/// the diagnosis told the node is absent.
pub fn gone(state: &mut State, name: &str) {
    if state.target.node.watching.as_deref() != Some(name) {
        return;
    }
    state.target.node.summary = None;
    state.target.node.hidden = true;
    state
        .target
        .related
        .insert(ObjectRef::Node(name.to_owned()), Lookup::Absent);
    state.dirty = true;
}

/// The watch was refused (RBAC): the line is hidden, nothing is said on screen; the diagnosis
/// may still GET the node once (it may be allowed where a watch is not).
pub fn refused(state: &mut State, name: &str) {
    if state.target.node.watching.as_deref() != Some(name) {
        return;
    }
    let was_shown = state.target.node.shown().is_some();
    state.target.node.summary = None;
    state.target.node.hidden = true;
    let node = ObjectRef::Node(name.to_owned());
    if !state.target.related.contains_key(&node) {
        state.target.evidence.lookups.remove(&node);
    }
    state.dirty |= was_shown;
}
