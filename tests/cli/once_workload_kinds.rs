//! `--once` for the other kinds through the simulator's controllers: the StatefulSet `db`
//! (`statefulset-db`: three pods in order) and the Job `migrate` (`job-backoff`: each pod exits
//! 1, the Job ends `Failed` with `BackoffLimitExceeded`), and a Deployment scaled to 0
//! (`rollout-stuck`'s `web` after `kubectl scale --replicas=0`).

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use podscope::sim::{Object, Resource, SimClock, SimConfig, Simulator};
use serde_json::Value;

use common::wait::wait_until;

async fn start(scenario: &str) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, 10.0),
        scenarios: vec![PathBuf::from(scenario)],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

fn once_json(kubeconfig: &Path, target: &str) -> Value {
    let out = tokio::task::block_in_place(|| {
        Command::new(env!("CARGO_BIN_EXE_podscope"))
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(["-n", "default", target, "--once", "-o", "json"])
            .env_remove("KUBECONFIG")
            .output()
            .expect("podscope runs")
    });
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateful_set_lists_its_pods_by_its_selector() {
    let sim = start("statefulset-db").await;
    let store = sim.store();
    let all = wait_until(Duration::from_secs(90), || {
        store
            .list(Resource::Pods, Some("default"))
            .0
            .iter()
            .filter(|o| matches!(o, Object::Pod(p) if common::sim::all_ready(p)))
            .count()
            == 3
    })
    .await;
    assert!(all, "the StatefulSet's pods are not all ready");
    let doc = once_json(sim.kubeconfig_path(), "sts/db");
    let w = &doc["workload"];
    assert_eq!(w["kind"], "StatefulSet");
    assert_eq!(w["replicas"], 3);
    let mut names: Vec<&str> = w["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["db-0", "db-1", "db-2"]);
    // All healthy: the newest is shown.
    assert!(
        doc["pod"]["name"]
            .as_str()
            .is_some_and(|n| n.starts_with("db-"))
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_job_shows_a_failed_pod_and_its_condition() {
    let sim = start("job-backoff").await;
    let store = sim.store();
    let failed = wait_until(Duration::from_secs(120), || {
        match store.object(Resource::Jobs, "default", "migrate") {
            Some(Object::Job(j)) => j
                .status
                .as_ref()
                .and_then(|s| s.conditions.as_ref())
                .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Failed" && c.status == "True")),
            _ => false,
        }
    })
    .await;
    assert!(failed, "the Job did not fail");
    let doc = once_json(sim.kubeconfig_path(), "job/migrate");
    let w = &doc["workload"];
    assert_eq!(w["kind"], "Job");
    let conditions = w["conditions"].as_array().expect("conditions");
    assert!(
        conditions
            .iter()
            .any(|c| c["type"] == "Failed" && c["reason"] == "BackoffLimitExceeded"),
        "{conditions:?}"
    );
    assert!(!w["pods"].as_array().expect("pods").is_empty());
    assert_eq!(doc["pod"]["phase"], "Failed");
    // The Job's state, not a retry that will not come; the failed pod's last line quoted.
    let findings = doc["diagnosis"].as_array().expect("diagnosis");
    let job = findings
        .iter()
        .find(|f| f["rule"] == "job-failed")
        .expect("job-failed finding");
    assert_eq!(
        job["headline"],
        "Job migrate failed: BackoffLimitExceeded (backoffLimit 2, 3 pods failed); it creates no more pods"
    );
    assert!(
        job["action"].as_str().is_some_and(|h| h.starts_with(
            "fix the template, then delete and re-create the Job: kubectl delete job migrate && kubectl apply -f"
        )),
        "{job}"
    );
    let text = serde_json::to_string(findings).unwrap_or_default();
    assert!(!text.contains("while its backoffLimit allows"), "{text}");
    assert!(
        text.contains("listen tcp: lookup tcp/abc: unknown port"),
        "{text}"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployment_scaled_to_zero_says_why_there_is_no_pod() {
    let sim = start("rollout-stuck").await;
    let store = sim.store();
    let kc = sim.kubeconfig_path().to_owned();
    let scaled = tokio::task::block_in_place(|| {
        Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(&kc)
            .args(["-n", "default", "scale", "deploy/web", "--replicas=0"])
            .env_remove("KUBECONFIG")
            .output()
    });
    let Ok(scaled) = scaled else {
        eprintln!("skipped: kubectl not found");
        sim.shutdown().await;
        return;
    };
    assert!(
        scaled.status.success(),
        "{}",
        String::from_utf8_lossy(&scaled.stderr)
    );
    let gone = wait_until(Duration::from_secs(120), || {
        store.list(Resource::Pods, Some("default")).0.is_empty()
    })
    .await;
    assert!(gone, "the pods did not go away");
    let doc = once_json(&kc, "deploy/web");
    assert_eq!(doc["workload"]["replicas"], 0);
    let f = &doc["diagnosis"][0];
    assert_eq!(f["rule"], "workload-scaled-to-zero");
    assert_eq!(f["severity"], "info");
    assert_eq!(
        f["headline"],
        "deployment web is scaled to 0 (spec.replicas: 0): no pods run"
    );
    assert_eq!(
        f["action"],
        "to run pods again: kubectl scale deploy/web --replicas=N"
    );
    assert_eq!(
        doc["workload"]["message"],
        "deployment web is scaled to 0 (spec.replicas: 0): no pods run"
    );
    sim.shutdown().await;
}
