//! The help overlay's part of `update`: `?` opens or closes it (over the expanded diagnosis, if
//! shown, which closing returns to), Esc closes it, ↓/↑/PgDn/PgUp scroll it within what the last
//! draw measured (`State::extents`). Pure.

use super::keymap::Action;
use super::overlay::Overlay;
use super::state::State;

/// `?`: open help (scrolled to the top) or close it.
pub fn toggle(state: &mut State) {
    if state.overlay.help_scroll().is_some() {
        close(state);
    } else {
        state.overlay = Overlay::Help {
            scroll: 0,
            over_diagnosis: state.overlay.diagnosis_scroll(),
        };
        state.dirty = true;
    }
}

/// Esc: close help, back to the expanded diagnosis if help was opened over it.
pub fn close(state: &mut State) {
    if let Overlay::Help { over_diagnosis, .. } = state.overlay {
        state.overlay = match over_diagnosis {
            Some(scroll) => Overlay::Diagnosis { scroll },
            None => Overlay::None,
        };
        state.dirty = true;
    }
}

/// Scrolls help by a line or a page (a page: the terminal's rows less the borders and margins,
/// 24 rows before any resize), within the last measured limit.
pub fn scroll(state: &mut State, action: Action) {
    let (_, rows) = state.screen.unwrap_or((80, 24));
    let page = usize::from(rows.saturating_sub(4)).max(1);
    let max = state.extents.help_max_scroll;
    let Overlay::Help { scroll, .. } = &mut state.overlay else {
        return;
    };
    let before = *scroll;
    *scroll = match action {
        Action::HelpUp => before.saturating_sub(1),
        Action::HelpPageUp => before.saturating_sub(page),
        Action::HelpDown => before.saturating_add(1),
        _ => before.saturating_add(page),
    }
    .min(max);
    state.dirty |= before != *scroll;
}
