//! One instance of a container: its start (after the config checks of [`super::env_gate`]),
//! what its program then does ([`follow_plan`]: log lines, its exit, a loop waiting for the
//! cluster) and its exit.
//!
//! At the start the runtime may replace the program's plan with a failure
//! ([`crate::runtime::start_checks`]: another architecture, a read-only root, a port
//! another container of the pod holds — the ports the pod's running containers bound are
//! handed to it). A container with a postStart hook runs it before anything else happens to
//! it ([`super::hooks`]: probes wait, the API keeps showing the status from before).

use jiff::Timestamp;

use super::events;
use super::lifecycle::{SYNC_LATENCY, complete_if_finished, should_restart};
use super::pod_state::{PodRun, RunState, Term};
use super::status::container_status;
use super::{Node, Work, after, hex256, hooks, probes, termination};
use crate::runtime::image::split_image;
use crate::runtime::programs::Plan;
use crate::runtime::start_checks::start_failure;

/// Starts a new instance of container `i` at `at`.
pub(crate) fn start_instance(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    if !super::env_gate::ready(node, run, i, at) {
        return;
    }
    let has_hook = run.containers[i]
        .spec
        .lifecycle
        .as_ref()
        .is_some_and(|l| l.post_start.is_some());
    let frozen = has_hook.then(|| {
        let c = &run.containers[i];
        (container_status(c), !c.ever_started)
    });
    let held: Vec<u16> = run
        .containers
        .iter()
        .enumerate()
        .filter(|(j, c)| *j != i && c.is_running())
        .flat_map(|(_, c)| c.program.binds())
        .collect();
    let pod_spec = run.pod.spec.clone().unwrap_or_default();
    let uid = run.uid.clone();
    let wording = node.wording;
    let c = &mut run.containers[i];
    c.busy = false;
    c.generation += 1;
    if c.ever_started {
        c.restart_count += 1;
        if let RunState::Terminated(t) = &c.state {
            c.last = Some(t.clone());
        }
    }
    c.ever_started = true;
    c.stopping = false;
    c.pull_failed_at = None;
    c.respawn = false;
    c.hook_error = None;
    c.looping = None;
    c.container_id = super::container_id(&uid, &c.spec.name, c.restart_count);
    if c.image_id.is_empty() {
        let image = c.image().to_string();
        let (repo, _) = split_image(&image);
        c.image_id = format!("{repo}@sha256:{}", hex256(&[&image]));
    }
    c.state = RunState::Running { started_at: at };
    c.started = c.spec.startup_probe.is_none() && !has_hook;
    c.ready = c.started && c.spec.readiness_probe.is_none();
    c.startup = Default::default();
    c.liveness = Default::default();
    c.readiness = Default::default();
    c.frozen = frozen;
    let generation = c.generation;
    let name = c.spec.name.clone();
    let fp = c.field_path();
    let plan = start_failure(&pod_spec, &c.spec, &c.program, &held)
        .unwrap_or_else(|| c.program.start(c.restart_count, c.image()));
    node.event(run, events::created(wording, &fp, &name), at);
    node.event(run, events::started(wording, &fp, &name), at);
    follow_plan(node, run, i, generation, plan, at);
    if has_hook {
        hooks::post_start(node, run, i, at);
        return;
    }
    probes::on_start(node, run, i, at);
    if !run.initialized {
        // The start order moves on at the next sync (e.g. a sidecar without startupProbe).
        node.schedule(run, after(at, SYNC_LATENCY), Work::Sync);
    }
}

/// Queues what instance `generation` of container `i` does after `at` (its program's answer to
/// a start or a signal): log lines at their offsets (`stamped` ones with the Go/nginx time
/// prefix of their emission time), its exit, and the first check of a loop it runs.
pub(crate) fn follow_plan(
    node: &mut Node,
    run: &mut PodRun,
    i: usize,
    generation: u64,
    plan: Plan,
    at: Timestamp,
) {
    for l in plan.logs {
        if l.offset.is_zero() {
            node.log(run, i, at, &l.text, l.stamped);
        } else {
            let t = after(at, l.offset);
            let line = if l.stamped {
                format!("{} {}", t.strftime("%Y/%m/%d %H:%M:%S"), l.text)
            } else {
                l.text
            };
            node.schedule(
                run,
                t,
                Work::Log {
                    c: i,
                    generation,
                    line,
                },
            );
        }
    }
    if let Some(e) = plan.exit {
        let work = Work::Exit {
            c: i,
            generation,
            code: e.code,
            reason: e.reason,
        };
        node.schedule(run, after(at, e.after), work);
    }
    if let Some(l) = plan.looping {
        node.schedule(run, after(at, l.at), Work::Check { c: i, generation });
        run.containers[i].looping = Some(l);
    }
}

/// Instance `generation` of container `i` exited with `code` (`reason` Completed, Error or
/// OOMKilled). An instance killed because its postStart hook failed leaves the container
/// waiting in `PostStartHookError` with the hook's message when it is to be restarted (the
/// kubelet's reason cache, `convertToAPIContainerStatuses`), the instance in `lastState`.
pub(crate) fn exit(
    node: &mut Node,
    run: &mut PodRun,
    i: usize,
    generation: u64,
    code: i32,
    reason: &str,
    at: Timestamp,
) {
    let policy = run.restart_policy().to_string();
    let c = &mut run.containers[i];
    if c.generation != generation || !c.is_running() {
        return;
    }
    let started_at = match c.state {
        RunState::Running { started_at } => started_at,
        _ => at,
    };
    c.generation += 1;
    let term = Term {
        exit_code: code,
        reason: reason.to_string(),
        started_at,
        finished_at: at,
        container_id: c.container_id.clone(),
    };
    c.frozen = None;
    c.looping = None;
    match c.hook_error.take() {
        Some(message) if should_restart(&policy, c.role, code) && run.terminating.is_none() => {
            c.last = Some(term);
            c.state = RunState::Waiting {
                reason: "PostStartHookError".into(),
                message: Some(message),
            };
        }
        _ => c.state = RunState::Terminated(term),
    }
    c.ready = false;
    c.started = false;
    c.stopping = false;
    if run.terminating.is_some() || run.completing.is_some() {
        termination::on_exit(node, run, i, at);
    } else {
        complete_if_finished(node, run, at);
        node.schedule(run, after(at, SYNC_LATENCY), Work::Sync);
    }
}
