//! Pod-level rules about the node and the deletion: a lost node (NodeLost, Unknown, NodeNotReady,
//! taint-manager deletion), a pending deletion (grace period, finalizers, unconfirmed stop).

use crate::diagnosis_support;
use diagnosis_support::*;
use podscope_model::PodSummary;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::{Lookup, ObjectRef, Related, Severity};
use serde_json::{Value, json};

#[test]
fn case_27_node_lost_first_with_the_deletion_that_cannot_finish() {
    let (p, e, now) = case("27");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "node-lost");
    has(
        first,
        &[
            "node node-r8 stopped reporting",
            "real state is unknown",
            "last report",
            "08:17:12",
            "NodeNotReady",
            "container nginx: running, ready as last reported — stale",
            "StatefulSet store: it will not create a new store-0 until this object is gone",
            "kubectl describe node node-r8",
            "--grace-period=0 --force",
            "exec, logs and port-forward",
        ],
    );
    assert_eq!(first.checks, vec![ObjectRef::Node("node-r8".into())]);
    // The deletion that waits on the lost kubelet is told in the node's finding, not twice.
    has(
        first,
        &["deletionTimestamp", "which a lost node never does"],
    );
    assert!(!f.iter().any(|x| x.rule == "stuck-terminating"), "{f:?}");
}

#[test]
fn case_21_finalizer_with_owner_gone() {
    let (p, e, now) = case("21");
    let f = run_with(&p, &e, now, &Related::new(), &OwnerStatus::Gone);
    let first = &f[0];
    assert_eq!(first.rule, "stuck-terminating");
    assert_eq!(first.severity, Severity::Error);
    has(
        first,
        &[
            "Completed (phase Succeeded), deletion pending",
            "batch.kubernetes.io/job-tracking",
            "Job cron-sync-28194180 is gone",
            "metadata.deletionTimestamp: 2023-08-09 03:10:00 (2d3h ago)",
            "kubectl ≥1.29 shows Completed, older kubectl Terminating",
            "owner Job cron-sync-28194180: gone",
            "keeps events about 1 h",
            "--type=json",
            "/metadata/finalizers",
        ],
    );
    // Owner not checked yet: a warning that still says how to release it.
    let f = run(&p, &e, now);
    let d = find(&f, "stuck-terminating");
    assert_eq!(d.severity, Severity::Warning);
    has(d, &["not checked yet", "if it no longer exists"]);
}

fn on_lost_node(status: Value) -> PodSummary {
    pod(json!({
        "metadata": {"name": "web-0", "namespace": "shop", "creationTimestamp": ago(7200),
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d9f8", "uid": "r1", "controller": true}]},
        "spec": {"nodeName": "node-7", "containers": [{"name": "app", "image": "a"}]},
        "status": status
    }))
}

fn running_ready() -> Value {
    json!([{"name": "app", "image": "a", "imageID": "", "ready": true, "restartCount": 0, "state": {"running": {"startedAt": ago(7000)}}}])
}

#[test]
fn node_lost_signs_and_node_answers() {
    for status in [
        json!({"phase": "Unknown", "containerStatuses": running_ready()}),
        json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "Unknown", "lastTransitionTime": ago(300)}], "containerStatuses": running_ready()}),
    ] {
        let p = on_lost_node(status);
        let f = run(&p, &[], now());
        has(
            find(&f, "node-lost"),
            &["node node-7 stopped reporting", "ReplicaSet web-5d9f8"],
        );
    }
    let p = on_lost_node(json!({"phase": "Running",
        "conditions": [{"type": "Ready", "status": "False", "lastTransitionTime": ago(300)}],
        "containerStatuses": running_ready()}));
    let e = vec![event("NodeNotReady", "Node is not ready", "", 1, 300)];
    let mut related = Related::new();
    related.insert(ObjectRef::Node("node-7".into()), Lookup::Absent);
    let f = run_with(&p, &e, now(), &related, &OwnerStatus::Unknown);
    has(
        find(&f, "node-lost"),
        &[
            "Node node-7: absent (GET returned 404)",
            "garbage collector",
        ],
    );
    related.insert(
        ObjectRef::Node("node-7".into()),
        Lookup::Found {
            keys: vec![],
            phase: None,
            conditions: vec![],
        },
    );
    let f = run_with(&p, &e, now(), &related, &OwnerStatus::Unknown);
    assert_eq!(find(&f, "node-lost").severity, Severity::Warning);
    related.insert(
        ObjectRef::Node("node-7".into()),
        Lookup::Found {
            keys: vec![],
            phase: None,
            conditions: vec!["Ready=Unknown (NodeStatusUnknown)".into()],
        },
    );
    let f = run_with(&p, &e, now(), &related, &OwnerStatus::Unknown);
    has(
        find(&f, "node-lost"),
        &["Node node-7: exists, conditions: Ready=Unknown (NodeStatusUnknown)"],
    );

    // The node came back: Ready is True again, the old event no longer means anything.
    let p = on_lost_node(json!({"phase": "Running",
        "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": ago(100)}],
        "containerStatuses": running_ready()}));
    assert!(run(&p, &e, now()).iter().all(|f| f.rule != "node-lost"));
}

fn deleting(at_secs_from_now: i64, finalizers: Value, phase: &str) -> PodSummary {
    let at = (now() + jiff::SignedDuration::from_secs(at_secs_from_now)).to_string();
    pod(json!({
        "metadata": {"name": "web-0", "namespace": "shop", "creationTimestamp": ago(7200),
            "deletionTimestamp": at, "finalizers": finalizers,
            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "sync", "uid": "j1", "controller": true}]},
        "spec": {"nodeName": "node-7", "containers": [{"name": "app", "image": "a"}]},
        "status": {"phase": phase, "containerStatuses": running_ready()}
    }))
}

#[test]
fn deletion_grace_period_held_and_unconfirmed() {
    let f = run(&deleting(20, json!([]), "Running"), &[], now());
    let d = find(&f, "terminating");
    assert_eq!(d.severity, Severity::Info);
    has(d, &["grace period ends in 20s"]);

    let p = deleting(-600, json!(["example.com/cleanup"]), "Running");
    let f = run_with(&p, &[], now(), &Related::new(), &OwnerStatus::Exists);
    let d = find(&f, "stuck-terminating");
    assert_eq!(d.severity, Severity::Warning);
    has(d, &["example.com/cleanup", "owner Job sync: exists"]);

    let f = run(&deleting(-600, json!([]), "Running"), &[], now());
    let d = find(&f, "stuck-terminating");
    assert_eq!(d.severity, Severity::Error);
    has(
        d,
        &[
            "has not confirmed the stop",
            "metadata.finalizers: none",
            "kubectl describe node node-7",
        ],
    );
}

#[test]
fn taint_manager_deletion_of_a_pod_on_a_silent_node_is_node_lost() {
    let p = on_lost_node(json!({"phase": "Running",
        "conditions": [
            {"type": "Ready", "status": "False", "lastTransitionTime": ago(4000)},
            {"type": "DisruptionTarget", "status": "True", "reason": "DeletionByTaintManager",
             "message": "Taint manager: deleting due to NoExecute taint", "lastTransitionTime": ago(3700)}],
        "containerStatuses": running_ready()}));
    let f = run(&p, &[], now());
    has(
        find(&f, "node-lost"),
        &["node node-7 stopped reporting", "stale"],
    );
    // Not ready for its own reasons (containers say not ready): the taint manager rule speaks.
    let p = on_lost_node(json!({"phase": "Running",
        "conditions": [
            {"type": "Ready", "status": "False", "lastTransitionTime": ago(4000)},
            {"type": "DisruptionTarget", "status": "True", "reason": "DeletionByTaintManager", "message": "m"}],
        "containerStatuses": [{"name": "app", "image": "a", "imageID": "", "ready": false, "restartCount": 0, "state": {"running": {}}}]}));
    let f = run(&p, &[], now());
    has(
        find(&f, "taint-eviction"),
        &["taint manager", "node node-7"],
    );
}
