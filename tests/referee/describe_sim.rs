//! `model::describe::describe_pod` against real `kubectl describe pod` on the simulator, line
//! for line with only ages masked: every built-in scenario's pods on a running clock, and every
//! static case pod in its namespace on a frozen clock; with kubectl 1.27 … 1.33 beside
//! `kubectl`, in the `Layout` of its release.
//!
//! Which versions run on which case (CI time: each run is a kubectl process): every version on
//! the scenarios and on the first corpus (cases 01–34); on every later case the oldest (1.27)
//! and the newest (1.33), which between them take every path where `Layout` differs, plus one
//! version in between that rotates with the case's position among the later cases (the 1st
//! gets 1.28, the 2nd 1.29, … the 6th 1.28 again), so each middle version still meets about a
//! fifth of them.

use crate::common;
use crate::describe_support;
use common::cluster::{case_dirs, kubectl_versions, run_file};
use common::sim::{client, scenario, start_dynamic_for_kubectl, start_frozen};
use describe_support::{compare, describe_pair};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ListParams};
use podscope::model::describe::Layout;
use podscope::sim::load_fixture;
use std::path::{Path, PathBuf};

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

/// Cases before this number are the first corpus, compared with every version.
const FIRST_CORPUS_END: u32 = 40;

/// The entries of `kubectls` to compare case `dir` with: all of them for a case of the first
/// corpus, else the oldest, the newest and the middle one at `later` (the case's position
/// among the later cases) modulo the number of middle versions.
fn versions_for<'a, T>(kubectls: &'a [T], dir: &Path, later: &mut usize) -> Vec<&'a T> {
    let number: u32 = common::cluster::case_name(dir)
        .split('-')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a case folder starts with its number");
    if number < FIRST_CORPUS_END || kubectls.len() <= 2 {
        return kubectls.iter().collect();
    }
    let middle = &kubectls[1..kubectls.len() - 1];
    let pick = &middle[*later % middle.len()];
    *later += 1;
    vec![&kubectls[0], pick, &kubectls[kubectls.len() - 1]]
}

#[test]
fn later_cases_get_the_oldest_the_newest_and_a_rotating_middle_version() {
    let versions = ["1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33"];
    let mut later = 0;
    let first = versions_for(&versions, Path::new("/c/34-pending"), &mut later);
    assert_eq!(first.len(), 7);
    let picks: Vec<Vec<&&str>> = ["40-a", "41-b", "45-c", "46-d", "47-e", "48-f"]
        .iter()
        .map(|c| versions_for(&versions, &Path::new("/c").join(c), &mut later))
        .collect();
    let middles: Vec<&str> = picks.iter().map(|p| *p[1]).collect();
    assert_eq!(middles, ["1.28", "1.29", "1.30", "1.31", "1.32", "1.28"]);
    assert!(picks.iter().all(|p| *p[0] == "1.27" && *p[2] == "1.33"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_case_pod_matches_kubectl_133_line_for_line() {
    if common::cluster::kubectl().is_none() {
        return;
    }
    let kubectls = kubectls();
    let cache = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    let mut later = 0;
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
        for (v, kubectl, layout) in versions_for(&kubectls, &dir, &mut later) {
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
