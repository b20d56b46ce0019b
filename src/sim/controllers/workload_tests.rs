//! Unit tests of the StatefulSet, DaemonSet, Job and CronJob controllers on the in-memory
//! cluster of [`super::testing`].

use jiff::SignedDuration;
use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetSpec, StatefulSet, StatefulSetSpec};
use k8s_openapi::api::batch::v1::{CronJob, CronJobSpec, Job, JobSpec, JobTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::job::TRACKING_FINALIZER;
use super::testing::{Fake, t0, template};
use super::{Kind, Workload};

fn meta(name: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.into()),
        ..ObjectMeta::default()
    }
}

fn sts(replicas: i32, parallel: bool) -> Workload {
    Workload::StatefulSet(StatefulSet {
        metadata: meta("db"),
        spec: StatefulSetSpec {
            replicas: Some(replicas),
            service_name: Some("db".into()),
            pod_management_policy: parallel.then(|| "Parallel".into()),
            template: template("db", "hello:1.0"),
            ..StatefulSetSpec::default()
        },
        status: None,
    })
}

fn label<'a>(f: &'a Fake, pod: &str, key: &str) -> Option<&'a str> {
    f.snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some(pod))?
        .metadata
        .labels
        .as_ref()?
        .get(key)
        .map(String::as_str)
}

#[test]
fn statefulset_pods_come_in_order_with_stable_names() {
    let mut f = Fake::new(t0());
    f.add(sts(3, false));
    f.pass();
    assert_eq!(f.pod_names("db-"), ["db-0"], "one at a time (OrderedReady)");
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0", "db-1", "db-2"]);
    assert_eq!(
        label(&f, "db-1", "statefulset.kubernetes.io/pod-name"),
        Some("db-1")
    );
    assert_eq!(label(&f, "db-1", "apps.kubernetes.io/pod-index"), Some("1"));
    let rev = label(&f, "db-2", "controller-revision-hash")
        .expect("revision")
        .to_string();
    assert!(rev.starts_with("db-"), "{rev}");
    let pod = f
        .snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some("db-2"))
        .expect("db-2");
    let spec = pod.spec.as_ref().expect("spec");
    assert_eq!(
        (spec.hostname.as_deref(), spec.subdomain.as_deref()),
        (Some("db-2"), Some("db"))
    );
    assert!(
        f.event_texts().contains(
            &"SuccessfulCreate: create Pod db-0 in StatefulSet db successful".to_string()
        )
    );
    let st = f.snap.stateful_sets[0].status.clone().expect("status");
    assert_eq!(
        (
            st.replicas,
            st.ready_replicas,
            st.available_replicas,
            st.current_replicas,
            st.updated_replicas
        ),
        (3, Some(3), Some(3), Some(3), Some(3))
    );
    assert_eq!(
        (
            st.current_revision.as_deref(),
            st.update_revision.as_deref()
        ),
        (Some(rev.as_str()), Some(rev.as_str()))
    );
}

#[test]
fn a_deleted_statefulset_pod_comes_back_under_its_name() {
    let mut f = Fake::new(t0());
    f.add(sts(3, false));
    f.settle();
    let old_uid = f
        .snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some("db-1"))
        .and_then(|p| p.metadata.uid.clone());
    f.remove_pod("db-1");
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0", "db-1", "db-2"]);
    let new_uid = f
        .snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some("db-1"))
        .and_then(|p| p.metadata.uid.clone());
    assert_ne!(old_uid, new_uid);
}

#[test]
fn statefulset_scales_down_from_the_highest_ordinal_and_parallel_creates_all() {
    let mut f = Fake::new(t0());
    f.add(sts(3, false));
    f.settle();
    f.snap.stateful_sets[0].spec.replicas = Some(1);
    f.pass();
    assert_eq!(f.pod_names("db-"), ["db-0", "db-1"]);
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0"]);
    let mut g = Fake::new(t0());
    g.add(sts(3, true));
    g.pass();
    assert_eq!(g.pod_names("db-"), ["db-0", "db-1", "db-2"]);
}

#[test]
fn statefulset_waits_for_a_ready_pod_before_the_next() {
    let mut f = Fake::new(t0());
    let Workload::StatefulSet(mut s) = sts(2, false) else {
        unreachable!()
    };
    s.spec.template = template("db", "hello:bad");
    f.add(Workload::StatefulSet(s));
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0"]);
}

#[test]
fn daemonset_runs_one_pod_pinned_to_the_node() {
    let mut f = Fake::new(t0());
    f.add(Workload::DaemonSet(DaemonSet {
        metadata: meta("agent"),
        spec: DaemonSetSpec {
            template: template("agent", "hello:1.0"),
            ..DaemonSetSpec::default()
        },
        status: None,
    }));
    f.settle();
    let pods = f.pod_names("agent-");
    assert_eq!(pods.len(), 1);
    let pod = &f.snap.pods[0];
    let terms = pod
        .spec
        .as_ref()
        .and_then(|s| s.affinity.as_ref())
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        .expect("affinity");
    let field = &terms.node_selector_terms[0]
        .match_fields
        .as_ref()
        .expect("fields")[0];
    assert_eq!(
        (field.key.as_str(), field.values.clone()),
        ("metadata.name", Some(vec!["sim-node-1".to_string()]))
    );
    let st = f.snap.daemon_sets[0].status.clone().expect("status");
    assert_eq!(
        (
            st.desired_number_scheduled,
            st.current_number_scheduled,
            st.number_ready,
            st.updated_number_scheduled,
            st.number_available
        ),
        (1, 1, 1, Some(1), Some(1))
    );
    f.remove_pod(&pods[0]);
    f.settle();
    assert_eq!(f.pod_names("agent-").len(), 1);
    assert_ne!(f.pod_names("agent-"), pods);
}

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
fn orphan_deletion_keeps_the_dependents_unowned() {
    let mut f = Fake::new(t0());
    f.add(sts(1, false));
    f.settle();
    let s = &mut f.snap.stateful_sets[0];
    s.metadata.deletion_timestamp =
        Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(t0()));
    s.metadata.finalizers = Some(vec!["orphan".into()]);
    f.pass();
    assert_eq!(f.snap.stateful_sets[0].metadata.finalizers, Some(vec![]));
    f.delete(Kind::StatefulSet, "db");
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0"]);
    assert_eq!(f.snap.pods[0].metadata.owner_references, Some(vec![]));
}
