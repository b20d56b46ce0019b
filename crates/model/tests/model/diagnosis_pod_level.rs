//! Pod-level rules: evictions (old and new kubelet messages, classic and ContainerStatusUnknown
//! shapes), preemption and other disruptions, a lost node, a pending deletion.

use crate::diagnosis_support;
use diagnosis_support::*;
use podscope_model::PodSummary;
use podscope_model::diagnosis::Severity;
use podscope_model::diagnosis::pod_level::parse_eviction;
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

#[test]
fn admission_rejection_and_active_deadline() {
    let p = failed(json!({"phase": "Failed", "reason": "OutOfcpu",
        "message": "Pod was rejected: Node didn't have enough resource: cpu, requested: 4000, used: 1500, capacity: 2000"}));
    let f = run(&p, &[], now());
    let f = find(&f, "admission-rejected");
    has(
        f,
        &[
            "node node-7",
            "OutOfcpu",
            "requested: 4000",
            "ReplicaSet web-5d9f8",
        ],
    );
    let p = failed(json!({"phase": "Failed", "reason": "DeadlineExceeded",
        "message": "Pod was active on the node longer than the specified deadline"}));
    has(
        find(&run(&p, &[], now()), "deadline-exceeded"),
        &[
            "activeDeadlineSeconds",
            "longer than the specified deadline",
        ],
    );
}
