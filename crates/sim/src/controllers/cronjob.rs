//! The CronJob controller (`pkg/controller/cronjob/cronjob_controllerv2.go`, `utils.go`).
//!
//! - `spec.schedule`: standard 5-field cron (also `@hourly`, `@daily`, …), parsed by the
//!   `croner` crate, in `spec.timeZone` when set, else UTC (the simulator's node).
//! - At each scheduled time after `status.lastScheduleTime` (or the CronJob's creation), unless
//!   `spec.suspend`: a Job `<cronjob>-<scheduled time in minutes since the epoch>` from
//!   `spec.jobTemplate`, annotation `batch.kubernetes.io/cronjob-scheduled-timestamp`,
//!   controlled by the CronJob; Event `SuccessfulCreate` `Created job <name>`. Only the most
//!   recent missed time runs; one older than `startingDeadlineSeconds` is skipped.
//! - `concurrencyPolicy`: `Allow` (default), `Forbid` (skip while a Job runs), `Replace` (delete
//!   the running Jobs first, `SuccessfulDelete` `Deleted job <name>`).
//! - A Job that finishes: Event `SawCompletedJob` `Saw completed job: <name>, status:
//!   Complete|Failed`; finished Jobs beyond `successfulJobsHistoryLimit` (default 3) /
//!   `failedJobsHistoryLimit` (default 1) are deleted, oldest first.
//! - `status`: `active` (references to running Jobs), `lastScheduleTime`,
//!   `lastSuccessfulTime`. The controller asks to be woken at the next scheduled time.

use std::str::FromStr as _;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use k8s_openapi::api::batch::v1::{CronJob, CronJobStatus, Job};
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

use super::events::event;
use super::{Action, Kind, Outcome, Snapshot, Workload, ids, owner_reference};

const COMPONENT: &str = "cronjob-controller";
/// The annotation with a CronJob's Job's scheduled time (RFC 3339).
pub const SCHEDULED_TIMESTAMP: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";

/// Reconciles every CronJob of `snap` (see the module docs).
pub fn reconcile(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    for cj in &snap.cron_jobs {
        if cj.metadata.deletion_timestamp.is_none() {
            reconcile_one(snap, cj, now, &mut out);
        }
    }
    out
}

/// `Complete` or `Failed` when the Job has that condition `True`.
pub fn finished(job: &Job) -> Option<&'static str> {
    let conds = job.status.as_ref()?.conditions.as_ref()?;
    ["Complete", "Failed"]
        .into_iter()
        .find(|t| conds.iter().any(|c| c.type_ == *t && c.status == "True"))
}

/// The latest scheduled time in (`after`, `now`] and the first one after `now`, in `tz`.
/// `None` for a schedule croner does not parse.
pub fn schedule_times(
    schedule: &str,
    tz: &TimeZone,
    after: Timestamp,
    now: Timestamp,
) -> Option<(Option<Timestamp>, Option<Timestamp>)> {
    let cron = croner::Cron::from_str(schedule).ok()?;
    let now_z = now.to_zoned(tz.clone());
    let next = cron
        .find_next_occurrence(&now_z, false)
        .ok()
        .map(|z| z.timestamp());
    let last = cron
        .find_previous_occurrence(&now_z, true)
        .ok()
        .map(|z| z.timestamp())
        .filter(|t| *t > after);
    Some((last, next))
}

fn job_ref(job: &Job) -> ObjectReference {
    ObjectReference {
        api_version: Some("batch/v1".into()),
        kind: Some("Job".into()),
        name: job.metadata.name.clone(),
        namespace: job.metadata.namespace.clone(),
        uid: job.metadata.uid.clone(),
        resource_version: job.metadata.resource_version.clone(),
        ..ObjectReference::default()
    }
}

fn reconcile_one(snap: &Snapshot, cj: &CronJob, now: Timestamp, out: &mut Outcome) {
    let (ns, name, uid) = ids(&cj.metadata);
    let spec = &cj.spec;
    let old = cj.status.clone().unwrap_or_default();
    let jobs = snap.jobs_of(&uid);
    let mut st = CronJobStatus {
        active: None,
        last_schedule_time: old.last_schedule_time.clone(),
        last_successful_time: old.last_successful_time.clone(),
    };
    let was_active = |j: &Job| old.active.iter().flatten().any(|r| r.uid == j.metadata.uid);
    let mut running: Vec<&Job> = Vec::new();
    let (mut succeeded, mut failed): (Vec<&Job>, Vec<&Job>) = (Vec::new(), Vec::new());
    for j in &jobs {
        match finished(j) {
            None if j.metadata.deletion_timestamp.is_none() => running.push(j),
            None => {}
            Some(kind) => {
                if was_active(j) {
                    let jname = j.metadata.name.clone().unwrap_or_default();
                    out.actions.push(event(
                        Kind::CronJob,
                        &cj.metadata,
                        "Normal",
                        "SawCompletedJob",
                        format!("Saw completed job: {jname}, status: {kind}"),
                        COMPONENT,
                        now,
                    ));
                }
                if kind == "Complete" {
                    succeeded.push(j);
                    let done = j.status.as_ref().and_then(|s| s.completion_time.clone());
                    if done.as_ref().map(|t| t.0) > st.last_successful_time.as_ref().map(|t| t.0) {
                        st.last_successful_time = done;
                    }
                } else {
                    failed.push(j);
                }
            }
        }
    }
    for (list, limit) in [
        (&succeeded, spec.successful_jobs_history_limit.unwrap_or(3)),
        (&failed, spec.failed_jobs_history_limit.unwrap_or(1)),
    ] {
        let limit = limit.max(0) as usize;
        if list.len() > limit {
            for j in &list[..list.len() - limit] {
                delete_job(cj, j, now, out);
            }
        }
    }
    let tz = spec
        .time_zone
        .as_deref()
        .and_then(|z| TimeZone::get(z).ok())
        .unwrap_or(TimeZone::UTC);
    let after = old
        .last_schedule_time
        .as_ref()
        .or(cj.metadata.creation_timestamp.as_ref())
        .map_or(now, |t| t.0);
    if let Some((due, next)) = schedule_times(&spec.schedule, &tz, after, now) {
        if let Some(at) = next {
            out.wake_at(at);
        }
        let late = |t: Timestamp| {
            spec.starting_deadline_seconds.is_some_and(|d| {
                t.checked_add(jiff::SignedDuration::from_secs(d))
                    .is_ok_and(|end| end < now)
            })
        };
        let policy = spec.concurrency_policy.as_deref().unwrap_or("Allow");
        if let Some(t) = due.filter(|t| spec.suspend != Some(true) && !late(*t))
            && (policy != "Forbid" || running.is_empty())
        {
            if policy == "Replace" {
                for j in running.drain(..) {
                    delete_job(cj, j, now, out);
                }
            }
            let job = new_job(cj, &ns, &name, t);
            let jname = job.metadata.name.clone().unwrap_or_default();
            if !jobs
                .iter()
                .any(|j| j.metadata.name.as_deref() == Some(jname.as_str()))
            {
                out.actions
                    .push(Action::Create(Box::new(Workload::Job(job))));
                out.actions.push(event(
                    Kind::CronJob,
                    &cj.metadata,
                    "Normal",
                    "SuccessfulCreate",
                    format!("Created job {jname}"),
                    COMPONENT,
                    now,
                ));
            }
            st.last_schedule_time = Some(Time(t));
        }
    }
    let refs: Vec<ObjectReference> = running.iter().map(|j| job_ref(j)).collect();
    st.active = (!refs.is_empty()).then_some(refs);
    if cj.status.as_ref() != Some(&st) {
        let mut new = cj.clone();
        new.status = Some(st);
        out.actions
            .push(Action::Status(Box::new(Workload::CronJob(new))));
    }
}

fn delete_job(cj: &CronJob, j: &Job, now: Timestamp, out: &mut Outcome) {
    let (namespace, name, _) = ids(&j.metadata);
    out.actions.push(Action::Delete {
        kind: Kind::Job,
        namespace,
        name: name.clone(),
    });
    out.actions.push(event(
        Kind::CronJob,
        &cj.metadata,
        "Normal",
        "SuccessfulDelete",
        format!("Deleted job {name}"),
        COMPONENT,
        now,
    ));
}

fn new_job(cj: &CronJob, ns: &str, name: &str, scheduled: Timestamp) -> Job {
    let template = Some(&cj.spec)
        .map(|s| s.job_template.clone())
        .unwrap_or_default();
    let tmeta = template.metadata.unwrap_or_default();
    let mut annotations = tmeta.annotations.unwrap_or_default();
    annotations.insert(SCHEDULED_TIMESTAMP.into(), scheduled.to_string());
    Job {
        metadata: ObjectMeta {
            name: Some(format!("{name}-{}", scheduled.as_second().div_euclid(60))),
            namespace: Some(ns.to_string()),
            labels: tmeta.labels,
            annotations: Some(annotations),
            owner_references: Some(vec![owner_reference(Kind::CronJob, &cj.metadata)]),
            ..ObjectMeta::default()
        },
        spec: template.spec,
        status: None,
    }
}
