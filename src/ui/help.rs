//! The help overlay (`?`): every keymap row, grouped under a heading per mode, plus what the
//! countdown marks mean. Two columns when the terminal is wide enough, three from 120 columns;
//! scrollable (↓/j, ↑/k, PgDn/PgUp while open) with a "more ↓" hint when it still does not fit.

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
const MAX_WIDTH: u16 = 116;
/// Inner width from which the keymap is laid out in two columns.
const TWO_COLUMNS_FROM: usize = 64;
/// Inner width from which the keymap is laid out in three columns (a 120-column terminal).
const THREE_COLUMNS_FROM: usize = 108;

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
        Action::PrevSibling
        | Action::NextSibling
        | Action::WorkloadPods
        | Action::FollowReplacement => WORKLOAD,
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
        | Action::SwitcherPageDown
        | Action::SwitcherPageUp
        | Action::SwitchToSelected
        | Action::CloseSwitcher => "pod switcher (P)",
        Action::ExpandDiagnosis
        | Action::CloseDiagnosis
        | Action::DiagnosisUp
        | Action::DiagnosisDown
        | Action::DiagnosisPageUp
        | Action::DiagnosisPageDown => DIAGNOSIS,
        Action::FocusEvents | Action::FocusContainers | Action::EventNext | Action::EventPrev => {
            EVENTS
        }
        Action::OpenYaml
        | Action::OpenDescribe
        | Action::OpenTimeline
        | Action::CloseView
        | Action::ViewDown
        | Action::ViewUp
        | Action::ViewPageDown
        | Action::ViewPageUp
        | Action::ViewTop
        | Action::ViewBottom
        | Action::ViewSearch
        | Action::ViewNextMatch
        | Action::ViewPrevMatch
        | Action::ViewManagedFields
        | Action::ViewSave
        | Action::ViewCopy => VIEWS,
    }
}

/// Keys listed first in their section: they open the mode the section's other keys work in.
const OPENERS: &[Action] = &[
    Action::ExpandDiagnosis,
    Action::FocusEvents,
    Action::OpenYaml,
    Action::OpenDescribe,
    Action::OpenTimeline,
];

/// The heading of the YAML, describe and timeline views' keys.
const VIEWS: &str = "YAML, describe, timeline (y, D, T)";

/// The heading of the diagnosis keys.
const DIAGNOSIS: &str = "diagnosis (Enter expands it)";
/// The heading of the keys of a followed workload's pods.
const WORKLOAD: &str = "workload (deploy/…, -l)";
/// The heading of the events keys.
const EVENTS: &str = "events (Tab focuses them)";

/// Headings in the order they are shown.
const HEADINGS: &[&str] = &[
    "containers",
    DIAGNOSIS,
    "panels",
    WORKLOAD,
    "port-forward panel (f)",
    "pod switcher (P)",
    "log pane (Tab focuses it)",
    EVENTS,
    VIEWS,
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
            // The key that opens a section's mode first (Enter, Tab), then its keys.
            let (open, rest): (Vec<_>, Vec<_>) = groups
                .iter()
                .filter(|(action, _, _)| heading(*action) == *h)
                .partition(|(action, _, _)| OPENERS.contains(action));
            for (_, keys, description) in open.into_iter().chain(rest) {
                rows.push(Row::Key(keys.join(" / "), description));
            }
            rows
        })
        .filter(|rows| rows.len() > 1)
        .collect()
}

/// How many columns the keymap takes at an inner width: three from [`THREE_COLUMNS_FROM`], two
/// from [`TWO_COLUMNS_FROM`], else one.
fn column_count(inner_width: usize) -> usize {
    if inner_width >= THREE_COLUMNS_FROM {
        3
    } else if inner_width >= TWO_COLUMNS_FROM {
        2
    } else {
        1
    }
}

/// The sections cut into `n` runs (in order) so that the tallest column is shortest.
fn split(sections: &[Vec<Row>], n: usize) -> Vec<&[Vec<Row>]> {
    let len = |s: &[Vec<Row>]| s.iter().map(|r| r.len() + 1).sum::<usize>();
    let count = sections.len();
    let mut best: Option<(usize, Vec<usize>)> = None;
    // Cut points 0 < a ≤ b ≤ count (b = count for two columns).
    for a in 1..=count {
        for b in a..=count {
            if (n == 2 && b != count) || (n < 2 && (a != count || b != count)) {
                continue;
            }
            let tallest = len(&sections[..a])
                .max(len(&sections[a..b]))
                .max(len(&sections[b..]));
            if best.as_ref().is_none_or(|(t, _)| tallest < *t) {
                best = Some((tallest, vec![a, b]));
            }
        }
    }
    let cuts = best.map_or_else(|| vec![count, count], |(_, c)| c);
    let (a, b) = (cuts[0], cuts[1]);
    let all = [&sections[..a], &sections[a..b], &sections[b..]];
    all.into_iter().take(n.max(1)).collect()
}

/// The overlay's lines for an inner width: keymap sections (in two or three columns side by side
/// when `inner_width` allows), a blank line, then the legend. Each line has one row per column.
fn layout(inner_width: usize) -> Vec<Vec<Row>> {
    let sections = sections();
    let n = column_count(inner_width);
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
    let columns: Vec<Vec<Row>> = split(&sections, n).into_iter().map(column).collect();
    let height = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut out: Vec<Vec<Row>> = (0..height)
        .map(|i| {
            columns
                .iter()
                .map(|c| c.get(i).cloned().unwrap_or(Row::Blank))
                .collect()
        })
        .collect();
    out.push(vec![Row::Blank]);
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
/// the overlay's scroll (clamped), with "more ↓"/"more ↑" hints on its bottom border.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.config.theme;
    let (popup, inner, total) = geometry(area);
    let mut lines: Vec<Line> = layout(inner)
        .into_iter()
        .map(|cells| {
            let n = cells.len().max(1);
            let column = inner / n;
            let mut s = Vec::new();
            for (i, cell) in cells.iter().enumerate() {
                // The last column takes what the division leaves.
                let w = if i + 1 == n {
                    inner - column * (n - 1)
                } else {
                    column
                };
                s.extend(spans(cell, w, t));
            }
            Line::from(s)
        })
        .collect();
    for (mark, meaning) in legend_lines(inner) {
        lines.push(Line::from(vec![
            Span::styled(mark, t.key),
            Span::styled(meaning, t.dim),
        ]));
    }
    let visible = usize::from(popup.height.saturating_sub(2));
    let scroll = state
        .overlay
        .help_scroll()
        .unwrap_or(0)
        .min(total.saturating_sub(visible));
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
