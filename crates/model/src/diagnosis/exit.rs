//! Exit rules: why a container instance ended, from its exit code, signal, reason, events and
//! last log lines (`docs/diagnosis.md` "Exit codes and signals").
//!
//! Which instance is explained: the current `state.terminated` when the container is not running,
//! else `lastState.terminated` when the container is waiting to restart (CrashLoopBackOff,
//! RunContainerError) or runs again after restarts. What it means comes from [`cause`]; this
//! file adds what the pod says around it: restarts, back-off, whether the kubelet will try again,
//! the dead instance's last words.

use jiff::Timestamp;

use super::cause::classify;
use super::facts::{self, clock, clock_opt, role};
use super::{Finding, Inputs, Severity};
use crate::backoff::Countdown;
use crate::duration::{format_go_duration, human_duration};
use crate::pod::{ContainerKind, ContainerState, ContainerSummary, Terminated};

/// Which terminated instance to explain and how the container stands now.
enum Situation<'a> {
    /// Not running; the kubelet restarts it after a back-off (or at once).
    Looping(&'a Terminated),
    /// Terminated, and the kubelet will not start it again.
    Final(&'a Terminated),
    /// Running again after restarts; the instance before ended like this.
    Restarted(&'a Terminated),
}

fn situation<'a>(inp: &Inputs<'_>, c: &'a ContainerSummary) -> Option<Situation<'a>> {
    let pod = inp.pod;
    match &c.state {
        ContainerState::Terminated(t) => {
            if pod.will_restart(c, t.exit_code) {
                Some(Situation::Looping(t))
            } else {
                Some(Situation::Final(t))
            }
        }
        ContainerState::Waiting { reason, .. } => {
            let last = c.last_state.as_ref()?;
            let waiting_to_restart = matches!(
                reason.as_str(),
                "CrashLoopBackOff" | "RunContainerError" | "CreateContainerError" | "StartError"
            ) || c.restart_count > 0;
            waiting_to_restart.then_some(Situation::Looping(last))
        }
        ContainerState::Running { .. } => (c.restart_count > 0)
            .then_some(c.last_state.as_ref())
            .flatten()
            .map(Situation::Restarted),
        ContainerState::Unknown => None,
    }
}

/// Whether `t` is an ordinary end that needs no finding: a successful init container, a main
/// container that completed in a pod that will not restart it, a sidecar stopped by the kubelet
/// after the pod finished (the outcome rules mention those).
fn is_expected(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated, looping: bool) -> bool {
    let finished = matches!(inp.pod.phase.as_str(), "Succeeded" | "Failed");
    let oom = t.reason == "OOMKilled";
    match c.kind {
        ContainerKind::Init => t.exit_code == 0 && !oom,
        ContainerKind::Sidecar => finished && matches!(t.exit_code, 0 | 137 | 143),
        ContainerKind::Main | ContainerKind::Ephemeral => t.exit_code == 0 && !oom && !looping,
    }
}

/// Findings about `c`'s terminated instances (`state.terminated`, `lastState.terminated`).
///
/// Exit codes, signals and reasons are read as the kubelet and runtime report them
/// (`pkg/kubelet/kuberuntime/kuberuntime_container.go`, `toKubeContainerStatus`): 128 + N is
/// signal N, `OOMKilled` is the cgroup OOM killer, `StartError` with a `startedAt` of the Unix
/// epoch is a process that never ran. Checked against cases 01, 02, 03, 04, 07, 08, 09, 10, 29.
pub fn findings(inp: &Inputs<'_>, index: usize, c: &ContainerSummary, out: &mut Vec<Finding>) {
    let _ = index;
    let Some(sit) = situation(inp, c) else {
        return;
    };
    let (t, looping) = match sit {
        Situation::Looping(t) => (t, true),
        Situation::Final(t) | Situation::Restarted(t) => (t, false),
    };
    if is_expected(inp, c, t, looping) {
        return;
    }
    let mut cause = classify(inp, c, t);
    let now = inp.now;
    // An application's own exit: what it said last belongs in the headline, and a config value
    // it names in the evidence and hint.
    if matches!(cause.rule, "app-exit" | "abort")
        && let Some(said) = super::words::last_words(inp, c, t)
    {
        if let Some(h) = super::words::hint_for(&said) {
            cause.hint = Some(h.to_owned());
        }
        for (name, value) in super::words::named_env(inp, c, &said) {
            cause.evidence.push(format!(
                "the error names \"{value}\": the value of env {name} (literal in the pod spec)"
            ));
            cause.hint = Some(format!(
                "check env {name}={value}: the error names it; {}",
                cause.hint.take().unwrap_or_default()
            ));
        }
        cause.verb.push_str(&format!(": \"{said}\""));
    }
    let who = role(c);
    let (severity, headline) = match sit {
        Situation::Looping(_) => (
            Severity::Error,
            format!(
                "{who} {}; {} so far, in {}",
                cause.verb,
                restarts(c.restart_count),
                waiting_reason(c).unwrap_or("a restart loop")
            ),
        ),
        Situation::Final(_) => (
            Severity::Error,
            format!(
                "{who} {}; it will not be restarted ({})",
                cause.verb,
                terminal_why(inp, c)
            ),
        ),
        // It keeps crashing when it has restarted five times or more and its instances live
        // less than two hours:
        // running between two crashes is not recovered (the back-off reset needs 10 minutes
        // of running).
        Situation::Restarted(_)
            if c.restart_count >= 5
                && t.exit_code != 0
                && t.started_at
                    .zip(t.finished_at)
                    .is_some_and(|(s, f)| f.duration_since(s).as_secs() < 7200) =>
        {
            (
                Severity::Error,
                format!(
                    "{who} keeps crashing: restarted {}, the last time {} ago, and runs again for now; the last instance {}",
                    times(c.restart_count),
                    facts::took(inp.now.duration_since(t.finished_at.unwrap_or(inp.now))),
                    cause.verb
                ),
            )
        }
        Situation::Restarted(_) => (
            Severity::Warning,
            format!(
                "{who} restarted {} and runs again; the last instance {}",
                times(c.restart_count),
                cause.verb
            ),
        ),
    };
    let severity = cause.severity.unwrap_or(severity);
    let mut f = Finding::new(cause.rule, severity, Some(&c.name), headline);
    f.evidence.push(terminated_line(
        t,
        now,
        matches!(sit, Situation::Final(_) | Situation::Looping(_))
            && matches!(c.state, ContainerState::Terminated(_)),
    ));
    f.evidence.extend(cause.evidence);
    if let Some(m) = t
        .message
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
    {
        f.evidence.push(format!(
            "lastState.terminated.message (termination message): \"{m}\""
        ));
    }
    if cause.quote_logs {
        f.evidence
            .extend(facts::previous_log_evidence(inp, &c.name, 5));
    }
    if let Some(b) = &c.backoff {
        f.evidence.push(backoff_line(b, now));
    }
    if let Situation::Final(_) = sit {
        f.evidence.push(format!(
            "restartPolicy {}, phase {}: nothing will retry it",
            inp.pod.restart_policy,
            if inp.pod.phase.is_empty() {
                "<none>"
            } else {
                &inp.pod.phase
            }
        ));
    }
    f.evidence.extend(no_previous_logs(inp, c));
    f.action = cause.hint;
    if let Situation::Final(_) = sit {
        let retry = retry_hint(inp);
        f.action = Some(match f.action.take() {
            Some(h) => format!("{h}; then {retry}"),
            None => retry,
        });
    }
    f.checks = cause.checks;
    out.push(f);
}

fn times(n: i32) -> String {
    if n == 1 {
        "once".to_owned()
    } else {
        format!("{n} times")
    }
}

fn restarts(n: i32) -> String {
    match n {
        0 => "no restarts".to_owned(),
        1 => "1 restart".to_owned(),
        n => format!("{n} restarts"),
    }
}

fn waiting_reason(c: &ContainerSummary) -> Option<&str> {
    match &c.state {
        ContainerState::Waiting { reason, .. } if !reason.is_empty() => Some(reason),
        _ => None,
    }
}

/// ` after 6s` when the instance ran (never for a `startedAt` of 1970: it never started).
fn ran_text(t: &Terminated) -> String {
    match (t.started_at, t.finished_at) {
        (Some(s), Some(e)) if s != Timestamp::UNIX_EPOCH => {
            format!(" after {}", human_duration(e.duration_since(s)))
        }
        _ => String::new(),
    }
}

/// `lastState.terminated: reason Error, exitCode 1, started 09:40:44, finished 09:40:50 (ran 6s)`.
fn terminated_line(t: &Terminated, now: Timestamp, current: bool) -> String {
    let field = if current {
        "state.terminated"
    } else {
        "lastState.terminated"
    };
    let reason = if t.reason.is_empty() {
        "<none>"
    } else {
        &t.reason
    };
    let started = match t.started_at {
        Some(s) if s == Timestamp::UNIX_EPOCH => "never started (startedAt 1970-01-01)".to_owned(),
        s => format!("started {}", clock_opt(s, now)),
    };
    let mut line = format!(
        "{field}: reason {reason}, exitCode {}{}, {started}, finished {}",
        t.exit_code,
        crate::signal::signal_name(t.exit_code)
            .map(|s| format!(" ({s})"))
            .unwrap_or_default(),
        clock_opt(t.finished_at, now)
    );
    if let Some(d) = ran_text(t).strip_prefix(" after ") {
        line.push_str(&format!(" (ran {d})"));
    }
    line
}

fn backoff_line(b: &crate::Backoff, now: Timestamp) -> String {
    let delay = format_go_duration(b.delay);
    let approx = if matches!(b.source, crate::BackoffSource::Estimate) {
        "≈"
    } else {
        ""
    };
    match (b.next_restart_at, b.countdown(now)) {
        (Some(at), Countdown::In(s)) => format!(
            "CrashLoopBackOff: back-off {approx}{delay}, next restart at {} (in {s}s)",
            clock(at, now)
        ),
        (Some(at), _) => format!(
            "CrashLoopBackOff: back-off {approx}{delay}, restart due since {}",
            clock(at, now)
        ),
        (None, _) => format!("CrashLoopBackOff: back-off {approx}{delay}"),
    }
}

fn terminal_why(inp: &Inputs<'_>, c: &ContainerSummary) -> String {
    match (c.kind, inp.pod.phase.as_str()) {
        (ContainerKind::Ephemeral, _) => "ephemeral containers never restart".to_owned(),
        (_, "Failed") => format!("pod phase Failed, restartPolicy {}", inp.pod.restart_policy),
        (_, "Succeeded") => "pod phase Succeeded".to_owned(),
        _ => format!("restartPolicy {}", inp.pod.restart_policy),
    }
}

/// How to try again once a pod will not: a Job's pods come back from the Job, others must be
/// created anew.
fn retry_hint(inp: &Inputs<'_>) -> String {
    if let Some(w) = inp
        .workload
        .filter(|w| super::rollout::failed_job_condition(w).is_some())
    {
        return super::rollout::failed_job_retry(w);
    }
    match inp.pod.owner.as_ref() {
        Some(o) if o.kind == "Job" => format!(
            "the Job {} creates a new pod while its backoffLimit allows; fix its template",
            o.name
        ),
        Some(o) => format!(
            "fix the {} {}'s pod template; it creates a new pod",
            o.kind, o.name
        ),
        None => format!(
            "to retry, recreate the pod: kubectl get pod {} -n {} -o yaml > pod.yaml, fix it, kubectl replace --force -f pod.yaml",
            inp.pod.name, inp.pod.namespace
        ),
    }
}

/// Evidence that other containers have no previous logs because they never restarted (a
/// `kubectl logs --previous` on them answers `previous terminated container … not found`).
fn no_previous_logs(inp: &Inputs<'_>, c: &ContainerSummary) -> Vec<String> {
    if c.restart_count == 0 {
        return Vec::new();
    }
    inp.pod
        .containers
        .iter()
        .filter(|o| {
            o.name != c.name
                && o.kind == ContainerKind::Main
                && o.restart_count == 0
                && matches!(o.state, ContainerState::Running { .. })
        })
        .map(|o| {
            format!(
                "container {} never restarted: it has no previous logs (kubectl logs --previous -c {} answers \"previous terminated container … not found\")",
                o.name, o.name
            )
        })
        .collect()
}
