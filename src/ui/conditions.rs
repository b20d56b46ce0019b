//! Pod conditions: type, status, reason, message and transition age; a one-line compact form
//! (`Initialized ✓  Ready ✗ …`) when there is no room for the table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{clock, section};
use crate::app::state::State;
use crate::model::ConditionSummary;

/// Rows the table wants: title + one per condition (0 without a pod or conditions).
#[must_use]
pub fn wanted(state: &State) -> u16 {
    match &state.target.pod {
        Some(pod) if !pod.conditions.is_empty() => u16::try_from(pod.conditions.len())
            .unwrap_or(u16::MAX)
            .saturating_add(1),
        _ => 0,
    }
}

/// Draws the conditions, compact when `area` is shorter than the table.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let Some(pod) = &state.target.pod else { return };
    let t = &state.config.theme;
    let conds = &pod.conditions;
    let compact = usize::from(area.height) < conds.len() + 1;
    let type_w = conds.iter().map(|c| c.type_.len()).max().unwrap_or(0);
    let reason_w = conds.iter().map(|c| c.reason.len()).max().unwrap_or(0);
    let status_style = |c: &ConditionSummary| if c.status == "True" { t.ok } else { t.warn };
    let lines: Vec<Line<'static>> = if compact {
        let mut spans = Vec::new();
        for c in conds {
            let mark = match c.status.as_str() {
                "True" => "✓",
                "False" => "✗",
                _ => "?",
            };
            spans.push(Span::raw(format!("{} ", c.type_)));
            spans.push(Span::styled(format!("{mark}  "), status_style(c)));
        }
        vec![Line::from(spans)]
    } else {
        conds
            .iter()
            .map(|c| {
                let age = c
                    .last_transition_time
                    .map_or_else(|| "-".to_owned(), |at| clock::age(at, state.now));
                Line::from(vec![
                    Span::raw(format!("{:<type_w$}  ", c.type_)),
                    Span::styled(format!("{:<7}", c.status), status_style(c)),
                    Span::styled(format!("{age:>6}  "), t.dim),
                    Span::raw(format!("{:<reason_w$}  ", c.reason)),
                    Span::styled(c.message.clone(), t.dim),
                ])
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).block(section("Conditions", t)), area);
}
