//! Pod-level rules: evictions (old and new kubelet messages, classic and ContainerStatusUnknown
//! shapes), preemption and other disruptions, a lost node, a pending deletion.

mod diagnosis_support;

use diagnosis_support::*;
use podscope::model::PodSummary;
use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::pod_level::parse_eviction;
use podscope::model::diagnosis::{Lookup, ObjectRef, Related, Severity};
use serde_json::{Value, json};

fn failed(status: Value) -> PodSummary {
    pod(json!({
        "metadata": {"name": "web-0", "namespace": "shop", "uid": "u1", "creationTimestamp": ago(7200),
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d9f8", "uid": "r1", "controller": true}]},
        "spec": {"nodeName": "node-7", "containers": [
            {"name": "app", "image": "a", "resources": {"requests": {"memory": "256Mi"}, "limits": {"memory": "1Gi"}}},
            {"name": "cache", "image": "c"}]},
        "status": status
    }))
}

#[test]
fn case_23_evicted_ephemeral_storage_classic_shape() {
    let (p, e, now) = case("23");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "evicted");
    assert_eq!(first.container.as_deref(), Some("bff-api"));
    has(
        first,
        &[
            "evicted from node node-n4",
            "ephemeral-storage",
            "34260Ki",
            "33.5Mi",
            "request 0",
            "status.message: \"The node was low on resource: ephemeral-storage.",
            "no container statuses are left",
            "ReplicaSet bff-api-955968dbb",
            "ephemeral-storage=",
            "volume",
            "dead",
        ],
    );
    assert!(
        f.iter()
            .all(|x| x.rule == "evicted" || x.severity != Severity::Error),
        "{f:#?}"
    );
}

#[test]
fn case_25_evicted_memory_behind_container_status_unknown() {
    let (p, e, now) = case("25");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "evicted");
    assert_eq!(first.container.as_deref(), Some("mysql"));
    has(
        first,
        &[
            "evicted from node node-p6",
            "low on memory",
            "1.8Gi (1843200Ki)",
            "request of 204Mi",
            "threshold 100Mi",
            "STATUS ContainerStatusUnknown",
            "times unknown",
            "DisruptionTarget=True (TerminationByKubelet)",
            "ExceededGracePeriod",
            "StatefulSet orders-db",
            "same name",
            "--requests=memory=1.8Gi",
        ],
    );
    let all = f.iter().map(text).collect::<String>();
    assert!(!all.contains("0001"), "{all}");
    assert_eq!(
        f.iter().filter(|x| x.severity == Severity::Error).count(),
        1,
        "{f:#?}"
    );
}

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
    has(
        find(&f, "stuck-terminating"),
        &["has not confirmed the stop"],
    );
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

#[test]
fn old_message_with_several_containers_picks_the_largest_excess() {
    let e = parse_eviction(
        "The node was low on resource: memory. Container app was using 900Mi, which exceeds its request of 256Mi. Container cache was using 2Gi, which exceeds its request of 0. ",
    );
    assert_eq!(e.resource.as_deref(), Some("memory"));
    assert_eq!(e.usages.len(), 2);
    assert_eq!(e.culprit().map(|u| u.container.as_str()), Some("cache"));
    let p = failed(json!({"phase": "Failed", "reason": "Evicted",
        "message": "The node was low on resource: memory. Container app was using 900Mi, which exceeds its request of 256Mi. Container cache was using 2Gi, which exceeds its request of 0. "}));
    let f = run(&p, &[], now());
    let f = find(&f, "evicted");
    assert_eq!(f.container.as_deref(), Some("cache"));
    has(
        f,
        &[
            "container cache was using 2Gi with no memory request",
            "container app: using 900Mi of memory, request 256Mi, limit 1Gi",
            "deployment/web",
        ],
    );
}

#[test]
fn eviction_from_event_or_condition_alone_and_other_messages() {
    let msg = "The node had condition: [DiskPressure]. ";
    let p = failed(json!({"phase": "Running"}));
    let e = vec![event("Evicted", msg, "", 1, 30)];
    has(
        find(&run(&p, &e, now()), "evicted"),
        &["the node had condition DiskPressure", "node-7"],
    );
    // An Evicted event older than this pod belongs to a previous pod of that name.
    let old = vec![event("Evicted", msg, "", 1, 8000)];
    assert!(run(&p, &old, now()).iter().all(|f| f.rule != "evicted"));

    let p = failed(
        json!({"phase": "Failed", "conditions": [{"type": "DisruptionTarget", "status": "True",
        "reason": "TerminationByKubelet", "lastTransitionTime": ago(60),
        "message": "Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. "}]}),
    );
    has(
        find(&run(&p, &[], now()), "evicted"),
        &["exceeds the total limit of containers 1Gi"],
    );

    for (m, words) in [
        (
            "Container app exceeded its local ephemeral storage limit \"500Mi\". ",
            "exceeded its local ephemeral storage limit",
        ),
        (
            "Usage of EmptyDir volume \"cache\" exceeds the limit \"1Gi\". ",
            "EmptyDir volume",
        ),
        ("The kubelet felt like it", "\"The kubelet felt like it\""),
    ] {
        let p = failed(json!({"phase": "Failed", "reason": "Evicted", "message": m}));
        has(find(&run(&p, &[], now()), "evicted"), &[words]);
    }
    let p = failed(json!({"phase": "Failed", "reason": "Evicted"}));
    has(find(&run(&p, &[], now()), "evicted"), &["no message"]);
}

#[test]
fn eviction_message_hostile_and_huge() {
    let m = format!(
        "The node was low on resource: memory.\u{1b}[2J {}",
        "z".repeat(100_000)
    );
    let p = failed(json!({"phase": "Failed", "reason": "Evicted", "message": m}));
    let f = run(&p, &[], now());
    let f = find(&f, "evicted");
    assert!(text(f).contains('␛') && !text(f).contains('\u{1b}'));
    assert!(f.evidence.iter().all(|l| l.len() < 5000));
}

#[test]
fn preemption_and_other_disruptions() {
    let p = failed(
        json!({"phase": "Failed", "conditions": [{"type": "DisruptionTarget", "status": "True",
        "reason": "PreemptionByScheduler", "message": "default-scheduler: preempting to accommodate a higher priority pod", "lastTransitionTime": ago(30)}]}),
    );
    has(
        find(&run(&p, &[], now()), "preempted"),
        &["higher-priority pod", "priority 0", "PreemptionByScheduler"],
    );
    let p = failed(json!({"phase": "Running"}));
    let e = vec![event(
        "Preempted",
        "Preempted by pod 1234 on node node-7",
        "",
        1,
        10,
    )];
    has(
        find(&run(&p, &e, now()), "preempted"),
        &["Preempted by pod 1234 on node node-7"],
    );
    let p = failed(
        json!({"phase": "Failed", "reason": "Preempting", "message": "Preempted in order to admit critical pod"}),
    );
    has(
        find(&run(&p, &[], now()), "preempted"),
        &["kubelet", "critical pod"],
    );

    for (reason, rule) in [
        ("EvictionByEvictionAPI", "evicted-by-api"),
        ("DeletionByTaintManager", "taint-eviction"),
        ("DeletionByPodGC", "pod-gc"),
        ("SomethingNew", "disruption"),
    ] {
        let p = failed(
            json!({"phase": "Running", "conditions": [{"type": "DisruptionTarget", "status": "True",
            "reason": reason, "message": "m"}]}),
        );
        find(&run(&p, &[], now()), rule);
    }
    let p = failed(
        json!({"phase": "Failed", "reason": "Terminated", "message": "Pod was terminated in response to imminent node shutdown."}),
    );
    find(&run(&p, &[], now()), "node-shutdown");
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
fn minimal_pods_do_not_panic() {
    for v in [
        json!({}),
        json!({"metadata": {"name": "x"}, "status": {"phase": "Failed", "reason": "Evicted"}}),
        json!({"metadata": {"name": "x", "deletionTimestamp": ago(10)}}),
        json!({"status": {"phase": "Unknown", "reason": "NodeLost"}}),
        json!({"status": {"conditions": [{"type": "DisruptionTarget", "status": "True"}]}}),
    ] {
        let p = pod(v);
        let _ = run(&p, &[], now());
    }
}
