//! The pod switcher (`P`/`o`) and any other [`Picker`]: a filter line, the rows under their
//! column headers as `kubectl get` aligns them (each column as wide as its widest cell, two
//! spaces apart), the highlighted row marked; the key hint comes from the keymap table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::app::keymap::{self, When};
use crate::app::state::State;
use crate::app::switcher::{Picker, PickerRow};
use crate::model::sanitize::sanitize;
use crate::ui::theme::Theme;

/// Draws the switcher centred in `area`; the current pod is marked `*`.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let Some(sw) = state.overlay.switcher() else {
        return;
    };
    let t = &state.config.theme;
    let current = |p: &crate::app::switcher::PodChoice| {
        p.namespace == state.target.namespace && p.name == state.target.name
    };
    let lines = picker_lines(sw, area, state.now, t, "pods", &current);
    crate::ui::forwards::popup(frame, area, " switch pod ", lines, t);
}

/// The lines of `picker` for a popup in `area` at `now`: the filter, the headers, the shown
/// rows (scrolled to keep the highlight visible; `▶` the highlighted, `*` the `is_current` one), the
/// keymap's hint. `what` names the rows (`pods`) in the loading and empty texts.
pub fn picker_lines<R: PickerRow>(
    picker: &Picker<R>,
    area: Rect,
    now: jiff::Timestamp,
    t: &Theme,
    what: &str,
    is_current: &dyn Fn(&R) -> bool,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    lines.push(if picker.filter.is_empty() {
        Line::from(Span::styled("type to filter  (* current)", t.dim))
    } else {
        Line::from(vec![
            Span::styled("filter: ", t.dim),
            Span::styled(sanitize(&picker.filter).into_owned(), t.key),
        ])
    });
    let shown = picker.shown();
    let cells: Vec<Vec<String>> = shown
        .iter()
        .map(|r| {
            r.cells(now)
                .iter()
                .map(|c| sanitize(c).into_owned())
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = R::COLUMNS.iter().map(|c| c.len()).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(super::width::cells(c));
        }
    }
    // Too wide for the popup: narrow the widest column (its cells end in `…`) until the row
    // fits, down to 6 columns each, the `KEEP` column last.
    let room = usize::from(area.width.min(crate::ui::forwards::MAX_WIDTH)).saturating_sub(2 + 3);
    let total = |w: &[usize]| w.iter().sum::<usize>() + 3 * w.len().saturating_sub(1);
    while total(&widths) > room {
        let widest = |keep: bool| {
            (0..widths.len())
                .filter(|i| keep || *i != R::KEEP)
                .filter(|i| widths[*i] > 6)
                .max_by_key(|i| widths[*i])
        };
        let Some(i) = widest(false).or_else(|| widest(true)) else {
            break;
        };
        widths[i] -= 1;
    }
    let align = |row: &[String]| -> String {
        let padded: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| {
                let c = super::width::ellipsis(c, *w);
                let pad = w.saturating_sub(super::width::cells(&c));
                format!("{c}{}", " ".repeat(pad))
            })
            .collect();
        padded.join("   ").trim_end().to_owned()
    };
    let headers: Vec<String> = R::COLUMNS.iter().map(|c| (*c).to_owned()).collect();
    lines.push(Line::from(Span::styled(
        format!("   {}", align(&headers)),
        t.dim,
    )));
    if picker.loading {
        lines.push(Line::from(Span::styled(format!("loading {what}…"), t.dim)));
    } else if shown.is_empty() && picker.rows.is_empty() {
        lines.push(Line::from(Span::styled(format!("no {what}"), t.dim)));
    } else if shown.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("no {what} match (Backspace, Esc clears)"),
            t.dim,
        )));
    }
    let room = usize::from(area.height.saturating_sub(6)).max(1);
    let first = picker.selected.saturating_sub(room - 1);
    for (i, (row, text)) in shown.iter().zip(&cells).enumerate().skip(first).take(room) {
        let selected = i == picker.selected;
        let marker = match (selected, is_current(row)) {
            (true, true) => "▶* ",
            (true, false) => "▶  ",
            (false, true) => " * ",
            (false, false) => "   ",
        };
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(align(text), if selected { t.key } else { Style::new() }),
        ]));
    }
    lines.push(Line::from(Span::styled(
        keymap::hint_text(When::Switcher),
        t.dim,
    )));
    lines
}
