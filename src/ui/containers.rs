//! The container list: one line per container in kubelet order, the selected one highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{countdown, exit_hint, section};
use crate::app::state::{Connection, State};
use crate::model::pod_ref::not_found_line;
use crate::model::{ContainerKind, ContainerState, ContainerSummary};
use crate::ui::theme::Theme;

/// Rows the list wants: title + one per container (+1 for the waiting text without a pod).
#[must_use]
pub fn wanted(state: &State) -> u16 {
    let n = state.target.pod.as_ref().map_or(1, |p| p.containers.len());
    u16::try_from(n).unwrap_or(u16::MAX).saturating_add(1)
}

/// The kind label shown in the list and the detail title.
#[must_use]
pub fn kind_label(kind: ContainerKind) -> &'static str {
    match kind {
        ContainerKind::Init => "init",
        ContainerKind::Sidecar => "sidecar",
        ContainerKind::Main => "main",
        ContainerKind::Ephemeral => "ephemeral",
    }
}

/// The short state text (`Waiting: CrashLoopBackOff`, `Running`, `Terminated: Error (exit 1)`)
/// and the style of its severity.
#[must_use]
pub fn state_text(state: &ContainerState, theme: &Theme) -> (String, Style) {
    match state {
        ContainerState::Unknown => ("no status".to_owned(), theme.dim),
        ContainerState::Waiting { reason, .. } => {
            let benign = matches!(
                reason.as_str(),
                "" | "PodInitializing" | "ContainerCreating"
            );
            let text = if reason.is_empty() {
                "Waiting".to_owned()
            } else {
                format!("Waiting: {reason}")
            };
            (text, if benign { theme.warn } else { theme.error })
        }
        ContainerState::Running { .. } => ("Running".to_owned(), theme.ok),
        ContainerState::Terminated(t) => {
            let reason = if t.reason.is_empty() {
                "Terminated"
            } else {
                &t.reason
            };
            let style = if t.exit_code == 0 {
                theme.ok
            } else {
                theme.error
            };
            (
                format!("{reason}, {}", exit_hint::exit_text(t.exit_code)),
                style,
            )
        }
    }
}

/// Draws the list (or the waiting text when there is no pod).
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.config.theme;
    let mut lines = Vec::new();
    match &state.target.pod {
        None => lines.push(Line::from(Span::styled(
            match state.target.connection {
                Connection::NotFound if state.target.namespace_missing => format!(
                    "  no namespace {} in this cluster: check -n (kubectl get namespaces)",
                    state.target.namespace
                ),
                Connection::NotFound if !state.target.closest_pods.is_empty() => format!(
                    "  {} Waiting for it to appear…",
                    not_found_line(&state.target.name, &state.target.namespace, &state.target.closest_pods)
                ),
                Connection::NotFound => format!(
                    "  waiting for pod {} in {} to appear… (kubectl get pods -n {} lists what is there)",
                    state.target.name, state.target.namespace, state.target.namespace
                ),
                // A workload none of whose pods exists: connected, nothing to show yet.
                _ if state.workload.is_some() && state.target.name.is_empty() => {
                    "  no pod to show".to_owned()
                }
                _ => "  connecting to the API server…".to_owned(),
            },
            t.dim,
        ))),
        Some(pod) => {
            let name_w = pod
                .containers
                .iter()
                .map(|c| c.name.chars().count())
                .max()
                .unwrap_or(0)
                .clamp(4, 24);
            // Keep the selected row visible when the list is cut short.
            let rows = usize::from(area.height.saturating_sub(1)).max(1);
            let skip = (state.target.selected + 1).saturating_sub(rows);
            for (i, c) in pod.containers.iter().enumerate().skip(skip) {
                lines.push(row(c, i == state.target.selected, name_w, area.width, state));
            }
        }
    }
    frame.render_widget(Paragraph::new(lines).block(section("Containers", t)), area);
}

fn row(
    c: &ContainerSummary,
    selected: bool,
    name_w: usize,
    width: u16,
    state: &State,
) -> Line<'static> {
    let t = &state.config.theme;
    let wide = width >= 100;
    let (text, style) = state_text(&c.state, t);
    let name: String = c.name.chars().take(name_w).collect();
    let state_w = if wide { 28 } else { 26 };
    let ready = match (c.ready, wide) {
        (true, true) => Span::styled("ready    ", t.ok),
        (false, true) => Span::styled("not ready", t.warn),
        (true, false) => Span::styled("✓", t.ok),
        (false, false) => Span::styled("✗", t.warn),
    };
    let restarts = if wide {
        let noun = if c.restart_count == 1 {
            "restart "
        } else {
            "restarts"
        };
        format!(" {:>3} {noun}  ", c.restart_count)
    } else {
        format!(" ↻{:<3} ", c.restart_count)
    };
    let mut spans = vec![
        Span::styled(if selected { "▶ " } else { "  " }, t.key),
        Span::styled(format!("{:<9} ", kind_label(c.kind)), t.label),
        Span::styled(
            format!("{name:<name_w$}"),
            if selected { t.selected } else { t.title },
        ),
        Span::raw(" "),
        Span::styled(format!("{text:<state_w$} "), style),
        ready,
        Span::raw(restarts),
    ];
    if let Some(b) = &c.backoff {
        if matches!(state.target.connection, Connection::Deleted { .. }) {
            let text = if wide {
                countdown::deleted_text(b)
            } else {
                "no restart: deleted".to_owned()
            };
            spans.push(Span::styled(text, t.dim));
        } else {
            let text = if wide {
                countdown::text(b, state.now)
            } else {
                countdown::short_text(b, state.now)
            };
            spans.push(Span::styled(text, t.warn));
        }
    } else if let Some(last) = c.last_state.as_ref().filter(|_| wide) {
        let reason = if last.reason.is_empty() {
            "Terminated"
        } else {
            &last.reason
        };
        spans.push(Span::styled(
            format!("last: {reason}, {}", exit_hint::exit_text(last.exit_code)),
            t.dim,
        ));
    }
    Line::from(spans)
}
