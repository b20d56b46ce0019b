//! The footer: key hints generated from the keymap table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keymap;
use crate::app::state::State;

/// Draws `j/↓ next container  k/↑ previous container  ? help  q quit`.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.theme;
    let mut spans = Vec::new();
    for (keys, description) in keymap::grouped(true) {
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(keys.join("/"), t.key));
        spans.push(Span::styled(format!(" {description}"), t.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
