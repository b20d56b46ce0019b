//! The shown pod's siblings: `[` / `]` move to the previous / next pod of the workload in the
//! choice order (most trouble first, wrapping around), `P` lists the workload's pods in the
//! switcher without any request (the rows come from the pod watch), and Enter there moves to the
//! highlighted pod as a sibling (the forwards kept, like a replacement).

use super::follow::{Why, to_pod};
use crate::app::Cmd;
use crate::app::overlay::Overlay;
use crate::app::state::State;
use crate::app::switcher::PodChoice;
use crate::model::workload::WorkloadPod;

/// `]` (`forward`) or `[`: the next or previous pod of the workload after the shown one, in the
/// choice order, wrapping around; nothing without a workload or with one pod.
pub fn step(state: &mut State, forward: bool) -> Vec<Cmd> {
    let Some(view) = &state.workload else {
        return Vec::new();
    };
    // A pod being deleted is never moved to (it is going away).
    let names: Vec<&str> = view
        .pods
        .iter()
        .filter(|p| p.pod.deletion_timestamp.is_none() || p.pod.name == state.target.name)
        .map(|p| p.pod.name.as_str())
        .collect();
    if names.is_empty() {
        return Vec::new();
    }
    let n = names.len();
    let next = match names.iter().position(|&p| p == state.target.name) {
        Some(i) if forward => (i + 1) % n,
        Some(i) => (i + n - 1) % n,
        None if forward => 0,
        None => n - 1,
    };
    let name = names[next].to_owned();
    if name == state.target.name {
        return Vec::new();
    }
    to_pod(state, &name, Why::ByHand)
}

/// The switcher row of a workload pod: NAME READY STATUS RESTARTS AGE from the printer.
#[must_use]
pub fn choice_of(pod: &WorkloadPod) -> PodChoice {
    let mut choice = PodChoice::named(&pod.pod.namespace, &pod.pod.name);
    choice.print = pod.pod.print.clone();
    choice.created = pod.created.or(pod.pod.creation_timestamp);
    choice.node.clone_from(&pod.pod.node);
    choice.trouble = crate::model::workload::choice::trouble(&pod.pod);
    choice
}

/// `P` with a workload followed: the switcher filled with its pods in the choice order
/// (not loading, nothing asked), the shown pod highlighted.
pub fn open(state: &mut State) -> Vec<Cmd> {
    let Some(view) = &state.workload else {
        return Vec::new();
    };
    let rows: Vec<PodChoice> = view.pods.iter().map(choice_of).collect();
    crate::app::switcher::open_rows(state, rows);
    Vec::new()
}

/// Whether Enter in the open switcher picks one of the workload's pods (then [`pick_selected`]
/// moves to it as a sibling instead of a plain switch).
#[must_use]
pub fn picks_sibling(state: &State) -> bool {
    let (Some(view), Some(sw)) = (&state.workload, state.overlay.switcher()) else {
        return false;
    };
    sw.picker
        .selected_row()
        .is_some_and(|r| r.namespace == view.namespace && view.pod(&r.name).is_some())
}

/// Enter on a workload pod in the switcher: closes it and moves there by hand (the shown pod
/// itself: only closes).
pub fn pick_selected(state: &mut State) -> Vec<Cmd> {
    let name = state
        .overlay
        .switcher()
        .and_then(|sw| sw.picker.selected_row())
        .map(|r| r.name.clone());
    state.overlay = Overlay::None;
    state.dirty = true;
    match name {
        Some(name) if name != state.target.name => to_pod(state, &name, Why::ByHand),
        _ => Vec::new(),
    }
}
