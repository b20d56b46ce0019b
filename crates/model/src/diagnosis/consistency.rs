//! The consistency pass (`docs/diagnosis.md` "Invariants"): no finding may contradict the
//! evidence on the same screen. [`violations`] checks the invariants on a list of findings and
//! says which fails where; [`enforce`] rewrites or drops what violates them, and runs last in
//! [`super::diagnose`]. The tests run [`violations`] over every case of the corpus.
//!
//! The invariants:
//! 1. `log-quoted`: a headline or action that says the log lines tell why rests on a quoted
//!    log line in its evidence.
//! 2. `never-started`: no `kubectl logs` advice and no "failing"/"crash" about a container
//!    that never started (no instance ran: it waits to be created, pulled or mounted).
//! 3. `deleted-not-looping`: no "restart loop" or CrashLoopBackOff about a container whose end
//!    came with the pod's deletion.
//! 4. `exists-now`: no "does not exist" / "not found" about an object a lookup found.
//! 5. `spec-needs-restart`: no "no restart needed" / "starts by itself" when only a spec change
//!    fixes it.
//! 6. `running-or-stopped`: no "running" and "stopped"/"killed" said of one instance in one
//!    headline when the container does not run now.
//! 7. `ready-is-ready`: no "running and ready" / "healthy" while the pod's Ready condition is
//!    False.
//! 8. `probe-covers-start`: a probe action's `≥ Ns` covers the start time observed.
//! 9. `advice-last`: probe advice never above a cause, and none on a pod failing for another
//!    reason.

use super::kb::Fix;
use super::{EvidenceKind, Finding, Inputs, Lookup, Severity};
use crate::pod::{ContainerState, ContainerSummary};

/// One broken invariant: its name, the finding's rule and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The invariant (`log-quoted`, `never-started` …).
    pub invariant: &'static str,
    /// The finding's rule.
    pub rule: &'static str,
    /// What in the finding broke it.
    pub detail: String,
}

/// Phrases that promise an answer in the logs.
const LOG_PROMISE: [&str; 5] = [
    "log lines say",
    "last log lines",
    "logs say why",
    "its log says",
    "log lines tell",
];

/// Phrases that say the pod recovers without a change.
const RESTARTLESS: [&str; 3] = ["no restart needed", "starts by itself", "as soon as the"];

/// Whether container `c` never ran an instance: waiting with no earlier instance, no restarts,
/// not a crash loop.
fn never_started(c: &ContainerSummary) -> bool {
    c.restart_count == 0
        && c.last_state.is_none()
        && matches!(&c.state, ContainerState::Waiting { reason, .. } if reason != "CrashLoopBackOff" && reason != "RunContainerError")
        || matches!(&c.state, ContainerState::Unknown) && c.restart_count == 0
}

/// Whether `c`'s instance ended with the pod's deletion (finished at or after it was asked).
fn ended_by_deletion(inp: &Inputs<'_>, c: &ContainerSummary) -> bool {
    let Some(del) = inp.pod.deletion_requested_at() else {
        return false;
    };
    let t = match &c.state {
        ContainerState::Terminated(t) => t,
        _ => return false,
    };
    t.finished_at.is_none_or(|f| f >= del)
}

fn lower(f: &Finding) -> (String, String) {
    (
        f.headline.to_lowercase(),
        f.action.as_deref().unwrap_or("").to_lowercase(),
    )
}

/// The container a finding is about.
fn container<'a>(inp: &'a Inputs<'_>, f: &Finding) -> Option<&'a ContainerSummary> {
    inp.pod.container(f.container.as_deref()?)
}

/// Every invariant each finding of `findings` breaks, in finding order.
#[must_use]
pub fn violations(inp: &Inputs<'_>, findings: &[Finding]) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut v = |invariant, f: &Finding, detail: String| {
        out.push(Violation {
            invariant,
            rule: f.rule,
            detail,
        });
    };
    let failing = findings
        .iter()
        .any(|f| matches!(f.severity, Severity::Error) && !f.rule.starts_with("probe-"));
    let mut seen_cause = false;
    for f in findings {
        let (head, action) = lower(f);
        let quoted = f
            .evidence
            .iter()
            .any(|e| e.kind == EvidenceKind::Log && e.text.contains('"'));
        if let Some(p) = LOG_PROMISE
            .iter()
            .find(|p| head.contains(*p) || action.contains(*p))
            && !quoted
        {
            v(
                "log-quoted",
                f,
                format!("says {p:?} without a quoted log line"),
            );
        }
        if let Some(c) = container(inp, f).filter(|c| never_started(c)) {
            if action.contains("kubectl logs") {
                v(
                    "never-started",
                    f,
                    format!("kubectl logs for {} that never started", c.name),
                );
            }
            if head.contains("failing") {
                v(
                    "never-started",
                    f,
                    format!("failing said of {} that never started", c.name),
                );
            }
        }
        if let Some(c) = container(inp, f).filter(|c| ended_by_deletion(inp, c))
            && (head.contains("restart loop") || head.contains("crashloopbackoff"))
        {
            v(
                "deleted-not-looping",
                f,
                format!("restart loop said of {}, ended by the deletion", c.name),
            );
        }
        for r in &f.checks {
            if matches!(inp.related.get(r), Some(Lookup::Found { .. })) {
                let name = r.describe().to_lowercase();
                if (head.contains("does not exist") || head.contains("is missing"))
                    && head.contains(name.split_whitespace().last().unwrap_or(""))
                    && !head.contains("exists now")
                {
                    v(
                        "exists-now",
                        f,
                        format!("{name} said missing, found by a lookup"),
                    );
                }
            }
        }
        let promises = |t: &str| RESTARTLESS.iter().any(|w| t.contains(w));
        if matches!(f.fix, Some(Fix::Spec | Fix::Image))
            && (promises(&action) || f.evidence.iter().any(|e| promises(&e.text.to_lowercase())))
        {
            v(
                "spec-needs-restart",
                f,
                "no-restart advice for a spec change".to_owned(),
            );
        }
        if let Some(c) = container(inp, f)
            && !matches!(c.state, ContainerState::Running { .. })
            && head.contains("running since")
            && (head.contains("stopped") || head.contains("killed"))
        {
            v(
                "running-or-stopped",
                f,
                format!("running and stopped said of {}", c.name),
            );
        }
        let not_ready = inp.pod.deletion_timestamp.is_some()
            || inp
                .pod
                .conditions
                .iter()
                .any(|c| c.type_ == "Ready" && c.status == "False");
        if not_ready && (f.rule == "healthy" || head.contains("running and ready")) {
            v(
                "ready-is-ready",
                f,
                "healthy said while condition Ready=False".to_owned(),
            );
        }
        if let Some(need) = probe_need(inp, f)
            && let Some(given) = promised_seconds(&action)
            && given < need
        {
            v(
                "probe-covers-start",
                f,
                format!("advice gives {given}s, the start took {need}s"),
            );
        }
        if f.rule.starts_with("probe-") {
            if !seen_cause
                && findings
                    .iter()
                    .any(|g| !g.rule.starts_with("probe-") && g.severity < Severity::Info)
            {
                v("advice-last", f, "probe advice above the cause".to_owned());
            }
            if failing {
                v(
                    "advice-last",
                    f,
                    "probe advice on a pod failing for another reason".to_owned(),
                );
            }
        } else {
            seen_cause = true;
        }
    }
    out
}

/// The seconds a container's last instance ran before a probe killed it, when the finding is a
/// probe kill: what a probe advice must cover.
fn probe_need(inp: &Inputs<'_>, f: &Finding) -> Option<i64> {
    if !matches!(
        f.rule,
        "liveness-kills-slow-start" | "startup-probe-kill" | "liveness-kill"
    ) {
        return None;
    }
    let c = container(inp, f)?;
    let t = c.last_state.as_ref().or(match &c.state {
        ContainerState::Terminated(t) => Some(t),
        _ => None,
    })?;
    Some(t.finished_at?.duration_since(t.started_at?).as_secs())
}

/// The `≥ Ns` an action promises, the smallest when several.
fn promised_seconds(action: &str) -> Option<i64> {
    action
        .match_indices('≥')
        .filter_map(|(i, _)| {
            let rest = action[i + '≥'.len_utf8()..].trim_start();
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let after = &rest[digits.len()..];
            (after.starts_with('s') || after.starts_with(' ') || after.is_empty())
                .then(|| digits.parse().ok())
                .flatten()
        })
        .min()
}

/// Removes the sentences (parts separated by `. `, `; ` or ` — `) of `text` that contain any of
/// `words`; `text` itself when none does; `None` when nothing is left.
fn without(text: &str, words: &[&str]) -> Option<String> {
    let lower = text.to_lowercase();
    if !words.iter().any(|w| lower.contains(w)) {
        return Some(text.to_owned());
    }
    let kept: Vec<&str> = text
        .split(". ")
        .flat_map(|s| s.split("; "))
        .flat_map(|s| s.split(" — "))
        .filter(|part| {
            let l = part.to_lowercase();
            !words.iter().any(|w| l.contains(w))
        })
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    (!kept.is_empty()).then(|| kept.join("; "))
}

/// Rewrites or drops what breaks an invariant, so that [`violations`] finds nothing.
#[must_use]
pub fn enforce(inp: &Inputs<'_>, findings: Vec<Finding>) -> Vec<Finding> {
    let failing = findings
        .iter()
        .any(|f| matches!(f.severity, Severity::Error) && !f.rule.starts_with("probe-"));
    let describe = format!(
        "kubectl describe pod {} -n {}",
        inp.pod.name, inp.pod.namespace
    );
    let mut out: Vec<Finding> = Vec::with_capacity(findings.len());
    for mut f in findings {
        if f.rule.starts_with("probe-") && failing {
            continue;
        }
        let quoted = f
            .evidence
            .iter()
            .any(|e| e.kind == EvidenceKind::Log && e.text.contains('"'));
        if !quoted {
            f.headline = without_clause(&f.headline, &LOG_PROMISE);
            if let Some(a) = f.action.take() {
                f.action = Some(
                    without(&a, &LOG_PROMISE)
                        .unwrap_or_else(|| read_logs(inp, &f).unwrap_or_else(|| describe.clone())),
                );
            }
        }
        if container(inp, &f).is_some_and(never_started) {
            if let Some(a) = f.action.take() {
                f.action = Some(without(&a, &["kubectl logs"]).unwrap_or_else(|| describe.clone()));
            }
            if f.headline.to_lowercase().contains("failing") {
                f.headline = f
                    .headline
                    .replace("FAILING", "not started")
                    .replace("failing", "not started");
            }
        }
        if container(inp, &f).is_some_and(|c| ended_by_deletion(inp, c)) {
            let l = f.headline.to_lowercase();
            if l.contains("restart loop") || l.contains("crashloopbackoff") {
                continue;
            }
        }
        let found: Vec<String> = f
            .checks
            .iter()
            .filter(|r| matches!(inp.related.get(*r), Some(Lookup::Found { .. })))
            .map(super::ObjectRef::describe)
            .collect();
        if !found.is_empty() {
            let l = f.headline.to_lowercase();
            if (l.contains("does not exist") || l.contains("is missing"))
                && !l.contains("exists now")
            {
                f.headline.push_str(&format!(
                    "; {} exists now: the kubelet retries on its own at its next sync (within about a minute)",
                    found.join(", ")
                ));
                f.severity = Severity::Warning;
            }
        }
        if matches!(f.fix, Some(Fix::Spec | Fix::Image)) {
            if let Some(a) = f.action.take() {
                f.action = Some(without(&a, &RESTARTLESS).unwrap_or_else(|| describe.clone()));
            }
            f.evidence.retain(|e| {
                !RESTARTLESS
                    .iter()
                    .any(|w| e.text.to_lowercase().contains(w))
            });
        }
        if let Some(c) = container(inp, &f)
            && !matches!(c.state, ContainerState::Running { .. })
        {
            let l = f.headline.to_lowercase();
            if l.contains("running since") && (l.contains("stopped") || l.contains("killed")) {
                f.headline = without_clause(&f.headline, &["running since"]);
            }
        }
        let not_ready = inp.pod.deletion_timestamp.is_some()
            || inp
                .pod
                .conditions
                .iter()
                .any(|c| c.type_ == "Ready" && c.status == "False");
        if not_ready
            && (f.rule == "healthy" || f.headline.to_lowercase().contains("running and ready"))
        {
            continue;
        }
        if let Some(need) = probe_need(inp, &f)
            && let Some(given) = f
                .action
                .as_deref()
                .and_then(|a| promised_seconds(&a.to_lowercase()))
            && given < need
        {
            let wanted = need * 3 / 2;
            if let Some(a) = f.action.as_mut() {
                *a = a.replace(&format!("≥ {given}"), &format!("≥ {wanted}"));
            }
        }
        out.push(f);
    }
    // Advice below every cause: a stable partition.
    let (advice, causes): (Vec<Finding>, Vec<Finding>) =
        out.into_iter().partition(|f| f.rule.starts_with("probe-"));
    causes.into_iter().chain(advice).collect()
}

/// For a container that ran an instance whose log was not read: the command that reads it (a
/// promise that the log says why is not allowed, but reading it is the next step).
fn read_logs(inp: &Inputs<'_>, f: &Finding) -> Option<String> {
    let c = container(inp, f)?;
    if never_started(c) {
        return None;
    }
    let previous = if c.last_state.is_some() {
        " --previous"
    } else {
        ""
    };
    Some(format!(
        "read what it printed before it stopped: kubectl logs {} -n {} -c {}{previous}",
        inp.pod.name, inp.pod.namespace, c.name
    ))
}

/// `text` without its comma/colon/parenthesis-separated clauses that contain any of `words`.
fn without_clause(text: &str, words: &[&str]) -> String {
    let l = text.to_lowercase();
    if !words.iter().any(|w| l.contains(w)) {
        return text.to_owned();
    }
    text.split([',', ';', '—'])
        .filter(|part| {
            let p = part.to_lowercase();
            !words.iter().any(|w| p.contains(w))
        })
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}
