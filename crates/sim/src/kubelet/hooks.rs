//! The postStart lifecycle hook (`startContainer`, step 4, in
//! `pkg/kubelet/kuberuntime/kuberuntime_container.go`; the handlers in
//! `pkg/kubelet/lifecycle/handlers.go`).
//!
//! Right after `Started`, the kubelet runs the hook and waits for it: an `exec` hook through
//! the runtime's `ExecSync` (here [`crate::runtime::programs::Program::exec_run`]), an
//! `httpGet` against the pod IP, a `sleep`. Meanwhile its pod sync is blocked, so the API keeps
//! the container's status from before the start (`ContainerCreating` on the first start, the
//! pod `Pending`; the previous waiting state and `restartCount` on a restart), and no probe
//! runs (the prober skips a container the status does not show running).
//!
//! When the hook fails the kubelet records a Warning `FailedPostStartHook` event whose message
//! is only `PostStartHook failed` (the handler's message is kept out of events since 1.27 so
//! that secrets do not leak), kills the container — a Normal `Killing` event with the message
//! `FailedPostStartHook`, its preStop hook, the stop signal, SIGKILL after the pod's
//! `terminationGracePeriodSeconds` — and the sync fails with `PostStartHookError` and the
//! handler's message: `Exec lifecycle hook ([/bin/sh -c …]) for Container "api" in Pod
//! "orders-api_default(<uid>)" failed - error: command '/bin/sh -c …' exited with 1: <stderr>,
//! message: "<stdout><stderr>"` (the CRI client's `CodeExitError` text; Go's `%q` of the
//! output), or `Http lifecycle hook (/path) for Container … failed - error: Get "http://…":
//! dial tcp …: connect: connection refused, message: ""`. Once the instance is gone the
//! container waits with that reason and message ([`super::instance::exit`]), and restarts
//! under the usual CrashLoopBackOff gate. A hook that never ends holds the container in its
//! old status for good, as the kubelet's hook without a timeout does.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::lifecycle::SYNC_LATENCY;
use super::pod_state::PodRun;
use super::{Node, Work, after, events, probes, termination};

/// Go's `%q` of a string: double-quoted with `\n`, `\t`, `\"`, `\\` escapes.
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Runs the postStart hook of container `i`'s new instance started at `at` (see the module
/// docs): queues its end, remembering its failure message.
pub(crate) fn post_start(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    let c = &run.containers[i];
    let Some(hook) = c.spec.lifecycle.as_ref().and_then(|l| l.post_start.clone()) else {
        return;
    };
    let pod = format!("{}_{}({})", run.name, run.namespace, run.uid);
    let name = c.spec.name.clone();
    let (took, failure) = if let Some(e) = &hook.exec {
        let command = e.command.clone().unwrap_or_default();
        let shown = format!("[{}]", command.join(" "));
        let fail = |error: String, output: &str| {
            format!(
                "Exec lifecycle hook ({shown}) for Container {} in Pod {} failed - error: {error}, message: {}",
                go_quote(&name),
                go_quote(&pod),
                go_quote(output)
            )
        };
        match c.program.exec_run(&command, c.image()) {
            Err(oci) => (Some(SignedDuration::ZERO), Some(fail(oci, ""))),
            Ok(r) if r.code == 0 => (r.took, None),
            Ok(r) => {
                let error = format!(
                    "command '{}' exited with {}: {}",
                    command.join(" "),
                    r.code,
                    r.stderr
                );
                (
                    r.took,
                    Some(fail(error, &format!("{}{}", r.stdout, r.stderr))),
                )
            }
        }
    } else if let Some(h) = &hook.http_get {
        let port = match &h.port {
            IntOrString::Int(n) => u16::try_from(*n).unwrap_or(0),
            IntOrString::String(s) => c
                .spec
                .ports
                .iter()
                .flatten()
                .find(|p| p.name.as_deref() == Some(s.as_str()))
                .and_then(|p| u16::try_from(p.container_port).ok())
                .or_else(|| s.parse().ok())
                .unwrap_or(80),
        };
        let path = h.path.clone().unwrap_or_default();
        let listening = c.program.ports().contains(&port);
        let failure = (!listening).then(|| {
            let ip = &run.pod_ip;
            let url = format!("http://{ip}:{port}/{}", path.trim_start_matches('/'));
            format!(
                "Http lifecycle hook ({path}) for Container {} in Pod {} failed - error: Get \"{url}\": dial tcp {ip}:{port}: connect: connection refused, message: \"\"",
                go_quote(&name),
                go_quote(&pod)
            )
        });
        (Some(SignedDuration::ZERO), failure)
    } else if let Some(s) = &hook.sleep {
        (Some(SignedDuration::from_secs(s.seconds.max(0))), None)
    } else {
        (Some(SignedDuration::ZERO), None)
    };
    let Some(took) = took else {
        return;
    };
    let generation = c.generation;
    run.containers[i].hook_error = failure;
    node.schedule(
        run,
        after(at, took),
        Work::PostStartDone { c: i, generation },
    );
}

/// The postStart hook of instance `generation` of container `i` ended at `at`: the container
/// now shows running and its probes start, or it is killed (see the module docs).
pub(crate) fn post_start_done(
    node: &mut Node,
    run: &mut PodRun,
    i: usize,
    generation: u64,
    at: Timestamp,
) {
    let c = &mut run.containers[i];
    if c.generation != generation || !c.is_running() || c.stopping || run.terminating.is_some() {
        return;
    }
    if c.hook_error.is_none() {
        c.frozen = None;
        c.started = c.spec.startup_probe.is_none();
        c.ready = c.started && c.spec.readiness_probe.is_none();
        probes::on_start(node, run, i, at);
        if !run.initialized {
            node.schedule(run, after(at, SYNC_LATENCY), Work::Sync);
        }
        return;
    }
    let fp = c.field_path();
    node.event(run, events::post_start_failed(&fp), at);
    termination::stop_with(
        node,
        run,
        i,
        events::killing(&fp, "FailedPostStartHook"),
        at,
    );
    let grace = run
        .pod
        .spec
        .as_ref()
        .and_then(|s| s.termination_grace_period_seconds)
        .unwrap_or(30)
        .max(0);
    let generation = run.containers[i].generation;
    let deadline = after(at, SignedDuration::from_secs(grace));
    node.schedule(run, deadline, Work::Kill { c: i, generation });
}

#[cfg(test)]
mod tests {
    use super::go_quote;

    #[test]
    fn quotes_as_go_does() {
        assert_eq!(go_quote("a \"b\"\nc\\"), "\"a \\\"b\\\"\\nc\\\\\"");
    }
}
