//! Job and CronJob.

use jiff::SignedDuration;
use k8s_openapi::api::batch::v1::{CronJob, CronJobSpec, Job, JobSpec, JobTemplateSpec};

use super::meta;
use crate::controllers::job::TRACKING_FINALIZER;
use crate::controllers::testing::{Fake, t0, template};
use crate::controllers::{Kind, Workload};

fn job(image: &str, backoff_limit: i32, completions: Option<i32>) -> Workload {
    let mut t = template("migrate", image);
    t.spec.as_mut().expect("spec").restart_policy = Some("Never".into());
    Workload::Job(Job {
        metadata: meta("migrate"),
        spec: Some(JobSpec {
            backoff_limit: Some(backoff_limit),
            completions,
            template: t,
            ..JobSpec::default()
        }),
        status: None,
    })
}

fn job_conditions(f: &Fake) -> Vec<(String, String, String)> {
    f.snap.jobs[0]
        .status
        .as_ref()
        .and_then(|s| s.conditions.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|c| {
            (
                c.type_,
                c.reason.unwrap_or_default(),
                c.message.unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_failing_job_backs_off_then_exceeds_its_backoff_limit() {
    let mut f = Fake::new(t0());
    f.add(job("hello:fail", 2, None));
    let wake = f.settle();
    let pod = &f.snap.pods[0];
    let labels = pod.metadata.labels.clone().expect("labels");
    for key in ["batch.kubernetes.io/job-name", "job-name"] {
        assert_eq!(labels.get(key).map(String::as_str), Some("migrate"));
    }
    assert!(
        labels.contains_key("batch.kubernetes.io/controller-uid")
            && labels.contains_key("controller-uid")
    );
    assert_eq!(
        pod.metadata.finalizers,
        Some(vec![]),
        "released once counted"
    );
    let st = f.snap.jobs[0].status.clone().expect("status");
    assert_eq!((st.failed, st.active), (Some(1), Some(0)));
    assert_eq!(
        wake,
        t0().checked_add(SignedDuration::from_secs(10)).ok(),
        "10 s back-off"
    );
    f.advance(10);
    let wake = f.settle();
    assert_eq!(f.snap.pods.len(), 2);
    assert_eq!(
        wake,
        f.now.checked_add(SignedDuration::from_secs(20)).ok(),
        "then 20 s"
    );
    f.advance(20);
    f.settle();
    assert_eq!(f.snap.pods.len(), 3);
    let st = f.snap.jobs[0].status.clone().expect("status");
    assert_eq!(
        (st.failed, st.active, st.succeeded),
        (Some(3), Some(0), Some(0))
    );
    let reason = "BackoffLimitExceeded".to_string();
    let msg = "Job has reached the specified backoff limit".to_string();
    assert_eq!(
        job_conditions(&f),
        [
            ("FailureTarget".into(), reason.clone(), msg.clone()),
            ("Failed".into(), reason, msg)
        ]
    );
    assert!(f.event_texts().contains(
        &"BackoffLimitExceeded: Job has reached the specified backoff limit".to_string()
    ));
    f.advance(100);
    f.settle();
    assert_eq!(f.snap.pods.len(), 3, "no pod after the Job failed");
}

#[test]
fn a_job_completes_after_its_completions() {
    let mut f = Fake::new(t0());
    f.add(job("hello:done", 6, Some(2)));
    f.settle();
    let st = f.snap.jobs[0].status.clone().expect("status");
    assert_eq!(
        (st.succeeded, st.failed, st.active),
        (Some(2), Some(0), Some(0))
    );
    assert!(st.completion_time.is_some() && st.start_time.is_some());
    let msg = "Reached expected number of succeeded pods".to_string();
    assert_eq!(
        job_conditions(&f),
        [
            (
                "SuccessCriteriaMet".into(),
                "CompletionsReached".into(),
                msg.clone()
            ),
            ("Complete".into(), "CompletionsReached".into(), msg)
        ]
    );
    assert!(f.snap.pods.iter().all(|p| {
        !p.metadata
            .finalizers
            .iter()
            .flatten()
            .any(|x| x == TRACKING_FINALIZER)
    }));
    assert!(
        f.event_texts()
            .contains(&"Completed: Job completed".to_string())
    );
}

#[test]
fn cronjob_creates_a_job_per_schedule_and_keeps_the_history_limit() {
    let mut f = Fake::new(t0());
    let mut t = template("report", "hello:done");
    t.spec.as_mut().expect("spec").restart_policy = Some("OnFailure".into());
    f.add(Workload::CronJob(CronJob {
        metadata: meta("report"),
        spec: CronJobSpec {
            schedule: "*/5 * * * *".into(),
            successful_jobs_history_limit: Some(2),
            job_template: JobTemplateSpec {
                metadata: None,
                spec: Some(JobSpec {
                    template: t,
                    ..JobSpec::default()
                }),
            },
            ..CronJobSpec::default()
        },
        status: None,
    }));
    let wake = f.settle();
    assert!(f.snap.jobs.is_empty());
    assert_eq!(wake, t0().checked_add(SignedDuration::from_mins(5)).ok());
    for _ in 0..3 {
        f.advance(300);
        f.settle();
    }
    let minutes = t0().as_second() / 60;
    let names: Vec<String> = f
        .snap
        .jobs
        .iter()
        .filter_map(|j| j.metadata.name.clone())
        .collect();
    assert_eq!(
        names,
        [
            format!("report-{}", minutes + 10),
            format!("report-{}", minutes + 15)
        ]
    );
    let st = f.snap.cron_jobs[0].status.clone().expect("status");
    assert_eq!(
        st.last_schedule_time.map(|t| t.0),
        t0().checked_add(SignedDuration::from_mins(15)).ok()
    );
    assert!(st.last_successful_time.is_some() && st.active.is_none());
    let texts = f.event_texts();
    assert!(texts.contains(&format!(
        "SuccessfulCreate: Created job report-{}",
        minutes + 5
    )));
    assert!(texts.contains(&format!(
        "SawCompletedJob: Saw completed job: report-{}, status: Complete",
        minutes + 5
    )));
    assert!(texts.contains(&format!(
        "SuccessfulDelete: Deleted job report-{}",
        minutes + 5
    )));
    // The deleted Job's pods went with it.
    assert!(f.snap.pods.iter().all(|p| {
        !p.metadata
            .name
            .as_deref()
            .unwrap_or("")
            .starts_with(&format!("report-{}", minutes + 5))
    }));
    f.delete(Kind::CronJob, "report");
    f.settle();
    assert!(f.snap.jobs.is_empty() && f.snap.pods.is_empty());
}

#[test]
fn active_deadline_fails_the_job_and_ttl_deletes_it_after_it_finished() {
    let mut f = Fake::new(t0());
    let Workload::Job(mut j) = job("hello:bad", 6, None) else {
        unreachable!()
    };
    let spec = j.spec.as_mut().expect("spec");
    spec.active_deadline_seconds = Some(30);
    spec.ttl_seconds_after_finished = Some(60);
    f.add(Workload::Job(j));
    let wake = f.settle();
    assert_eq!(f.pod_names("migrate-").len(), 1, "running, not ready");
    assert_eq!(wake, t0().checked_add(SignedDuration::from_secs(30)).ok());
    f.advance(30);
    f.settle();
    let reason = "DeadlineExceeded".to_string();
    let msg = "Job was active longer than specified deadline".to_string();
    assert_eq!(
        job_conditions(&f),
        [
            ("FailureTarget".into(), reason.clone(), msg.clone()),
            ("Failed".into(), reason, msg)
        ]
    );
    assert!(
        f.pod_names("migrate-").is_empty(),
        "the running pod was deleted"
    );
    let wake = f.settle();
    assert_eq!(
        wake,
        f.now.checked_add(SignedDuration::from_secs(60)).ok(),
        "the TTL"
    );
    f.advance(60);
    f.settle();
    assert!(f.snap.jobs.is_empty() && f.snap.pods.is_empty());
}
