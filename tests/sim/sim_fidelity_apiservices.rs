//! `apiregistration.k8s.io/v1` APIServices (`docs/core-api.md` §9) through real kubectl:
//! `kubectl get apiservices` lists the local group-versions as `Local` and metrics-server's
//! `v1beta1.metrics.k8s.io` as `kube-system/metrics-server`, absent with metrics off.

use crate::common;
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

/// Aggregated discovery (`docs/workloads-api.md` §1): kubectl 1.33 (v2) and 1.27 (v2beta1)
/// list the same `api-resources` from the one-document answers, and kubectl asks for no
/// per-group-version document (no fallback to the legacy form).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aggregated_discovery_serves_kubectl_without_fallback() {
    let Some(bin) = kubectl() else {
        return;
    };
    let sim = start(true).await;
    let raw = common::sim::send(
        &sim,
        format!(
            "GET /apis HTTP/1.1\r\nhost: {}\r\n{}accept: application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json\r\nconnection: close\r\n\r\n",
            common::sim::host(&sim),
            sim.token()
                .map(|t| format!("authorization: Bearer {t}\r\n"))
                .unwrap_or_default()
        )
        .as_bytes(),
    )
    .await;
    let (head, body) = raw.split_once("\r\n\r\n").expect("http response");
    assert!(
        head.to_ascii_lowercase().contains(
            "content-type: application/json;g=apidiscovery.k8s.io;v=v2beta1;as=apigroupdiscoverylist"
        ),
        "{head}"
    );
    let list: serde_json::Value = serde_json::from_str(body).expect("json");
    assert_eq!(list["apiVersion"], "apidiscovery.k8s.io/v2beta1");
    let names: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|g| g["metadata"]["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "apiregistration.k8s.io",
            "apps",
            "events.k8s.io",
            "authentication.k8s.io",
            "authorization.k8s.io",
            "batch",
            "coordination.k8s.io",
            "discovery.k8s.io",
            "metrics.k8s.io"
        ]
    );
    let deployments = list["items"][1]["versions"][0]["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .find(|r| r["resource"] == "deployments")
        .cloned()
        .expect("deployments");
    assert_eq!(deployments["scope"], "Namespaced");
    assert_eq!(deployments["shortNames"], serde_json::json!(["deploy"]));
    assert_eq!(
        deployments["subresources"][0],
        serde_json::json!({"subresource": "scale",
            "responseKind": {"group": "autoscaling", "version": "v1", "kind": "Scale"},
            "verbs": ["get", "patch", "update"]})
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let mut versions = common::cluster::kubectl_versions();
    versions.retain(|(v, _)| v == "1.33" || v == "1.27");
    if versions.is_empty() {
        versions.push(("PATH".into(), bin));
    }
    let mut outputs = Vec::new();
    for (v, k) in &versions {
        let cache = dir.path().join(v);
        let (ok, out, err) =
            common::cluster::run_bin(k, sim.kubeconfig_path(), &cache, &["api-resources"], &[])
                .await;
        assert!(ok, "kubectl {v} api-resources: {err}");
        assert!(out.contains("\ndeployments "), "{out}");
        outputs.push(out);
        let cache = dir.path().join(format!("{v}-pods"));
        let (ok, _, err) = common::cluster::run_bin(
            k,
            sim.kubeconfig_path(),
            &cache,
            &["get", "pods", "-v=6"],
            &[],
        )
        .await;
        assert!(ok, "kubectl {v} get pods: {err}");
        assert!(
            !err.contains("/apis/apps/v1") && !err.contains("/api/v1?"),
            "kubectl {v} fell back to legacy discovery: {err}"
        );
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]), "{outputs:?}");
}
