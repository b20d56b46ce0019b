//! The workload's header line and the per-pod glyph row (`docs/workloads.md` "Header").

use super::choice::{Trouble, trouble};
use super::{WorkloadKind, WorkloadPod, WorkloadSummary};

/// Condition reasons that are trouble even when the header has room for nothing else.
fn trouble_conditions(s: &WorkloadSummary) -> Vec<String> {
    s.conditions
        .iter()
        .filter(|c| {
            c.reason == "ProgressDeadlineExceeded"
                || (c.type_ == "ReplicaFailure" && c.status == "True")
                || (c.type_ == "Failed" && c.status == "True")
        })
        .map(|c| {
            if c.reason.is_empty() {
                c.type_.clone()
            } else {
                format!("{}: {}", c.type_, c.reason)
            }
        })
        .collect()
}

/// The header line of a workload, e.g.
/// `deploy/web  3/4 ready  updated 2/4  rollout: ReplicaSet web-6c8f9 (new) 1/2 ready, web-7d9f8 (old) 2/2`;
/// a Job `job/migrate  0/1 complete  1 active  2 failed  Failed: BackoffLimitExceeded`; a
/// CronJob names its latest Job (`cronjob/nightly  job nightly-28999  …`) or says
/// `no jobs yet`. Trouble conditions (`Progressing: ProgressDeadlineExceeded`) close the line.
#[must_use]
pub fn workload_line(s: &WorkloadSummary) -> String {
    let mut parts = vec![format!("{}/{}", s.kind.short(), s.name)];
    if s.kind == WorkloadKind::CronJob {
        match &s.job {
            Some(job) => parts.push(format!("job {job}")),
            None => {
                parts.push("no jobs yet".to_owned());
                return parts.join("  ");
            }
        }
    }
    match &s.jobs {
        Some(j) => {
            match s.replicas {
                Some(n) => parts.push(format!("{}/{n} complete", j.succeeded)),
                None => parts.push(format!("{} succeeded", j.succeeded)),
            }
            if j.active > 0 {
                parts.push(format!("{} active", j.active));
            }
            if j.failed > 0 {
                parts.push(format!("{} failed", j.failed));
            }
        }
        None => {
            let want = s.replicas.unwrap_or(0);
            parts.push(format!("{}/{want} ready", s.ready));
            if s.kind != WorkloadKind::ReplicaSet {
                parts.push(format!("updated {}/{want}", s.updated));
            }
            if crate::diagnosis::rollout::is_scaled_to_zero(s) {
                parts.push("scaled to 0".to_owned());
            }
        }
    }
    let live: Vec<_> = s
        .revisions
        .iter()
        .filter(|r| r.new || r.replicas > 0)
        .collect();
    if live.len() > 1 {
        let text = live
            .iter()
            .map(|r| {
                if r.new {
                    format!("{} (new) {}/{} ready", r.name, r.ready, r.replicas)
                } else {
                    format!("{} (old) {}/{}", r.name, r.ready, r.replicas)
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        parts.push(format!("rollout: ReplicaSet {text}"));
    }
    parts.extend(trouble_conditions(s));
    parts.join("  ")
}

/// The header line of a `-l SELECTOR` target: `-l app=web  500 pods  3 not ready` (or
/// `no pods match`).
#[must_use]
pub fn selector_line(selector: &str, pods: &[WorkloadPod]) -> String {
    if pods.is_empty() {
        return format!("-l {selector}  no pods match");
    }
    let unready = pods
        .iter()
        .filter(|p| trouble(&p.pod) != Trouble::Running)
        .count();
    let noun = if pods.len() == 1 { "pod" } else { "pods" };
    let mut line = format!("-l {selector}  {} {noun}", pods.len());
    if unready > 0 {
        line.push_str(&format!("  {unready} not ready"));
    }
    line
}

/// What a workload with no pods says: `deployment web selects app=web; no pods match`, or for
/// one scaled to 0 `deployment web is scaled to 0 (spec.replicas: 0): no pods run`.
#[must_use]
pub fn no_pods(s: &WorkloadSummary) -> String {
    if crate::diagnosis::rollout::is_scaled_to_zero(s) {
        return format!(
            "{} {} is scaled to 0 (spec.replicas: 0): no pods run",
            s.kind.singular(),
            s.name
        );
    }
    if s.selector.is_empty() {
        return format!("{} {} has no pods", s.kind.singular(), s.name);
    }
    format!(
        "{} {} selects {}; no pods match",
        s.kind.singular(),
        s.name,
        s.selector
    )
}

/// One pod in the glyph row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyph {
    /// The pod's trouble level.
    pub trouble: Trouble,
    /// It has a `deletionTimestamp` (going away).
    pub deleting: bool,
}

impl Glyph {
    /// The character drawn for it: `✖` waiting with an error, `✗` failed, `…` pending, `◐` not
    /// ready, `●` running, `○` any pod being deleted.
    #[must_use]
    pub const fn symbol(self) -> char {
        if self.deleting {
            return '○';
        }
        match self.trouble {
            Trouble::Waiting => '✖',
            Trouble::Failed => '✗',
            Trouble::Pending => '…',
            Trouble::NotReady => '◐',
            Trouble::Running => '●',
        }
    }
}

/// One glyph per pod, in `pods`' order.
#[must_use]
pub fn glyphs(pods: &[WorkloadPod]) -> Vec<Glyph> {
    pods.iter()
        .map(|p| Glyph {
            trouble: trouble(&p.pod),
            deleting: p.pod.deletion_timestamp.is_some(),
        })
        .collect()
}
