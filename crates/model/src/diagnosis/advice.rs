//! Advice: probe settings that are mistakes before they are failures (the seed article's probe
//! section): liveness identical to readiness (a slow dependency then restarts the container
//! instead of only taking it out of traffic), no readinessProbe on a container that serves a
//! port, a long `initialDelaySeconds` instead of a startupProbe, exec probes with the 1 s
//! default timeout. Always after the pod's real problems.

use k8s_openapi::api::core::v1::Probe;

use super::facts::{probe_handler, probe_timing};
use super::{Finding, Inputs, Severity};
use crate::pod::ContainerKind;

/// Whether two probes run the same check with the same timing.
fn same(a: &Probe, b: &Probe) -> bool {
    probe_timing(a) == probe_timing(b)
        && a.exec == b.exec
        && a.http_get == b.http_get
        && a.tcp_socket == b.tcp_socket
        && a.grpc == b.grpc
}

/// Appends advisory warnings about `inp.pod`'s probes.
pub fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    // A finished or deleted pod's probes will not run again: advice would only distract.
    if matches!(inp.pod.phase.as_str(), "Succeeded" | "Failed")
        || inp.pod.deletion_timestamp.is_some()
    {
        return;
    }
    // With problems on the pod, advice only about the containers they concern: advice about a
    // healthy neighbour would read as the cause.
    let troubled: Vec<&str> = out
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .filter_map(|f| f.container.as_deref())
        .collect::<Vec<_>>();
    let any_problem = out.iter().any(|f| f.severity != Severity::Info);
    let mut advice = Vec::new();
    for c in &inp.pod.containers {
        if matches!(c.kind, ContainerKind::Ephemeral | ContainerKind::Init) {
            continue;
        }
        // A container that never ran (its configuration or image blocks it) has no probe
        // behaviour to advise on yet.
        let never_ran = c.restart_count == 0
            && c.last_state.is_none()
            && !matches!(c.state, crate::pod::ContainerState::Running { .. });
        if never_ran || (any_problem && !troubled.contains(&c.name.as_str())) {
            continue;
        }
        let out = &mut advice;
        let Some(spec) = super::facts::spec_of(inp.pod, &c.name) else {
            continue;
        };
        let name = Some(c.name.as_str());
        let live = spec.liveness_probe.as_ref();
        let ready = spec.readiness_probe.as_ref();
        if let (Some(l), Some(r)) = (live, ready)
            && same(l, r)
        {
            out.push(
                Finding::new(
                    "probe-liveness-equals-readiness",
                    Severity::Warning,
                    name,
                    format!("{}'s livenessProbe and readinessProbe are the same check", c.name),
                )
                .with(format!("both: {}", probe_handler(l)))
                .action("liveness should only ask \"is the process stuck?\"; a readiness failure (a slow dependency) then takes the pod out of traffic without restarting it"),
            );
        }
        let serves = spec.ports.as_ref().is_some_and(|p| !p.is_empty());
        if ready.is_none() && serves && c.kind == ContainerKind::Main {
            out.push(
                Finding::new(
                    "probe-no-readiness",
                    Severity::Warning,
                    name,
                    format!("{} serves a port but has no readinessProbe: it gets traffic as soon as it starts", c.name),
                )
                .action("add a readinessProbe so Services send traffic only once the app answers"),
            );
        }
        if let Some(l) = live
            && spec.startup_probe.is_none()
        {
            let (delay, period, _, threshold) = probe_timing(l);
            if delay >= 60 {
                out.push(
                    Finding::new(
                        "probe-no-startup",
                        Severity::Warning,
                        name,
                        format!("{} covers a slow start with livenessProbe initialDelaySeconds {delay} instead of a startupProbe", c.name),
                    )
                    .action(format!("a startupProbe (periodSeconds {period}, failureThreshold ≥ {}) covers a slow start and lets liveness react quickly afterwards", (delay / period.max(1)).max(1) + threshold)),
                );
            }
        }
        let slow: Vec<(&str, &Probe)> = [
            ("liveness", live),
            ("readiness", ready),
            ("startup", spec.startup_probe.as_ref()),
        ]
        .into_iter()
        .filter_map(|(kind, p)| p.map(|p| (kind, p)))
        .filter(|(_, p)| p.exec.is_some() && p.timeout_seconds.unwrap_or(1) <= 1)
        .collect();
        if let Some((_, first)) = slow.first() {
            let kinds: Vec<&str> = slow.iter().map(|(k, _)| *k).collect();
            let (noun, verb) = if kinds.len() == 1 {
                ("probe", "runs")
            } else {
                ("probes", "run")
            };
            out.push(
                Finding::new(
                    "probe-exec-timeout",
                    Severity::Warning,
                    name,
                    format!(
                        "{}'s {} {noun} {verb} a command with timeoutSeconds 1 (the default)",
                        c.name,
                        kinds.join(" and ")
                    ),
                )
                .with(format!("{}Probe: {}", kinds[0], probe_handler(first)))
                .action("an exec probe starts a process in the container each time; under load that takes more than 1 s and counts as a failure: raise timeoutSeconds"),
            );
        }
    }
    out.extend(advice);
}
