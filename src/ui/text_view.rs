//! The full-screen text viewer of the YAML (`y`) and describe (`D`) views (`docs/views.md`):
//! a title with the view's name, the pod, `resourceVersion 1234` and, for a while after the
//! object changed under it, `updated 3s ago (resourceVersion 1234 → 1240)`; the text scrolled
//! to the view's line, YAML coloured by part ([`super::yaml`]), the search's matches
//! highlighted (the current one in the selection's style); the footer's key hints, the status
//! line or the search being typed at the bottom.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::state::State;
use crate::app::views::TextView;
use crate::model::duration::human_duration;
use crate::theme::Theme;

/// The title line at `width` columns: `YAML  default/hello  resourceVersion 1234`, or after a
/// change `YAML  default/hello  updated 3s ago (resourceVersion 1234 → 1240)`, then the search's
/// place (`"probe" 1/2`) and where the view is (`lines 1-22 of 180`) while they fit.
#[must_use]
pub fn title(state: &State, view: &TextView, width: u16) -> Line<'static> {
    let t = &state.config.theme;
    let mut spans = vec![
        Span::styled(format!(" {} ", view.kind.name()), t.title),
        Span::raw(format!(" {}/{}", state.target.namespace, state.target.name)),
    ];
    match view.recent_change(state.now) {
        Some(c) => {
            let ago = human_duration(state.now.duration_since(c.at));
            spans.push(Span::styled(
                format!(
                    "  updated {ago} ago (resourceVersion {} → {})",
                    c.from, c.to
                ),
                t.warn,
            ));
        }
        None if !view.resource_version.is_empty() => spans.push(Span::styled(
            format!("  resourceVersion {}", view.resource_version),
            t.dim,
        )),
        None => {}
    }
    let mut optional = Vec::new();
    if let (Some(q), Some(i)) = (&view.query, view.current) {
        optional.push(Span::styled(
            format!(
                "  \"{}\" {}/{}",
                crate::model::sanitize::sanitize(q),
                i + 1,
                view.matches.len()
            ),
            t.warn,
        ));
    }
    let page = crate::app::views::page(state);
    let last = (view.scroll + page).min(view.lines.len());
    optional.push(Span::styled(
        format!(
            "  lines {}-{last} of {}",
            (view.scroll + 1).min(last),
            view.lines.len()
        ),
        t.dim,
    ));
    let mut used: usize = spans.iter().map(|s| super::width::cells(&s.content)).sum();
    for span in optional {
        let w = super::width::cells(&span.content);
        if used + w <= usize::from(width) {
            used += w;
            spans.push(span);
        }
    }
    Line::from(spans)
}

/// The style of a YAML part.
fn part_style(part: crate::model::yaml::syntax::Part, t: &Theme) -> Style {
    use crate::model::yaml::syntax::Part;
    match part {
        Part::Plain => Style::new(),
        Part::Dash => t.title,
        Part::Key => t.key,
        Part::Str => t.ok,
        Part::Scalar => t.warn,
        Part::Null => t.dim,
    }
}

/// Line `i` of the view styled: its parts' colours, the query's occurrences highlighted.
fn styled_line(view: &TextView, i: usize, t: &Theme) -> Line<'static> {
    let line = &view.lines[i];
    let mut base: Vec<(std::ops::Range<usize>, Style)> = match view.parts.get(i) {
        Some(parts) => parts
            .iter()
            .map(|(p, r)| (r.clone(), part_style(*p, t)))
            .collect(),
        None => vec![(0..line.len(), Style::new())],
    };
    let current = view.current.and_then(|c| view.matches.get(c)) == Some(&i);
    let highlight = if current {
        t.selected
    } else {
        Style::new().add_modifier(Modifier::REVERSED)
    };
    let hits = occurrences(line, view.query.as_deref());
    if !hits.is_empty() {
        let mut cuts: Vec<usize> = base
            .iter()
            .flat_map(|(r, _)| [r.start, r.end])
            .chain(hits.iter().flat_map(|r| [r.start, r.end]))
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        base = cuts
            .windows(2)
            .map(|w| {
                let style = base
                    .iter()
                    .find(|(r, _)| r.start <= w[0] && w[0] < r.end)
                    .map_or(Style::new(), |(_, s)| *s);
                let hit = hits.iter().any(|r| r.start <= w[0] && w[0] < r.end);
                (w[0]..w[1], if hit { style.patch(highlight) } else { style })
            })
            .collect();
    }
    Line::from(
        base.into_iter()
            .filter_map(|(r, s)| line.get(r).map(|text| Span::styled(text.to_owned(), s)))
            .collect::<Vec<_>>(),
    )
}

/// Byte ranges of `query` in `line`, case-insensitively (ASCII case folding, so ranges stay
/// those of `line`).
fn occurrences(line: &str, query: Option<&str>) -> Vec<std::ops::Range<usize>> {
    let Some(q) = query.filter(|q| !q.is_empty()) else {
        return Vec::new();
    };
    let (hay, needle) = (line.to_ascii_lowercase(), q.to_ascii_lowercase());
    hay.match_indices(&needle)
        .map(|(at, m)| at..at + m.len())
        .filter(|r| line.is_char_boundary(r.start) && line.is_char_boundary(r.end))
        .collect()
}

/// Draws `view` over the whole of `area`: title, text, footer.
pub fn render(frame: &mut Frame, area: Rect, state: &State, view: &TextView) {
    if area.height == 0 {
        return;
    }
    let t = &state.config.theme;
    frame.render_widget(
        Paragraph::new(title(state, view, area.width)),
        Rect { height: 1, ..area },
    );
    let body_rows = area.height.saturating_sub(2);
    let body = Rect {
        y: area.y + 1,
        height: body_rows,
        ..area
    };
    let lines: Vec<Line<'static>> = (view.scroll..view.lines.len())
        .take(usize::from(body_rows))
        .map(|i| styled_line(view, i, t))
        .collect();
    frame.render_widget(Paragraph::new(lines), body);
    if area.height < 2 {
        return;
    }
    let footer = Rect {
        y: area.y + area.height - 1,
        height: 1,
        ..area
    };
    match &view.input {
        Some(prompt) => {
            let (before, after) = prompt.split();
            let line = Line::from(vec![
                Span::styled("/", t.key),
                Span::raw(crate::model::sanitize::sanitize(before).into_owned()),
                Span::styled("▏", t.key),
                Span::raw(crate::model::sanitize::sanitize(after).into_owned()),
                Span::styled("   Enter search  Esc cancel", t.dim),
            ]);
            frame.render_widget(Paragraph::new(line), footer);
        }
        None => super::footer::render(frame, footer, state),
    }
}
