//! The header's node line (`docs/nodes.md`): `node sim-node-1  Ready`, or
//! `node sim-node-1  NotReady (Kubelet stopped posting node status.) 2m` in the error style,
//! then `· MemoryPressure` for each pressure condition `True` in the warning style and
//! `· SchedulingDisabled` when cordoned. Shown only once the node's watch delivered it (hidden
//! after a refusal: `app::node`).

use ratatui::text::{Line, Span};

use super::clock;
use crate::app::state::State;

/// The node line, when the pod's node is known.
#[must_use]
pub fn line(state: &State) -> Option<Line<'static>> {
    let node = state.target.node.shown()?;
    let t = &state.config.theme;
    let mut spans = vec![
        Span::styled("node ", t.label),
        Span::raw(node.name.clone()),
        Span::raw("  "),
    ];
    match node.ready_condition() {
        Some(c) if c.status == "True" => spans.push(Span::styled("Ready", t.ok)),
        ready => {
            let mut text = if ready.is_some() {
                "NotReady".to_owned()
            } else {
                "Unknown".to_owned()
            };
            if let Some(c) = ready {
                let why = if c.message.is_empty() {
                    &c.reason
                } else {
                    &c.message
                };
                if !why.is_empty() {
                    text.push_str(&format!(" ({why})"));
                }
                if let Some(since) = c.last_transition_time {
                    text.push(' ');
                    text.push_str(&clock::age(since, state.now));
                }
            }
            spans.push(Span::styled(text, t.error));
        }
    }
    // `Unknown` pressure conditions come with `Ready=Unknown`, which the line already says.
    for c in node.under_pressure() {
        spans.push(Span::styled(format!(" · {}", c.type_), t.warn));
    }
    if node.unschedulable {
        spans.push(Span::styled(" · SchedulingDisabled", t.warn));
    }
    Some(Line::from(spans))
}
