//! Fixtures of the workload view's tests: the pods of `deploy/web` as the API serves them
//! (labels `app=web` and `pod-template-hash`, owned by their ReplicaSet, containers `proxy`
//! and `hello`), the Deployment's summary during a rollout, and the state after
//! `app::workload::begin`.

#![allow(dead_code)]

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Pod;
use podscope::app::generation::Generation;
use podscope::app::workload::{FollowMode, WorkloadView, begin};
use podscope::app::{Cmd, Config, Msg, State};
use podscope::model::workload::{
    Revision, WorkloadKind, WorkloadPod, WorkloadRef, WorkloadSummary,
};
use podscope::ui::theme::Theme;
use serde_json::json;

/// 2025-01-01T07:20:15Z, the clock of every script.
pub fn t0() -> Timestamp {
    "2025-01-01T07:20:15Z".parse().expect("t0")
}

/// The `pod-template-hash` of the rollout's new template in these scripts.
pub const NEW_HASH: &str = "6c8f9d4b7";

/// How a fixture pod's `hello` container is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// Running and ready.
    Ready,
    /// Waiting in `CrashLoopBackOff` after 3 restarts.
    Crash,
    /// Scheduled, `ContainerCreating`.
    Creating,
}

/// Pod `web-<hash>-<suffix>` of ReplicaSet `web-<hash>`, created `age_s` seconds before
/// [`t0`], as the API serves it.
pub fn api_pod(hash: &str, suffix: &str, age_s: i64, health: Health) -> Pod {
    let created = (t0() - SignedDuration::from_secs(age_s)).to_string();
    let (phase, hello_state, ready, restarts) = match health {
        Health::Ready => (
            "Running",
            json!({"running": {"startedAt": created}}),
            true,
            0,
        ),
        Health::Crash => (
            "Running",
            json!({"waiting": {"reason": "CrashLoopBackOff",
                "message": "back-off 40s restarting failed container=hello"}}),
            false,
            3,
        ),
        Health::Creating => (
            "Pending",
            json!({"waiting": {"reason": "ContainerCreating"}}),
            false,
            0,
        ),
    };
    let name = format!("web-{hash}-{suffix}");
    // The rollout's new template (`6c8f9d4b7`) runs hello:1.1, the others 1.0.
    let image = if hash == NEW_HASH {
        "ghcr.io/example/hello:1.1"
    } else {
        "ghcr.io/example/hello:1.0"
    };
    serde_json::from_value(json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": "default",
            "uid": format!("uid-{name}"),
            "resourceVersion": "10",
            "creationTimestamp": created,
            "labels": {"app": "web", "pod-template-hash": hash},
            "ownerReferences": [{
                "apiVersion": "apps/v1", "kind": "ReplicaSet", "name": format!("web-{hash}"),
                "uid": format!("uid-rs-{hash}"), "controller": true, "blockOwnerDeletion": true
            }]
        },
        "spec": {
            "nodeName": "node-1",
            "containers": [
                {"name": "proxy", "image": "ghcr.io/example/proxy:2.0"},
                {"name": "hello", "image": image,
                 "ports": [{"containerPort": 8080}]}
            ]
        },
        "status": {
            "phase": phase,
            "podIP": "10.0.0.7",
            "conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }}],
            "containerStatuses": [
                {"name": "proxy", "ready": true, "restartCount": 0,
                 "image": "ghcr.io/example/proxy:2.0", "imageID": "",
                 "state": {"running": {"startedAt": created}}},
                {"name": "hello", "ready": ready, "restartCount": restarts,
                 "image": image, "imageID": "", "state": hello_state}
            ]
        }
    }))
    .expect("fixture pod")
}

/// [`api_pod`] as the workload's pod watch reports it.
pub fn wpod(hash: &str, suffix: &str, age_s: i64, health: Health) -> WorkloadPod {
    WorkloadPod::from_pod(&api_pod(hash, suffix, age_s, health))
}

/// [`api_pod`] as the shown pod's watch reports it.
pub fn summary_of(hash: &str, suffix: &str, age_s: i64, health: Health) -> Msg {
    Msg::PodApplied(Box::new(podscope::model::PodSummary::from_pod(&api_pod(
        hash, suffix, age_s, health,
    ))))
}

/// The same pod deleted (`deletionTimestamp` set, grace 30 s, requested 5 s before [`t0`]).
pub fn deleted(hash: &str, suffix: &str, age_s: i64, health: Health) -> Msg {
    let mut pod = api_pod(hash, suffix, age_s, health);
    let at = t0() + SignedDuration::from_secs(25);
    pod.metadata.deletion_timestamp =
        Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(at));
    pod.metadata.deletion_grace_period_seconds = Some(30);
    Msg::PodDeleted(Box::new(podscope::model::PodSummary::from_pod(&pod)))
}

/// `deploy/web`: 3 replicas, the ReplicaSets given as `(hash, replicas, ready, new)`.
pub fn deployment(sets: &[(&str, i32, i32, bool)]) -> WorkloadSummary {
    WorkloadSummary {
        kind: WorkloadKind::Deployment,
        name: "web".into(),
        namespace: "default".into(),
        uid: "uid-deploy-web".into(),
        selector: "app=web".into(),
        replicas: Some(3),
        ready: sets.iter().map(|s| s.2).sum(),
        updated: sets.iter().filter(|s| s.3).map(|s| s.1).sum(),
        available: sets.iter().map(|s| s.2).sum(),
        conditions: Vec::new(),
        revisions: sets
            .iter()
            .enumerate()
            .map(|(i, (hash, replicas, ready, new))| Revision {
                name: format!("web-{hash}"),
                hash: (*hash).to_owned(),
                revision: Some(i64::try_from(sets.len() - i).unwrap_or(0)),
                replicas: *replicas,
                ready: *ready,
                new: *new,
            })
            .collect(),
        changes: Vec::new(),
        jobs: None,
        job: None,
    }
}

/// The workload view's stamp in these scripts (the target keeps generation 1).
pub const STAMP: Generation = Generation(2);

/// `msg` as the workload's watches send it.
pub fn from_workload(msg: Msg) -> Msg {
    Msg::ForWorkload(STAMP, Box::new(msg))
}

/// `msg` as the shown pod's tasks of `generation` send it.
pub fn from(generation: u64, msg: Msg) -> Msg {
    Msg::for_target(Generation(generation), msg)
}

/// `podscope deploy/web` started with `pods` (NO_COLOR, `--log-lines 500`), `summary` known:
/// the state after `begin` and the commands it returned.
pub fn started(summary: Option<WorkloadSummary>, pods: Vec<WorkloadPod>) -> (State, Vec<Cmd>) {
    let config = Config {
        log_lines: 500,
        ..Config::new(Theme::monochrome())
    };
    let mut s = State::with_config(config, "default", "", t0());
    let stamp = s.generations.allocate();
    assert_eq!(stamp, STAMP);
    let mut view = WorkloadView::new(
        stamp,
        "default",
        Some(WorkloadRef {
            kind: WorkloadKind::Deployment,
            name: "web".into(),
        }),
        "app=web",
        FollowMode::Auto,
    );
    view.summary = summary;
    let cmds = begin(&mut s, view, pods);
    (s, cmds)
}
