//! Events about the pod, newest first: type, age (`70s (x68 over 15m)`, describe's form),
//! reason, message; Warnings highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::section;
use crate::app::state::State;

/// Rows the pane wants: title + one per event (at least one row for "no events").
#[must_use]
pub fn wanted(state: &State) -> u16 {
    if state.pod.is_none() && state.events.is_empty() {
        return 0;
    }
    u16::try_from(state.events.len().max(1))
        .unwrap_or(u16::MAX)
        .saturating_add(1)
}

/// Draws the events pane.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.theme;
    let title = match &state.events_error {
        Some(e) => format!("Events ({}) — watch failed: {e}", state.events.len()),
        None => format!("Events ({})", state.events.len()),
    };
    let reason_w = state
        .events
        .iter()
        .map(|e| e.reason.chars().count())
        .max()
        .unwrap_or(0)
        .min(24);
    let age_w = state
        .events
        .iter()
        .map(|e| e.age_text(state.now).chars().count())
        .max()
        .unwrap_or(0)
        .min(24);
    let mut lines: Vec<Line<'static>> = state
        .events
        .iter()
        .map(|e| {
            let warning = e.type_ == "Warning";
            let type_style = if warning { t.warn } else { t.dim };
            let age = e.age_text(state.now);
            let reason: String = e.reason.chars().take(reason_w).collect();
            Line::from(vec![
                Span::styled(format!("{:<8}", e.type_), type_style),
                Span::styled(format!("{age:<age_w$}  "), t.dim),
                Span::styled(
                    format!("{reason:<reason_w$}  "),
                    if warning { t.warn } else { t.label },
                ),
                Span::raw(e.message.replace('\n', " ")),
            ])
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "  no events (events expire after about 1 h)",
            t.dim,
        )));
    }
    frame.render_widget(Paragraph::new(lines).block(section(&title, t)), area);
}
