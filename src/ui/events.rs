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
    let n = state.target.events.len();
    let rows = match selected(state) {
        // The selected event's wrapped lines replace its one row.
        Some(s) => {
            let widths = columns(&state.target.events, state.now);
            n - 1 + selected_lines(state, width, s, widths).len()
        }
        None => n.max(1),
    };
    u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(1)
}

/// The selected event's index while the pane has focus.
fn selected(state: &State) -> Option<usize> {
    selected_event(state)
        .filter(|_| focused(state))
        .filter(|&i| i < state.target.events.len())
}

/// The widths of the age and reason columns over `events` (every event of the pod, so the
/// columns do not move as the pane scrolls; measured only when the pane is rebuilt).
fn columns(events: &[EventSummary], now: jiff::Timestamp) -> (usize, usize) {
    let widest =
        |f: &dyn Fn(&EventSummary) -> usize| events.iter().map(f).max().unwrap_or(0).min(24);
    let age_w = widest(&|e| width::cells(&e.age_text(now)));
    let reason_w = widest(&|e| e.reason.chars().count());
    (age_w, reason_w)
}

/// The column where messages start, given the column widths.
fn message_col(state: &State, (age_w, reason_w): (usize, usize)) -> usize {
    let gutter = if focused(state) { GUTTER_W } else { 0 };
    gutter + TYPE_W + age_w + 2 + reason_w + 2
}

/// The selected event `s`'s message wrapped at `cols` (at least one piece), after columns
/// `widths`.
fn selected_lines(state: &State, cols: u16, s: usize, widths: (usize, usize)) -> Vec<String> {
    let events = &state.target.events;
    let cols = usize::from(cols);
    let message_col = message_col(state, widths);
    let indent = if message_col <= cols / 2 {
        message_col
    } else {
        NARROW_INDENT
    };
    let mut pieces = Vec::new();
    for (n, part) in events[s].message.split('␊').enumerate() {
        let first = if n == 0 { message_col } else { indent };
        pieces.extend(width::hanging(part, cols, first, indent));
    }
    if pieces.is_empty() {
        pieces.push(String::new());
    }
    pieces
}

/// The rows of events `range` at `cols` (the selected one expanded while focused), their
/// columns `widths`.
fn lines(
    state: &State,
    cols: u16,
    range: std::ops::Range<usize>,
    widths: (usize, usize),
    expanded: Option<(usize, Vec<String>)>,
) -> Vec<Line<'static>> {
    let t = &state.config.theme;
    let (age_w, reason_w) = widths;
    let message_col = message_col(state, widths);
    let indent = if message_col <= usize::from(cols) / 2 {
        message_col
    } else {
        NARROW_INDENT
    };
    let mut expanded = expanded;
    let mut out = Vec::new();
    for (i, e) in state.target.events[range.clone()].iter().enumerate() {
        let i = range.start + i;
        let warning = e.type_ == "Warning";
        let pieces = expanded.take_if(|(s, _)| *s == i).map(|(_, p)| p);
        let (mark, type_style) = match (pieces.is_some(), warning) {
            (true, _) => ("▶ ", t.selected),
            (false, true) => ("  ", t.warn),
            (false, false) => ("  ", t.dim),
        };
        let age = e.age_text(state.now);
        let reason: String = e.reason.chars().take(reason_w).collect();
        let mut row = Vec::new();
        if focused(state) {
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
        let Some(pieces) = pieces else {
            row.push(Span::raw(e.message.replace('\n', " ")));
            out.push(Line::from(row));
            continue;
        };
        let mut pieces = pieces.into_iter();
        row.push(Span::raw(pieces.next().unwrap_or_default()));
        out.push(Line::from(row));
        for piece in pieces {
            out.push(Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::raw(piece),
            ]));
        }
    }
    out
}

/// The formatted pane kept between frames by the loop (`ui::ViewCache`): rebuilt only when
/// what it shows changed — the events (`Target::events_revision`), the second (ages), the
/// pane's size, focus and selection, or the title.
#[derive(Debug, Default)]
pub struct Cache {
    kept: Option<(Key, Paragraph<'static>)>,
    builds: u64,
    rows: usize,
}

impl Cache {
    /// How many times the pane was formatted (a frame that reused it does not count).
    #[must_use]
    pub fn builds(&self) -> u64 {
        self.builds
    }

    /// Rows formatted the last time: at most the pane's height, however many events there are.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }
}

/// What the formatted pane depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    generation: crate::app::generation::Generation,
    revision: u64,
    second: i64,
    width: u16,
    height: u16,
    selected: Option<usize>,
    title: String,
}

/// Draws the events pane (`▶` in the title and on the selected event while it has focus),
/// scrolled so that the selected event's lines are in view. Only the events on screen are
/// formatted.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    render_cached(frame, area, state, &mut Cache::default());
}

/// [`render`], reusing `cache`'s paragraph when nothing it shows changed.
pub fn render_cached(frame: &mut Frame, area: Rect, state: &State, cache: &mut Cache) {
    let count = state.target.events.len();
    let mark = if focused(state) { "▶ " } else { "" };
    let title = match &state.target.events_error {
        Some(e) => format!("{mark}Events ({count}) — watch failed: {e}"),
        None => format!("{mark}Events ({count})"),
    };
    let key = Key {
        generation: state.target.generation,
        revision: state.target.events_revision,
        second: state.now.as_second(),
        width: area.width,
        height: area.height,
        selected: selected(state),
        title,
    };
    if let Some((kept, paragraph)) = &cache.kept
        && *kept == key
    {
        frame.render_widget(paragraph, area);
        return;
    }
    let (paragraph, rows) = build(state, area, &key.title);
    frame.render_widget(&paragraph, area);
    cache.builds += 1;
    cache.rows = rows;
    cache.kept = Some((key, paragraph));
}

/// The pane's paragraph for `area` and the rows formatted: the events that fit, scrolled to the
/// selected one.
fn build(state: &State, area: Rect, title: &str) -> (Paragraph<'static>, usize) {
    let t = &state.config.theme;
    let inner = usize::from(area.height.saturating_sub(1));
    let n = state.target.events.len();
    let block = section(title, t);
    if n == 0 {
        let none = Line::from(Span::styled(
            "  no events (events expire after about 1 h)",
            t.dim,
        ));
        return (Paragraph::new(none).block(block), 1);
    }
    let widths = columns(&state.target.events, state.now);
    // Rows: event i < s at row i, the selected s on rows s..s+k, event i > s at row i + k - 1.
    let expanded = selected(state).map(|s| (s, selected_lines(state, area.width, s, widths)));
    let (s, k) = expanded.as_ref().map_or((n, 1), |(s, p)| (*s, p.len()));
    let row_of = |i: usize| if i <= s { i } else { i + k - 1 };
    let scroll = if s < n && s + k > inner {
        (s + k - inner).min(s)
    } else {
        0
    };
    let first = (0..n)
        .find(|&i| row_of(i) + if i == s { k } else { 1 } > scroll)
        .unwrap_or(0);
    let last = (first..n)
        .take_while(|&i| row_of(i) < scroll + inner.max(1))
        .last()
        .unwrap_or(first);
    let lines = lines(state, area.width, first..last + 1, widths, expanded);
    let offset = scroll - row_of(first);
    let rows = lines.len();
    let paragraph = Paragraph::new(lines)
        .block(block)
        .scroll((u16::try_from(offset).unwrap_or(u16::MAX), 0));
    (paragraph, rows)
}
