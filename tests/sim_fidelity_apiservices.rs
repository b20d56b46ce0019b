//! `apiregistration.k8s.io/v1` APIServices (`docs/core-api.md` §9) through real kubectl:
//! `kubectl get apiservices` lists the local group-versions as `Local` and metrics-server's
//! `v1beta1.metrics.k8s.io` as `kube-system/metrics-server`, absent with metrics off.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::cluster::{kubectl, run};
use jiff::{SignedDuration, Timestamp};
use podscope::sim::metrics::MetricsConfig;
use podscope::sim::{SimClock, SimConfig, Simulator};

async fn start(metrics: bool) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, 1.0),
        scenarios: Vec::<PathBuf>::new(),
        metrics: MetricsConfig {
            enabled: metrics,
            resolution: Duration::from_secs(15),
        },
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// `kubectl get apiservices` rows without the AGE column.
async fn rows(sim: &Simulator) -> Vec<String> {
    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = run(sim, cache.path(), &["get", "apiservices"]).await;
    assert!(ok, "kubectl get apiservices: {err}");
    out.lines()
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            cells[..cells.len() - 1].join(" ")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_lists_local_and_aggregated_api_services() {
    if kubectl().is_none() {
        return;
    }
    let sim = start(true).await;
    let local = [
        "v1. Local True",
        "v1.apiregistration.k8s.io Local True",
        "v1.apps Local True",
        "v1.authentication.k8s.io Local True",
        "v1.authorization.k8s.io Local True",
        "v1.batch Local True",
        "v1.coordination.k8s.io Local True",
        "v1.discovery.k8s.io Local True",
        "v1.events.k8s.io Local True",
    ];
    let mut want = vec!["NAME SERVICE AVAILABLE"];
    want.extend(local);
    want.push("v1beta1.metrics.k8s.io kube-system/metrics-server True");
    assert_eq!(rows(&sim).await, want);

    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = run(
        &sim,
        cache.path(),
        &[
            "get",
            "apiservice",
            "v1beta1.metrics.k8s.io",
            "-o",
            "jsonpath={.status.conditions[0].reason}/{.status.conditions[0].message}",
        ],
    )
    .await;
    assert!(ok, "kubectl get apiservice: {err}");
    assert_eq!(out, "Passed/all checks passed");

    let off = start(false).await;
    let mut want = vec!["NAME SERVICE AVAILABLE"];
    want.extend(local);
    assert_eq!(rows(&off).await, want);
}
