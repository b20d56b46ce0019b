//! The official Kubernetes Python client against the simulator's cluster-level API: discovery
//! (both spellings of the paths), namespaces, nodes, list pagination, the authorization reviews,
//! an ephemeral container run to completion and metrics.k8s.io read as custom objects
//! (tests/python/official.py does the calls). The
//! expected values are the API conventions: a `limit` page carries `continue` and
//! `remainingItemCount` until the last; a SelfSubjectAccessReview answers the deny list.

use crate::common;
use std::path::Path;

use common::python;
use common::sim::{scenario, wait_pod};
use k8s_openapi::api::core::v1::Pod;
use podscope::sim::{SimConfig, Simulator};
use serde_json::{Value, json};

async fn start(deny: &[(&str, &str)]) -> Simulator {
    let sim = Simulator::start(SimConfig {
        scenarios: vec![scenario("hello.yaml")],
        deny: deny
            .iter()
            .map(|(v, r)| ((*v).to_string(), (*r).to_string()))
            .collect(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    wait_pod(&sim.store(), "hello", 60, running).await;
    sim
}

fn running(p: &Pod) -> bool {
    p.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .is_some_and(|v| !v.is_empty() && v.iter().all(|c| c.ready))
}

async fn py(sim: &Simulator, python: &Path, args: &[&str]) -> Value {
    python::run_async(
        python.to_path_buf(),
        "official.py",
        sim.kubeconfig_path().to_path_buf(),
        args,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_answers_version_api_and_groups() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[]).await;
    let out = py(&sim, &python, &["discovery"]).await;
    assert!(
        out["gitVersion"]
            .as_str()
            .is_some_and(|v| v.starts_with("v1.")),
        "{out}"
    );
    assert_eq!(out["coreVersions"], json!(["v1"]), "{out}");
    let groups = out["groups"].as_array().expect("groups");
    for g in [
        "apps",
        "authentication.k8s.io",
        "authorization.k8s.io",
        "batch",
        "coordination.k8s.io",
        "discovery.k8s.io",
        "events.k8s.io",
    ] {
        assert!(groups.contains(&json!(g)), "{g} missing: {out}");
    }
    let core = out["coreResources"].as_array().expect("core resources");
    for r in [
        "configmaps",
        "endpoints",
        "namespaces",
        "nodes",
        "persistentvolumeclaims",
        "persistentvolumes",
        "pods",
        "pods/exec",
        "secrets",
        "serviceaccounts",
        "services",
    ] {
        assert!(core.contains(&json!(r)), "{r} missing: {out}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namespaces_are_created_and_listed() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[]).await;
    let out = py(&sim, &python, &["namespaces", "team-a"]).await;
    let listed = out["namespaces"].as_array().expect("namespaces");
    for ns in [
        "default",
        "kube-node-lease",
        "kube-public",
        "kube-system",
        "team-a",
    ] {
        assert!(listed.contains(&json!(ns)), "{ns}: {out}");
    }
    assert_eq!(out["phase"], "Active");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pods_node_is_listed_ready_with_its_address() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[]).await;
    let out = py(&sim, &python, &["nodes"]).await;
    let nodes = out["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), 1, "{out}");
    let n = &nodes[0];
    // The node every pod names in spec.nodeName, at the host IP pods report.
    let pod = sim.store().pod("default", "hello").expect("hello");
    let spec = pod.spec.expect("spec");
    let status = pod.status.expect("status");
    assert_eq!(n["name"], json!(spec.node_name), "{out}");
    assert_eq!(n["addresses"]["InternalIP"], json!(status.host_ip), "{out}");
    assert_eq!(
        n["conditions"],
        json!({"Ready": "True", "MemoryPressure": "False", "DiskPressure": "False", "PIDPressure": "False"}),
        "{out}"
    );
    assert_eq!(n["pods"], "110", "the kubelet's default maxPods: {out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limited_list_pages_through_continue_tokens() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[]).await;
    let store = sim.store();
    for i in 0..4 {
        let mut pod: Pod = serde_json::from_value(json!({
            "metadata": {"name": format!("page-{i}"), "namespace": "default"},
            "spec": {"containers": [{"name": "main", "image": "busybox:1.37", "command": ["sleep", "3600"]}]}
        }))
        .expect("pod");
        pod.metadata.namespace = Some("default".into());
        store.create_pod(pod).expect("create");
    }
    let out = py(&sim, &python, &["pagination", "2"]).await;
    assert_eq!(
        out["pages"],
        json!([
            {"items": 2, "remaining": 3, "continue": true},
            {"items": 2, "remaining": 1, "continue": true},
            {"items": 1, "remaining": null, "continue": false},
        ]),
        "{out}"
    );
    let mut names: Vec<String> = out["names"]
        .as_array()
        .expect("names")
        .iter()
        .filter_map(|n| n.as_str().map(String::from))
        .collect();
    names.sort();
    assert_eq!(names, ["hello", "page-0", "page-1", "page-2", "page-3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn access_reviews_answer_from_the_deny_list() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[("create", "pods/exec")]).await;
    let out = py(&sim, &python, &["auth"]).await;
    assert_eq!(out["create pods/exec"], false, "{out}");
    assert_eq!(out["get pods"], true, "{out}");
    assert_eq!(out["create pods/portforward"], true, "{out}");
    let exec_verbs = out["rules"]["pods/exec"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!exec_verbs.contains(&json!("create")), "{out}");
    assert!(
        out["rules"]["pods"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("watch")) && v.contains(&json!("delete"))),
        "{out}"
    );
    assert_eq!(
        out["username"], "podscope-sim",
        "the user the token authenticates as: {out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ephemeral_container_runs_to_completion() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[]).await;
    let out = py(&sim, &python, &["ephemeral", "hello", "hello"]).await;
    assert_eq!(out["reason"], "Completed", "{out}");
    assert_eq!(out["exitCode"], 0, "{out}");
    assert_eq!(out["logs"], "hi\n", "{out}");
    // The same image as the pod's init container render-config: the same imageID.
    let pod = sim.store().pod("default", "hello").expect("hello");
    let init_id = pod
        .status
        .and_then(|s| s.init_container_statuses)
        .and_then(|v| v.into_iter().find(|c| c.name == "render-config"))
        .map(|c| c.image_id);
    assert_eq!(out["imageID"], json!(init_id), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_are_created_and_pods_deleted_as_a_collection() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[]).await;
    let out = py(&sim, &python, &["writes"]).await;
    // generateName `hello.` + five characters, as the API server names it.
    assert!(
        out["eventName"]
            .as_str()
            .is_some_and(|n| n.len() == "hello.".len() + 5 && n.starts_with("hello.")),
        "{out}"
    );
    assert_eq!(out["listed"], json!(["checked by a test"]), "{out}");
    assert_eq!(out["deletedKind"], "PodList", "{out}");
    assert_eq!(out["deleted"], json!(["batch-0", "batch-1"]), "{out}");
    assert_eq!(out["gone"], true, "{out}");
    assert_eq!(
        out["left"],
        json!(["batch-2"]),
        "the unlabelled pod stays: {out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pod_and_node_metrics_read_through_custom_objects() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start(&[]).await;
    let path = "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/hello";
    let read = || async {
        let raw = common::sim::raw_get(&sim, path).await;
        serde_json::from_str::<Value>(raw.split("\r\n\r\n").nth(1).unwrap_or(""))
            .unwrap_or(Value::Null)
    };
    // A container is sampled from the first grid point after it started (docs/metrics.md).
    let mut sampled = false;
    for _ in 0..400 {
        let pm = read().await;
        if pm["containers"].as_array().is_some_and(|c| c.len() == 2) {
            sampled = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(sampled, "hello and proxy sampled within 40 s");
    // The client's reading and ours agree when they fall in the same sampling window; a
    // window boundary between them (15 s apart at most once per try) is retried.
    for _ in 0..3 {
        let out = py(&sim, &python, &["metrics", "hello"]).await;
        let ours = read().await;
        assert_eq!(out["kind"], "PodMetrics", "{out}");
        assert_eq!(
            out["window"], "15s",
            "metrics-server's default resolution: {out}"
        );
        assert_eq!(out["nodes"], json!(["sim-node-1"]), "{out}");
        assert_eq!(out["nodeKind"], "NodeMetricsList", "{out}");
        assert_eq!(out["missing"], "error: 404 Not Found", "{out}");
        let mut names: Vec<&str> = out["containers"]
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        names.sort_unstable();
        assert_eq!(names, ["hello", "proxy"], "running containers only: {out}");
        if ours["timestamp"] != out["timestamp"] {
            continue;
        }
        for c in ours["containers"].as_array().expect("containers") {
            assert_eq!(
                out["containers"][c["name"].as_str().unwrap_or("")],
                c["usage"],
                "{out}"
            );
        }
        return;
    }
    panic!("three readings straddled a window boundary");
}
