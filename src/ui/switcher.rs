//! The demo's pod switcher (`P`/`o`): the demo cluster's pods as `namespace/name`, the current
//! one marked; Enter switches (the key hint comes from the keymap table).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::app::keymap::{self, When};
use crate::app::state::State;
use crate::model::sanitize::sanitize;

/// Draws the switcher centred in `area`; long lists scroll to keep the highlight visible.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let Some(sw) = state.overlay.switcher() else {
        return;
    };
    let t = &state.config.theme;
    let mut lines = Vec::new();
    if sw.loading {
        lines.push(Line::from(Span::styled("loading pods…", t.dim)));
    } else if sw.pods.is_empty() {
        lines.push(Line::from(Span::styled("no pods", t.dim)));
    }
    let room = usize::from(area.height.saturating_sub(5)).max(1);
    let first = sw.selected.saturating_sub(room - 1);
    for (i, (ns, name)) in sw.pods.iter().enumerate().skip(first).take(room) {
        let current = *ns == state.target.namespace && *name == state.target.name;
        let marker = if i == sw.selected { "▶ " } else { "  " };
        let text = format!(
            "{}/{}{}",
            sanitize(ns),
            sanitize(name),
            if current { "  (current)" } else { "" }
        );
        let style = if i == sw.selected {
            t.key
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(text, style),
        ]));
    }
    lines.push(Line::from(Span::styled(
        keymap::hint_text(When::Switcher),
        t.dim,
    )));
    crate::ui::forwards::popup(frame, area, " switch pod ", lines, t);
}
