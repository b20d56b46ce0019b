//! The Job controller (`pkg/controller/job/job_controller.go`, `backoff_utils.go`), NonIndexed
//! completion mode.
//!
//! - Pods `<job>-<5 chars>` from the template, labels `batch.kubernetes.io/job-name`,
//!   `job-name`, `batch.kubernetes.io/controller-uid`, `controller-uid`, the finalizer
//!   `batch.kubernetes.io/job-tracking`; Event `SuccessfulCreate` `Created pod: <name>`.
//! - Counting with finalizers, as kube does it since 1.26: a finished pod (`Succeeded`,
//!   `Failed`) still holding the finalizer is first listed in
//!   `status.uncountedTerminatedPods`; then its finalizer is removed; then, its finalizer gone,
//!   it moves from that list into `succeeded` or `failed`. Each step is one pass.
//! - Up to `parallelism` (default 1) pods run while fewer than `completions` (default 1)
//!   succeeded. After failures, a new pod waits the back-off: 10 s doubling per failure
//!   (capped at 6 min) from the last pod's finish.
//! - `restartPolicy: OnFailure`: container restarts count as failures too.
//! - Failed pods (and restarts) beyond `backoffLimit` (default 6): condition `FailureTarget`
//!   (`BackoffLimitExceeded`, `Job has reached the specified backoff limit`), running pods are
//!   deleted, and once none is left and everything is counted `Failed` with the same reason,
//!   and a Warning `BackoffLimitExceeded` Event.
//! - `activeDeadlineSeconds` after `startTime`: the same, with `DeadlineExceeded` `Job was active
//!   longer than specified deadline` (the controller wakes at the deadline).
//! - `completions` reached: `SuccessCriteriaMet` (`CompletionsReached`, `Reached expected number
//!   of succeeded pods`), then `Complete` with the same reason and `completionTime`, Event
//!   `Completed` `Job completed`. (The interim conditions are what 1.31+ controllers write.)
//! - A pod deleted before it finished counts as failed (its finalizer is released the same way).
//! - `spec.suspend`: running pods are deleted, nothing new starts.
//! - `status`: `active`, `ready`, `succeeded`, `failed`, `terminating`, `startTime`,
//!   `completionTime`, `uncountedTerminatedPods`, `conditions`.

use std::collections::BTreeMap;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::batch::v1::{Job, JobCondition, JobStatus, UncountedTerminatedPods};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::events::event;
use super::pods::{self, is_active};
use super::{Action, Kind, Outcome, Snapshot, Workload, ids, owner_reference};

const COMPONENT: &str = "job-controller";
/// The finalizer that keeps a Job's pod until the Job counted it.
pub const TRACKING_FINALIZER: &str = "batch.kubernetes.io/job-tracking";
const BACKOFF_REASON: &str = "BackoffLimitExceeded";
const BACKOFF_MESSAGE: &str = "Job has reached the specified backoff limit";
const DEADLINE_REASON: &str = "DeadlineExceeded";
const DEADLINE_MESSAGE: &str = "Job was active longer than specified deadline";
const COMPLETIONS_MESSAGE: &str = "Reached expected number of succeeded pods";

/// Reconciles every Job of `snap` (see the module docs).
pub fn reconcile(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    for job in &snap.jobs {
        if job.metadata.deletion_timestamp.is_none() {
            reconcile_one(snap, job, now, &mut out);
        }
    }
    out
}

fn has_cond(st: &JobStatus, type_: &str) -> bool {
    st.conditions
        .iter()
        .flatten()
        .any(|c| c.type_ == type_ && c.status == "True")
}

fn add_cond(st: &mut JobStatus, type_: &str, reason: &str, message: &str, now: Timestamp) {
    if has_cond(st, type_) {
        return;
    }
    st.conditions
        .get_or_insert_with(Vec::new)
        .push(JobCondition {
            type_: type_.into(),
            status: "True".into(),
            reason: Some(reason.into()),
            message: Some(message.into()),
            last_probe_time: Some(Time(now)),
            last_transition_time: Some(Time(now)),
        });
}

fn holds_finalizer(p: &Pod) -> bool {
    p.metadata
        .finalizers
        .iter()
        .flatten()
        .any(|f| f == TRACKING_FINALIZER)
}

/// When the pod's last container finished (its `finishedAt`), for the back-off.
fn finished_at(p: &Pod) -> Option<Timestamp> {
    let st = p.status.as_ref()?;
    st.container_statuses
        .iter()
        .flatten()
        .chain(st.init_container_statuses.iter().flatten())
        .filter_map(|c| c.state.as_ref()?.terminated.as_ref()?.finished_at.as_ref())
        .map(|t| t.0)
        .max()
}

/// The back-off before the next pod after `failures` failures: 10 s · 2^(failures−1), ≤ 6 min.
pub fn backoff(failures: i32) -> SignedDuration {
    if failures <= 0 {
        return SignedDuration::ZERO;
    }
    let secs = 10_i64.saturating_mul(1_i64 << (failures - 1).min(10));
    SignedDuration::from_secs(secs.min(360))
}

fn reconcile_one(snap: &Snapshot, job: &Job, now: Timestamp, out: &mut Outcome) {
    let (ns, name, uid) = ids(&job.metadata);
    let Some(spec) = job.spec.as_ref() else {
        return;
    };
    let old = job.status.clone().unwrap_or_default();
    let mut st = old.clone();
    let owned = snap.pods_of(&uid);
    let finished = has_cond(&st, "Complete") || has_cond(&st, "Failed");
    // Counting: stored uncounted uids whose finalizer is gone move into the counts; finished pods
    // still holding it are listed (or, when listed already, released).
    let mut uncounted = st.uncounted_terminated_pods.clone().unwrap_or_default();
    let listed = |v: &Option<Vec<String>>, u: &str| v.iter().flatten().any(|x| x == u);
    let holding = |u: &str| {
        owned
            .iter()
            .any(|p| p.metadata.uid.as_deref() == Some(u) && holds_finalizer(p))
    };
    let (mut succeeded, mut failed) = (st.succeeded.unwrap_or(0), st.failed.unwrap_or(0));
    for (list, count) in [
        (&mut uncounted.succeeded, &mut succeeded),
        (&mut uncounted.failed, &mut failed),
    ] {
        if let Some(v) = list.as_mut() {
            let before = v.len();
            v.retain(|u| holding(u));
            *count += (before - v.len()) as i32;
        }
    }
    for p in &owned {
        let puid = p.metadata.uid.clone().unwrap_or_default();
        if !holds_finalizer(p) {
            continue;
        }
        let in_list = listed(&uncounted.succeeded, &puid) || listed(&uncounted.failed, &puid);
        let was_listed = old
            .uncounted_terminated_pods
            .as_ref()
            .is_some_and(|u| listed(&u.succeeded, &puid) || listed(&u.failed, &puid));
        if was_listed && in_list {
            let (pns, pname, _) = ids(&p.metadata);
            out.actions.push(Action::RemovePodFinalizer {
                namespace: pns,
                name: pname,
                uid: puid,
                finalizer: TRACKING_FINALIZER.into(),
            });
        } else if !in_list {
            match pods::phase(p) {
                "Succeeded" => uncounted.succeeded.get_or_insert_with(Vec::new).push(puid),
                "Failed" => uncounted.failed.get_or_insert_with(Vec::new).push(puid),
                // A pod deleted before it finished counts as failed.
                _ if pods::is_terminating(p) => {
                    uncounted.failed.get_or_insert_with(Vec::new).push(puid)
                }
                _ => {}
            }
        }
    }
    let n = |v: &Option<Vec<String>>| v.as_ref().map_or(0, Vec::len) as i32;
    let known_succeeded = succeeded + n(&uncounted.succeeded);
    let on_failure = spec
        .template
        .spec
        .as_ref()
        .and_then(|s| s.restart_policy.as_deref())
        == Some("OnFailure");
    let active: Vec<&Pod> = owned.iter().copied().filter(|p| is_active(p)).collect();
    let restarts: i32 = if on_failure {
        active.iter().map(|p| pods::restarts(p)).sum()
    } else {
        0
    };
    let known_failed = failed + n(&uncounted.failed) + restarts;
    let terminating = owned
        .iter()
        .filter(|p| pods::is_terminating(p) && !pods::is_terminal(p))
        .count() as i32;
    st.succeeded = Some(succeeded);
    st.failed = Some(failed);
    st.uncounted_terminated_pods = Some(UncountedTerminatedPods {
        succeeded: uncounted.succeeded.filter(|v| !v.is_empty()),
        failed: uncounted.failed.filter(|v| !v.is_empty()),
    });
    let settled = st.uncounted_terminated_pods == Some(UncountedTerminatedPods::default());
    st.active = Some(active.len() as i32);
    st.ready = Some(active.iter().filter(|p| pods::is_ready(p)).count() as i32);
    st.terminating = Some(terminating);
    let delete_active = |out: &mut Outcome| {
        for p in &active {
            let (pns, pname, puid) = ids(&p.metadata);
            out.actions.push(Action::DeletePod {
                namespace: pns,
                name: pname.clone(),
                uid: puid,
            });
            out.actions.push(event(
                Kind::Job,
                &job.metadata,
                "Normal",
                "SuccessfulDelete",
                format!("Deleted pod: {pname}"),
                COMPONENT,
                now,
            ));
        }
    };
    if !finished {
        let backoff_limit = spec.backoff_limit.unwrap_or(6);
        let completions = spec.completions;
        let suspended = spec.suspend == Some(true);
        if st.start_time.is_none() && !suspended {
            st.start_time = Some(Time(now));
        }
        let deadline = spec
            .active_deadline_seconds
            .zip(st.start_time.as_ref().map(|t| t.0))
            .and_then(|(secs, start)| start.checked_add(SignedDuration::from_secs(secs)).ok());
        let target = st
            .conditions
            .iter()
            .flatten()
            .find(|c| c.type_ == "FailureTarget" && c.status == "True")
            .map(|c| {
                (
                    c.reason.clone().unwrap_or_default(),
                    c.message.clone().unwrap_or_default(),
                )
            });
        let failure = target.or_else(|| {
            if known_failed > backoff_limit {
                Some((BACKOFF_REASON.to_string(), BACKOFF_MESSAGE.to_string()))
            } else if deadline.is_some_and(|at| at <= now) {
                Some((DEADLINE_REASON.to_string(), DEADLINE_MESSAGE.to_string()))
            } else {
                None
            }
        });
        if let Some((reason, message)) = failure {
            add_cond(&mut st, "FailureTarget", &reason, &message, now);
            delete_active(out);
            if active.is_empty() && terminating == 0 && settled {
                add_cond(&mut st, "Failed", &reason, &message, now);
                out.actions.push(event(
                    Kind::Job,
                    &job.metadata,
                    "Warning",
                    &reason,
                    message,
                    COMPONENT,
                    now,
                ));
            }
        } else if completions.is_some_and(|c| known_succeeded >= c)
            || (completions.is_none() && known_succeeded > 0 && active.is_empty())
            || has_cond(&st, "SuccessCriteriaMet")
        {
            add_cond(
                &mut st,
                "SuccessCriteriaMet",
                "CompletionsReached",
                COMPLETIONS_MESSAGE,
                now,
            );
            delete_active(out);
            if active.is_empty() && terminating == 0 && settled {
                add_cond(
                    &mut st,
                    "Complete",
                    "CompletionsReached",
                    COMPLETIONS_MESSAGE,
                    now,
                );
                st.completion_time = Some(Time(now));
                out.actions.push(event(
                    Kind::Job,
                    &job.metadata,
                    "Normal",
                    "Completed",
                    "Job completed".into(),
                    COMPONENT,
                    now,
                ));
            }
        } else if suspended {
            delete_active(out);
        } else {
            if let Some(at) = deadline {
                out.wake_at(at);
            }
            let parallelism = spec.parallelism.unwrap_or(1).max(0);
            let want = completions
                .map_or(parallelism, |c| parallelism.min(c - known_succeeded))
                .max(0) as usize;
            let last_failure = owned
                .iter()
                .filter(|p| pods::phase(p) == "Failed")
                .filter_map(|p| finished_at(p))
                .max();
            let ready_at = last_failure.and_then(|t| t.checked_add(backoff(known_failed)).ok());
            if active.len() < want && terminating == 0 {
                match ready_at {
                    Some(at) if at > now => out.wake_at(at),
                    _ => {
                        for _ in active.len()..want {
                            create_pod(job, &ns, &name, &uid, now, out);
                        }
                    }
                }
            }
        }
    }
    if job.status.as_ref() != Some(&st) {
        let mut new = job.clone();
        new.status = Some(st);
        out.actions
            .push(Action::Status(Box::new(Workload::Job(new))));
    }
}

fn create_pod(job: &Job, ns: &str, name: &str, uid: &str, now: Timestamp, out: &mut Outcome) {
    let Some(spec) = job.spec.as_ref() else {
        return;
    };
    let pod_name = format!("{name}-{}", pods::random_suffix());
    let mut pod = pods::from_template(
        &spec.template,
        ns,
        &pod_name,
        Some(format!("{name}-")),
        owner_reference(Kind::Job, &job.metadata),
    );
    let labels = pod.metadata.labels.get_or_insert_with(BTreeMap::new);
    for (k, v) in [
        ("batch.kubernetes.io/controller-uid", uid),
        ("batch.kubernetes.io/job-name", name),
        ("controller-uid", uid),
        ("job-name", name),
    ] {
        labels.entry(k.into()).or_insert_with(|| v.into());
    }
    let finalizers = pod.metadata.finalizers.get_or_insert_with(Vec::new);
    if !finalizers.iter().any(|f| f == TRACKING_FINALIZER) {
        finalizers.push(TRACKING_FINALIZER.into());
    }
    out.actions.push(Action::CreatePod(Box::new(pod)));
    out.actions.push(event(
        Kind::Job,
        &job.metadata,
        "Normal",
        "SuccessfulCreate",
        format!("Created pod: {pod_name}"),
        COMPONENT,
        now,
    ));
}
