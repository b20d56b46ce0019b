//! The diagnosis block at the top of the pod view: the first finding's headline always (its
//! severity marker and container), then its hint (cut with `…` when short of rows), then as room
//! allows the other findings' headlines and the first finding's evidence. Enter expands it ([`super::diagnosis_full`]).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::theme::Theme;
use super::width;
use crate::app::state::State;
use crate::model::diagnosis::{Finding, Severity};

/// Columns of the hanging indent under a headline.
pub const INDENT: usize = 2;

/// The marker of a severity: `✗` error, `!` warning, `i` info (readable without colour).
#[must_use]
pub fn marker(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "✗",
        Severity::Warning => "!",
        Severity::Info => "i",
    }
}

/// The style of a severity: error red, warning yellow, info green.
#[must_use]
pub fn severity_style(severity: Severity, t: &Theme) -> Style {
    match severity {
        Severity::Error => t.error,
        Severity::Warning => t.warn,
        Severity::Info => t.ok,
    }
}

/// The spans before a headline, `✗ coord: ` (no container for the pod as a whole, nor when
/// the headline names it already: `✗ container coord was OOMKilled …`), and their width in
/// columns.
#[must_use]
pub fn prefix(f: &Finding, t: &Theme) -> (Vec<Span<'static>>, usize) {
    let mark = marker(f.severity);
    let mut spans = vec![
        Span::styled(mark, severity_style(f.severity, t)),
        Span::raw(" "),
    ];
    let mut cols = width::cells(mark) + 1;
    let named = |c: &str| {
        f.headline
            .split(|ch: char| ch.is_whitespace() || ch == '\'' || ch == ',' || ch == ':')
            .any(|word| word == c)
    };
    if let Some(c) = f.container.as_deref().filter(|c| !named(c)) {
        spans.push(Span::styled(format!("{c}:"), t.title));
        spans.push(Span::raw(" "));
        cols += width::cells(c) + 2;
    }
    // Facts apart from guesses: an inferred cause says so before it is read.
    if f.confidence == crate::model::diagnosis::Confidence::Likely {
        spans.push(Span::styled("likely:", t.dim));
        spans.push(Span::raw(" "));
        cols += 8;
    }
    (spans, cols)
}

/// The headline of `f` wrapped to `cols` after its prefix, later lines indented by [`INDENT`].
#[must_use]
pub fn headline(f: &Finding, t: &Theme, cols: usize) -> Vec<Line<'static>> {
    let (spans, used) = prefix(f, t);
    let mut out = Vec::new();
    for (i, piece) in width::hanging(&f.headline, cols, used, INDENT)
        .into_iter()
        .enumerate()
    {
        if i == 0 {
            let mut first = spans.clone();
            first.push(Span::raw(piece));
            out.push(Line::from(first));
        } else {
            out.push(Line::from(vec![
                Span::raw(" ".repeat(INDENT)),
                Span::raw(piece),
            ]));
        }
    }
    if out.is_empty() {
        out.push(Line::from(spans));
    }
    out
}

/// One headline on one line, cut with `…` at `cols`.
#[must_use]
pub fn headline_line(f: &Finding, t: &Theme, cols: usize) -> Line<'static> {
    let (mut spans, used) = prefix(f, t);
    spans.push(Span::raw(width::ellipsis(
        &f.headline,
        cols.saturating_sub(used),
    )));
    Line::from(spans)
}

/// `  → text` wrapped to `cols`, continuation lines under the text.
#[must_use]
pub fn hint(text: &str, t: &Theme, cols: usize) -> Vec<Line<'static>> {
    bulleted("→ ", text, t.key, t.label, cols)
}

/// `  · text` wrapped to `cols`, continuation lines under the text; each line the source wrote
/// (`␊`, as sanitising shows a newline) starts a line of its own.
#[must_use]
pub fn evidence(text: &str, t: &Theme, cols: usize) -> Vec<Line<'static>> {
    let mut parts = text.split('␊');
    let mut out = bulleted(
        "· ",
        parts.next().unwrap_or_default(),
        t.dim,
        Style::new(),
        cols,
    );
    for part in parts {
        out.extend(bulleted("  ", part, t.dim, Style::new(), cols));
    }
    out
}

/// `text` after an indented bullet, wrapped with a hanging indent under the text.
fn bulleted(
    bullet: &str,
    text: &str,
    bullet_style: Style,
    style: Style,
    cols: usize,
) -> Vec<Line<'static>> {
    let lead = INDENT + width::cells(bullet);
    width::hanging(text, cols, lead, lead)
        .into_iter()
        .enumerate()
        .map(|(i, piece)| {
            let head = if i == 0 {
                Span::styled(format!("{}{bullet}", " ".repeat(INDENT)), bullet_style)
            } else {
                Span::raw(" ".repeat(lead))
            };
            Line::from(vec![head, Span::styled(piece, style)])
        })
        .collect()
}

/// A group of lines of the block, taken whole or not at all (the first headline and its hint may
/// be cut).
struct Item {
    /// Lower goes first when rows are short.
    priority: u8,
    lines: Vec<Line<'static>>,
}

/// The block's possible lines in display order, each group with its priority: the first
/// headline (0), its hint (1), its evidence one line each (3), the other headlines (2).
fn items(state: &State, cols: usize) -> Vec<Item> {
    let t = &state.config.theme;
    let Some(first) = state.target.diagnosis.first() else {
        return Vec::new();
    };
    let mut out = vec![Item {
        priority: 0,
        lines: headline(first, t, cols),
    }];
    if let Some(h) = &first.action {
        out.push(Item {
            priority: 1,
            lines: hint(h, t, cols),
        });
    }
    for e in &first.evidence {
        let lead = INDENT + 2;
        out.push(Item {
            priority: 3,
            lines: vec![Line::from(vec![
                Span::styled(format!("{}· ", " ".repeat(INDENT)), t.dim),
                Span::raw(width::ellipsis(e, cols.saturating_sub(lead))),
            ])],
        });
    }
    for f in &state.target.diagnosis[1..] {
        out.push(Item {
            priority: 2,
            lines: vec![headline_line(f, t, cols)],
        });
    }
    out
}

/// Rows the block needs at `width` to say what matters: its title, the first headline and its
/// hint, wrapped (0 without findings). The layout serves these before the other panes'
/// extras (`docs/diagnosis.md`: the hint comes right after the headline).
#[must_use]
pub fn core(state: &State, width: u16) -> u16 {
    if state.target.diagnosis.is_empty() {
        return 0;
    }
    let lines: usize = items(state, usize::from(width))
        .iter()
        .filter(|i| i.priority <= 1)
        .map(|i| i.lines.len())
        .sum();
    u16::try_from(lines).unwrap_or(u16::MAX).saturating_add(1)
}

/// Rows the block wants at `width`: its title + every line (0 without findings).
#[must_use]
pub fn wanted(state: &State, width: u16) -> u16 {
    if state.target.diagnosis.is_empty() {
        return 0;
    }
    let lines: usize = items(state, usize::from(width))
        .iter()
        .map(|i| i.lines.len())
        .sum();
    u16::try_from(lines).unwrap_or(u16::MAX).saturating_add(1)
}

/// The lines shown in `rows` rows at `cols`: groups by priority while they fit (the first
/// headline, then its hint, cut to the rows left, the last line shown ending in `…`), in display
/// order.
#[must_use]
pub fn lines(state: &State, cols: usize, rows: usize) -> Vec<Line<'static>> {
    let mut items = items(state, cols);
    let mut taken = vec![0usize; items.len()];
    let mut left = rows;
    for priority in 0..=3 {
        for (i, item) in items.iter().enumerate() {
            if item.priority != priority {
                continue;
            }
            let n = item.lines.len();
            if n <= left {
                taken[i] = n;
                left -= n;
            } else if priority <= 1 {
                taken[i] = left;
                left = 0;
            }
        }
    }
    // A hint cut short ends in `…`.
    if let Some(i) = items.iter().position(|item| item.priority == 1)
        && (1..items[i].lines.len()).contains(&taken[i])
        && let Some(span) = items[i].lines[taken[i] - 1].spans.last_mut()
    {
        let text = format!("{}…", span.content.trim_end());
        span.content = width::ellipsis(&text, cols.saturating_sub(INDENT + 2)).into();
    }
    // A headline cut short ends in `…` (on one line: cut at the edge instead of wrapped).
    if let (Some(first), Some(f)) = (items.first_mut(), state.target.diagnosis.first())
        && taken[0] < first.lines.len()
    {
        if taken[0] == 1 {
            first.lines[0] = headline_line(f, &state.config.theme, cols);
        } else if let Some(last) = taken[0].checked_sub(1).and_then(|i| first.lines.get_mut(i))
            && let Some(span) = last.spans.last_mut()
        {
            let text = format!("{}…", span.content.trim_end());
            span.content = width::ellipsis(&text, cols.saturating_sub(INDENT)).into();
        }
    }
    items
        .into_iter()
        .zip(taken)
        .flat_map(|(item, n)| item.lines.into_iter().take(n))
        .collect()
}

/// The block's title: `Diagnosis`, with the count when there are several findings.
fn title(state: &State) -> String {
    match state.target.diagnosis.len() {
        0 | 1 => " Diagnosis ".to_owned(),
        n => format!(" Diagnosis ({n} findings) "),
    }
}

/// Draws the block: a title rule (`Enter: expand` on its right) and the lines that fit; on a
/// single row, the first headline alone.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.config.theme;
    let cols = usize::from(area.width);
    if area.height == 0 || state.target.diagnosis.is_empty() {
        return;
    }
    if area.height == 1 {
        let line = lines(state, cols, 1);
        frame.render_widget(Paragraph::new(line), area);
        return;
    }
    let mut block = Block::new()
        .borders(Borders::TOP)
        .border_style(t.dim)
        .title(Span::styled(title(state), t.title));
    let key = " Enter: expand ";
    if cols >= width::cells(&title(state)) + width::cells(key) + 4 {
        block = block.title_top(Line::from(Span::styled(key, t.dim)).right_aligned());
    }
    let body = lines(state, cols, usize::from(area.height - 1));
    frame.render_widget(Paragraph::new(body).block(block), area);
}
