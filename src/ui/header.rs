//! The header: pod identity, connection state, kubectl's STATUS/READY/RESTARTS/AGE, placement,
//! and a notice line (pod recreated, deletion pending).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::clock;
use crate::app::state::{Connection, State};
use crate::model::PodSummary;

/// Rows the header wants: identity, columns, placement, and the notice line when there is one.
#[must_use]
pub fn wanted(state: &State) -> u16 {
    if notice(state).is_some() { 4 } else { 3 }
}

/// Draws the header into `area` (as many of its lines as fit).
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let mut lines = vec![identity(state)];
    if let Some(pod) = &state.pod {
        lines.push(columns(pod, state));
        if area.height >= 3 {
            lines.push(placement(pod, state));
        }
    } else {
        lines.push(Line::from(""));
    }
    if let Some(text) = notice(state).filter(|_| area.height >= 4) {
        lines.push(Line::from(Span::styled(text, state.theme.notice)));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn identity(state: &State) -> Line<'static> {
    let t = &state.theme;
    let connection = match &state.connection {
        Connection::Connecting => Span::styled("connecting…", t.dim),
        Connection::Live => Span::styled("● live", t.ok),
        Connection::Reconnecting(reason) => Span::styled(format!("reconnecting: {reason}"), t.warn),
        Connection::NotFound => Span::styled(
            format!(
                "waiting for pod {} in {} to appear",
                state.name, state.namespace
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
        Span::styled(format!("{}/{}", state.namespace, state.name), t.title),
        Span::raw("  "),
        connection,
    ])
}

/// The kubectl columns `STATUS  READY  RESTARTS  AGE` at `state.now`.
fn columns(pod: &PodSummary, state: &State) -> Line<'static> {
    let t = &state.theme;
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
    let t = &state.theme;
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

/// The pod-recreated notice and/or the deletion in progress, joined on one line.
fn notice(state: &State) -> Option<String> {
    let deletion = state.pod.as_ref().and_then(|pod| {
        let at = pod.deletion_timestamp?;
        Some(if at > state.now {
            format!(
                "terminating: grace period ends in {} (then SIGKILL)",
                clock::human(at.duration_since(state.now))
            )
        } else {
            format!(
                "deleted {} but still present: finalizers or an unreachable node",
                clock::ago(at, state.now)
            )
        })
    });
    match (state.notice.clone(), deletion) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}
