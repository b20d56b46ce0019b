//! The header: pod identity, connection state, kubectl's STATUS/READY/RESTARTS/AGE, placement,
//! and a notice line (pod recreated, deletion pending).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::clock;
use crate::app::state::{Connection, State};
use crate::model::PodSummary;
use crate::model::deletion::diagnose;

/// Rows the header wants at `width` columns: identity, columns, placement, then the notice and
/// the deletion hint (how to release a pod stuck on its finalizers), each wrapped to `width`.
#[must_use]
pub fn wanted(state: &State, width: u16) -> u16 {
    let notes = notes_paragraph(state).line_count(width.max(1));
    3u16.saturating_add(u16::try_from(notes).unwrap_or(u16::MAX))
}

/// Draws the header into `area`: the three fixed lines, then as much of the wrapped notes as
/// fits.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let mut lines = vec![identity(state)];
    if let Some(pod) = &state.target.pod {
        lines.push(columns(pod, state));
        if area.height >= 3 {
            lines.push(placement(pod, state));
        }
    } else {
        lines.push(Line::from(""));
    }
    let fixed = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .min(area.height);
    frame.render_widget(Paragraph::new(lines), area);
    let rest = Rect {
        y: area.y + fixed,
        height: area.height - fixed,
        ..area
    };
    if rest.height > 0 {
        frame.render_widget(notes_paragraph(state), rest);
    }
}

/// The notes as one wrapped paragraph (empty when there are none).
fn notes_paragraph(state: &State) -> Paragraph<'static> {
    let lines: Vec<Line> = notes(state)
        .into_iter()
        .map(|(text, style)| Line::from(Span::styled(text, style)))
        .collect();
    if lines.is_empty() {
        return Paragraph::new(Vec::<Line>::new());
    }
    Paragraph::new(lines).wrap(Wrap { trim: false })
}

/// The notice (pod recreated, deletion pending) and the deletion hint, with their styles; no
/// deletion diagnosis once the pod is gone.
fn notes(state: &State) -> Vec<(String, Style)> {
    // Once the watch has seen the pod go, why it was still present no longer applies.
    let gone = matches!(state.target.connection, Connection::Deleted { .. });
    let deletion = state
        .target
        .pod
        .as_ref()
        .filter(|_| !gone)
        .and_then(|pod| diagnose(pod, &state.target.owner, state.now));
    let (headline, hint) = match deletion {
        Some(d) => (Some(d.headline), d.hint),
        None => (None, None),
    };
    let notice = match (state.target.notice.clone(), headline) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    let mut out = Vec::new();
    out.extend(notice.map(|n| (n, state.config.theme.notice)));
    out.extend(hint.map(|h| (h, state.config.theme.dim)));
    out
}

fn identity(state: &State) -> Line<'static> {
    let t = &state.config.theme;
    let connection = match &state.target.connection {
        Connection::Connecting => Span::styled("connecting…", t.dim),
        Connection::Live => Span::styled("● live", t.ok),
        Connection::Reconnecting(reason) => Span::styled(format!("reconnecting: {reason}"), t.warn),
        Connection::NotFound if state.target.namespace_missing => Span::styled(
            format!(
                "namespace \"{}\" not found (kubectl get namespaces)",
                state.target.namespace
            ),
            t.error,
        ),
        Connection::NotFound => Span::styled(
            format!(
                "pod \"{}\" not found in {}: waiting for it to appear",
                state.target.name, state.target.namespace
            ),
            t.warn,
        ),
        Connection::Deleted { at } => Span::styled(
            format!(
                "pod deleted at {} ({}), last state kept",
                at.strftime("%H:%M:%SZ"),
                clock::ago(*at, state.now)
            ),
            t.error,
        ),
    };
    Line::from(vec![
        Span::styled(
            format!("{}/{}", state.target.namespace, state.target.name),
            t.title,
        ),
        Span::raw("  "),
        connection,
    ])
}

/// The kubectl columns `STATUS  READY  RESTARTS  AGE` at `state.now`.
fn columns(pod: &PodSummary, state: &State) -> Line<'static> {
    let t = &state.config.theme;
    let p = &pod.print;
    let status_style = match p.status.as_str() {
        "Running" | "Completed" | "Succeeded" => t.ok,
        "Pending" | "ContainerCreating" | "PodInitializing" | "Terminating" => t.warn,
        s if s.starts_with("Init:") && s.contains('/') => t.warn,
        _ => t.error,
    };
    let ready_style = if p.ready == p.total { t.ok } else { t.warn };
    let row = pod.row(state.now);
    Line::from(vec![
        Span::styled("STATUS ", t.label),
        Span::styled(row.status, status_style),
        Span::styled("  READY ", t.label),
        Span::styled(row.ready, ready_style),
        Span::styled("  RESTARTS ", t.label),
        Span::raw(row.restarts),
        Span::styled("  AGE ", t.label),
        Span::raw(row.age),
    ])
}

fn placement(pod: &PodSummary, state: &State) -> Line<'static> {
    let t = &state.config.theme;
    let or_none = |v: &Option<String>| v.clone().unwrap_or_else(|| "<none>".to_owned());
    let phase = if pod.phase.is_empty() {
        "<none>"
    } else {
        &pod.phase
    };
    Line::from(vec![
        Span::styled("phase ", t.label),
        Span::raw(phase.to_owned()),
        Span::styled("  QoS ", t.label),
        Span::raw(or_none(&pod.qos_class)),
        Span::styled("  node ", t.label),
        Span::raw(or_none(&pod.node)),
        Span::styled("  IP ", t.label),
        Span::raw(or_none(&pod.pod_ip)),
    ])
}
