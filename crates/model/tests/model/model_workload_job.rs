//! A failed Job's pod: the finding says the Job failed and creates no more pods, and the
//! pod's own hint tells how to retry (re-create the Job; a CronJob's next schedule).

use jiff::Timestamp;
use k8s_openapi::api::batch::v1::Job;
use podscope_model::PodSummary;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::{Inputs, LogTail, LogTails, Related, diagnose};
use podscope_model::workload::summary::from_job;
use serde_json::json;

fn now() -> Timestamp {
    "2024-06-03T07:30:00Z".parse().expect("time")
}

fn failed_job() -> Job {
    serde_json::from_value(json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "migrate", "namespace": "default", "uid": "uid-job"},
        "spec": {"backoffLimit": 2, "template": {"spec": {"restartPolicy": "Never",
            "containers": [{"name": "migrate", "image": "ghcr.io/example/hello:1.0"}]}}},
        "status": {"failed": 3, "conditions": [{"type": "Failed", "status": "True",
            "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit"}]}
    }))
    .expect("job")
}

fn failed_pod() -> PodSummary {
    let pod: k8s_openapi::api::core::v1::Pod = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "migrate-abcde", "namespace": "default", "uid": "uid-pod",
            "labels": {"job-name": "migrate"},
            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "migrate",
                                 "uid": "uid-job", "controller": true}]},
        "spec": {"restartPolicy": "Never", "containers": [{"name": "migrate", "image": "ghcr.io/example/hello:1.0",
            "env": [{"name": "PORT", "value": "abc"}]}]},
        "status": {"phase": "Failed", "containerStatuses": [{"name": "migrate", "ready": false,
            "restartCount": 0, "image": "ghcr.io/example/hello:1.0", "imageID": "",
            "state": {"terminated": {"exitCode": 1, "reason": "Error",
                "startedAt": "2024-06-03T07:20:00Z", "finishedAt": "2024-06-03T07:20:01Z"}}}]}
    }))
    .expect("pod");
    PodSummary::from_pod(&pod)
}

#[test]
fn a_failed_jobs_pod_says_the_job_failed_and_how_to_retry() {
    let summary = from_job(&failed_job());
    let pod = failed_pod();
    let mut logs = LogTails::default();
    // The pod never restarted: its dead instance is the current one.
    logs.current.insert(
        "migrate".into(),
        LogTail::new(
            0,
            Ok(vec![
                "listen: listen tcp: lookup tcp/abc: unknown port".into(),
            ]),
        ),
    );
    let (events, related) = (Vec::new(), Related::new());
    let inputs = Inputs::new(&pod, &events, &logs, &related, &OwnerStatus::Unknown, now())
        .with_workload(Some(&summary));
    let findings = diagnose(&inputs);
    let job = findings
        .iter()
        .find(|f| f.rule == "job-failed")
        .expect("job-failed");
    assert_eq!(
        job.headline,
        "Job migrate failed: BackoffLimitExceeded (backoffLimit 2, 3 pods failed); it creates no more pods"
    );
    let text = format!("{findings:?}");
    assert!(!text.contains("while its backoffLimit allows"), "{text}");
    let exit = findings
        .iter()
        .find(|f| f.container.as_deref() == Some("migrate"))
        .expect("the container's finding");
    assert!(
        exit.headline
            .contains("listen tcp: lookup tcp/abc: unknown port"),
        "{exit:?}"
    );
    assert!(
        exit.evidence
            .iter()
            .any(|e| e.starts_with("log, last line: ")),
        "{exit:?}"
    );
    assert!(
        exit.action.as_deref().is_some_and(|h| h.contains(
            "then fix the template, then delete and re-create the Job: kubectl delete job migrate"
        ) || h
            .contains("fix the template, then delete and re-create the Job")),
        "{exit:?}"
    );
}
