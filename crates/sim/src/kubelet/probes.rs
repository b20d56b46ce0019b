//! startup, liveness and readiness probes.
//!
//! Schedule: the startupProbe (or, without one, liveness and readiness) first runs
//! `max(initialDelaySeconds, 1 s)` after the container started — the kubelet's probe worker sees
//! the new container at its next sync — then every `periodSeconds` (default 10). Liveness and
//! readiness are gated by the startupProbe: they first run 1 s after it passed (but not before
//! `initialDelaySeconds`). Thresholds: `failureThreshold` (default 3), `successThreshold`
//! (default 1; always 1 for startup/liveness). A failure records `Unhealthy`
//! (`<Kind> probe failed: <output>`); liveness/startup reaching the threshold records `Killing`
//! (`Container X failed liveness probe, will be restarted`) and stops the container with its stop
//! signal, SIGKILL (137) after the grace period (`probe.terminationGracePeriodSeconds`, else the
//! pod's). Readiness only flips `ready`; an application waiting for a dependency
//! (`crate::runtime::loops`) answers an HTTP readiness probe 503. `timeoutSeconds` is not waited for: a timing-out program
//! answers at once with the timeout text. Probes stop once the container is being stopped or the
//! pod is terminating.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{ContainerPort, Probe};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::events;
use super::pod_state::{PodRun, RunState};
use super::{Node, Work, after};
use crate::runtime::programs::{Check, ProbeKind};

const FIRST: SignedDuration = SignedDuration::from_secs(1);

fn spec_of(run: &PodRun, i: usize, kind: ProbeKind) -> Option<Probe> {
    let s = &run.containers[i].spec;
    match kind {
        ProbeKind::Startup => s.startup_probe.clone(),
        ProbeKind::Liveness => s.liveness_probe.clone(),
        ProbeKind::Readiness => s.readiness_probe.clone(),
    }
}

fn secs(v: Option<i32>, default: i64) -> SignedDuration {
    SignedDuration::from_secs(v.map_or(default, i64::from))
}

fn queue(node: &mut Node, run: &PodRun, i: usize, kind: ProbeKind, at: Timestamp) {
    let generation = run.containers[i].generation;
    node.schedule(
        run,
        at,
        Work::Probe {
            c: i,
            generation,
            kind,
        },
    );
}

/// A new instance of container `i` started at `at`: queue its first probes.
pub(crate) fn on_start(node: &mut Node, run: &PodRun, i: usize, at: Timestamp) {
    if let Some(p) = spec_of(run, i, ProbeKind::Startup) {
        let first = after(at, secs(p.initial_delay_seconds, 0).max(FIRST));
        queue(node, run, i, ProbeKind::Startup, first);
        return;
    }
    for kind in [ProbeKind::Liveness, ProbeKind::Readiness] {
        if let Some(p) = spec_of(run, i, kind) {
            let first = after(at, secs(p.initial_delay_seconds, 0).max(FIRST));
            queue(node, run, i, kind, first);
        }
    }
}

fn on_started(node: &mut Node, run: &PodRun, i: usize, started_at: Timestamp, at: Timestamp) {
    for kind in [ProbeKind::Liveness, ProbeKind::Readiness] {
        if let Some(p) = spec_of(run, i, kind) {
            let first = after(at, FIRST).max(after(started_at, secs(p.initial_delay_seconds, 0)));
            queue(node, run, i, kind, first);
        }
    }
}

fn port_number(port: &IntOrString, ports: &[ContainerPort]) -> u16 {
    match port {
        IntOrString::Int(n) => u16::try_from(*n).unwrap_or(0),
        IntOrString::String(name) => ports
            .iter()
            .find(|p| p.name.as_deref() == Some(name.as_str()))
            .and_then(|p| u16::try_from(p.container_port).ok())
            .or_else(|| name.parse().ok())
            .unwrap_or(0),
    }
}

fn check_of(p: &Probe, ports: &[ContainerPort]) -> Check {
    if let Some(h) = &p.http_get {
        let path = h.path.clone().unwrap_or_else(|| "/".into());
        return Check::Http {
            port: port_number(&h.port, ports),
            path,
        };
    }
    if let Some(t) = &p.tcp_socket {
        return Check::Tcp {
            port: port_number(&t.port, ports),
        };
    }
    if let Some(g) = &p.grpc {
        return Check::Grpc {
            port: u16::try_from(g.port).unwrap_or(0),
        };
    }
    let command = p
        .exec
        .as_ref()
        .and_then(|e| e.command.clone())
        .unwrap_or_default();
    Check::Exec { command }
}

fn title(kind: ProbeKind) -> &'static str {
    match kind {
        ProbeKind::Startup => "Startup",
        ProbeKind::Liveness => "Liveness",
        ProbeKind::Readiness => "Readiness",
    }
}

/// Runs one probe of instance `generation` of container `i`.
pub(crate) fn probe(
    node: &mut Node,
    run: &mut PodRun,
    i: usize,
    generation: u64,
    kind: ProbeKind,
    at: Timestamp,
) {
    let c = &run.containers[i];
    if c.generation != generation || c.stopping || run.terminating.is_some() {
        return;
    }
    let RunState::Running { started_at } = c.state else {
        return;
    };
    let Some(p) = spec_of(run, i, kind) else {
        return;
    };
    let ports = c.spec.ports.clone().unwrap_or_default();
    let check = check_of(&p, &ports);
    let mut result = c.program.probe(
        kind,
        &check,
        at.duration_since(started_at),
        c.stopping,
        &run.pod_ip,
    );
    // An application still waiting for its dependency is not ready (`runtime::loops`).
    let waiting = c.looping.as_ref().is_some_and(|l| l.gates_readiness);
    if kind == ProbeKind::Readiness && waiting && result.is_ok() {
        match &check {
            Check::Http { .. } => result = Err("HTTP probe failed with statuscode: 503".into()),
            Check::Exec { .. } => result = Err(String::new()),
            Check::Tcp { .. } | Check::Grpc { .. } => {}
        }
    }
    let period = secs(p.period_seconds, 10);
    let failure_threshold = p.failure_threshold.unwrap_or(3).max(1);
    let success_threshold = p.success_threshold.unwrap_or(1).max(1);
    let fp = c.field_path();
    let name = c.spec.name.clone();
    let c = &mut run.containers[i];
    match result {
        Ok(()) => match kind {
            ProbeKind::Startup => {
                c.started = true;
                c.ready = c.spec.readiness_probe.is_none();
                on_started(node, run, i, started_at, at);
                node.schedule(run, at, Work::Sync);
            }
            ProbeKind::Liveness => {
                c.liveness.failures = 0;
                queue(node, run, i, kind, after(at, period));
            }
            ProbeKind::Readiness => {
                c.readiness.failures = 0;
                c.readiness.successes += 1;
                if c.readiness.successes >= success_threshold {
                    c.ready = true;
                }
                queue(node, run, i, kind, after(at, period));
            }
        },
        Err(output) => {
            let streak = match kind {
                ProbeKind::Startup => &mut c.startup,
                ProbeKind::Liveness => &mut c.liveness,
                ProbeKind::Readiness => &mut c.readiness,
            };
            streak.failures += 1;
            streak.successes = 0;
            let failures = streak.failures;
            node.event(run, events::unhealthy(&fp, title(kind), &output), at);
            if failures < failure_threshold {
                queue(node, run, i, kind, after(at, period));
                return;
            }
            match kind {
                ProbeKind::Readiness => {
                    run.containers[i].ready = false;
                    queue(node, run, i, kind, after(at, period));
                }
                ProbeKind::Startup | ProbeKind::Liveness => {
                    let word = title(kind).to_lowercase();
                    node.event(run, events::probe_killing(&fp, &name, &word), at);
                    let grace = p.termination_grace_period_seconds.unwrap_or_else(|| {
                        run.pod
                            .spec
                            .as_ref()
                            .and_then(|s| s.termination_grace_period_seconds)
                            .unwrap_or(30)
                    });
                    super::termination::signal(node, run, i, at);
                    let generation = run.containers[i].generation;
                    let deadline = after(at, SignedDuration::from_secs(grace.max(0)));
                    node.schedule(run, deadline, Work::Kill { c: i, generation });
                }
            }
        }
    }
}
