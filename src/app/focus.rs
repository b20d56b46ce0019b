//! The pod view's focus: which pane ↑/↓ act on — the container list, or the events pane (Tab,
//! as the log pane takes it when shown) where they select an event shown in full — and the
//! diagnosis expanded over the pod view (Enter) with its scroll.

use super::keymap::Action;
use super::state::State;

/// Focus and expansion state of the pod view.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Focus {
    /// The events pane has focus (ignored while the log pane is shown: events are hidden then).
    pub events: bool,
    /// The selected event's `uid`, so the selection stays on it as newer events arrive.
    pub event_uid: Option<String>,
    /// The selected event's index when it was selected: the fallback once that event is gone.
    pub event_index: usize,
    /// The diagnosis is expanded over the pod view (every finding, evidence and hint).
    pub expanded: bool,
    /// First line of the expanded diagnosis in view; clamped to what the content hides.
    pub scroll: usize,
}

/// The index in `state.events` of the selected event: the remembered one while it exists, else
/// the remembered position within the list; `None` without events.
#[must_use]
pub fn selected_event(state: &State) -> Option<usize> {
    let last = state.events.len().checked_sub(1)?;
    let by_uid = state
        .focus
        .event_uid
        .as_deref()
        .and_then(|uid| state.events.iter().position(|e| e.uid == uid));
    Some(by_uid.unwrap_or(state.focus.event_index.min(last)))
}

/// Applies a diagnosis or events action (see [`crate::app::keymap::KEYMAP`]).
pub fn apply(state: &mut State, action: Action) {
    let before = state.focus.clone();
    match action {
        Action::ExpandDiagnosis => {
            state.focus.expanded = true;
            state.focus.scroll = 0;
        }
        Action::CloseDiagnosis => state.focus.expanded = false,
        Action::DiagnosisUp
        | Action::DiagnosisDown
        | Action::DiagnosisPageUp
        | Action::DiagnosisPageDown => scroll(state, action),
        Action::FocusEvents => {
            state.focus.events = true;
            let at = selected_event(state).unwrap_or(0);
            select_event(state, at);
        }
        Action::FocusContainers => state.focus.events = false,
        Action::EventNext | Action::EventPrev => {
            let last = state.events.len().saturating_sub(1);
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
    state.dirty |= before != state.focus;
}

/// Selects event `index` (remembering its uid when it exists).
fn select_event(state: &mut State, index: usize) {
    state.focus.event_index = index;
    state.focus.event_uid = state.events.get(index).map(|e| e.uid.clone());
}

/// Scrolls the expanded diagnosis by a line or a page, within what the content hides
/// at the last known terminal size (80×24 before any resize).
fn scroll(state: &mut State, action: Action) {
    let (cols, rows) = state.screen.unwrap_or((80, 24));
    let max = crate::ui::diagnosis_full::max_scroll(state, cols, rows);
    let page = crate::ui::diagnosis_full::page(state, cols, rows);
    let at = state.focus.scroll.min(max);
    state.focus.scroll = match action {
        Action::DiagnosisUp => at.saturating_sub(1),
        Action::DiagnosisDown => at + 1,
        Action::DiagnosisPageUp => at.saturating_sub(page),
        _ => at + page,
    }
    .min(max);
}
