//! A container running its `preStop` hook while the pod is deleted. The kubelet runs the hook
//! first and counts it against `terminationGracePeriodSeconds` (`pkg/kubelet/kuberuntime/
//! kuberuntime_container.go` `killContainer`: the hook gets the grace period, then SIGTERM, then
//! SIGKILL when the period is over, with a 2 s minimum after the hook). A hook that may run longer
//! than the period (a `sleep N`, a `--…timeout=N` drain) is cut off: what it protects (in-flight
//! work, connection draining) is lost. Checked against `67-prestop-hook-outlasts-grace-period`.

use std::sync::LazyLock;

use regex::Regex;

use super::super::facts::{clock, spec_of};
use super::super::{Finding, Inputs, Severity};
use crate::duration::human_duration;
use crate::pod::ContainerState;

/// A duration a hook's command waits: `sleep 300`, `--drain-timeout=600s`, `timeout 5m`.
static WAIT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)(?:\bsleep\s+|timeout[=\s]+)(\d+)\s*([smh]?)\b").ok());

/// The longest wait, in seconds, that `command` names.
fn longest_wait(command: &str) -> Option<i64> {
    let re = WAIT.as_ref()?;
    re.captures_iter(command)
        .filter_map(|c| {
            let n: i64 = c.get(1)?.as_str().parse().ok()?;
            let unit = match c.get(2).map_or("", |m| m.as_str()) {
                "m" | "M" => 60,
                "h" | "H" => 3600,
                _ => 1,
            };
            Some(n * unit)
        })
        .max()
}

/// One warning per container that still runs, has a `preStop` hook, and belongs to a pod whose
/// deletion was requested.
pub fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    let pod = inp.pod;
    let Some(deadline) = pod.deletion_timestamp else {
        return;
    };
    let grace = pod.termination_grace_period_seconds;
    for c in &pod.containers {
        if !matches!(c.state, ContainerState::Running { .. }) {
            continue;
        }
        let Some(hook) = spec_of(pod, &c.name)
            .and_then(|s| s.lifecycle.as_ref())
            .and_then(|l| l.pre_stop.as_ref())
        else {
            continue;
        };
        let what = if let Some(e) = &hook.exec {
            e.command.clone().unwrap_or_default().join(" ")
        } else if let Some(h) = &hook.http_get {
            format!("httpGet {}", h.path.as_deref().unwrap_or("/"))
        } else if let Some(s) = &hook.sleep {
            format!("sleep {}", s.seconds)
        } else {
            "a handler".to_owned()
        };
        let wait = longest_wait(&what);
        let when = if deadline > inp.now {
            format!("in {}", human_duration(deadline.duration_since(inp.now)))
        } else {
            format!("{} ago", human_duration(inp.now.duration_since(deadline)))
        };
        let mut headline = format!(
            "container {} is in its preStop hook while the pod is deleted: terminationGracePeriodSeconds {grace} ends at {} ({when}), then the kubelet kills it (SIGTERM, 2 s, SIGKILL)",
            c.name,
            clock(deadline, inp.now)
        );
        let over = wait.filter(|w| *w > grace);
        if let Some(w) = over {
            headline.push_str(&format!(
                "; the hook may wait up to {w}s, longer than the grace period, so it will be cut off"
            ));
        }
        let mut f = Finding::new(
            "prestop-outlasts-grace",
            if over.is_some() {
                Severity::Warning
            } else {
                Severity::Info
            },
            Some(&c.name),
            headline,
        )
        .with(format!("spec.containers[{}].lifecycle.preStop: {what}", c.name))
        .with(format!(
            "terminationGracePeriodSeconds {grace}: the hook and the stop share it; metadata.deletionTimestamp {} is when it runs out",
            clock(deadline, inp.now)
        ));
        for e in inp
            .events_of(&c.name)
            .filter(|e| e.reason == "Killing" || e.reason.contains("PreStop"))
            .take(2)
        {
            f.evidence.push(super::super::facts::event_line(e, inp.now));
        }
        f.action = Some(match over {
            Some(w) => format!(
                "raise terminationGracePeriodSeconds above the hook's {w}s plus the time to stop (e.g. {}), or make the hook finish sooner; a forced delete (--grace-period=0 --force) would cut it off at once",
                w + 60
            ),
            None => "wait for the hook and the stop to finish within the grace period; a forced delete would cut the hook off".to_owned(),
        });
        out.push(f);
    }
}
