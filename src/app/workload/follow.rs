//! Moving the view to another pod of the workload: the first pod that matches (nothing did at
//! start), the replacement of the shown pod once it is deleted, or a sibling chosen by hand. The
//! new pod gets a new [`Target`] under the next generation, like a re-created pod, keeping what
//! the person set up: the port-forwards (the session re-aims them at the new pod,
//! `Cmd::FollowPod`), the selected container by name and the log pane's settings, with a marker
//! line in the pane saying what happened.

use super::FollowMode;
use crate::app::Cmd;
use crate::app::state::{Connection, State};
use crate::app::target::Target;
use crate::model::sanitize::sanitize;
use crate::model::workload::{WorkloadPod, choice};
use crate::model::{LineKind, LogLine};

/// Why the view moves to another pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// Nothing matched at start; this is the first pod that does.
    FirstMatch,
    /// The shown pod (named) was deleted; this is its replacement.
    Replaced {
        /// The deleted pod's name.
        old: String,
    },
    /// The person chose it (`[`, `]`, `P`).
    ByHand,
}

/// After the workload's pods changed: when no pod was shown yet, the chosen one; when the shown
/// pod is gone (its watch saw it deleted, or the selector no longer matches it — a rollout
/// undo), its replacement.
pub fn settle(state: &mut State) -> Vec<Cmd> {
    let Some(view) = &state.workload else {
        return Vec::new();
    };
    if state.target.name.is_empty() {
        return match pick(state, None) {
            Some(name) => to_pod(state, &name, Why::FirstMatch),
            None => Vec::new(),
        };
    }
    let deleted = matches!(state.target.connection, Connection::Deleted { .. });
    let unmatched = view.listed && view.pod(&state.target.name).is_none();
    if deleted || (unmatched && view.mode == FollowMode::Auto && state.target.pod.is_some()) {
        return shown_gone(state);
    }
    Vec::new()
}

/// The shown pod was deleted: switch to its replacement ([`FollowMode::Auto`]) or offer it
/// ([`FollowMode::Offer`]); nothing while no live pod is left (the next sighting settles it).
pub fn shown_gone(state: &mut State) -> Vec<Cmd> {
    let old = state.target.name.clone();
    let hash = state
        .workload
        .as_ref()
        .filter(|v| v.by_hand)
        .and_then(|v| v.pod(&old))
        .and_then(|p| p.hash.clone());
    let Some(name) = pick(state, hash.as_deref()) else {
        return Vec::new();
    };
    let Some(view) = state.workload.as_mut() else {
        return Vec::new();
    };
    match view.mode {
        FollowMode::Auto => to_pod(state, &name, Why::Replaced { old }),
        FollowMode::Offer => {
            if view.offer.as_deref() != Some(name.as_str()) {
                view.offer = Some(name);
                state.dirty = true;
            }
            Vec::new()
        }
    }
}

/// The pod to show among the workload's live pods (not the shown one, none being deleted):
/// `choice::choose` over those of the ReplicaSet `hash` when it has any, else over all.
fn pick(state: &State, hash: Option<&str>) -> Option<String> {
    let view = state.workload.as_ref()?;
    let live: Vec<WorkloadPod> = view
        .pods
        .iter()
        .filter(|p| p.pod.name != state.target.name && p.pod.deletion_timestamp.is_none())
        .cloned()
        .collect();
    let same: Vec<WorkloadPod> = live
        .iter()
        .filter(|p| hash.is_some() && p.hash.as_deref() == hash)
        .cloned()
        .collect();
    let among = if same.is_empty() { live } else { same };
    let i = choice::choose(&among, view.summary.as_ref())?;
    among.get(i).map(|p| p.pod.name.clone())
}

/// `R`: follows the offered replacement (nothing when none is offered).
pub fn take_offer(state: &mut State) -> Vec<Cmd> {
    let Some(name) = state.workload.as_mut().and_then(|v| v.offer.take()) else {
        return Vec::new();
    };
    let old = state.target.name.clone();
    to_pod(state, &name, Why::Replaced { old })
}

/// The marker line for a move: `── pod web-7d9f8c6b5-x2k9q deleted; following its replacement
/// web-7d9f8c6b5-q8m4t (ReplicaSet web-7d9f8c6b5) ──`; `None` for a move by hand or a first
/// match (nothing was shown before).
#[must_use]
pub fn marker_text(why: &Why, new: &str, owner: Option<&crate::model::OwnerRef>) -> Option<String> {
    let Why::Replaced { old } = why else {
        return None;
    };
    let by = owner.map_or_else(String::new, |o| format!(" ({} {})", o.kind, o.name));
    Some(format!(
        "── pod {old} deleted; following its replacement {new}{by} ──"
    ))
}

/// Where the marker goes in time: before the first line the new pod can have written (its
/// creation) and no later than the deletion request of the pod shown, else `now`.
fn marker_time(state: &State, name: &str) -> jiff::Timestamp {
    let requested = state
        .target
        .pod
        .as_ref()
        .and_then(crate::model::PodSummary::deletion_requested_at);
    let created = state
        .workload
        .as_ref()
        .and_then(|v| v.pod(name))
        .and_then(|p| p.created);
    [requested, created]
        .into_iter()
        .flatten()
        .chain(std::iter::once(state.now))
        .min()
        .unwrap_or(state.now)
}

/// Aims the view at the workload's pod `name`: a new target under the next generation keeping
/// the forwards, the focus, the log pane's settings (and its markers) and the selected
/// container by name; the marker line and a notice; `Cmd::FollowPod`.
pub fn to_pod(state: &mut State, name: &str, why: Why) -> Vec<Cmd> {
    let owner = state
        .workload
        .as_ref()
        .and_then(|v| v.pod(name))
        .and_then(|p| p.pod.owner.clone());
    let container = state.selected_container().map(|c| c.name.clone());
    let at = marker_time(state, name);
    let generation = state.generations.allocate();
    let namespace = state.target.namespace.clone();
    state.target = Target::replacement(&state.target, generation, name);
    state.target.preferred_container = container;
    if let Some(view) = state.workload.as_mut() {
        view.offer = None;
        // A replacement of a pod chosen by hand is still the person's choice.
        match why {
            Why::ByHand => view.by_hand = true,
            Why::FirstMatch => view.by_hand = false,
            Why::Replaced { .. } => {}
        }
    }
    let text = marker_text(&why, name, owner.as_ref()).map(|t| sanitize(&t).into_owned());
    if let Some(text) = &text {
        let line = LogLine::note("", 0, Some(at), LineKind::Marker, text);
        state.target.logs.carry(line);
    }
    let notice = match &why {
        Why::Replaced { old } => format!(
            "pod {} deleted; following its replacement {}",
            sanitize(old),
            sanitize(name)
        ),
        Why::FirstMatch => format!("pod {} matches the selector", sanitize(name)),
        Why::ByHand => format!("showing pod {}", sanitize(name)),
    };
    crate::app::notice::post(state, notice);
    state.dirty = true;
    vec![Cmd::FollowPod {
        namespace,
        name: name.to_owned(),
        generation,
    }]
}
