//! The TTL-after-finished controller (`pkg/controller/ttlafterfinished/ttlafterfinished_controller.go`):
//! a Job with `spec.ttlSecondsAfterFinished` is deleted (background propagation: its pods go
//! with it) that many seconds after it finished, the `lastTransitionTime` of its `Complete` or
//! `Failed` condition; until then the controller asks to be woken at that instant.

use jiff::{SignedDuration, Timestamp};

use super::{Action, Kind, Outcome, Snapshot, ids};

/// Deletes the finished Jobs whose TTL has passed (see the module docs).
pub fn reconcile(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    for job in &snap.jobs {
        let Some(ttl) = job.spec.as_ref().and_then(|s| s.ttl_seconds_after_finished) else {
            continue;
        };
        if job.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let finished = job
            .status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .find(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
            .and_then(|c| c.last_transition_time.as_ref())
            .map(|t| t.0);
        let Some(at) = finished.and_then(|f| {
            f.checked_add(SignedDuration::from_secs(i64::from(ttl.max(0))))
                .ok()
        }) else {
            continue;
        };
        if at <= now {
            let (namespace, name, _) = ids(&job.metadata);
            out.actions.push(Action::Delete {
                kind: Kind::Job,
                namespace,
                name,
            });
        } else {
            out.wake_at(at);
        }
    }
    out
}
