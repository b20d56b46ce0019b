//! The simulated node through real kubectl (1.33 and 1.27): `get nodes` (columns, `Ready`),
//! `-o wide` (the node's InternalIP), `describe node` (conditions with the kubelet's reasons,
//! the node's pods), `cordon`/`uncordon`, and the `node-not-ready` and `node-memory-pressure`
//! scenarios (`docs/nodes.md`).

use crate::common;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use podscope::sim::{Object, Resource, SimClock, SimConfig, Simulator, Store};

use common::cluster::{kubectl, kubectl_versions, run_bin};
use common::wait::wait_until;

/// A simulator with the default node `sim-node-1` on a clock `speed`× real time, started two
/// hours in the past (kubectl's client-side ages stay positive), with `scenarios`.
async fn start(speed: f64, scenarios: &[&str]) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, speed),
        scenarios: scenarios.iter().map(PathBuf::from).collect(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// kubectl 1.33 and 1.27 when installed beside `kubectl`, else `kubectl` itself.
fn kubectls() -> Vec<(String, PathBuf)> {
    let wanted: Vec<(String, PathBuf)> = kubectl_versions()
        .into_iter()
        .filter(|(v, _)| v == "1.33" || v == "1.27")
        .collect();
    if wanted.is_empty() {
        kubectl()
            .map(|k| ("PATH".to_owned(), k))
            .into_iter()
            .collect()
    } else {
        wanted
    }
}

async fn kc(bin: &Path, sim: &Simulator, cache: &Path, args: &[&str]) -> String {
    let (ok, out, err) = run_bin(bin, sim.kubeconfig_path(), cache, args, &[]).await;
    assert!(ok, "kubectl {args:?} failed: {err}\n{out}");
    out
}

/// The cells of `kubectl get nodes` row `sim-node-1`, split at runs of spaces.
fn row(out: &str) -> Vec<String> {
    out.lines()
        .find(|l| l.starts_with("sim-node-1"))
        .unwrap_or_else(|| panic!("no sim-node-1 row:\n{out}"))
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect()
}

fn ready_pod(store: &Store, name: &str) -> bool {
    store.pod("default", name).is_some_and(|p| {
        p.status
            .and_then(|s| s.conditions)
            .into_iter()
            .flatten()
            .any(|c| c.type_ == "Ready" && c.status == "True")
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_gets_describes_and_cordons_the_node() {
    let versions = kubectls();
    if versions.is_empty() {
        return;
    }
    let sim = start(1.0, &["hello"]).await;
    assert!(
        wait_until(Duration::from_secs(30), || ready_pod(&sim.store(), "hello")).await,
        "hello ready"
    );
    for (version, bin) in versions {
        let cache = tempfile::tempdir().expect("tempdir");
        let cache = cache.path();
        let out = kc(&bin, &sim, cache, &["get", "nodes"]).await;
        let header: Vec<&str> = out
            .lines()
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        assert_eq!(
            header,
            ["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
            "{version}"
        );
        let cells = row(&out);
        assert_eq!(cells[1..2], ["Ready"], "{version}: {out}");
        assert_eq!(cells[2], "control-plane");
        assert_eq!(cells[4], "v1.33.0");

        let out = kc(&bin, &sim, cache, &["get", "nodes", "-o", "wide"]).await;
        let header: Vec<&str> = out
            .lines()
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        assert_eq!(
            header[5..],
            [
                "INTERNAL-IP",
                "EXTERNAL-IP",
                "OS-IMAGE",
                "KERNEL-VERSION",
                "CONTAINER-RUNTIME"
            ],
            "{version}"
        );
        let cells = row(&out);
        assert_eq!(cells[5..7], ["192.168.49.2", "<none>"], "{version}: {out}");
        assert!(cells[9].starts_with("containerd://"), "{cells:?}");

        let out = kc(&bin, &sim, cache, &["describe", "node", "sim-node-1"]).await;
        assert!(out.contains("Conditions:"), "{version}: {out}");
        let ready = out
            .lines()
            .find(|l| l.trim_start().starts_with("Ready "))
            .unwrap_or_else(|| panic!("{version}: no Ready condition:\n{out}"));
        let words: Vec<&str> = ready.split_whitespace().collect();
        assert_eq!(words[..2], ["Ready", "True"], "{ready}");
        assert!(
            ready.contains("KubeletReady") && ready.ends_with("kubelet is posting ready status"),
            "{ready}"
        );
        assert!(out.contains("KubeletHasSufficientMemory"), "{out}");
        assert!(out.contains("InternalIP:  192.168.49.2"), "{out}");
        assert!(out.contains("PodCIDR:"), "{out}");
        assert!(out.contains("Non-terminated Pods:"), "{out}");
        let pods = &out[out.find("Non-terminated Pods:").unwrap_or(0)..];
        assert!(pods.contains("default") && pods.contains("hello"), "{pods}");
        assert!(out.contains("Allocated resources:"), "{out}");

        assert!(
            kc(&bin, &sim, cache, &["cordon", "sim-node-1"])
                .await
                .contains("cordoned")
        );
        let out = kc(&bin, &sim, cache, &["get", "nodes"]).await;
        assert_eq!(row(&out)[1], "Ready,SchedulingDisabled", "{version}: {out}");
        kc(&bin, &sim, cache, &["uncordon", "sim-node-1"]).await;
        let out = kc(&bin, &sim, cache, &["get", "nodes"]).await;
        assert_eq!(row(&out)[1], "Ready", "{version}: {out}");
    }
}

fn node_conditions(store: &Store) -> Vec<(String, String, String)> {
    match store.object(Resource::Nodes, "", "sim-node-1") {
        Some(Object::Node(n)) => n
            .status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .map(|c| {
                (
                    c.type_.clone(),
                    c.status.clone(),
                    c.reason.clone().unwrap_or_default(),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_not_ready_scenario_loses_the_node_and_evicts_its_pod() {
    let Some(bin) = kubectl() else {
        return;
    };
    // 20 s to the kubelet's stop, 40 s of grace, 30 s of toleration: ~5 s at 20×.
    let sim = start(20.0, &["node-not-ready"]).await;
    let store = sim.store();
    assert!(
        wait_until(Duration::from_secs(20), || node_conditions(&store)
            .iter()
            .any(|(t, s, _)| t == "Ready" && s == "Unknown"))
        .await,
        "{:?}",
        node_conditions(&store)
    );
    for (t, s, r) in node_conditions(&store) {
        assert_eq!(
            (s.as_str(), r.as_str()),
            ("Unknown", "NodeStatusUnknown"),
            "{t}"
        );
    }
    let cache = tempfile::tempdir().expect("tempdir");
    let out = kc(&bin, &sim, cache.path(), &["get", "nodes"]).await;
    assert_eq!(row(&out)[1], "NotReady", "{out}");
    let out = kc(
        &bin,
        &sim,
        cache.path(),
        &["describe", "node", "sim-node-1"],
    )
    .await;
    assert!(
        out.contains("node.kubernetes.io/unreachable:NoExecute"),
        "{out}"
    );
    assert!(
        out.contains("Kubelet stopped posting node status."),
        "{out}"
    );
    // The pod: Ready False, NodeNotReady, then deleted by taint eviction and never removed.
    assert!(
        wait_until(Duration::from_secs(20), || store
            .pod("default", "edge-cache")
            .is_some_and(|p| p.metadata.deletion_timestamp.is_some()))
        .await
    );
    let pod = store
        .pod("default", "edge-cache")
        .expect("kept: the lost kubelet never confirms");
    let conditions = pod.status.and_then(|s| s.conditions).unwrap_or_default();
    let ready = conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .expect("Ready");
    assert_eq!(ready.status, "False");
    let disruption = conditions
        .iter()
        .find(|c| c.type_ == "DisruptionTarget")
        .expect("DisruptionTarget");
    assert_eq!(disruption.reason.as_deref(), Some("DeletionByTaintManager"));
    let out = kc(
        &bin,
        &sim,
        cache.path(),
        &[
            "get",
            "events",
            "--field-selector",
            "involvedObject.name=edge-cache",
        ],
    )
    .await;
    assert!(
        out.contains("NodeNotReady") && out.contains("Node is not ready"),
        "{out}"
    );
    assert!(out.contains("TaintManagerEviction"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_pressure_scenario_evicts_the_best_effort_pod() {
    let sim = start(10.0, &["node-memory-pressure"]).await;
    let store = sim.store();
    assert!(
        wait_until(Duration::from_secs(20), || store
            .pod("default", "scratch")
            .and_then(|p| p.status)
            .is_some_and(|s| s.reason.as_deref() == Some("Evicted")))
        .await
    );
    let status = store
        .pod("default", "scratch")
        .and_then(|p| p.status)
        .expect("status");
    assert_eq!(status.phase.as_deref(), Some("Failed"));
    assert_eq!(
        status.message.as_deref(),
        Some(
            "The node was low on resource: memory. Threshold quantity: 100Mi, available: 91364Ki. Container worker was using 512000Ki, request is 0, has larger consumption of memory. "
        )
    );
    assert!(node_conditions(&store).contains(&(
        "MemoryPressure".into(),
        "True".into(),
        "KubeletHasInsufficientMemory".into()
    )));
    let api = store
        .pod("default", "api")
        .and_then(|p| p.status)
        .expect("api");
    assert_eq!(
        api.phase.as_deref(),
        Some("Running"),
        "the Burstable pod stays"
    );
    // The eviction manager records the event after it writes the pod's status.
    let evicted = || {
        store
            .list(Resource::Events, Some("default"))
            .0
            .into_iter()
            .any(|o| match o {
                Object::Event(e) => {
                    e.reason.as_deref() == Some("Evicted")
                        && e.involved_object.name.as_deref() == Some("scratch")
                }
                _ => false,
            })
    };
    assert!(
        wait_until(Duration::from_secs(10), evicted).await,
        "an Evicted event"
    );
}
