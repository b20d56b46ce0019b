//! The help overlay (`?`): every keymap row, grouped under a heading per mode, plus what the
//! countdown marks mean. Two columns when the terminal is wide enough; scrollable (↓/j, ↑/k,
//! PgDn/PgUp while open) with a "more ↓" hint when it still does not fit.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::keymap::{self, Action};
use crate::app::state::State;
use crate::ui::theme::Theme;

/// Meaning of the marks the view uses: `(mark, meaning)`.
const LEGEND: &[(&str, &str)] = &[
    (
        "restart in 1m30s",
        "kubelet's next restart: lastState finishedAt + back-off",
    ),
    (
        "≈",
        "back-off estimated from restartCount (no kubelet message)",
    ),
    (
        "restarting…",
        "due; the kubelet restarts it at its next sync (≤ ~15 s)",
    ),
    ("overdue", "due for longer than the kubelet's sync slack"),
];

/// Width of the mark column of the legend.
const MARK_WIDTH: usize = 18;
/// Width of the key column of a keymap row (`Esc / q / P / o` is the widest label).
const KEY_WIDTH: usize = 16;
/// Widest the popup gets.
const MAX_WIDTH: u16 = 100;
/// Inner width from which the keymap is laid out in two columns.
const TWO_COLUMNS_FROM: usize = 64;

/// The heading a keymap action is listed under in the help overlay.
#[must_use]
pub fn heading(action: Action) -> &'static str {
    match action {
        Action::NextContainer
        | Action::PrevContainer
        | Action::FirstContainer
        | Action::LastContainer
        | Action::OpenShell
        | Action::AddDebug => "containers",
        Action::ToggleLogs | Action::ToggleForwards | Action::OpenSwitcher => "panels",
        Action::ToggleHelp
        | Action::CloseHelp
        | Action::HelpUp
        | Action::HelpDown
        | Action::HelpPageUp
        | Action::HelpPageDown
        | Action::Quit => "help, quit",
        Action::SwitchFocus
        | Action::LogPrevious
        | Action::LogFollow
        | Action::LogAll
        | Action::LogTimestamps
        | Action::LogWrap
        | Action::LogSearch
        | Action::LogNextMatch
        | Action::LogPrevMatch
        | Action::LogFilter
        | Action::LogEvents
        | Action::LogSave
        | Action::LogUp
        | Action::LogDown
        | Action::LogPageUp
        | Action::LogPageDown
        | Action::LogTop
        | Action::LogBottom => "log pane (Tab focuses it)",
        Action::ForwardAdd
        | Action::ForwardRemove
        | Action::ForwardNext
        | Action::ForwardPrev
        | Action::CloseForwards => "port-forward panel (f)",
        Action::SwitcherNext
        | Action::SwitcherPrev
        | Action::SwitchToSelected
        | Action::CloseSwitcher => "pod switcher (P, demo)",
    }
}

/// Headings in the order they are shown.
const HEADINGS: &[&str] = &[
    "containers",
    "panels",
    "port-forward panel (f)",
    "pod switcher (P, demo)",
    "log pane (Tab focuses it)",
    "help, quit",
];

/// One plain-text line of the overlay and how to style it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Row {
    Heading(&'static str),
    Key(String, &'static str),
    Blank,
}

/// The keymap's rows grouped by action, in sections per [`heading`].
fn sections() -> Vec<Vec<Row>> {
    let groups = keymap::grouped_actions(false, None);
    HEADINGS
        .iter()
        .map(|h| {
            let mut rows = vec![Row::Heading(h)];
            for (action, keys, description) in &groups {
                if heading(*action) == *h {
                    rows.push(Row::Key(keys.join(" / "), description));
                }
            }
            rows
        })
        .filter(|rows| rows.len() > 1)
        .collect()
}

/// The overlay's lines for an inner width: keymap sections (two columns side by side when
/// `inner_width` allows), a blank line, then the legend. Each line is `(left, right)`.
fn layout(inner_width: usize) -> Vec<(Row, Option<Row>)> {
    let sections = sections();
    let mut out = Vec::new();
    if inner_width >= TWO_COLUMNS_FROM {
        // Split the sections where the taller column is shortest.
        let len = |s: &[Vec<Row>]| s.iter().map(|r| r.len() + 1).sum::<usize>();
        let split = (1..sections.len())
            .min_by_key(|&i| len(&sections[..i]).max(len(&sections[i..])))
            .unwrap_or(sections.len());
        let column = |s: &[Vec<Row>]| {
            let mut c: Vec<Row> = Vec::new();
            for section in s {
                if !c.is_empty() {
                    c.push(Row::Blank);
                }
                c.extend(section.iter().cloned());
            }
            c
        };
        let (left, right) = (column(&sections[..split]), column(&sections[split..]));
        for i in 0..left.len().max(right.len()) {
            out.push((
                left.get(i).cloned().unwrap_or(Row::Blank),
                right.get(i).cloned(),
            ));
        }
    } else {
        for (i, section) in sections.iter().enumerate() {
            if i > 0 {
                out.push((Row::Blank, None));
            }
            out.extend(section.iter().cloned().map(|r| (r, None)));
        }
    }
    out.push((Row::Blank, None));
    out
}

/// The legend's lines: mark and meaning on one line when `inner_width` allows, else two.
fn legend_lines(inner_width: usize) -> Vec<(String, String)> {
    let widest = LEGEND
        .iter()
        .map(|(_, m)| m.chars().count())
        .max()
        .unwrap_or(0);
    if inner_width >= MARK_WIDTH + widest {
        LEGEND
            .iter()
            .map(|(mark, meaning)| (format!("{mark:<MARK_WIDTH$}"), (*meaning).to_owned()))
            .collect()
    } else {
        LEGEND
            .iter()
            .flat_map(|(mark, meaning)| {
                [
                    ((*mark).to_owned(), String::new()),
                    (String::new(), format!("  {meaning}")),
                ]
            })
            .collect()
    }
}

/// The popup's rectangle in a `cols × rows` area and its inner width, content line count.
fn geometry(area: Rect) -> (Rect, usize, usize) {
    let width = area.width.min(MAX_WIDTH);
    let inner = usize::from(width.saturating_sub(2));
    let total = layout(inner).len() + legend_lines(inner).len();
    let height = area
        .height
        .min(u16::try_from(total).unwrap_or(u16::MAX).saturating_add(2));
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    (popup, inner, total)
}

/// How far the overlay can scroll on a `cols × rows` terminal: content lines that do not fit
/// inside its borders (0 when everything fits).
#[must_use]
pub fn max_scroll(cols: u16, rows: u16) -> usize {
    let (popup, _, total) = geometry(Rect::new(0, 0, cols, rows));
    total.saturating_sub(usize::from(popup.height.saturating_sub(2)))
}

fn spans(row: &Row, width: usize, t: &Theme) -> Vec<Span<'static>> {
    match row {
        Row::Heading(h) => vec![Span::styled(format!("{h:<width$}"), t.title)],
        Row::Key(keys, description) => {
            let rest = width.saturating_sub(KEY_WIDTH);
            vec![
                Span::styled(format!("{keys:<KEY_WIDTH$}"), t.key),
                Span::raw(format!("{description:<rest$}")),
            ]
        }
        Row::Blank => vec![Span::raw(" ".repeat(width))],
    }
}

/// Draws the overlay centred in `area` (clipped to it on small terminals), scrolled to
/// `state.help_scroll` (clamped), with "more ↓"/"more ↑" hints on its bottom border.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.theme;
    let (popup, inner, total) = geometry(area);
    let column = inner / 2;
    let mut lines: Vec<Line> = layout(inner)
        .into_iter()
        .map(|(left, right)| match right {
            Some(right) => {
                let mut s = spans(&left, column, t);
                s.extend(spans(&right, inner - column, t));
                Line::from(s)
            }
            None => Line::from(spans(&left, inner, t)),
        })
        .collect();
    for (mark, meaning) in legend_lines(inner) {
        lines.push(Line::from(vec![
            Span::styled(mark, t.key),
            Span::styled(meaning, t.dim),
        ]));
    }
    let visible = usize::from(popup.height.saturating_sub(2));
    let scroll = state.help_scroll.min(total.saturating_sub(visible));
    let mut block = Block::new()
        .borders(Borders::ALL)
        .title(Span::styled(" help — ? or Esc to close ", t.title));
    let below = scroll + visible < total;
    if scroll > 0 || below {
        let hint = match (scroll > 0, below) {
            (true, true) => " ↑ more ↓ (j/k, PgUp/PgDn) ",
            (false, _) => " more ↓ (j/↓, PgDn) ",
            (true, false) => " ↑ more (k/↑, PgUp) ",
        };
        block = block.title_bottom(Line::from(Span::styled(hint, t.key)).right_aligned());
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0)),
        popup,
    );
}
