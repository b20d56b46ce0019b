//! Pod deletion: `deletionTimestamp`, preStop, stop signals, sidecars last, SIGKILL, removal.
//!
//! Sequence (seed article "Жизненный цикл завершения"; KEP-753 for sidecars):
//! 1. `deletionTimestamp = now + grace`, `deletionGracePeriodSeconds = grace` (grace: the delete's
//!    `gracePeriodSeconds`, else `spec.terminationGracePeriodSeconds`, else 30).
//! 2. Every running main (and regular init) container: `Killing` `Stopping container X`, its
//!    preStop hook (`sleep` N s; `exec` runs in the image — `sleep N` takes N s, a distroless
//!    image fails it with `FailedPreStopHook`; `httpGet` returns at once), then the image's stop
//!    signal (SIGTERM; SIGQUIT for nginx).
//! 3. [`SIDECAR_DELAY`] after the last main container exited, sidecars are stopped one at a time
//!    in reverse spec order (each with `Killing`, preStop, stop signal), the next once the
//!    previous exited.
//! 4. At the deadline everything still running is SIGKILLed (exit 137, reason Error). The extra
//!    2 s the kubelet grants a preStop that overruns is not modelled.
//! 5. 1 s after the last exit the kubelet writes the final status (phase Succeeded when every
//!    main container exited 0, else Failed) and the pod is removed ([`super::Change::Removed`]).
//!
//! The same sidecar stop (3), SIGKILL deadline (4: `terminationGracePeriodSeconds` after the
//! sidecars are signalled) and final phase (5, without removal) end a pod whose main containers
//! all finished for good (Job-style pods, [`complete`]): a sidecar that ignores SIGTERM exits
//! 137 at the deadline, as case 12 shows.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::events;
use super::lifecycle::SYNC_LATENCY;
use super::pod_state::{PodRun, Role, Terminating};
use super::{Node, Work, after};

/// Main containers gone → first sidecar signalled (the seed shows ≈0.46 s).
pub const SIDECAR_DELAY: SignedDuration = SignedDuration::from_millis(500);

/// Starts deleting `run` at `at` (see the module docs).
pub(crate) fn delete(node: &mut Node, run: &mut PodRun, grace: Option<i64>, at: Timestamp) {
    let grace = grace
        .or_else(|| {
            run.pod
                .spec
                .as_ref()
                .and_then(|s| s.termination_grace_period_seconds)
        })
        .unwrap_or(30)
        .max(0);
    let deadline = after(at, SignedDuration::from_secs(grace));
    if let Some(t) = &mut run.terminating {
        if deadline < t.deadline {
            t.deadline = deadline;
            run.pod.metadata.deletion_timestamp = Some(Time(deadline));
            run.pod.metadata.deletion_grace_period_seconds = Some(grace);
            node.schedule(run, deadline, Work::GraceExpired);
        }
        return;
    }
    run.pod.metadata.deletion_timestamp = Some(Time(deadline));
    run.pod.metadata.deletion_grace_period_seconds = Some(grace);
    run.terminating = Some(Terminating {
        deadline,
        sidecars: false,
    });
    for c in &mut run.containers {
        c.busy = false;
    }
    node.schedule(run, deadline, Work::GraceExpired);
    let mut any = false;
    for i in 0..run.containers.len() {
        let c = &run.containers[i];
        if c.role != Role::Sidecar && c.is_running() {
            any = true;
            stop(node, run, i, at);
        }
    }
    if !any {
        stop_next_sidecar(node, run, at);
    }
}

/// Every main container of `run` finished for good at `at`: stop the sidecars after
/// [`SIDECAR_DELAY`] and SIGKILL what still runs `terminationGracePeriodSeconds` (default 30)
/// after that.
pub(crate) fn complete(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    let grace = run
        .pod
        .spec
        .as_ref()
        .and_then(|s| s.termination_grace_period_seconds)
        .unwrap_or(30)
        .max(0);
    let start = after(at, SIDECAR_DELAY);
    let deadline = after(start, SignedDuration::from_secs(grace));
    run.completing = Some(deadline);
    node.schedule(run, start, Work::StopSidecars);
    node.schedule(run, deadline, Work::GraceExpired);
}

/// `Killing` (`Stopping container X`), then the preStop hook, then the stop signal.
fn stop(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    let fp = run.containers[i].field_path();
    let name = run.containers[i].spec.name.clone();
    stop_with(node, run, i, events::stopping(&fp, &name), at);
}

/// The kubelet's `killContainer`: the `Killing` event `killing`, then the preStop hook, then
/// the stop signal (the SIGKILL deadline is the caller's).
pub(crate) fn stop_with(
    node: &mut Node,
    run: &mut PodRun,
    i: usize,
    killing: events::EventSpec,
    at: Timestamp,
) {
    let fp = run.containers[i].field_path();
    run.containers[i].stopping = true;
    node.event(run, killing, at);
    let generation = run.containers[i].generation;
    let hook = run.containers[i]
        .spec
        .lifecycle
        .as_ref()
        .and_then(|l| l.pre_stop.clone());
    let Some(hook) = hook else {
        signal(node, run, i, at);
        return;
    };
    let took = if let Some(s) = &hook.sleep {
        Ok(SignedDuration::from_secs(s.seconds.max(0)))
    } else if let Some(e) = &hook.exec {
        let command = e.command.clone().unwrap_or_default();
        run.containers[i].program.exec_hook(&command)
    } else {
        Ok(SignedDuration::ZERO)
    };
    match took {
        Ok(d) => node.schedule(run, after(at, d), Work::PreStopDone { c: i, generation }),
        Err(detail) => {
            node.event(run, events::prestop_failed(&fp, &detail), at);
            signal(node, run, i, at);
        }
    }
}

/// The preStop hook of instance `generation` finished: send the stop signal.
pub(crate) fn prestop_done(
    node: &mut Node,
    run: &mut PodRun,
    i: usize,
    generation: u64,
    at: Timestamp,
) {
    if run.containers[i].generation == generation && run.containers[i].is_running() {
        signal(node, run, i, at);
    }
}

/// Sends container `i` its stop signal and queues its reaction (logs, exit); an ignored signal
/// leaves it to the SIGKILL deadline.
pub(crate) fn signal(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    let c = &mut run.containers[i];
    c.stopping = true;
    let generation = c.generation;
    let Some(plan) = c.program.on_signal(c.program.stop_signal()) else {
        return;
    };
    super::instance::follow_plan(node, run, i, generation, plan, at);
}

/// A container exited while the pod is terminating or completing.
pub(crate) fn on_exit(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    if run.containers[i].role == Role::Sidecar {
        stop_next_sidecar(node, run, at);
        return;
    }
    let mains_running = run
        .containers
        .iter()
        .any(|c| c.role != Role::Sidecar && c.is_running());
    if !mains_running && run.terminating.is_some() {
        node.schedule(run, after(at, SIDECAR_DELAY), Work::StopSidecars);
    }
}

/// Stops the last running sidecar not yet stopping; when none is left running, queues the final
/// status.
pub(crate) fn stop_next_sidecar(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    if let Some(t) = &mut run.terminating {
        t.sidecars = true;
    }
    if run.terminal {
        return;
    }
    let sidecars = run.indices(Role::Sidecar);
    if sidecars
        .iter()
        .any(|&i| run.containers[i].is_running() && run.containers[i].stopping)
    {
        return;
    }
    if let Some(&i) = sidecars
        .iter()
        .rev()
        .find(|&&i| run.containers[i].is_running())
    {
        stop(node, run, i, at);
        return;
    }
    node.schedule(run, after(at, SYNC_LATENCY), Work::Finalize);
}

/// The grace period (of a deletion or of a completing pod, whichever ends first) is over:
/// SIGKILL whatever still runs.
pub(crate) fn grace_expired(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    let deletion = run.terminating.as_ref().map(|t| t.deadline);
    let Some(deadline) = deletion.into_iter().chain(run.completing).min() else {
        return;
    };
    if deadline > at {
        return;
    }
    for i in 0..run.containers.len() {
        if run.containers[i].is_running() {
            let generation = run.containers[i].generation;
            super::instance::exit(node, run, i, generation, 137, "Error", at);
        }
    }
}

/// Final status (terminal phase, no sandbox); `true` when the pod must now be removed.
pub(crate) fn finalize(node: &mut Node, run: &mut PodRun, at: Timestamp) -> bool {
    let _ = (node, at);
    if run.terminal || run.containers.iter().any(|c| c.is_running()) {
        return false;
    }
    run.terminal = true;
    run.sandbox = false;
    run.terminating.is_some()
}
