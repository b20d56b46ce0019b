//! A Deployment's `status` (`sync.go` `calculateStatus`, `progress.go` `syncRolloutStatus`).
//!
//! Counts: `replicas`, `readyReplicas`, `availableReplicas` summed over its ReplicaSets'
//! statuses, `updatedReplicas` the new one's, `unavailableReplicas` = spec.replicas −
//! available (≥ 0), `observedGeneration`.
//!
//! Conditions (a condition whose status and reason stay is left as it is; one whose status
//! stays keeps its `lastTransitionTime`):
//! - `Available`: `True MinimumReplicasAvailable` `Deployment has minimum availability.` when at
//!   least replicas − maxUnavailable are available, else `False MinimumReplicasUnavailable`
//!   `Deployment does not have minimum availability.`;
//! - `Progressing`: `True NewReplicaSetCreated` `Created new replica set "X"` when it made the
//!   new ReplicaSet, `True FoundNewReplicaSet` `Found new replica set "X"` when it had none;
//!   then, unless already complete: `True NewReplicaSetAvailable` `ReplicaSet "X" has
//!   successfully progressed.` when complete (updated = total = available = replicas, current
//!   generation observed); `True ReplicaSetUpdated` `ReplicaSet "X" is progressing.` (new
//!   `lastUpdateTime`) when updated, ready or available grew or old pods shrank since the stored
//!   status; `False ProgressDeadlineExceeded` `ReplicaSet "X" has timed out progressing.` once
//!   `lastUpdateTime` + `progressDeadlineSeconds` (default 600) has passed, the instant the
//!   controller asks to be woken at. Paused: `Unknown DeploymentPaused` `Deployment is paused`;
//!   resumed: `Unknown DeploymentResumed` `Deployment is resumed`.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::apps::v1::{DeploymentCondition, DeploymentStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::{Plan, rolling};
use crate::controllers::{Action, Outcome, Workload};

const PROGRESSING: &str = "Progressing";
const AVAILABLE: &str = "Available";
const COMPLETE_REASON: &str = "NewReplicaSetAvailable";
const TIMED_OUT_REASON: &str = "ProgressDeadlineExceeded";

fn cond<'a>(st: &'a DeploymentStatus, type_: &str) -> Option<&'a DeploymentCondition> {
    st.conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_.as_deref() == Some(type_))
}

fn new_cond(
    type_: &str,
    status: &str,
    reason: &str,
    message: String,
    now: Timestamp,
) -> DeploymentCondition {
    DeploymentCondition {
        type_: Some(type_.into()),
        status: Some(status.into()),
        reason: Some(reason.into()),
        message: Some(message),
        last_update_time: Some(Time(now)),
        last_transition_time: Some(Time(now)),
    }
}

/// `SetDeploymentCondition`: unchanged when status and reason are the same; the transition
/// time kept when only the reason changes.
fn set_cond(st: &mut DeploymentStatus, mut c: DeploymentCondition) {
    if let Some(cur) = cond(st, c.type_.as_deref().unwrap_or_default()) {
        if cur.status == c.status && cur.reason == c.reason {
            return;
        }
        if cur.status == c.status {
            c.last_transition_time = cur.last_transition_time.clone();
        }
    }
    let list = st.conditions.get_or_insert_with(Vec::new);
    list.retain(|x| x.type_ != c.type_);
    list.push(c);
}

/// Writes the Deployment's status when it changed; returns whether the rollout is complete.
pub(crate) fn sync(
    plan: &Plan<'_>,
    created: Option<&str>,
    now: Timestamp,
    out: &mut Outcome,
) -> bool {
    let d = plan.d;
    let replicas = plan.replicas();
    let old = d.status.clone().unwrap_or_default();
    let rs_status = |f: fn(&k8s_openapi::api::apps::v1::ReplicaSetStatus) -> i32| -> i32 {
        plan.all().filter_map(|rs| rs.status.as_ref()).map(f).sum()
    };
    let total = rs_status(|s| s.replicas);
    let ready = rs_status(|s| s.ready_replicas.unwrap_or(0));
    let available = rs_status(|s| s.available_replicas.unwrap_or(0));
    let updated = plan
        .new
        .and_then(|rs| rs.status.as_ref())
        .map_or(0, |s| s.replicas);
    let mut st = DeploymentStatus {
        replicas: Some(total),
        updated_replicas: Some(updated),
        ready_replicas: Some(ready),
        available_replicas: Some(available),
        unavailable_replicas: Some((replicas - available).max(0)),
        observed_generation: d.metadata.generation,
        collision_count: old.collision_count,
        conditions: old.conditions.clone(),
        terminating_replicas: old.terminating_replicas,
    };
    let (_, max_unavailable) = rolling::surge_and_unavailable(d);
    if available >= replicas - max_unavailable {
        set_cond(
            &mut st,
            new_cond(
                AVAILABLE,
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.".into(),
                now,
            ),
        );
    } else {
        set_cond(
            &mut st,
            new_cond(
                AVAILABLE,
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.".into(),
                now,
            ),
        );
    }
    let complete = |st: &DeploymentStatus| {
        st.updated_replicas == Some(replicas)
            && st.replicas == Some(replicas)
            && st.available_replicas == Some(replicas)
            && st.observed_generation >= d.metadata.generation
    };
    let paused = Some(&d.spec).and_then(|s| s.paused) == Some(true);
    let new_name = created
        .map(str::to_string)
        .or_else(|| plan.new.and_then(|rs| rs.metadata.name.clone()));
    if paused {
        set_cond(
            &mut st,
            new_cond(
                PROGRESSING,
                "Unknown",
                "DeploymentPaused",
                "Deployment is paused".into(),
                now,
            ),
        );
    } else if let Some(name) = created {
        set_cond(
            &mut st,
            new_cond(
                PROGRESSING,
                "True",
                "NewReplicaSetCreated",
                format!("Created new replica set {name:?}"),
                now,
            ),
        );
    } else if let Some(name) = new_name {
        if cond(&st, PROGRESSING).is_some_and(|c| c.reason.as_deref() == Some("DeploymentPaused")) {
            set_cond(
                &mut st,
                new_cond(
                    PROGRESSING,
                    "Unknown",
                    "DeploymentResumed",
                    "Deployment is resumed".into(),
                    now,
                ),
            );
        }
        if cond(&st, PROGRESSING).is_none() {
            set_cond(
                &mut st,
                new_cond(
                    PROGRESSING,
                    "True",
                    "FoundNewReplicaSet",
                    format!("Found new replica set {name:?}"),
                    now,
                ),
            );
        }
        let is_complete = complete(&st);
        rollout_status(plan, &old, &mut st, &name, is_complete, now, out);
    }
    let done = complete(&st);
    if d.status.as_ref() != Some(&st) {
        let mut new = d.clone();
        new.status = Some(st);
        out.actions
            .push(Action::Status(Box::new(Workload::Deployment(new))));
    }
    done
}

/// `syncRolloutStatus`: the Progressing condition from the progress since the stored status.
fn rollout_status(
    plan: &Plan<'_>,
    old: &DeploymentStatus,
    st: &mut DeploymentStatus,
    rs: &str,
    complete: bool,
    now: Timestamp,
    out: &mut Outcome,
) {
    let cur = cond(st, PROGRESSING).cloned();
    let already = st.replicas == st.updated_replicas
        && cur
            .as_ref()
            .is_some_and(|c| c.reason.as_deref() == Some(COMPLETE_REASON));
    if already {
        return;
    }
    let n = |v: Option<i32>| v.unwrap_or(0);
    let old_pods = |s: &DeploymentStatus| n(s.replicas) - n(s.updated_replicas);
    let progressing = n(st.updated_replicas) > n(old.updated_replicas)
        || old_pods(st) < old_pods(old)
        || n(st.ready_replicas) > n(old.ready_replicas)
        || n(st.available_replicas) > n(old.available_replicas);
    let deadline = Some(&plan.d.spec)
        .and_then(|s| s.progress_deadline_seconds)
        .unwrap_or(600);
    let due = cur
        .as_ref()
        .and_then(|c| c.last_update_time.as_ref())
        .and_then(|t| {
            t.0.checked_add(SignedDuration::from_secs(i64::from(deadline)))
                .ok()
        });
    if complete {
        set_cond(
            st,
            new_cond(
                PROGRESSING,
                "True",
                COMPLETE_REASON,
                format!("ReplicaSet {rs:?} has successfully progressed."),
                now,
            ),
        );
    } else if progressing {
        let mut c = new_cond(
            PROGRESSING,
            "True",
            "ReplicaSetUpdated",
            format!("ReplicaSet {rs:?} is progressing."),
            now,
        );
        if let Some(cur) = cur.as_ref().filter(|c| c.status.as_deref() == Some("True")) {
            c.last_transition_time = cur.last_transition_time.clone();
        }
        if let Some(list) = st.conditions.as_mut() {
            list.retain(|x| x.type_.as_deref() != Some(PROGRESSING));
        }
        set_cond(st, c);
        if let Ok(at) = now.checked_add(SignedDuration::from_secs(i64::from(deadline))) {
            out.wake_at(at);
        }
    } else if let Some(c) = cur.as_ref() {
        let timed_out =
            c.reason.as_deref() == Some(TIMED_OUT_REASON) || due.is_some_and(|at| at < now);
        if timed_out {
            set_cond(
                st,
                new_cond(
                    PROGRESSING,
                    "False",
                    TIMED_OUT_REASON,
                    format!("ReplicaSet {rs:?} has timed out progressing."),
                    now,
                ),
            );
        } else if let Some(at) = due {
            out.wake_at(at.checked_add(SignedDuration::from_millis(1)).unwrap_or(at));
        }
    }
}
