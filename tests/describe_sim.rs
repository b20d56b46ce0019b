//! `model::describe::describe_pod` against real `kubectl describe pod` on the simulator, line
//! for line with only ages masked: every built-in scenario's pods on a running clock, and every
//! static case pod in its namespace on a frozen clock; with each kubectl 1.27 … 1.33 beside
//! `kubectl`, in the `Layout` of its release.

mod common;
mod describe_support;

use common::cluster::{case_dirs, kubectl_versions, run_file};
use common::sim::{client, scenario, start_dynamic_for_kubectl, start_frozen};
use describe_support::{compare, describe_pair};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ListParams};
use podscope::model::describe::Layout;
use podscope::sim::load_fixture;
use std::path::PathBuf;

/// The kubectl binaries beside `kubectl` (1.27 … 1.33) and the layout of each.
fn kubectls() -> Vec<(String, PathBuf, Layout)> {
    kubectl_versions()
        .into_iter()
        .filter_map(|(v, bin)| {
            let minor = v.strip_prefix("1.")?.parse().ok()?;
            let layout = Layout {
                kubectl_minor: minor,
            };
            (27..=33).contains(&minor).then_some((v, bin, layout))
        })
        .collect()
}

const SCENARIOS: &[&str] = &[
    "hello",
    "crash",
    "oomkilled",
    "init-error",
    "image-pull",
    "readiness-failing",
    "liveness-slow-start",
    "job-sidecar",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_pod_matches_kubectl_133_line_for_line() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(10.0).await else {
        return;
    };
    let kubectls = kubectls();
    for name in SCENARIOS {
        let (ok, _, err) = run_file(
            &sim,
            cache.path(),
            "apply",
            &scenario(&format!("{name}.yaml")),
        )
        .await;
        assert!(ok, "apply {name}: {err}");
    }
    // Let the scenarios reach their telling states: hello ready behind its init and sidecar
    // containers, crash restarted twice (a Last State and repeated events).
    let store = sim.store();
    common::sim::wait_pod(&store, "hello", 60, common::sim::all_ready).await;
    common::sim::wait_pod(&store, "crash", 60, |p| {
        p.status
            .as_ref()
            .and_then(|s| s.container_statuses.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.restart_count >= 2))
    })
    .await;
    let client = client(&sim).await;
    // Every scenario has a pod once its controllers ran (the Job's pod comes from the Job).
    let pods = Api::<Pod>::namespaced(client.clone(), "default");
    let mut names = Vec::new();
    let listed = common::wait::wait_until(std::time::Duration::from_secs(30), || {
        names = sim
            .store()
            .list(podscope::sim::Resource::Pods, Some("default"))
            .0
            .iter()
            .filter_map(|o| match o {
                podscope::sim::Object::Pod(p) => p.metadata.name.clone(),
                _ => None,
            })
            .collect();
        names.len() >= SCENARIOS.len()
    })
    .await;
    assert!(listed, "pods: {names:?}");
    assert!(names.iter().any(|n| n == "hello"), "{names:?}");
    let mut failures = Vec::new();
    for name in &names {
        pods.get(name).await.expect("pod readable");
        for (v, kubectl, layout) in &kubectls {
            let (ours, theirs) = describe_pair(
                &client,
                kubectl,
                *layout,
                sim.kubeconfig_path(),
                cache.path(),
                "default",
                name,
            )
            .await;
            if let Err(e) = compare(&ours, &theirs) {
                failures.push(format!("{name} (kubectl {v}): {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_case_pod_matches_kubectl_133_line_for_line() {
    if common::cluster::kubectl().is_none() {
        return;
    }
    let kubectls = kubectls();
    let cache = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    for dir in case_dirs() {
        let fx = load_fixture(&dir).expect("fixture loads");
        let name = fx.pod.metadata.name.clone().expect("pod name");
        let ns = fx
            .pod
            .metadata
            .namespace
            .clone()
            .unwrap_or_else(|| "default".into());
        let sim = start_frozen(std::slice::from_ref(&dir)).await;
        let client = client(&sim).await;
        // Listing through the API is how kubectl finds the pod too.
        Api::<Pod>::namespaced(client.clone(), &ns)
            .list(&ListParams::default())
            .await
            .expect("list pods");
        for (v, kubectl, layout) in &kubectls {
            let (ours, theirs) = describe_pair(
                &client,
                kubectl,
                *layout,
                sim.kubeconfig_path(),
                cache.path(),
                &ns,
                &name,
            )
            .await;
            if let Err(e) = compare(&ours, &theirs) {
                failures.push(format!("{} (kubectl {v}): {e}", dir.display()));
            }
        }
        sim.shutdown().await;
    }
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
