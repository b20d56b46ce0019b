//! What the watch sees change after attach (`docs/timeline.md` "What the watch sees"): one
//! pod compared with the one before it, and the bounded history of those entries.

use jiff::Timestamp;

use super::{Entry, Kind};
use crate::pod::{ContainerState, ContainerSummary, PodSummary};

/// Entries kept by a [`History`]; older ones are dropped first and counted.
pub const HISTORY_CAP: usize = 10_000;

/// What the watch saw change since attach, oldest first, at most [`HISTORY_CAP`] entries (about
/// 2 MB at the largest); the dropped count says how many older ones were let go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    entries: std::collections::VecDeque<Entry>,
    dropped: u64,
    since: Option<Timestamp>,
}

impl History {
    /// A history of a pod first seen at `since` (the watch's first delivery).
    #[must_use]
    pub fn since(since: Timestamp) -> History {
        History {
            since: Some(since),
            ..History::default()
        }
    }

    /// When the watch first delivered the pod, if it has.
    #[must_use]
    pub fn attached(&self) -> Option<Timestamp> {
        self.since
    }

    /// Appends `entries`, dropping the oldest beyond the cap.
    pub fn record(&mut self, entries: impl IntoIterator<Item = Entry>) {
        for e in entries {
            if self.entries.len() == HISTORY_CAP {
                self.entries.pop_front();
                self.dropped += 1;
            }
            self.entries.push_back(e);
        }
    }

    /// The entries kept, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }

    /// How many entries the cap let go.
    #[must_use]
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// A container state as the timeline names it (`waiting`, `running`, `terminated`,
/// `unknown`) with its reason and exit code.
fn state_of(s: &ContainerState) -> (&'static str, &str, Option<i32>) {
    match s {
        ContainerState::Waiting { reason, .. } => ("waiting", reason, None),
        ContainerState::Running { .. } => ("running", "", None),
        ContainerState::Terminated(t) => ("terminated", &t.reason, Some(t.exit_code)),
        ContainerState::Unknown => ("unknown", "", None),
    }
}

/// The moment a state began, as the kubelet stamped it; `seen` (when the watch delivered it)
/// for a wait, which carries no stamp.
fn began(s: &ContainerState, seen: Timestamp) -> Timestamp {
    match s {
        ContainerState::Running { started_at } => started_at.unwrap_or(seen),
        ContainerState::Terminated(t) => t.finished_at.unwrap_or(seen),
        _ => seen,
    }
}

/// What changed from `old` to `new` (the same pod, one watch update apart), delivered at `seen`:
/// the phase, each condition whose status moved, and per container (by name) its state or
/// waiting reason, its `started` and `ready` flags (a `started` flip is a `ready` entry with
/// reason `started`) and its `restartCount`. Entries are not `reconstructed`;
/// a state's time is the kubelet's stamp when it has one (`startedAt`, `finishedAt`), else
/// `seen` truncated to the second, as the API's stamps are.
#[must_use]
pub fn observe(old: &PodSummary, new: &PodSummary, seen: Timestamp) -> Vec<Entry> {
    // The API's stamps are whole seconds: a delivery time in the same second would sort after
    // a stamp it precedes (a readiness flip after the exit that followed it).
    let seen = Timestamp::from_second(seen.as_second()).unwrap_or(seen);
    let live = |mut e: Entry| {
        e.reconstructed = false;
        e
    };
    let mut out = Vec::new();
    if old.phase != new.phase {
        out.push(live(
            Entry::new(seen, None, Kind::Phase).change(Some(&old.phase), &new.phase),
        ));
    }
    for c in &new.conditions {
        let before = old.conditions.iter().find(|o| o.type_ == c.type_);
        if before.is_none_or(|o| o.status != c.status) {
            let at = c.last_transition_time.unwrap_or(seen);
            let from = before.map(|o| format!("{}={}", o.type_, o.status));
            let to = format!("{}={}", c.type_, c.status);
            out.push(live(
                Entry::new(at, None, Kind::Condition)
                    .change(from.as_deref(), &to)
                    .reason(&c.reason),
            ));
        }
    }
    for c in &new.containers {
        let name = Some(c.name.as_str());
        let before = old.containers.iter().find(|o| o.name == c.name);
        let (to, reason, exit_code) = state_of(&c.state);
        // A container the old status did not list yet (or listed without a state) had none.
        let from = before
            .map(|o| state_of(&o.state))
            .filter(|(f, _, _)| *f != "unknown");
        if from.is_none_or(|(f, r, _)| f != to || r != reason) {
            let mut e = Entry::new(began(&c.state, seen), name, Kind::State)
                .change(from.map(|f| f.0), to)
                .reason(reason);
            e.exit_code = exit_code;
            out.push(live(e));
        }
        if let Some(o) = before {
            if o.restart_count < c.restart_count {
                let at = match &c.state {
                    ContainerState::Running { started_at } => started_at.unwrap_or(seen),
                    _ => seen,
                };
                let (f, t) = (o.restart_count.to_string(), c.restart_count.to_string());
                out.push(live(
                    Entry::new(at, name, Kind::Restart).change(Some(&f), &t),
                ));
            }
            // Not before the start the flag belongs to (`seen` lags by up to a tick).
            let at = |up: bool| match &c.state {
                ContainerState::Running {
                    started_at: Some(s),
                } if up => seen.max(*s),
                _ => seen,
            };
            // `started` (the startupProbe's gate; a sidecar's gate for the next container) is
            // a readiness too: reason `started` tells it from `ready`.
            let started = |x: &ContainerSummary| x.started.unwrap_or(false);
            if started(o) != started(c) {
                let (f, t) = (started(o).to_string(), started(c).to_string());
                out.push(live(
                    Entry::new(at(started(c)), name, Kind::Ready)
                        .change(Some(&f), &t)
                        .reason("started"),
                ));
            }
            if o.ready != c.ready {
                out.push(live(
                    Entry::new(at(c.ready), name, Kind::Ready)
                        .change(Some(&o.ready.to_string()), &c.ready.to_string()),
                ));
            }
        }
    }
    out
}
