//! Keeping `State::diagnosis` current: the diagnosis engine re-run whenever what it reads changes
//! (the pod, its events, log tails, looked-up objects, the owner's existence, the clock).

use super::Msg;
use super::state::State;

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
use crate::model::diagnosis::{Inputs, diagnose};

/// Recomputes `state.diagnosis` from the state's pod, events, log tails, related objects and
/// `now`; empty without a pod. Sets `dirty` when the findings changed.
pub fn refresh(state: &mut State) {
    let findings = match &state.pod {
        Some(pod) => diagnose(&Inputs {
            pod,
            events: &state.events,
            logs: &state.log_tails,
            related: &state.related,
            owner: &state.owner,
            now: state.now,
        }),
        None => Vec::new(),
    };
    if findings != state.diagnosis {
        state.diagnosis = findings;
        state.dirty = true;
    }
}
