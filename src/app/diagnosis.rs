//! Keeping `State::diagnosis` current: the diagnosis engine re-run whenever what it reads changes
//! (the pod, its events, log tails, looked-up objects, the owner's existence, the clock).

use super::Msg;
use super::state::{Connection, State};
use crate::model::PodSummary;
use crate::model::diagnosis::{Finding, Inputs, Severity, diagnose, facts};

/// Rules about a deletion in progress: moot once the watch saw the pod deleted.
const DELETION_RULES: [&str; 3] = ["terminating", "stuck-terminating", "stopped-by-deletion"];

/// Whether `msg` changes something the diagnosis reads (log lines and keys do not: the hot
/// paths of log ingestion and typing never pay for it).
#[must_use]
pub fn reads(msg: &Msg) -> bool {
    matches!(
        msg,
        Msg::Tick(_)
            | Msg::PodApplied(_)
            | Msg::PodDeleted(_)
            | Msg::PodAbsent
            | Msg::EventsReset(_)
            | Msg::EventApplied(_)
            | Msg::EventDeleted(_)
            | Msg::OwnerChecked { .. }
            | Msg::LogTailRead { .. }
            | Msg::LookedUp { .. }
    )
}

/// The engine's inputs for `pod` from what `state` holds: its events, log tails, looked-up
/// objects, the owner's existence and `now`.
#[must_use]
pub fn inputs<'a>(state: &'a State, pod: &'a PodSummary) -> Inputs<'a> {
    Inputs::new(
        pod,
        &state.target.events,
        &state.target.log_tails,
        &state.target.related,
        &state.target.owner,
        state.now,
    )
}

/// Recomputes `state.target.diagnosis` from the state's pod, events, log tails, related objects and
/// `now`; empty without a pod. Once the watch saw the pod deleted, the findings about its
/// deletion (grace period, finalizers, a kubelet that has not confirmed) are dropped and an
/// `info` finding `pod-deleted` leads: what is shown is the pod's last state. Sets `dirty`
/// when the findings changed.
pub fn refresh(state: &mut State) {
    let mut findings = match &state.target.pod {
        Some(pod) => diagnose(&inputs(state, pod)),
        None => Vec::new(),
    };
    if let (Connection::Deleted { at }, Some(pod)) = (&state.target.connection, &state.target.pod) {
        findings.retain(|f| !DELETION_RULES.contains(&f.rule) && f.rule != "healthy");
        let gone = Finding::new(
            "pod-deleted",
            Severity::Info,
            None,
            format!(
                "pod {} was deleted at {}: what is shown is its last state",
                pod.name,
                facts::clock(*at, state.now)
            ),
        );
        findings.insert(0, gone);
    }
    if findings != state.target.diagnosis {
        state.target.diagnosis = findings;
        state.dirty = true;
    }
}
