//! The log pane: only the visible window of the buffer is rendered (wrapping is computed for the
//! visible lines alone), SGR colour drawn as styles, search matches highlighted, a one-row
//! prompt while typing a search or filter, and the reason instead of an empty pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{section, sgr, width};
use crate::app::logs::{InputKind, instance, thousands};
use crate::app::state::State;
use crate::model::{LineKind, LogLine};

/// Colours of the container prefixes with `a` (by the container's position in the pod).
/// No yellow, grey or white: they vanish on light or dark backgrounds (see [`super::theme`]).
const PALETTE: [Color; 6] = [
    Color::Cyan,
    Color::Green,
    Color::Magenta,
    Color::Blue,
    Color::LightRed,
    Color::LightBlue,
];
/// Width of a shown timestamp (`2024-06-03T07:19:01.123Z `).
const TS_W: usize = 25;

/// The pane's title: container, which instance the view reads (see
/// [`crate::app::logs::instance`]), following / waiting / paused, dropped lines, filter, search,
/// events. E.g. `logs app · current: instance 4 (restart 3), exited 1 12s ago · waiting`.
#[must_use]
pub fn title(state: &State) -> String {
    let p = &state.target.logs;
    let focus = if p.focused { "▶ " } else { "" };
    let view = if p.previous { "previous" } else { "current" };
    let shown = p
        .follows
        .first()
        .map(|f| f.container().to_owned())
        .or_else(|| state.selected_container().map(|c| c.name.clone()))
        .unwrap_or_default();
    let c = state
        .target
        .pod
        .as_ref()
        .and_then(|pod| pod.container(&shown));
    let what = if p.all { "all containers" } else { &shown };
    let mut parts = vec![format!("{focus}logs {what}")];
    match c {
        _ if p.all => parts.push(view.to_owned()),
        None => parts.push(view.to_owned()),
        Some(c) if p.previous => parts.push(instance::previous(c)),
        Some(c) => {
            parts.push(instance::current(c, state.now));
            let reading = instance::reading(c).filter(|_| p.following());
            parts.extend(reading.map(str::to_owned));
        }
    }
    if p.all && p.following() {
        parts.push("following".to_owned());
    }
    if !p.following() {
        parts.push("paused".to_owned());
    }
    if p.buffer.evicted() > 0 {
        parts.push(format!(
            "{} older lines dropped",
            thousands(p.buffer.evicted())
        ));
    }
    if let Some(f) = &p.filter {
        parts.push(format!("filter \"{}\": {} lines", f.text, p.filtered.len()));
    }
    if let Some(s) = &p.search {
        parts.push(format!("search \"{}\"", s.text));
    }
    if p.events {
        parts.push("events".to_owned());
    }
    parts.join(" · ")
}

/// Rows the pane needs to be of use: its title and two lines.
pub const MIN_ROWS: u16 = 3;

/// Draws the pane in `area` (title row, lines, and the prompt row while typing); below
/// [`MIN_ROWS`] rows, one line that says the terminal is too small for it.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    if area.height == 0 {
        return;
    }
    let p = &state.target.logs;
    let t = &state.config.theme;
    if area.height < MIN_ROWS {
        let needed = MIN_ROWS - area.height;
        let long = format!(
            "terminal too small for the log pane ({needed} more row{} needed; l hides it)",
            if needed == 1 { "" } else { "s" }
        );
        let text = [
            long.as_str(),
            "terminal too small for the log pane",
            "too small for logs",
        ]
        .into_iter()
        .find(|s| width::cells(s) <= usize::from(area.width))
        .unwrap_or("too small for logs");
        frame.render_widget(Paragraph::new(Span::styled(text, t.warn)), area);
        return;
    }
    let cols = usize::from(area.width);
    let mut rows = usize::from(area.height.saturating_sub(1));
    let prompt = state.overlay.prompt().map(|i| {
        let mark = match i.kind {
            InputKind::Search => "/",
            InputKind::Filter => "&",
        };
        super::prompt::line(mark, t.key, &i.prompt, t.key, cols)
    });
    if prompt.is_some() {
        rows = rows.saturating_sub(1);
    }
    let mut lines = if p.view_len() == 0 {
        empty_text(state)
    } else {
        window(state, cols, rows)
    };
    lines.truncate(rows);
    if let Some(pr) = prompt {
        lines.resize(rows, Line::from(""));
        lines.push(pr);
    }
    let widget = Paragraph::new(lines).block(section(&title(state), t));
    frame.render_widget(widget, area);
}

/// What the pane says when it has no line to list.
fn empty_text(state: &State) -> Vec<Line<'static>> {
    let p = &state.target.logs;
    let t = &state.config.theme;
    if state.target.pod.is_none() {
        return vec![Line::styled("waiting for the pod", t.dim)];
    }
    if p.filter.is_some() && !p.buffer.is_empty() {
        return vec![Line::styled("no line matches the filter", t.dim)];
    }
    let notes: Vec<Line<'static>> = p
        .follows
        .iter()
        .filter_map(|f| {
            let note = f.note.as_ref()?;
            let text = if p.all {
                format!("{}: {note}", f.container())
            } else {
                note.clone()
            };
            Some(Line::styled(text, t.warn))
        })
        .collect();
    if !notes.is_empty() {
        return notes;
    }
    let reading = p.follows.iter().any(|f| f.stream().is_some());
    vec![Line::styled(
        if reading {
            "loading…"
        } else {
            "no log lines"
        },
        t.dim,
    )]
}

/// The rows of the visible lines: from `top` down, or up from the newest line when following.
fn window(state: &State, cols: usize, rows: usize) -> Vec<Line<'static>> {
    let p = &state.target.logs;
    let len = p.view_len();
    let mut out: Vec<Line<'static>> = Vec::new();
    if rows == 0 || cols == 0 {
        return out;
    }
    match p.top {
        Some(_) => {
            let mut pos = p.top_pos();
            while out.len() < rows && pos < len {
                if let Some((abs, l)) = p.view_line(pos) {
                    out.extend(rows_of(state, abs, l, cols, rows));
                }
                pos += 1;
            }
            out.truncate(rows);
        }
        None => {
            let mut chunks: Vec<Vec<Line<'static>>> = Vec::new();
            let mut total = 0;
            let mut pos = len;
            while total < rows && pos > 0 {
                pos -= 1;
                if let Some((abs, l)) = p.view_line(pos) {
                    let r = rows_of(state, abs, l, cols, rows);
                    total += r.len();
                    chunks.push(r);
                }
            }
            out = chunks.into_iter().rev().flatten().collect();
            let skip = out.len().saturating_sub(rows);
            out.drain(..skip);
        }
    }
    out
}

/// One log line as screen rows: one row cut at the width, or wrapped into at most `max_rows`.
fn rows_of(
    state: &State,
    abs: u64,
    line: &LogLine,
    cols: usize,
    max_rows: usize,
) -> Vec<Line<'static>> {
    let spans = spans_of(
        state,
        abs,
        line,
        if state.target.logs.wrap {
            cols * max_rows
        } else {
            cols
        },
    );
    if state.target.logs.wrap {
        wrap(spans, cols)
    } else {
        vec![Line::from(spans)]
    }
}

/// The styled spans of `line`, fitted to `budget` cells: prefix, timestamp, text with SGR
/// colour and search highlights, and `… [N bytes more]` when the text is cut.
fn spans_of(state: &State, abs: u64, line: &LogLine, budget: usize) -> Vec<Span<'static>> {
    let p = &state.target.logs;
    let t = &state.config.theme;
    let mut spans = Vec::new();
    let mut used = 0;
    if p.all && !line.container.is_empty() {
        let idx = state
            .target
            .pod
            .as_ref()
            .and_then(|pod| pod.containers.iter().position(|c| c.name == line.container))
            .unwrap_or(0);
        let style = if t.color {
            Style::new().fg(PALETTE[idx % PALETTE.len()])
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        };
        let text = format!("[{}] ", line.container);
        used += width::cells(&text);
        spans.push(Span::styled(text, style));
    }
    if p.timestamps {
        let text = line.ts.map_or_else(
            || " ".repeat(TS_W),
            |ts| format!("{} ", ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ")),
        );
        used += TS_W;
        spans.push(Span::styled(text, t.dim));
    }
    let base = match line.kind {
        LineKind::Log => Style::new(),
        LineKind::Marker => t.warn.add_modifier(Modifier::BOLD),
        LineKind::Event if line.text.starts_with("◆ Warning") => t.warn,
        LineKind::Event => t.dim,
    };
    let (end, more) = cut(&line.text, budget.saturating_sub(used));
    let shown = &line.text[..end];
    let current = p.search_at == Some(abs);
    let ranges = p
        .search
        .as_ref()
        .map(|n| n.ranges(shown))
        .unwrap_or_default();
    let mut points: Vec<usize> = vec![0, end];
    points.extend(line.sgr.iter().map(|m| m.at).filter(|&a| a < end));
    for (a, b) in &ranges {
        points.push(*a);
        points.push(*b);
    }
    points.sort_unstable();
    points.dedup();
    let mut style = base;
    let mut marks = line.sgr.iter().peekable();
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        while let Some(m) = marks.next_if(|m| m.at <= a) {
            style = sgr::apply(style, &m.params, t.color);
            if m.params.is_empty() || m.params == "0" {
                style = base;
            }
        }
        if a == b {
            continue;
        }
        let hit = ranges.iter().any(|&(s, e)| s <= a && b <= e);
        let s = match (hit, current) {
            (true, true) => t.selected,
            (true, false) => t.notice,
            _ => style,
        };
        spans.push(Span::styled(shown[a..b].to_owned(), s));
    }
    if more > 0 {
        spans.push(Span::styled(format!("… [{more} bytes more]"), t.dim));
    }
    spans
}

/// Where to cut `text` to fit `budget` terminal columns with room for the marker:
/// `(end byte, bytes more)`. Reads little more than `budget` characters, whatever the line's
/// length; wide characters count two columns.
#[must_use]
pub fn cut(text: &str, budget: usize) -> (usize, usize) {
    if text.len() <= budget || width::prefix(text, budget).0 == text.len() {
        return (text.len(), 0);
    }
    let marker = width::cells(&format!("… [{} bytes more]", text.len()));
    let (end, _) = width::prefix(text, budget.saturating_sub(marker));
    (end, text.len() - end)
}

/// Hard-wraps `spans` into rows of `cols` terminal columns. A wide character that would
/// straddle a row's edge starts the next row; one wider than a whole row gets a row of its own.
fn wrap(spans: Vec<Span<'static>>, cols: usize) -> Vec<Line<'static>> {
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for span in spans {
        let mut rest: &str = &span.content;
        while !rest.is_empty() {
            let (mut take, mut w) = width::prefix(rest, cols - used);
            if take == 0 {
                if used > 0 {
                    rows.push(Line::from(std::mem::take(&mut row)));
                    used = 0;
                    continue;
                }
                take = rest.chars().next().map_or(rest.len(), char::len_utf8);
                w = cols;
            }
            used += w;
            row.push(Span::styled(rest[..take].to_owned(), span.style));
            rest = &rest[take..];
            if used >= cols {
                rows.push(Line::from(std::mem::take(&mut row)));
                used = 0;
            }
        }
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(Line::from(row));
    }
    rows
}
