//! Keeping `State::diagnosis` current: the diagnosis engine re-run whenever what it reads changes
//! (the pod, its events, log tails, looked-up objects, the owner's existence, the clock).

use super::Msg;
use super::state::{Connection, State};
use crate::model::PodSummary;
use crate::model::diagnosis::{Finding, Inputs, Severity, diagnose};

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
            | Msg::WorkloadApplied(_)
            | Msg::NodeApplied(_)
            | Msg::NodeGone(_)
            | Msg::PodMetricsRead(_)
    )
}

/// The engine's inputs for `pod` from what `state` holds: its events, log tails, looked-up
/// objects, the owner's existence, `now` and the followed workload's summary (the rollout
/// findings read it).
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
    .with_workload(state.workload.as_ref().and_then(|w| w.summary.as_ref()))
    .with_node(state.target.node.shown())
    .with_usage(Some(&state.target.usage.history))
}

/// Whether `f` is a problem worth keeping once the pod is gone: an error or a warning that is
/// not about the deletion itself.
fn kept_after_deletion(f: &Finding) -> bool {
    matches!(f.severity, Severity::Error | Severity::Warning)
        && !DELETION_RULES.contains(&f.rule)
        && f.rule != "pod-deleted"
}

/// Recomputes `state.target.diagnosis` from the state's pod, events, log tails, related objects and
/// `now`; empty without a pod. Once the watch saw the pod deleted, the pod of the DELETED event
/// (its containers stopped by the deletion) is not diagnosed afresh: an `info` finding
/// `pod-deleted` leads (the time as the header shows it, `14:40:48Z`), then the problems
/// (errors and warnings) the pod had while it was live, without the findings about its deletion
/// (grace period, finalizers, a kubelet that has not confirmed) and without any `info`. A pod
/// first seen deleted keeps the problems of its last state. Sets `dirty` when the findings
/// changed (`docs/diagnosis.md`).
pub fn refresh(state: &mut State) {
    let findings = match (&state.target.connection, &state.target.pod) {
        (Connection::Deleted { at }, Some(pod)) => {
            let mut live: Vec<Finding> = state
                .target
                .diagnosis
                .iter()
                .filter(|f| kept_after_deletion(f))
                .cloned()
                .collect();
            if state.target.diagnosis.is_empty() {
                live = diagnose(&inputs(state, pod))
                    .into_iter()
                    .filter(kept_after_deletion)
                    .collect();
            }
            let gone = Finding::new(
                "pod-deleted",
                Severity::Info,
                None,
                format!(
                    "pod {} was deleted at {}: what is shown is its last state",
                    pod.name,
                    at.strftime("%H:%M:%SZ")
                ),
            );
            std::iter::once(gone).chain(live).collect()
        }
        (_, Some(pod)) => diagnose(&inputs(state, pod)),
        (_, None) => Vec::new(),
    };
    if findings != state.target.diagnosis {
        state.target.diagnosis = findings;
        state.dirty = true;
    }
}
