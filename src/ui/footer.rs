//! The footer: key hints generated from the keymap table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keymap;
use crate::app::state::State;

/// Draws `j/↓ next container  k/↑ previous container  l logs  ? help  q quit` (the rows active
/// in the current mode: the port-forward panel's or the pod switcher's keys while one is open),
/// or the log pane's status line (saved file, no match) when there is one.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.theme;
    if let Some(status) = &state.logs.status {
        frame.render_widget(Paragraph::new(Span::styled(status.clone(), t.notice)), area);
        return;
    }
    let mode = state.key_mode();
    let mut groups = keymap::grouped_in(true, Some(mode));
    // Too narrow: drop hints from the middle, never `? help` and `q quit` (the table's last two).
    let width = |g: &[(Vec<String>, &str)]| -> usize {
        g.iter()
            .map(|(k, d)| k.join("/").chars().count() + 1 + d.chars().count() + 2)
            .sum()
    };
    while groups.len() > 2 && width(&groups) > usize::from(area.width) + 2 {
        groups.remove(groups.len() - 3);
    }
    let mut spans = Vec::new();
    for (keys, description) in groups {
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(keys.join("/"), t.key));
        spans.push(Span::styled(format!(" {description}"), t.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
