//! Why a pod with `metadata.deletionTimestamp` is still there: its grace period, its finalizers,
//! and whether the owner that should remove them still exists.
//!
//! The API server keeps a deleted object while `metadata.finalizers` is non-empty; a pod also
//! stays until its kubelet confirms the containers stopped (an unreachable node never does). The
//! owner (`metadata.ownerReferences`, the controller one first) is the usual finalizer remover:
//! when it is gone, nothing will ever remove the finalizer (case 21, kubernetes/kubernetes#121828).

use jiff::Timestamp;

use super::duration::human_duration;
use super::pod::{OwnerRef, PodSummary};

/// What is known of the owner's existence (one GET of the owner, by `uid`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum OwnerStatus {
    /// Not asked (no finalizer pending, or the answer is not in yet).
    #[default]
    Unknown,
    /// The owner exists with the referenced `uid`.
    Exists,
    /// 404, or an object of that name with another `uid` (it was re-created): the referenced
    /// owner is gone.
    Gone,
    /// The GET failed otherwise (RBAC, transport); the text says why, sanitised.
    Failed(String),
}

/// The diagnosis of a pending deletion, in two lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeletionNotice {
    /// One line: what holds the pod, e.g. `deleted 2d3h ago, held by finalizer
    /// batch.kubernetes.io/job-tracking; owner Job cron-sync-28194180 is gone: nothing will
    /// remove it`.
    pub headline: String,
    /// What a person can do, when podscope knows (a `kubectl patch` that removes the
    /// finalizers with a JSON patch: a merge patch that sends spec fields is rejected).
    pub hint: Option<String>,
}

/// Whether `pod`'s owner existence is worth a GET: deletion requested, finalizers pending and
/// an owner to ask about.
#[must_use]
pub fn owner_check_needed(pod: &PodSummary) -> Option<&OwnerRef> {
    pod.deletion_timestamp?;
    if pod.finalizers.is_empty() {
        return None;
    }
    pod.owner.as_ref()
}

/// The diagnosis of `pod`'s pending deletion at `now`; `None` without a `deletionTimestamp`.
///
/// Before `deletionTimestamp` the grace period runs (`terminating: grace period ends in 20s`);
/// after it, the pod is held by its finalizers (named, with the owner and `owner`'s existence)
/// or, without finalizers, by a kubelet that has not confirmed the stop.
#[must_use]
pub fn diagnose(pod: &PodSummary, owner: &OwnerStatus, now: Timestamp) -> Option<DeletionNotice> {
    let at = pod.deletion_timestamp?;
    if at > now && pod.finalizers.is_empty() {
        return Some(DeletionNotice {
            headline: format!(
                "terminating: grace period ends in {} (then SIGKILL)",
                human_duration(at.duration_since(now))
            ),
            hint: None,
        });
    }
    let when = if at > now {
        format!(
            "deleting (grace period ends in {})",
            human_duration(at.duration_since(now))
        )
    } else {
        format!("deleted {} ago", human_duration(now.duration_since(at)))
    };
    if pod.finalizers.is_empty() {
        let node = pod.node.as_deref().unwrap_or("<none>");
        return Some(DeletionNotice {
            headline: format!(
                "{when}, still present: the kubelet on {node} has not confirmed the stop (node unreachable?)"
            ),
            hint: None,
        });
    }
    let noun = if pod.finalizers.len() == 1 {
        "finalizer"
    } else {
        "finalizers"
    };
    let mut headline = format!("{when}, held by {noun} {}", pod.finalizers.join(", "));
    let mut stuck = pod.owner.is_none();
    if let Some(o) = &pod.owner {
        let what = format!("{} {}", o.kind, o.name);
        let tail = match owner {
            OwnerStatus::Unknown => format!("; owner {what}"),
            OwnerStatus::Exists => format!("; owner {what} exists and should remove it"),
            OwnerStatus::Gone => {
                stuck = true;
                format!("; owner {what} is gone: nothing will remove it")
            }
            OwnerStatus::Failed(why) => format!("; owner {what} (cannot check: {why})"),
        };
        headline.push_str(&tail);
    }
    let hint = stuck.then(|| {
        format!(
            "to release it: kubectl patch pod {} -n {} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}}]'",
            pod.name, pod.namespace
        )
    });
    Some(DeletionNotice { headline, hint })
}
