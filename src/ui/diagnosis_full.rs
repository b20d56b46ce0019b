//! The expanded diagnosis (Enter): every finding over the whole body of the pod view, its
//! headline, each piece of evidence and the hint wrapped to the width; scrollable (↓/j, ↑/k,
//! PgDn/PgUp) when longer than the screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::diagnosis::{evidence, headline, hint};
use super::{header, layout, width};
use crate::app::state::State;

/// Every finding's lines at `cols` columns, a blank line between findings.
#[must_use]
pub fn lines(state: &State, cols: u16) -> Vec<Line<'static>> {
    let t = &state.config.theme;
    let cols = usize::from(cols);
    let mut out: Vec<Line<'static>> = Vec::new();
    if state.target.diagnosis.is_empty() {
        let text = if state.target.pod.is_none() {
            "  no pod yet: nothing to diagnose"
        } else {
            "  no findings"
        };
        out.push(Line::from(Span::styled(text, t.dim)));
    }
    for (i, f) in state.target.diagnosis.iter().enumerate() {
        if i > 0 {
            out.push(Line::default());
        }
        out.extend(headline(f, t, cols));
        for e in &f.evidence {
            out.extend(evidence(e, t, cols));
        }
        if let Some(h) = &f.action {
            out.extend(hint(h, t, cols));
        }
    }
    out
}

/// Content rows of the expanded view on a `cols × rows` terminal (the body under its title).
fn visible(state: &State, cols: u16, rows: u16) -> usize {
    let wanted = layout::Wanted {
        header: header::wanted(state, cols),
        header_fixed: header::fixed_rows(state, cols),
        footer: super::footer::wanted(state, cols),
        ..layout::Wanted::default()
    };
    let areas = layout::areas_expanded(Rect::new(0, 0, cols, rows), wanted);
    usize::from(areas.diagnosis.height.saturating_sub(1))
}

/// How far the expanded view can scroll on a `cols × rows` terminal (0 when all fits).
#[must_use]
pub fn max_scroll(state: &State, cols: u16, rows: u16) -> usize {
    lines(state, cols)
        .len()
        .saturating_sub(visible(state, cols, rows))
}

/// Rows a page scroll moves on a `cols × rows` terminal (at least 1).
#[must_use]
pub fn page(state: &State, cols: u16, rows: u16) -> usize {
    visible(state, cols, rows).max(1)
}

/// Draws the expanded view into `area` (the body), scrolled to the overlay's scroll (clamped), with
/// `more ↓` / `↑ more` on the title rule when lines are hidden.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    if area.height == 0 {
        return;
    }
    let t = &state.config.theme;
    let all = lines(state, area.width);
    let shown = usize::from(area.height - 1);
    let scroll = state
        .overlay
        .diagnosis_scroll()
        .unwrap_or(0)
        .min(all.len().saturating_sub(shown));
    let title = match state.target.diagnosis.len() {
        1 => " Diagnosis: 1 finding ".to_owned(),
        n => format!(" Diagnosis: {n} findings "),
    };
    let more = match (scroll > 0, scroll + shown < all.len()) {
        (true, true) => "↑ more ↓ · ",
        (false, true) => "more ↓ · ",
        (true, false) => "↑ more · ",
        (false, false) => "",
    };
    let keys = format!(" {more}Enter/Esc back ");
    let mut block = Block::new()
        .borders(Borders::TOP)
        .border_style(t.dim)
        .title(Span::styled(title.clone(), t.title));
    if usize::from(area.width) >= width::cells(&title) + width::cells(&keys) + 2 {
        block = block.title_top(Line::from(Span::styled(keys, t.key)).right_aligned());
    }
    let visible: Vec<Line<'static>> = all.into_iter().skip(scroll).take(shown).collect();
    frame.render_widget(Paragraph::new(visible).block(block), area);
}
