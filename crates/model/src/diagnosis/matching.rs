//! Reading every message the pod carries against the knowledge base (`kb`): the pod's status
//! and conditions, its own Warning events, and for each container its waiting and terminated
//! messages, its Warning events while it or the pod is unwell, and the decisive lines of its
//! previous and current logs while it fails. What matched is joined to the findings by
//! `messages.rs`.

use super::evidence::{Evidence, EvidenceKind};
use super::facts::EVENT_TTL;
use super::kb::{self, Hit, On};
use super::{Inputs, LogTail};
use crate::event::EventSummary;
use crate::pod::{ContainerKind, ContainerState, ContainerSummary};

/// One message the knowledge base matched, with where it was read.
#[derive(Debug, Clone)]
pub struct Matched {
    /// The container it is about, `None` for the pod.
    pub container: Option<String>,
    /// The row and its groups.
    pub hit: Hit,
    /// The fact it was read from, as evidence.
    pub evidence: Evidence,
    /// The text that was matched (the message or the log line), to tell which finding already
    /// quotes it.
    pub message: String,
}
/// Whether container `c` is failing now: waiting with an error, restarted, terminated with a
/// non-zero code, running but not ready, or an init container still running.
pub(super) fn failing(inp: &Inputs<'_>, c: &ContainerSummary) -> bool {
    match &c.state {
        ContainerState::Waiting { reason, .. } => {
            !(reason.is_empty() || reason == "ContainerCreating" || reason == "PodInitializing")
                || c.restart_count > 0
        }
        ContainerState::Terminated(t) => t.exit_code != 0 || t.reason == "OOMKilled",
        ContainerState::Running { started_at } => {
            let young = started_at.is_some_and(|s| inp.now.duration_since(s).as_secs() < 600);
            !c.ready && c.kind != ContainerKind::Ephemeral
                || (c.restart_count > 0 && young)
                || c.kind == ContainerKind::Init
        }
        ContainerState::Unknown => false,
    }
}

/// Whether the pod as a whole is not well: not Ready, pending, failed, or being deleted.
pub(super) fn pod_unwell(inp: &Inputs<'_>) -> bool {
    let p = inp.pod;
    p.deletion_timestamp.is_some()
        || matches!(p.phase.as_str(), "Pending" | "Failed" | "Unknown")
        || p.conditions
            .iter()
            .any(|c| c.type_ == "Ready" && c.status != "True")
}

/// The event as evidence, typed.
fn event_evidence(e: &EventSummary, inp: &Inputs<'_>) -> Evidence {
    Evidence::new(
        EvidenceKind::Event,
        format!("event {}", e.reason),
        super::facts::event_line(e, inp.now),
    )
    .at(e.last_timestamp.or(e.first_timestamp))
}

/// Whether an event is recent enough to speak for the pod now: within the events' lifetime and
/// not older than the container's current instance when that runs.
fn current(inp: &Inputs<'_>, e: &EventSummary, c: Option<&ContainerSummary>) -> bool {
    let Some(t) = e.last_timestamp.or(e.first_timestamp) else {
        return true;
    };
    if inp.now.duration_since(t) > EVENT_TTL * 24 {
        return false;
    }
    match c.map(|c| &c.state) {
        Some(ContainerState::Running {
            started_at: Some(s),
        }) => t >= *s || !c.is_some_and(|c| c.ready),
        _ => true,
    }
}

/// Matches one log tail: the best-scoring lines first, then the last few lines
/// ([`LogTail::log_hit`], found once when the tail was read).
fn log_hits(name: &str, instance: &str, tail: &LogTail, out: &mut Vec<Matched>) {
    let (Ok(lines), Some((i, hit))) = (&tail.lines, tail.log_hit()) else {
        return;
    };
    let line = lines[i].trim();
    let text = format!(
        "log {name} ({instance}), line {} of the last {}: \"{line}\"",
        i + 1,
        lines.len(),
    );
    let source = format!("log {name} ({instance})");
    out.push(Matched {
        container: Some(name.to_owned()),
        hit,
        evidence: Evidence::new(EvidenceKind::Log, source, text),
        message: line.to_owned(),
    });
}

/// Looks `text` up as a fact of kind `fact`, and records what matched.
fn look(
    out: &mut Vec<Matched>,
    container: Option<&str>,
    fact: On<'_>,
    text: &str,
    evidence: impl FnOnce() -> Evidence,
) {
    if text.is_empty() {
        return;
    }
    if let Some(hit) = kb::find(fact, text) {
        // One match per (container, row), the first (see `dedupe`): a repeat is not built.
        let seen = out
            .iter()
            .any(|o| o.container.as_deref() == container && o.hit.entry.id == hit.entry.id);
        if seen {
            return;
        }
        out.push(Matched {
            container: container.map(str::to_owned),
            hit,
            evidence: evidence(),
            message: text.to_owned(),
        });
    }
}

/// Every match of the pod's messages, in the order the kubelet meets them: the pod's status
/// and conditions, its own events, then each container's state, events and logs.
#[must_use]
pub fn matches(inp: &Inputs<'_>) -> Vec<Matched> {
    let mut out = Vec::new();
    let pod = inp.pod;
    look(
        &mut out,
        None,
        On::Status(&pod.reason),
        &pod.message,
        || {
            let text = format!("status.reason {}: \"{}\"", pod.reason, pod.message);
            Evidence::new(EvidenceKind::Field, "status.message", text)
        },
    );
    let odd = pod
        .conditions
        .iter()
        .filter(|c| c.status != "True" || c.type_ == "DisruptionTarget");
    for cond in odd {
        let text = if cond.message.is_empty() {
            &cond.reason
        } else {
            &cond.message
        };
        look(&mut out, None, On::Status(&cond.reason), text, || {
            let line = format!(
                "condition {}={} reason {}: \"{}\"",
                cond.type_, cond.status, cond.reason, cond.message
            );
            let source = format!("condition {}", cond.type_);
            Evidence::new(EvidenceKind::Field, source, line).at(cond.last_transition_time)
        });
    }
    if pod_unwell(inp) {
        let warnings = inp.pod_events().filter(|e| e.type_ == "Warning");
        for e in warnings.filter(|e| current(inp, e, None)) {
            look(&mut out, None, On::Event(&e.reason), &e.message, || {
                event_evidence(e, inp)
            });
        }
    }
    for c in &pod.containers {
        container_matches(inp, c, &mut out);
    }
    dedupe(out)
}

/// The matches of one container: its state's messages, its Warning events, its logs.
fn container_matches(inp: &Inputs<'_>, c: &ContainerSummary, out: &mut Vec<Matched>) {
    let name = Some(c.name.as_str());
    match &c.state {
        ContainerState::Waiting {
            reason,
            message: Some(m),
        } => look(out, name, On::Waiting(reason), m, || {
            let text = format!("waiting.reason {reason}: \"{m}\"");
            Evidence::new(EvidenceKind::Field, "state.waiting", text)
        }),
        ContainerState::Terminated(t) => {
            let m = t.message.as_deref().unwrap_or("");
            look(out, name, On::Terminated(&t.reason), m, || {
                let text = format!(
                    "state.terminated {} exit {}: \"{m}\"",
                    t.reason, t.exit_code
                );
                Evidence::new(EvidenceKind::Field, "state.terminated", text).at(t.finished_at)
            });
        }
        _ => {}
    }
    if let Some(t) = &c.last_state {
        let m = t.message.as_deref().unwrap_or("");
        look(out, name, On::Terminated(&t.reason), m, || {
            let text = format!(
                "lastState.terminated {} exit {}: \"{m}\"",
                t.reason, t.exit_code
            );
            Evidence::new(EvidenceKind::Field, "lastState.terminated", text).at(t.finished_at)
        });
    }
    if failing(inp, c) || pod_unwell(inp) {
        let warnings = inp.events_of(&c.name).filter(|e| e.type_ == "Warning");
        for e in warnings.filter(|e| current(inp, e, Some(c))) {
            look(out, name, On::Event(&e.reason), &e.message, || {
                event_evidence(e, inp)
            });
        }
    }
    if failing(inp, c) {
        if let Some(tail) = inp.logs.previous.get(&c.name) {
            log_hits(&c.name, "previous", tail, out);
        }
        if let Some(tail) = inp.logs.current.get(&c.name) {
            log_hits(&c.name, "current", tail, out);
        }
    }
}

/// One match per (container, row): the first, which is the most specific fact.
fn dedupe(all: Vec<Matched>) -> Vec<Matched> {
    let mut out: Vec<Matched> = Vec::with_capacity(all.len());
    for m in all {
        if !out
            .iter()
            .any(|o| o.container == m.container && o.hit.entry.id == m.hit.entry.id)
        {
            out.push(m);
        }
    }
    out
}
