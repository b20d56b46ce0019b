//! The pod's history as a list of moments (`docs/timeline.md`): what one GET of the pod and its
//! events say about the time before podscope looked, each entry marked `reconstructed`.
//!
//! A pod object holds only its present and one step of its past: each container's `state` and
//! `lastState` (the previous instance, with `startedAt`/`finishedAt`, reason and exit code), its
//! `restartCount`, the conditions with their `lastTransitionTime`, and the events with their
//! first and last timestamps and counts. [`reconstruct`] turns those into [`Entry`]s in time
//! order; the TUI adds what its watch sees after attach (with `reconstructed: false`).

use jiff::Timestamp;
use serde::Serialize;

mod observe;
mod text;

pub use observe::{HISTORY_CAP, History, observe};
pub use text::{merged, to_text};

use crate::diagnosis::facts::container_of;
use crate::event::EventSummary;
use crate::pod::{ContainerState, ContainerSummary, PodSummary, Terminated};

/// What changed at an [`Entry`]'s moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A container's state: `waiting` (with its reason), `running`, `terminated` (with reason
    /// and exit code).
    State,
    /// A container's `ready` flag.
    Ready,
    /// A container's `restartCount` went up: `from` and `to` are the counts.
    Restart,
    /// An event: `reason` is its reason, `to` its message, `count` how many times it had been
    /// seen by then.
    Event,
    /// The pod's `status.phase`.
    Phase,
    /// A pod condition: `to` is `Type=Status` (`Ready=False`), `reason` its reason.
    Condition,
}

/// One moment of the pod's history. Serialised as the `--once -o json` `"timeline"` item:
/// `{"at", "container", "kind", "from", "to", "reason", "exitCode", "count", "reconstructed"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// When, as the API server or kubelet stamped it (second precision).
    pub at: Timestamp,
    /// The container it is about; `None` for the pod.
    pub container: Option<String>,
    /// What changed.
    pub kind: Kind,
    /// The value before, when known.
    pub from: Option<String>,
    /// The value after.
    pub to: Option<String>,
    /// The reason the API gives (`waiting.reason`, `terminated.reason`, event reason,
    /// condition reason).
    pub reason: Option<String>,
    /// A termination's exit code.
    pub exit_code: Option<i32>,
    /// An event's count at this moment (`1` at its first timestamp, its `count` at its last).
    pub count: Option<i32>,
    /// Read after the fact from the pod's fields and events rather than seen changing.
    pub reconstructed: bool,
}

impl Entry {
    fn new(at: Timestamp, container: Option<&str>, kind: Kind) -> Entry {
        Entry {
            at,
            container: container.map(str::to_owned),
            kind,
            from: None,
            to: None,
            reason: None,
            exit_code: None,
            count: None,
            reconstructed: true,
        }
    }

    fn change(mut self, from: Option<&str>, to: &str) -> Entry {
        self.from = from.map(str::to_owned);
        self.to = Some(to.to_owned());
        self
    }

    fn reason(mut self, reason: &str) -> Entry {
        self.reason = (!reason.is_empty()).then(|| reason.to_owned());
        self
    }
}

/// The history one GET of `pod` and its `events` (any order) show, oldest first (entries of the
/// same second keep the order: pod, conditions, containers in kubelet order, events). Every
/// entry is `reconstructed`. Rules: `docs/timeline.md` "Reconstruction".
#[must_use]
pub fn reconstruct(pod: &PodSummary, events: &[EventSummary]) -> Vec<Entry> {
    let mut out = Vec::new();
    if let Some(created) = pod.creation_timestamp {
        out.push(Entry::new(created, None, Kind::Phase).change(None, "Pending"));
    }
    if let Some(at) = phase_change(pod, events) {
        out.push(Entry::new(at, None, Kind::Phase).change(Some("Pending"), &pod.phase));
    }
    for c in &pod.conditions {
        if let Some(at) = c.last_transition_time {
            let to = format!("{}={}", c.type_, c.status);
            out.push(
                Entry::new(at, None, Kind::Condition)
                    .change(None, &to)
                    .reason(&c.reason),
            );
        }
    }
    for c in &pod.containers {
        container(pod, c, &mut out);
    }
    for e in events {
        let name = container_of(&e.field_path);
        let mut seen = |at: Timestamp, count: i32| {
            let mut entry = Entry::new(at, name, Kind::Event).reason(&e.reason);
            entry.to = Some(e.message.clone());
            entry.count = Some(count);
            out.push(entry);
        };
        match (e.first_timestamp, e.last_timestamp) {
            (Some(first), Some(last)) if e.count > 1 && last > first => {
                seen(first, 1);
                seen(last, e.count);
            }
            (Some(t), _) | (None, Some(t)) => seen(t, e.count.max(1)),
            (None, None) => {}
        }
    }
    out.sort_by_key(|e| e.at);
    out
}

/// When the pod left `Pending`, as far as its fields and events tell: `Running` from the
/// earliest start of a container it still reports or the first `Started` event (which outlives
/// the instances the status forgets), `Succeeded`/`Failed` at the last container's finish.
fn phase_change(pod: &PodSummary, events: &[EventSummary]) -> Option<Timestamp> {
    let started = events
        .iter()
        .filter(|e| e.reason == "Started")
        .filter_map(|e| e.first_timestamp);
    let starts = pod.containers.iter().filter_map(|c| {
        let first = c.last_state.as_ref().and_then(|t| t.started_at);
        first.or(match &c.state {
            ContainerState::Running { started_at } => *started_at,
            ContainerState::Terminated(t) => t.started_at,
            _ => None,
        })
    });
    let finishes = pod.containers.iter().filter_map(|c| match &c.state {
        ContainerState::Terminated(t) => t.finished_at,
        _ => None,
    });
    match pod.phase.as_str() {
        "Running" => starts.chain(started).min(),
        "Succeeded" | "Failed" => finishes.max(),
        _ => None,
    }
}

/// The entries of one instance that ran and ended.
fn instance(name: &str, t: &Terminated, out: &mut Vec<Entry>) {
    if let Some(at) = t.started_at {
        out.push(Entry::new(at, Some(name), Kind::State).change(None, "running"));
    }
    if let Some(at) = t.finished_at {
        let mut e = Entry::new(at, Some(name), Kind::State)
            .change(Some("running"), "terminated")
            .reason(&t.reason);
        e.exit_code = Some(t.exit_code);
        out.push(e);
    }
}

/// A container's entries: its previous instance (`lastState`), the restart that followed, its
/// present state and, when ready, the moment it became so.
fn container(pod: &PodSummary, c: &ContainerSummary, out: &mut Vec<Entry>) {
    let name = c.name.as_str();
    let previous_end = c.last_state.as_ref().and_then(|t| t.finished_at);
    if let Some(t) = &c.last_state {
        instance(name, t, out);
    }
    let current_start = match &c.state {
        ContainerState::Running { started_at } => {
            if let Some(at) = *started_at {
                let from = previous_end.map(|_| "waiting");
                out.push(Entry::new(at, Some(name), Kind::State).change(from, "running"));
            }
            *started_at
        }
        ContainerState::Terminated(t) => {
            instance(name, t, out);
            t.started_at
        }
        ContainerState::Waiting { reason, .. } => {
            // A wait after a termination began when it ended (the back-off); a first wait
            // began no later than the pod's creation can tell.
            if let Some(at) = previous_end.or(pod.creation_timestamp) {
                out.push(
                    Entry::new(at, Some(name), Kind::State)
                        .change(None, "waiting")
                        .reason(reason),
                );
            }
            None
        }
        ContainerState::Unknown => None,
    };
    if let Some(at) = current_start.filter(|_| c.restart_count > 0 && c.last_state.is_some()) {
        let (from, to) = (
            (c.restart_count - 1).to_string(),
            c.restart_count.to_string(),
        );
        out.push(Entry::new(at, Some(name), Kind::Restart).change(Some(&from), &to));
    }
    if c.ready {
        // The pod's ContainersReady turned True when the last of its containers did: a bound
        // for this one that is exact for a single container; its start when that is later.
        let all_ready = pod
            .conditions
            .iter()
            .find(|k| k.type_ == "ContainersReady" && k.status == "True")
            .and_then(|k| k.last_transition_time);
        if let Some(at) = match (all_ready, current_start) {
            (Some(a), Some(s)) => Some(a.max(s)),
            (a, s) => a.or(s),
        } {
            out.push(Entry::new(at, Some(name), Kind::Ready).change(Some("false"), "true"));
        }
    }
}
