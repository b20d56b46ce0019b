//! The header's workload block, above the pod's identity while a workload is followed
//! (`docs/workloads.md`, "The workload view"): the workload line (`deploy/web  3/4 ready
//! updated 2/4  rollout: …`, or `-l app=web  3 pods`), what changed between the ReplicaSets'
//! templates, the row of per-pod glyphs (one per pod in the choice order, coloured by trouble,
//! the shown pod in brackets), and the watches' failures. The line and the changes wrap at the
//! width; the glyph row is cut with the count of pods left out.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::state::State;
use crate::app::workload::{FollowMode, WorkloadView};
use crate::model::workload::choice::Trouble;
use crate::model::workload::{diff, header};
use crate::theme::Theme;

/// Rows the workload block takes at `width` columns (0 without a workload).
#[must_use]
pub fn rows(state: &State, width: u16) -> u16 {
    match paragraph(state, width) {
        Some(p) => u16::try_from(p.line_count(width.max(1))).unwrap_or(u16::MAX),
        None => 0,
    }
}

/// The block as one paragraph at `width` columns; `None` without a workload.
#[must_use]
pub fn paragraph(state: &State, width: u16) -> Option<Paragraph<'static>> {
    // A pod attached by name shows only the offer of its replacement (a header note).
    let view = state
        .workload
        .as_ref()
        .filter(|w| w.mode == FollowMode::Auto)?;
    let t = &state.config.theme;
    let mut lines = vec![Line::from(Span::styled(line_text(view), t.label))];
    if let Some(text) = scaled_text(view) {
        lines.push(Line::from(Span::styled(text, t.warn)));
    }
    if let Some(s) = &view.summary
        && !s.changes.is_empty()
    {
        lines.push(Line::from(vec![
            Span::styled("changed ", t.label),
            Span::styled(diff::changes_text(&s.changes), t.dim),
        ]));
    }
    if !view.pods.is_empty() {
        lines.push(glyph_row(view, &state.target.name, t, usize::from(width)));
    }
    for e in &view.errors {
        lines.push(Line::from(Span::styled(e.clone(), t.warn)));
    }
    Some(Paragraph::new(lines).wrap(Wrap { trim: true }))
}

/// The workload line: `deploy/web deleted` once its watch saw it deleted (no counts), the
/// summary's (`header::workload_line`), a selector's (`header::selector_line`), or the named
/// workload before its watch answered.
fn line_text(view: &WorkloadView) -> String {
    if view.deleted {
        let named = view
            .summary
            .as_ref()
            .map(|s| (s.kind, s.name.as_str()))
            .or_else(|| view.named.as_ref().map(|w| (w.kind, w.name.as_str())));
        if let Some((kind, name)) = named {
            return format!("{}/{name} deleted", kind.short());
        }
    }
    match (&view.summary, &view.named) {
        (Some(s), _) => header::workload_line(s),
        (None, None) => header::selector_line(&view.selector, &view.pods),
        (None, Some(w)) => format!("{}/{}", w.kind.short(), w.name),
    }
}

/// Why a workload has no pods on purpose: `scaled to 0 replicas (spec.replicas: 0)` (not for a
/// Job, whose `spec.completions` counts completions, nor once the workload is deleted).
fn scaled_text(view: &WorkloadView) -> Option<String> {
    let s = view.summary.as_ref().filter(|_| !view.deleted)?;
    (s.replicas == Some(0) && s.jobs.is_none())
        .then(|| "scaled to 0 replicas (spec.replicas: 0)".to_owned())
}

/// The style of a glyph of `trouble` (a pod being deleted: dim).
fn glyph_style(t: &Theme, trouble: Trouble, deleting: bool) -> Style {
    if deleting {
        return t.dim;
    }
    match trouble {
        Trouble::Waiting | Trouble::Failed => t.error,
        Trouble::Pending | Trouble::NotReady => t.warn,
        Trouble::Running => t.ok,
    }
}

/// `pods ●●[✖]◐`: one glyph per pod, the shown one (`shown`) in brackets; cut at `width`
/// columns with `+N` for the pods left out.
fn glyph_row(view: &WorkloadView, shown: &str, t: &Theme, width: usize) -> Line<'static> {
    let glyphs = header::glyphs(&view.pods);
    let mut spans = vec![Span::styled("pods ", t.label)];
    let mut used = 5;
    let total = glyphs.len();
    for (i, (g, pod)) in glyphs.iter().zip(&view.pods).enumerate() {
        let here = pod.pod.name == shown;
        let cells = if here { 3 } else { 1 };
        let left = total - i;
        // Room for this glyph and, if more follow, the `+N` that says how many.
        let tail = if left > 1 {
            format!(" +{}", left - 1).len()
        } else {
            0
        };
        if used + cells + tail > width && left > 1 {
            spans.push(Span::styled(format!(" +{left}"), t.dim));
            break;
        }
        let style = glyph_style(t, g.trouble, g.deleting);
        if here {
            spans.push(Span::styled("[", t.title));
            spans.push(Span::styled(g.symbol().to_string(), style));
            spans.push(Span::styled("]", t.title));
        } else {
            spans.push(Span::styled(g.symbol().to_string(), style));
        }
        used += cells;
    }
    Line::from(spans)
}

/// What the waiting screen says (after the namespace) while no pod of the workload exists:
/// `deployment web selects app=web; no pods match` (`header::no_pods`), or `no pods match -l
/// app=web`, then that the watch waits for one; `None` when a pod is shown.
#[must_use]
pub fn waiting_text(state: &State) -> Option<String> {
    let view = state.workload.as_ref()?;
    if !state.target.name.is_empty() {
        return None;
    }
    let what = match &view.summary {
        Some(s) => header::no_pods(s),
        None => format!("no pods match -l {}", view.selector),
    };
    Some(format!("{what}: waiting for one to appear"))
}

/// The switcher's title over a followed workload's pods (`P`, rows given): ` pods of deploy/web
/// (4) ` (or `pods of -l app=web`) in place of the namespace; `None` for any other list.
#[must_use]
pub fn switcher_title(state: &State, sw: &crate::app::switcher::Switcher) -> Option<String> {
    let view = state
        .workload
        .as_ref()
        .filter(|_| sw.rows == crate::app::switcher::Rows::Given)?;
    let what = match &view.named {
        Some(w) => format!("{}/{}", w.kind.short(), w.name),
        None => format!("-l {}", view.selector),
    };
    let scope = sw.scope();
    Some(super::switcher::title(sw).replacen(&scope, &format!("pods of {what}"), 1))
}

/// The header note offering a deleted pod's replacement: `replaced by web-7d9f8c6b5-q8m4t —
/// press R to follow`.
#[must_use]
pub fn offer_text(state: &State) -> Option<String> {
    let name = state.workload.as_ref()?.offer.as_ref()?;
    Some(format!("replaced by {name} — press R to follow"))
}
