//! Who sent the signal: an instance that ended with 137 (SIGKILL) or 143 (SIGTERM) was stopped
//! from outside. The kubelet says so in a `Killing` event (`Container X failed liveness probe,
//! will be restarted`, `… failed startup probe …`, `Stopping container X`) before it sends
//! SIGTERM, then SIGKILL after `terminationGracePeriodSeconds`
//! (`pkg/kubelet/kuberuntime/kuberuntime_container.go` `killContainer`,
//! `pkg/kubelet/prober/prober_manager.go`). A deletion sets `deletionTimestamp`; the scheduler's
//! preemption sets a `DisruptionTarget` condition with reason `PreemptionByScheduler`.
//! Checked against cases 07 (liveness kills a slow start) and 12 (a sidecar stopped at the end).

use jiff::{SignedDuration, Timestamp};

use super::cause::{Cause, after};
use super::facts::{self, clock, clock_opt, event_line, probe_handler, probe_timing};
use super::{Inputs, Severity};
use crate::event::EventSummary;
use crate::pod::{ContainerSummary, Terminated};
use crate::signal::signal_name;

/// How close two instants must be to count as the same moment (event times are whole seconds,
/// and the kubelet's clock and the runtime's may differ a little).
const SLACK: SignedDuration = SignedDuration::from_secs(3);

/// Whether `e` (its last occurrence) falls within the instance `t`'s life.
fn during(e: &EventSummary, t: &Terminated) -> bool {
    let Some(at) = e.last_timestamp else {
        return true;
    };
    let started = t.started_at.filter(|s| *s != Timestamp::UNIX_EPOCH);
    let after_start = started.is_none_or(|s| at >= s - SLACK) || e.count > 1;
    let before_end = t.finished_at.is_none_or(|f| at <= f + SLACK);
    after_start && before_end
}

/// The probe kind named by a `Killing` message (`liveness`, `startup`), if it names one.
fn probe_kind(message: &str) -> Option<&'static str> {
    if message.contains("failed liveness probe") {
        Some("liveness")
    } else if message.contains("failed startup probe") {
        Some("startup")
    } else {
        None
    }
}

/// Whether a `Killing` event says a probe killed the instance `t` of `c`: then the kubelet
/// stopped it, whatever exit code the process chose on SIGTERM (a clean shutdown exits 0).
#[must_use]
pub fn probe_killed(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> bool {
    inp.events_of(&c.name)
        .any(|e| e.reason == "Killing" && during(e, t) && probe_kind(&e.message).is_some())
}

/// Explains an instance that ended by SIGKILL, SIGTERM, SIGHUP, SIGINT or SIGQUIT.
#[must_use]
pub fn by_signal(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> Cause {
    let code = t.exit_code;
    let sig = signal_name(code).unwrap_or("a signal");
    let killings: Vec<&EventSummary> = inp
        .events_of(&c.name)
        .filter(|e| e.reason == "Killing" && during(e, t))
        .collect();
    if let Some((e, kind)) = killings
        .iter()
        .find_map(|e| probe_kind(&e.message).map(|k| (*e, k)))
    {
        return probe_kill(inp, c, t, e, kind);
    }
    // No Killing event (expired, or a kubelet that did not record it), but the probe failures
    // during this instance are there: the kill is inferred from them.
    if let Some((e, kind)) = inp.events_of(&c.name).find_map(|e| {
        let kind = if e.message.starts_with("Liveness probe failed") {
            "liveness"
        } else if e.message.starts_with("Startup probe failed") {
            "startup"
        } else {
            return None;
        };
        (e.reason == "Unhealthy" && during(e, t)).then_some((e, kind))
    }) {
        return probe_kill(inp, c, t, e, kind);
    }
    if let Some(at) = inp.pod.deletion_timestamp {
        return Cause {
            rule: "stopped-by-deletion",
            verb: format!("was stopped because the pod is being deleted: exit {code} ({sig})"),
            evidence: vec![format!(
                "metadata.deletionTimestamp {}: the kubelet sends SIGTERM, then SIGKILL after terminationGracePeriodSeconds {}",
                clock(at, inp.now),
                inp.pod.termination_grace_period_seconds
            )],
            severity: Some(Severity::Info),
            ..Cause::default()
        };
    }
    if let Some(p) = preemption(inp) {
        return Cause {
            rule: "preempted",
            verb: format!("was stopped by the scheduler's preemption: exit {code} ({sig})"),
            evidence: vec![p],
            hint: Some("a pod of higher priority needed the node: give this workload a PriorityClass, or ensure the cluster has room for both".to_owned()),
            ..Cause::default()
        };
    }
    if let Some(e) = killings.first() {
        return Cause {
            rule: "stopped-by-kubelet",
            verb: format!("was stopped by the kubelet: exit {code} ({sig}){}", after(t)),
            evidence: vec![
                event_line(e, inp.now),
                "the kubelet stops a container when its pod is deleted or evicted or its spec changes".to_owned(),
            ],
            severity: Some(Severity::Warning),
            ..Cause::default()
        };
    }
    let mut evidence =
        vec!["no Killing event about it: the kubelet did not say it stopped it".to_owned()];
    evidence.extend(
        facts::expired_note(t.finished_at, inp.now, false)
            .map(|n| format!("{n}: a Killing event may have expired")),
    );
    let limit = facts::spec_of(inp.pod, &c.name).and_then(|s| facts::resource(s, true, "memory"));
    let (rule, verb, hint) = match code {
        137 => (
            "sigkill",
            format!("was killed by SIGKILL (exit 137, not reported as OOMKilled){}", after(t)),
            format!(
                "candidates, most likely first: (1) a memory kill the runtime did not attribute (a child process hit the limit {}, or the node ran out of memory); (2) `kill -9` from inside the container or a watchdog; (3) the kubelet after a grace period, its events gone. Check node memory and the container's memory use",
                limit.unwrap_or("— none set")
            ),
        ),
        143 => (
            "sigterm",
            format!("was stopped by SIGTERM (exit 143){} that the kubelet did not announce", after(t)),
            "candidates: (1) a process inside the container (a supervisor or script calling kill); (2) the node shutting down (graceful node shutdown); (3) the kubelet, its events gone. The app's last log lines may say who asked it to stop".to_owned(),
        ),
        _ => (
            "killed-by-signal",
            format!("was ended by {sig} (exit {code}){}", after(t)),
            format!("{sig} came from outside the process: a terminal hang-up or interrupt, or a process in the container that sent it"),
        ),
    };
    Cause {
        rule,
        verb,
        evidence,
        hint: Some(hint),
        quote_logs: true,
        ..Cause::default()
    }
}

/// A `DisruptionTarget` condition or `Preempted` event that says the scheduler preempted it.
fn preemption(inp: &Inputs<'_>) -> Option<String> {
    if let Some(c) = inp
        .pod
        .conditions
        .iter()
        .find(|c| c.type_ == "DisruptionTarget" && c.reason == "PreemptionByScheduler")
    {
        return Some(format!(
            "condition DisruptionTarget=True reason PreemptionByScheduler at {}: \"{}\"",
            clock_opt(c.last_transition_time, inp.now),
            c.message
        ));
    }
    inp.pod_events()
        .find(|e| e.reason == "Preempted" || e.reason == "Preempting")
        .map(|e| event_line(e, inp.now))
}

/// The kubelet killed the instance because a liveness or startup probe failed.
fn probe_kill(
    inp: &Inputs<'_>,
    c: &ContainerSummary,
    t: &Terminated,
    killing: &EventSummary,
    kind: &'static str,
) -> Cause {
    let code = t.exit_code;
    let sig = signal_name(code).unwrap_or("a signal");
    let spec = facts::spec_of(inp.pod, &c.name);
    let probe = spec.and_then(|s| match kind {
        "startup" => s.startup_probe.as_ref(),
        _ => s.liveness_probe.as_ref(),
    });
    let grace = inp.pod.termination_grace_period_seconds;
    let mut evidence = vec![event_line(killing, inp.now)];
    let probe_word = if kind == "startup" {
        "Startup"
    } else {
        "Liveness"
    };
    evidence.extend(
        inp.events_of(&c.name)
            .filter(|e| {
                e.reason == "Unhealthy" && e.message.starts_with(probe_word) && e.uid != killing.uid
            })
            .take(1)
            .map(|e| {
                let errored = e.message.contains("probe errored");
                let side = if errored {
                    " (errored: the runtime could not run the probe — a node or runtime problem, not the app's answer)"
                } else {
                    ""
                };
                format!("{}{side}", event_line(e, inp.now))
            }),
    );
    if killing.reason != "Killing" {
        evidence.push(format!(
            "no Killing event about it (expired or not recorded): the kill is inferred from the {kind} probe's failures during this instance"
        ));
    }
    if code == 137
        && killing.reason == "Killing"
        && let (Some(k), Some(f)) = (killing.last_timestamp, t.finished_at)
    {
        let gap = f.duration_since(k).as_secs();
        let (fin, kill) = (clock(f, inp.now), clock(k, inp.now));
        evidence.push(if gap + SLACK.as_secs() >= grace {
            format!(
                "finishedAt {fin} = Killing {kill} + {gap}s: it ignored SIGTERM and was SIGKILLed after terminationGracePeriodSeconds {grace}"
            )
        } else {
            format!(
                "finishedAt {fin} = Killing {kill} + {gap}s, within terminationGracePeriodSeconds {grace}: it ended with 137 itself after SIGTERM"
            )
        });
    }
    let ran = t
        .started_at
        .filter(|s| *s != Timestamp::UNIX_EPOCH)
        .zip(t.finished_at)
        .map(|(s, f)| f.duration_since(s).as_secs());
    let Some(p) = probe else {
        return Cause {
            rule: "liveness-kill",
            verb: format!(
                "is killed by the kubelet after its {kind} probe failed: exit {code} ({sig}){}",
                after(t)
            ),
            evidence,
            hint: Some(format!(
                "fix what the {kind} probe checks, or the probe itself"
            )),
            quote_logs: true,
            ..Cause::default()
        };
    };
    let (delay, period, timeout, threshold) = probe_timing(p);
    // The first probe runs about initialDelaySeconds after start, then every periodSeconds:
    // the failureThreshold-th failure comes (threshold − 1) periods later, give or take one.
    let budget = delay + threshold * period;
    let earliest = delay + (threshold - 1) * period;
    evidence.push(format!(
        "{kind}Probe: {} initialDelaySeconds {delay} periodSeconds {period} timeoutSeconds {timeout} failureThreshold {threshold}",
        probe_handler(p)
    ));
    let slow_start = ran.is_some_and(|r| r <= budget + period + grace + 5);
    if let Some(r) = ran {
        evidence.push(format!(
            "it ran {r}s ≈ initialDelaySeconds {delay} + failureThreshold {threshold} × periodSeconds {period}: failure {threshold} in a row comes {earliest}–{budget}s after start, the first moment the probe can kill{}",
            if slow_start { "" } else { " — no: it ran much longer, then stopped answering" }
        ));
    }
    if !slow_start {
        return Cause {
            rule: "liveness-kill",
            verb: format!(
                "is killed by the kubelet after its {kind} probe failed {threshold} times in a row: exit {code} ({sig}){}",
                after(t)
            ),
            evidence,
            hint: Some("it ran, then stopped answering its probe: a hang, a deadlock or an overloaded process; its last log lines before the kill tell which".to_owned()),
            quote_logs: true,
            ..Cause::default()
        };
    }
    evidence.push("each restart begins the start-up from scratch, so a start slower than the probe allows never completes".to_owned());
    let observed = ran.unwrap_or(budget).max(1);
    let wanted = round_up(observed * 3, period);
    let hint = if kind == "startup" {
        format!(
            "give the start more time: startupProbe failureThreshold × periodSeconds ≥ {wanted}s (e.g. periodSeconds {period}, failureThreshold {})",
            wanted / period
        )
    } else {
        format!(
            "add a startupProbe with the same check and failureThreshold × periodSeconds ≥ {wanted}s (e.g. periodSeconds {period}, failureThreshold {}) — liveness starts only after it passes; or raise initialDelaySeconds to ≥ {wanted}",
            wanted / period
        )
    };
    Cause {
        rule: if kind == "startup" {
            "startup-probe-kill"
        } else {
            "liveness-kills-slow-start"
        },
        verb: format!(
            "is killed by its {kind} probe before it finishes starting: the kubelet stops it (exit {code}, {sig}){}, this is not an application crash",
            after(t)
        ),
        evidence,
        hint: Some(hint),
        quote_logs: true,
        ..Cause::default()
    }
}

/// `n` rounded up to a multiple of `step` (≥ 1).
fn round_up(n: i64, step: i64) -> i64 {
    let step = step.max(1);
    ((n + step - 1) / step) * step
}
