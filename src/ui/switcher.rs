//! The pod picker (`P`/`o` over the pod, or the whole screen of a bare `podscope`) and any other
//! [`Picker`]: a filter line, the rows under their column headers as `kubectl get` aligns them
//! (each column as wide as its widest cell on the page, three spaces apart, two when
//! narrow), the highlighted
//! row marked; the key hint comes from the keymap table. Only the page in view is laid out, so
//! a namespace of thousands of pods draws as fast as one of ten; the title says how many there
//! are (`pods in shop (5000, 12 shown)` while a filter narrows them).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::keymap::{self, When};
use crate::app::state::State;
use crate::app::switcher::{Picker, PickerRow, PodChoice, Switcher};
use crate::model::sanitize::sanitize;
use crate::ui::theme::Theme;

/// Draws the open picker: over the pod view, centred in `area`, the current pod marked `*`; or,
/// standalone (no pod yet), as the whole of `area`. Over the pod the box is as wide as
/// [`crate::ui::forwards::MAX_WIDTH`] (or `area`), wider when the rows need it, up to `area`
/// less [`MARGIN`] columns each side.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let Some(sw) = state.overlay.switcher() else {
        return;
    };
    let t = &state.config.theme;
    let current = |p: &PodChoice| p.is(&state.target.namespace, &state.target.name);
    let title = super::workload::switcher_title(state, sw).unwrap_or_else(|| title(sw));
    let mut lines = error_line(sw, t);
    let taken = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    if sw.standalone {
        let inner = Rect::new(
            0,
            0,
            area.width.saturating_sub(2),
            area.height - taken.min(area.height),
        );
        let hint = standalone_hint();
        lines.extend(picker_lines(
            &sw.picker, inner, state.now, t, "pods", &current, hint,
        ));
        let block = Block::new()
            .borders(Borders::ALL)
            .title(Span::styled(title, t.title));
        frame.render_widget(Clear, area);
        frame.render_widget(Paragraph::new(lines).block(block), area);
    } else {
        let height = area.height.saturating_sub(1 + taken);
        let hint = keymap::hint_text(When::Switcher);
        let wide = Rect::new(0, 0, u16::MAX, height);
        let needed = picker_lines(
            &sw.picker,
            wide,
            state.now,
            t,
            "pods",
            &current,
            hint.clone(),
        )
        .iter()
        .chain(&lines)
        .map(Line::width)
        .max()
        .unwrap_or(0)
        .max(super::width::cells(&title) + 2);
        let needed = u16::try_from(needed).unwrap_or(u16::MAX).saturating_add(2);
        let width = box_width(area.width, needed);
        let inner = Rect::new(0, 0, width.saturating_sub(2), height);
        lines.extend(picker_lines(
            &sw.picker, inner, state.now, t, "pods", &current, hint,
        ));
        popup(frame, area, width, &title, lines, t);
    }
}

/// Columns left free on each side of a picker box widened past
/// [`crate::ui::forwards::MAX_WIDTH`], so the pod view still shows around it.
pub const MARGIN: u16 = 2;

/// The width of the picker's box over the pod, in a terminal `screen` columns wide, for rows
/// (and title and hint, borders included) `needed` columns wide: up to
/// [`crate::ui::forwards::MAX_WIDTH`] as other boxes, wider only when the rows need it, never
/// past the screen less [`MARGIN`] on each side (nor narrower than the usual box).
#[must_use]
pub fn box_width(screen: u16, needed: u16) -> u16 {
    let usual = screen.min(crate::ui::forwards::MAX_WIDTH);
    needed.min(screen.saturating_sub(2 * MARGIN)).max(usual)
}

/// The standalone picker's key hint: Enter attaches to the chosen pod (there is no pod to
/// switch from), the rest as over a pod.
fn standalone_hint() -> String {
    let enter = keymap::KEYMAP
        .iter()
        .find(|b| b.when == When::Switcher && b.action == keymap::Action::SwitchToSelected)
        .map_or("switch to it", |b| b.description);
    keymap::hint_text(When::Switcher).replace(&format!("Enter {enter}"), "Enter attach")
}

/// Draws `lines` in a bordered, cleared box `width` columns wide centred in `area`.
fn popup(frame: &mut Frame, area: Rect, width: u16, title: &str, lines: Vec<Line<'_>>, t: &Theme) {
    let width = width.min(area.width);
    let height = area.height.min(
        u16::try_from(lines.len())
            .unwrap_or(u16::MAX)
            .saturating_add(2),
    );
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .title(Span::styled(title.to_owned(), t.title));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The title: what is listed and how many (` pods in shop (5000) `, with a filter
/// ` pods in shop (5000, 12 shown) `); while loading, only what is listed.
#[must_use]
pub fn title(sw: &Switcher) -> String {
    let scope = sw.scope();
    if sw.picker.loading {
        return format!(" {scope} ");
    }
    let total = sw.picker.rows.len();
    if sw.picker.filter.is_empty() {
        format!(" {scope} ({total}) ")
    } else {
        format!(" {scope} ({total}, {} shown) ", sw.picker.shown_count())
    }
}

/// The list+watch's error, if it failed (it retries), as the first line.
fn error_line(sw: &Switcher, t: &Theme) -> Vec<Line<'static>> {
    sw.error
        .iter()
        .map(|e| Line::from(Span::styled(format!("{}; retrying", sanitize(e)), t.error)))
        .collect()
}

/// The lines of `picker` for a box whose inside is `inner` (its width and height) at `now`:
/// the filter, the headers of the picker's columns, the page of shown rows in view (scrolled
/// to keep the highlight visible; `▶` the highlighted, `*` the `is_current` one), the key
/// `hint` (the keymap's). `what` names the rows (`pods`) in the loading and empty texts.
pub fn picker_lines<R: PickerRow>(
    picker: &Picker<R>,
    inner: Rect,
    now: jiff::Timestamp,
    t: &Theme,
    what: &str,
    is_current: &dyn Fn(&R) -> bool,
    hint: String,
) -> Vec<Line<'static>> {
    let shown = picker.shown();
    let mut lines = Vec::new();
    lines.push(if picker.filter.is_empty() {
        let marked = shown.iter().any(|r| is_current(r));
        let legend = if marked { "  (* current)" } else { "" };
        Line::from(Span::styled(format!("type to filter{legend}"), t.dim))
    } else {
        Line::from(vec![
            Span::styled("filter: ", t.dim),
            Span::styled(sanitize(&picker.filter).into_owned(), t.key),
        ])
    });
    // The page in view: the filter line, the headers and the hint take three rows, the box's
    // border and a spare row the others.
    let room = usize::from(inner.height.saturating_sub(5)).max(1);
    let first = picker.selected.saturating_sub(room - 1);
    let page: Vec<(usize, &R)> = shown
        .iter()
        .copied()
        .enumerate()
        .skip(first)
        .take(room)
        .collect();
    let cells: Vec<Vec<String>> = page
        .iter()
        .map(|(_, r)| {
            let all = r.cells(now);
            picker
                .columns
                .iter()
                .map(|i| sanitize(all.get(*i).map_or("", String::as_str)).into_owned())
                .collect()
        })
        .collect();
    let headers: Vec<String> = picker
        .columns
        .iter()
        .map(|i| R::COLUMNS.get(*i).copied().unwrap_or_default().to_owned())
        .collect();
    let keep = picker.columns.iter().position(|i| *i == R::KEEP);
    let first: Vec<usize> = R::NARROW_FIRST
        .iter()
        .filter_map(|c| picker.columns.iter().position(|i| i == c))
        .collect();
    let (widths, gap) = widths(&headers, &cells, usize::from(inner.width), &first, keep);
    let gap = " ".repeat(gap);
    let align = |row: &[String]| -> String {
        let padded: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| {
                let c = super::width::ellipsis(shortened(c, *w), *w);
                let pad = w.saturating_sub(super::width::cells(&c));
                format!("{c}{}", " ".repeat(pad))
            })
            .collect();
        padded.join(&gap).trim_end().to_owned()
    };
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
    for ((i, row), text) in page.iter().zip(&cells) {
        let selected = *i == picker.selected;
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
    lines.push(Line::from(Span::styled(hint, t.dim)));
    lines
}

/// `cell` for a column `width` cells wide: whole when it fits, else without a parenthesised
/// tail when what is before it fits (RESTARTS' `5 (70s ago)` becomes `5`), else whole (cut by
/// the caller).
fn shortened(cell: &str, width: usize) -> &str {
    if super::width::cells(cell) <= width {
        return cell;
    }
    match cell.split_once(" (") {
        Some((head, _)) if super::width::cells(head) <= width => head,
        _ => cell,
    }
}

/// Each column as wide as its widest cell (header included), and the gap between columns:
/// three spaces as kubectl prints them, two when the row (after the three-cell marker) is wider
/// than `width`. When it is still too wide, columns are narrowed (their cells lose a
/// parenthesised tail, else end in `…`), never below their header or 6 cells: those of `first`
/// (indices among the shown columns) in that order, each as far as needed, then the widest of
/// the others, the `keep` column (NAME) last.
fn widths(
    headers: &[String],
    cells: &[Vec<String>],
    width: usize,
    first: &[usize],
    keep: Option<usize>,
) -> (Vec<usize>, usize) {
    let mut widths: Vec<usize> = headers.iter().map(|c| super::width::cells(c)).collect();
    let least: Vec<usize> = widths.iter().map(|w| (*w).max(6)).collect();
    for row in cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(super::width::cells(c));
        }
    }
    let room = width.saturating_sub(3);
    let total = |w: &[usize], gap: usize| w.iter().sum::<usize>() + gap * w.len().saturating_sub(1);
    let gap = if total(&widths, 3) > room { 2 } else { 3 };
    for &i in first {
        let over = total(&widths, gap).saturating_sub(room);
        let spare = widths[i].saturating_sub(least[i]);
        widths[i] -= over.min(spare);
    }
    while total(&widths, gap) > room {
        let widest = |pick: &dyn Fn(usize) -> bool| {
            (0..widths.len())
                .filter(|i| pick(*i) && widths[*i] > least[*i])
                .max_by_key(|i| widths[*i])
        };
        let Some(i) = widest(&|i| Some(i) != keep).or_else(|| widest(&|_| true)) else {
            break;
        };
        widths[i] -= 1;
    }
    (widths, gap)
}
