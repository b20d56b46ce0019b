//! The pod view's focus: which pane ↑/↓ act on — the container list, or the events pane (Tab,
//! as the log pane takes it when shown) where they select an event shown in full — and the
//! diagnosis expanded over the pod view (Enter, [`Overlay::Diagnosis`]) with its scroll.

use super::keymap::Action;
use super::overlay::Overlay;
use super::state::State;

/// Focus state of the pod view.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Focus {
    /// The events pane has focus (ignored while the log pane is shown: events are hidden then).
    pub events: bool,
    /// The selected event's `uid`, so the selection stays on it as newer events arrive.
    pub event_uid: Option<String>,
    /// The selected event's index when it was selected: the fallback once that event is gone.
    pub event_index: usize,
}

/// The index in `state.target.events` of the selected event: the remembered one while it exists, else
/// the remembered position within the list; `None` without events.
#[must_use]
pub fn selected_event(state: &State) -> Option<usize> {
    let last = state.target.events.len().checked_sub(1)?;
    let by_uid = state
        .target
        .focus
        .event_uid
        .as_deref()
        .and_then(|uid| state.target.events.iter().position(|e| e.uid == uid));
    Some(by_uid.unwrap_or(state.target.focus.event_index.min(last)))
}

/// Applies a diagnosis or events action (see [`crate::app::keymap::KEYMAP`]).
pub fn apply(state: &mut State, action: Action) {
    let before = (state.target.focus.clone(), state.overlay.clone());
    match action {
        // Under help, the diagnosis expands (or closes) beneath it.
        Action::ExpandDiagnosis | Action::CloseDiagnosis => {
            let open = (action == Action::ExpandDiagnosis).then_some(0);
            match &mut state.overlay {
                Overlay::Help { over_diagnosis, .. } => *over_diagnosis = open,
                overlay => {
                    *overlay = open.map_or(Overlay::None, |scroll| Overlay::Diagnosis { scroll })
                }
            }
        }
        Action::DiagnosisUp
        | Action::DiagnosisDown
        | Action::DiagnosisPageUp
        | Action::DiagnosisPageDown => scroll(state, action),
        Action::FocusEvents => {
            state.target.focus.events = true;
            let at = selected_event(state).unwrap_or(0);
            select_event(state, at);
        }
        Action::FocusContainers => state.target.focus.events = false,
        Action::EventNext | Action::EventPrev => {
            let last = state.target.events.len().saturating_sub(1);
            let at = selected_event(state).unwrap_or(0);
            let to = if action == Action::EventNext {
                (at + 1).min(last)
            } else {
                at.saturating_sub(1)
            };
            select_event(state, to);
        }
        _ => {}
    }
    state.dirty |= before != (state.target.focus.clone(), state.overlay.clone());
}

/// Selects event `index` (remembering its uid when it exists).
fn select_event(state: &mut State, index: usize) {
    state.target.focus.event_index = index;
    state.target.focus.event_uid = state.target.events.get(index).map(|e| e.uid.clone());
}

/// Scrolls the expanded diagnosis by a line or a page, within what the last draw measured
/// (`State::extents`).
fn scroll(state: &mut State, action: Action) {
    let max = state.extents.diagnosis_max_scroll;
    let page = state.extents.diagnosis_page.max(1);
    let Overlay::Diagnosis { scroll } = &mut state.overlay else {
        return;
    };
    let at = (*scroll).min(max);
    *scroll = match action {
        Action::DiagnosisUp => at.saturating_sub(1),
        Action::DiagnosisDown => at.saturating_add(1),
        Action::DiagnosisPageUp => at.saturating_sub(page),
        _ => at.saturating_add(page),
    }
    .min(max);
}
