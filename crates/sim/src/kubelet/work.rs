//! The kubelet model's queued work ([`Work`]) and what each item does ([`dispatch`]).

use jiff::Timestamp;

use super::pod_state::PodRun;
use super::{Node, hooks, images, instance, lifecycle, probes, termination, waits};
use crate::runtime::programs::ProbeKind;

/// Queued work for one pod (an item for an instance carries its `generation`; one for an
/// older instance is dropped).
#[derive(Debug, Clone)]
pub(crate) enum Work {
    Sandbox,
    Sync,
    PullDone(usize),
    Create(usize),
    Exit {
        c: usize,
        generation: u64,
        code: i32,
        reason: &'static str,
    },
    Kill {
        c: usize,
        generation: u64,
    },
    Log {
        c: usize,
        generation: u64,
        line: String,
    },
    Probe {
        c: usize,
        generation: u64,
        kind: ProbeKind,
    },
    PreStopDone {
        c: usize,
        generation: u64,
    },
    /// The postStart hook ended ([`hooks::post_start_done`]).
    PostStartDone {
        c: usize,
        generation: u64,
    },
    /// A check of the loop the instance runs ([`waits::check_now`]).
    Check {
        c: usize,
        generation: u64,
    },
    StopSidecars,
    GraceExpired,
    Finalize,
}

/// Runs `work` for `run` at `at`; `true` when the pod must now be removed.
pub(super) fn dispatch(node: &mut Node, run: &mut PodRun, work: Work, at: Timestamp) -> bool {
    match work {
        Work::Sandbox => lifecycle::sandbox(node, run, at),
        Work::Sync => lifecycle::sync(node, run, at),
        Work::PullDone(c) => images::pull_done(node, run, c, at),
        Work::Create(c) => lifecycle::create(node, run, c, at),
        Work::Exit {
            c,
            generation,
            code,
            reason,
        } => instance::exit(node, run, c, generation, code, reason, at),
        Work::Kill { c, generation } => {
            instance::exit(node, run, c, generation, 137, "Error", at);
        }
        Work::Log {
            c,
            generation,
            line,
        } => {
            if run
                .containers
                .get(c)
                .is_some_and(|cr| cr.generation == generation)
            {
                node.log(run, c, at, &line, false);
            }
        }
        Work::Probe {
            c,
            generation,
            kind,
        } => probes::probe(node, run, c, generation, kind, at),
        Work::PreStopDone { c, generation } => {
            termination::prestop_done(node, run, c, generation, at);
        }
        Work::PostStartDone { c, generation } => {
            hooks::post_start_done(node, run, c, generation, at);
        }
        Work::Check { c, generation } => waits::check_now(node, run, c, generation, at),
        Work::StopSidecars => termination::stop_next_sidecar(node, run, at),
        Work::GraceExpired => termination::grace_expired(node, run, at),
        Work::Finalize => return termination::finalize(node, run, at),
    }
    false
}
