//! Rollout findings, only when the caller gives the pod's workload ([`Inputs::workload`]): the
//! new ReplicaSet's pods fail while the old one's are healthy (what changed between their
//! templates is the suspect), and a Deployment whose `Progressing` condition says
//! `ProgressDeadlineExceeded` (`docs/diagnosis.md` "Rollouts"; source: the Deployment
//! controller's progress check, `pkg/controller/deployment/progress.go`).

use super::{Finding, Inputs, Severity};
use crate::ContainerState;
use crate::workload::choice::{Trouble, trouble};
use crate::workload::diff::changes_text;
use crate::workload::summary::POD_TEMPLATE_HASH;
use crate::workload::{Revision, TemplateChange, WorkloadKind, WorkloadSummary};

/// Adds the rollout findings of `inp.workload` (none without it or for other kinds).
pub fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    if let Some(f) = inp.workload.and_then(job_failed) {
        out.push(f);
    }
    let Some(w) = inp.workload.filter(|w| w.kind == WorkloadKind::Deployment) else {
        return;
    };
    if let Some(f) = new_pods_fail(inp, w) {
        out.push(f);
    }
    if let Some(c) = w
        .conditions
        .iter()
        .find(|c| c.type_ == "Progressing" && c.reason == "ProgressDeadlineExceeded")
    {
        let mut f = Finding::new(
            "rollout-deadline-exceeded",
            Severity::Error,
            None,
            format!(
                "the rollout of deploy/{} exceeded its progress deadline: {}",
                w.name,
                if c.message.is_empty() {
                    "ProgressDeadlineExceeded"
                } else {
                    c.message.as_str()
                }
            ),
        )
        .with(format!(
            "condition Progressing={} reason ProgressDeadlineExceeded: {:?}",
            c.status, c.message
        ))
        .action(format!(
            "the controller stopped waiting; fix the template, or {}",
            go_back(w)
        ));
        if let Some(new) = w.revisions.iter().find(|r| r.new) {
            f = f.with(revision_line(new));
        }
        out.push(f);
    }
}

/// The `Failed` condition of a Job (or a CronJob's latest Job) when its status is `True`.
#[must_use]
pub fn failed_job_condition(w: &WorkloadSummary) -> Option<&crate::workload::WorkloadCondition> {
    if !matches!(w.kind, WorkloadKind::Job | WorkloadKind::CronJob) {
        return None;
    }
    w.conditions
        .iter()
        .find(|c| c.type_ == "Failed" && c.status == "True")
}

/// The Job's name: a CronJob's latest Job, else the Job itself.
fn job_name(w: &WorkloadSummary) -> &str {
    match w.kind {
        WorkloadKind::CronJob => w.job.as_deref().unwrap_or(&w.name),
        _ => &w.name,
    }
}

/// How to run a failed Job again: it creates no more pods, so it must be re-created (a
/// CronJob's next schedule creates a new Job).
#[must_use]
pub fn failed_job_retry(w: &WorkloadSummary) -> String {
    match w.kind {
        WorkloadKind::CronJob => format!(
            "fix the CronJob {}'s job template; its next schedule creates a new Job (or now: kubectl create job --from=cronjob/{} {}-retry)",
            w.name, w.name, w.name
        ),
        _ => format!(
            "fix the template, then delete and re-create the Job: kubectl delete job {} && kubectl apply -f …",
            job_name(w)
        ),
    }
}

/// `Job migrate failed: BackoffLimitExceeded (backoffLimit 2, 3 pods failed); it creates no
/// more pods`, when the pod's Job has `Failed=True` (source: the Job controller's
/// `pkg/controller/job/job_controller.go`: a failed Job's pods are not replaced).
fn job_failed(w: &WorkloadSummary) -> Option<Finding> {
    let c = failed_job_condition(w)?;
    let mut why = Vec::new();
    if let Some(limit) = w.jobs.and_then(|j| j.backoff_limit) {
        why.push(format!("backoffLimit {limit}"));
    }
    if let Some(j) = w.jobs {
        why.push(format!(
            "{} {} failed",
            j.failed,
            if j.failed == 1 { "pod" } else { "pods" }
        ));
    }
    let reason = if c.reason.is_empty() {
        "Failed"
    } else {
        c.reason.as_str()
    };
    let paren = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    let mut f = Finding::new(
        "job-failed",
        Severity::Error,
        None,
        format!(
            "Job {} failed: {reason}{paren}; it creates no more pods",
            job_name(w)
        ),
    )
    .with(format!(
        "condition Failed=True reason {reason}: {:?}",
        c.message
    ));
    f = f.action(failed_job_retry(w));
    Some(f)
}

/// Whether `w` is a kind with `spec.replicas` (Deployment, ReplicaSet, StatefulSet) scaled to 0.
#[must_use]
pub fn is_scaled_to_zero(w: &WorkloadSummary) -> bool {
    matches!(
        w.kind,
        WorkloadKind::Deployment | WorkloadKind::ReplicaSet | WorkloadKind::StatefulSet
    ) && w.replicas == Some(0)
}

/// What the workload says when no pod is there to diagnose (`docs/workloads.md` "--once"):
/// `deployment web is scaled to 0 (spec.replicas: 0): no pods run` (info, rule
/// `workload-scaled-to-zero`, hint `kubectl scale deploy/web --replicas=N`); nothing otherwise.
#[must_use]
pub fn workload_findings(w: &WorkloadSummary) -> Vec<Finding> {
    if !is_scaled_to_zero(w) {
        return Vec::new();
    }
    vec![
        Finding::new(
            "workload-scaled-to-zero",
            Severity::Info,
            None,
            format!(
                "{} {} is scaled to 0 (spec.replicas: 0): no pods run",
                w.kind.singular(),
                w.name
            ),
        )
        .action(format!(
            "to run pods again: kubectl scale {}/{} --replicas=N",
            w.kind.short(),
            w.name
        )),
    ]
}

fn revision_line(r: &Revision) -> String {
    let age = if r.new { "new" } else { "old" };
    let rev = r
        .revision
        .map(|n| format!(", revision {n}"))
        .unwrap_or_default();
    format!(
        "ReplicaSet {} ({age}{rev}): {}/{} ready",
        r.name, r.ready, r.replicas
    )
}

/// How the pod fails, in a few words: `crash with exit 1`, `cannot start
/// (CreateContainerConfigError)`, `fail (ImagePullBackOff)`.
fn how_it_fails(inp: &Inputs<'_>) -> String {
    for c in &inp.pod.containers {
        let last_exit = match &c.state {
            ContainerState::Terminated(t) if t.exit_code != 0 => Some(t.exit_code),
            ContainerState::Waiting { reason, .. } if reason == "CrashLoopBackOff" => {
                c.last_state.as_ref().map(|t| t.exit_code)
            }
            _ => None,
        };
        if let Some(code) = last_exit {
            return format!("crash with exit {code}");
        }
        if let ContainerState::Waiting { reason, .. } = &c.state
            && !matches!(
                reason.as_str(),
                "" | "ContainerCreating" | "PodInitializing"
            )
        {
            return format!("fail ({reason})");
        }
    }
    "fail".to_owned()
}

/// Whether `value` appears in what the pod's dead instances said: a previous log tail or a
/// termination message.
fn named_by_the_crash(inp: &Inputs<'_>, value: &str) -> bool {
    if value.len() < 2 {
        return false;
    }
    let in_logs = inp.logs.previous.values().any(|t| {
        t.lines
            .as_ref()
            .is_ok_and(|lines| lines.iter().any(|l| l.contains(value)))
    });
    in_logs
        || inp.pod.containers.iter().any(|c| {
            c.last_state
                .as_ref()
                .and_then(|t| t.message.as_deref())
                .is_some_and(|m| m.contains(value))
        })
}

/// `since PORT changed to "abc"`: the env change whose new value the crash names (its log or
/// termination message), else the only change, with how many more there are; else `since the
/// template changed`.
fn since(inp: &Inputs<'_>, changes: &[TemplateChange]) -> String {
    let env = |c: &&TemplateChange| c.field.starts_with("env ") && !c.to.is_empty();
    let more = |n: usize| match n {
        0 => String::new(),
        1 => " (and 1 more change)".to_owned(),
        n => format!(" (and {n} more changes)"),
    };
    let suspect = changes
        .iter()
        .filter(env)
        .find(|c| named_by_the_crash(inp, &c.to))
        .or(match changes {
            [c] => Some(c),
            _ => None,
        });
    match suspect {
        Some(c) if env(&c) => format!(
            "since {} changed to {:?}{}",
            &c.field[4..],
            c.to,
            more(changes.len() - 1)
        ),
        Some(c) if c.field == "image" => format!("since the image changed to {}", c.to),
        _ if changes.is_empty() => String::new(),
        _ => "since the template changed".to_owned(),
    }
}

/// The shown pod is the new ReplicaSet's and crash-loops or failed, and every old ReplicaSet
/// with pods has them all ready.
fn new_pods_fail(inp: &Inputs<'_>, w: &WorkloadSummary) -> Option<Finding> {
    let new = w.revisions.iter().find(|r| r.new)?;
    if inp.pod.labels.get(POD_TEMPLATE_HASH) != Some(&new.hash) || new.hash.is_empty() {
        return None;
    }
    if !matches!(trouble(inp.pod), Trouble::Waiting | Trouble::Failed) {
        return None;
    }
    let old: Vec<&Revision> = w
        .revisions
        .iter()
        .filter(|r| !r.new && r.replicas > 0)
        .collect();
    if old.is_empty() || old.iter().any(|r| r.ready < r.replicas) {
        return None;
    }
    let since = since(inp, &w.changes);
    let headline = format!(
        "the new ReplicaSet's pods {}{}{}; the old ReplicaSet's pods are healthy",
        how_it_fails(inp),
        if since.is_empty() { "" } else { " " },
        since
    );
    let mut f = Finding::new("rollout-new-pods-fail", Severity::Error, None, headline)
        .with(revision_line(new));
    for r in old {
        f = f.with(revision_line(r));
    }
    if !w.changes.is_empty() {
        f = f.with(format!("template change: {}", changes_text(&w.changes)));
    }
    Some(f.action(format!(
        "{} (or fix the change and apply it again)",
        go_back(w)
    )))
}

/// Whether `r` is known healthy: it has pods and all of them are ready (a crash-looping pod
/// is not ready, so a ReplicaSet with one is not healthy). A ReplicaSet scaled to 0 is not
/// known healthy: its pods are gone and with them what they did.
fn healthy(r: &Revision) -> bool {
    r.replicas > 0 && r.ready == r.replicas
}

/// Where `kubectl rollout undo` should go: the newest revision older than the new one whose
/// ReplicaSet is healthy ([`healthy`]). `kubectl rollout undo deploy/NAME` when that is the
/// revision just before the new one (the one a bare undo picks), `--to-revision=N` when it is
/// older; when none is known healthy, no undo is offered (`docs/diagnosis.md` "Rollouts";
/// source: `rollback` in `pkg/controller/deployment/rollback.go` picks the previous revision).
fn go_back(w: &WorkloadSummary) -> String {
    let Some(at) = w.revisions.iter().position(|r| r.new) else {
        return no_healthy(w);
    };
    let older = &w.revisions[at + 1..];
    let Some((i, target)) = older.iter().enumerate().find(|(_, r)| healthy(r)) else {
        return no_healthy(w);
    };
    match target.revision {
        _ if i == 0 => format!(
            "go back to the working template: kubectl rollout undo deploy/{}",
            w.name
        ),
        Some(n) => format!(
            "go back to the last healthy template (ReplicaSet {}, revision {n}; the revision just \
             before the new one is not known healthy): kubectl rollout undo deploy/{} --to-revision={n}",
            target.name, w.name
        ),
        None => format!(
            "go back to the last healthy template (ReplicaSet {}): kubectl rollout history deploy/{} \
             names its revision for kubectl rollout undo --to-revision",
            target.name, w.name
        ),
    }
}

fn no_healthy(w: &WorkloadSummary) -> String {
    format!(
        "fix the template and apply it again: no earlier revision of deploy/{} is known healthy, \
         so kubectl rollout undo would not help",
        w.name
    )
}
