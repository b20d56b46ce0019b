//! Events about the pod, newest first: type, age (`70s (x68 over 15m)`, describe's form),
//! reason, message; Warnings highlighted. Each message is cut at the pane's edge, except the
//! selected event's while the pane has focus (Tab): its whole message is wrapped under it, each
//! line the kubelet wrote (`␊`) on its own, and the pane scrolls to keep it in view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{section, width};
use crate::app::focus::selected_event;
use crate::app::state::State;
use crate::model::EventSummary;

/// Width of the type column (`Warning `).
const TYPE_W: usize = 8;
/// Width of the selection gutter while the pane has focus (`▶ ` on the selected event).
const GUTTER_W: usize = 2;
/// Hanging indent of a selected message when its column is past the middle of the pane.
const NARROW_INDENT: usize = 4;

/// Whether the pane has focus (and so shows the selected event in full).
fn focused(state: &State) -> bool {
    state.key_mode().events_focus
}

/// Rows the pane wants at `width`: title + one per event (at least one row for "no events"),
/// plus the selected event's further lines while it has focus.
#[must_use]
pub fn wanted(state: &State, width: u16) -> u16 {
    if state.target.pod.is_none() && state.target.events.is_empty() {
        return 0;
    }
    let rows = if focused(state) {
        lines(state, width).0.len()
    } else {
        state.target.events.len().max(1)
    };
    u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(1)
}

/// The widths of the age and reason columns.
fn columns(state: &State) -> (usize, usize) {
    let widest = |f: &dyn Fn(&EventSummary) -> usize| {
        state.target.events.iter().map(f).max().unwrap_or(0).min(24)
    };
    let age_w = widest(&|e| width::cells(&e.age_text(state.now)));
    let reason_w = widest(&|e| e.reason.chars().count());
    (age_w, reason_w)
}

/// The pane's lines at `cols`, and the range of the selected event's lines while focused.
fn lines(state: &State, cols: u16) -> (Vec<Line<'static>>, Option<(usize, usize)>) {
    let t = &state.config.theme;
    let cols = usize::from(cols);
    let (age_w, reason_w) = columns(state);
    let gutter = if focused(state) { GUTTER_W } else { 0 };
    let message_col = gutter + TYPE_W + age_w + 2 + reason_w + 2;
    let selected = selected_event(state).filter(|_| focused(state));
    let mut out = Vec::new();
    let mut range = None;
    for (i, e) in state.target.events.iter().enumerate() {
        let warning = e.type_ == "Warning";
        let is_selected = selected == Some(i);
        let (mark, type_style) = match (is_selected, warning) {
            (true, _) => ("▶ ", t.selected),
            (false, true) => ("  ", t.warn),
            (false, false) => ("  ", t.dim),
        };
        let age = e.age_text(state.now);
        let reason: String = e.reason.chars().take(reason_w).collect();
        let mut row = Vec::new();
        if gutter > 0 {
            row.push(Span::styled(mark, t.key));
        }
        row.extend([
            Span::styled(format!("{:<TYPE_W$}", e.type_), type_style),
            Span::styled(format!("{age:<age_w$}  "), t.dim),
            Span::styled(
                format!("{reason:<reason_w$}  "),
                if warning { t.warn } else { t.label },
            ),
        ]);
        if !is_selected {
            row.push(Span::raw(e.message.replace('\n', " ")));
            out.push(Line::from(row));
            continue;
        }
        let start = out.len();
        let indent = if message_col <= cols / 2 {
            message_col
        } else {
            NARROW_INDENT
        };
        let mut pieces = Vec::new();
        for (n, part) in e.message.split('␊').enumerate() {
            let first = if n == 0 { message_col } else { indent };
            pieces.extend(width::hanging(part, cols, first, indent));
        }
        let mut pieces = pieces.into_iter();
        row.push(Span::raw(pieces.next().unwrap_or_default()));
        out.push(Line::from(row));
        for piece in pieces {
            out.push(Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::raw(piece),
            ]));
        }
        range = Some((start, out.len()));
    }
    if out.is_empty() {
        out.push(Line::from(Span::styled(
            "  no events (events expire after about 1 h)",
            t.dim,
        )));
    }
    (out, range)
}

/// Draws the events pane (`▶` in the title and on the selected event while it has focus),
/// scrolled so that the selected event's lines are in view.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.config.theme;
    let count = state.target.events.len();
    let mark = if focused(state) { "▶ " } else { "" };
    let title = match &state.target.events_error {
        Some(e) => format!("{mark}Events ({count}) — watch failed: {e}"),
        None => format!("{mark}Events ({count})"),
    };
    let (lines, range) = lines(state, area.width);
    let inner = usize::from(area.height.saturating_sub(1));
    let scroll = match range {
        Some((start, end)) if end > inner => (end - inner).min(start),
        _ => 0,
    };
    let widget = Paragraph::new(lines)
        .block(section(&title, t))
        .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0));
    frame.render_widget(widget, area);
}
