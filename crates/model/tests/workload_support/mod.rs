//! Built workload objects for the workload model tests: a Deployment `web` whose rollout moves
//! from `hello:1.0` with `PORT=8080` to `hello:1.1` with `PORT=abc`, its two ReplicaSets and
//! their pods.
#![allow(dead_code)]

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
use k8s_openapi::api::core::v1::Pod;
use podscope_model::workload::WorkloadPod;
use serde_json::{Value, json};

/// The Deployment's uid.
pub const UID: &str = "d-uid-1";

/// A pod template running `ghcr.io/example/hello:TAG` with `PORT=port`, labelled `app=web`
/// (plus `pod-template-hash` when `hash` is given).
pub fn template(tag: &str, port: &str, hash: Option<&str>) -> Value {
    let mut labels = json!({"app": "web"});
    if let Some(h) = hash {
        labels["pod-template-hash"] = json!(h);
    }
    json!({
        "metadata": {"labels": labels},
        "spec": {"containers": [{
            "name": "hello",
            "image": format!("ghcr.io/example/hello:{tag}"),
            "env": [{"name": "PORT", "value": port}]
        }]}
    })
}

/// Deployment `default/web` (4 replicas) whose template is `hello:1.1`, `PORT=abc`, with
/// `status` as given.
pub fn deployment(status: Value) -> Deployment {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "uid": UID, "generation": 2},
        "spec": {
            "replicas": 4,
            "selector": {"matchLabels": {"app": "web"}},
            "template": template("1.1", "abc", None)
        },
        "status": status
    }))
    .expect("deployment")
}

/// A ReplicaSet of `web` (owned by [`UID`]) with `revision`, `hash`, the template of `tag` and
/// `port`, and `replicas`/`ready` pods.
pub fn replica_set(
    hash: &str,
    revision: i64,
    tag: &str,
    port: &str,
    replicas: i32,
    ready: i32,
) -> ReplicaSet {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {
            "name": format!("web-{hash}"), "namespace": "default", "uid": format!("rs-{hash}"),
            "creationTimestamp": format!("2024-06-03T07:{:02}:00Z", revision),
            "labels": {"app": "web", "pod-template-hash": hash},
            "annotations": {"deployment.kubernetes.io/revision": revision.to_string()},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web",
                                 "uid": UID, "controller": true}]
        },
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web", "pod-template-hash": hash}},
            "template": template(tag, port, Some(hash))
        },
        "status": {"replicas": replicas, "readyReplicas": ready}
    }))
    .expect("replica set")
}

/// A pod `name` of the ReplicaSet with `hash`, created at minute `minute` past 07:00, its one
/// container `hello` in `state` (a `containerStatuses[].state` object) with `ready`, in `phase`.
pub fn pod(
    name: &str,
    hash: &str,
    minute: u32,
    phase: &str,
    state: Value,
    ready: bool,
) -> WorkloadPod {
    let pod: Pod = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "name": name, "namespace": "default", "uid": format!("uid-{name}"),
            "creationTimestamp": format!("2024-06-03T07:{minute:02}:00Z"),
            "labels": {"app": "web", "pod-template-hash": hash},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                 "name": format!("web-{hash}"), "uid": format!("rs-{hash}"),
                                 "controller": true}]
        },
        "spec": {"containers": [{"name": "hello", "image": "ghcr.io/example/hello:1.1"}]},
        "status": {
            "phase": phase,
            "conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }}],
            "containerStatuses": [{
                "name": "hello", "image": "ghcr.io/example/hello:1.1", "imageID": "",
                "ready": ready, "restartCount": 3, "state": state
            }]
        }
    }))
    .expect("pod");
    WorkloadPod::from_pod(&pod)
}

/// `state.running`.
pub fn running() -> Value {
    json!({"running": {"startedAt": "2024-06-03T07:00:00Z"}})
}

/// `state.waiting` with `reason`.
pub fn waiting(reason: &str) -> Value {
    json!({"waiting": {"reason": reason}})
}

/// `state.terminated` with `exit_code`.
pub fn terminated(exit_code: i32) -> Value {
    json!({"terminated": {"exitCode": exit_code, "reason": if exit_code == 0 { "Completed" } else { "Error" }}})
}
