//! Scheduling rules: the scheduler's FitError in every wording (histogram, PreFilter, old
//! predicates, empty cluster), preemption, PVC problems, gates, a pod no scheduler reports on.

use crate::diagnosis_support;
use diagnosis_support::*;
use podscope_model::PodSummary;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::scheduling::{Why, parse, why};
use podscope_model::diagnosis::{Lookup, ObjectRef, Related, Severity};
use serde_json::{Value, json};

fn pending(spec: Value, cond_msg: Option<&str>) -> PodSummary {
    let mut status = json!({"phase": "Pending"});
    if let Some(m) = cond_msg {
        status["conditions"] = json!([{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
            "message": m, "lastTransitionTime": ago(600)}]);
    }
    pod(json!({
        "metadata": {"name": "web", "namespace": "shop", "creationTimestamp": ago(900)},
        "spec": spec,
        "status": status
    }))
}

fn spec() -> Value {
    json!({"containers": [{"name": "app", "image": "a", "resources": {"requests": {"cpu": "500m", "memory": "2Gi"}}}]})
}

fn sched(spec: Value, msg: &str) -> podscope_model::diagnosis::Finding {
    let p = pending(spec, None);
    let e = vec![event("FailedScheduling", msg, "", 7, 20)];
    let f = run(&p, &e, now());
    f.into_iter()
        .find(|f| matches!(f.rule, "unschedulable" | "unbound-pvc" | "missing-pvc"))
        .expect("a scheduling finding")
}

#[test]
fn case_34_breakdown_request_and_affinity() {
    let (p, e, now) = case("34");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "unschedulable");
    assert_eq!(first.container, None);
    assert_eq!(
        first.headline,
        "not scheduled: of 12 nodes, 9 excluded by node affinity/selector and 3 lack memory for the request 12Gi; preemption cannot help"
    );
    has(
        first,
        &[
            "event FailedScheduling (×150, last at 02:09:48, first at 02:00:00)",
            "9 of 12 nodes: node(s) didn't match Pod's node affinity/selector",
            "3 of 12 nodes: Insufficient memory",
            "cpu 4, memory 12Gi",
            "required node affinity: kubernetes.io/hostname In (node-v1, node-v2, node-v3)",
            "pending 9m51s",
            "kubectl describe node node-v1 node-v2 node-v3",
            "widen the node affinity/selector",
        ],
    );
}

#[test]
fn taints_old_and_new_wording() {
    let f = sched(
        spec(),
        "0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 Insufficient cpu.",
    );
    assert_eq!(
        f.headline,
        "not scheduled: of 3 nodes, 2 lack cpu for the request 500m and 1 has a taint it does not tolerate {node-role.kubernetes.io/master: }"
    );
    has(
        &f,
        &[
            "tolerations: none",
            "1 of 3 nodes: node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate",
        ],
    );
    let f = sched(
        spec(),
        "0/5 nodes are available: 5 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.",
    );
    assert!(
        f.headline.contains(
            "5 have a taint it does not tolerate {dedicated: gpu}; preemption cannot help"
        ),
        "{}",
        f.headline
    );
    assert!(
        f.action
            .as_deref()
            .is_some_and(|h| h.contains("toleration for {dedicated: gpu}"))
    );
}

#[test]
fn all_reasons_read() {
    let msg = "0/20 nodes are available: 1 Insufficient nvidia.com/gpu, 1 Insufficient ephemeral-storage, 1 Too many pods, 1 node(s) were unschedulable, 2 node(s) didn't match pod anti-affinity rules, 2 node(s) didn't satisfy existing pods anti-affinity rules, 2 node(s) didn't match pod affinity rules, 2 node(s) had volume node affinity conflict, 2 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't match pod topology spread constraints, 2 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) didn't match Pod's node affinity/selector.";
    let spec = json!({"containers": [{"name": "app", "image": "a",
        "ports": [{"containerPort": 80, "hostPort": 8080}],
        "resources": {"requests": {"nvidia.com/gpu": "1", "ephemeral-storage": "10Gi"}}}],
        "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}},
        "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]});
    let f = sched(spec, msg);
    has(
        &f,
        &[
            "1 lacks nvidia.com/gpu for the request 1",
            "1 lacks ephemeral-storage for the request 10Gi",
            "1 is at its pod limit",
            "1 is cordoned",
            "2 are excluded by its pod anti-affinity",
            "2 run pods whose anti-affinity excludes it",
            "2 do not satisfy its pod affinity",
            "2 cannot use its volumes",
            "2 have its host port in use",
            "2 would break its topology spread constraints",
            "2 are not ready or under pressure",
            "2 excluded by node affinity/selector",
            "podAntiAffinity (required): app=web per kubernetes.io/hostname",
            "topologySpreadConstraint: maxSkew 1 per zone",
            "hostPort 8080/TCP (container app)",
        ],
    );
    assert_eq!(why("node(s) were unschedulable"), Why::Cordoned);
    assert_eq!(
        why("node(s) didn't match node selector"),
        Why::NodeSelection
    );
    assert_eq!(why("MatchNodeSelector"), Why::NodeSelection);
}

#[test]
fn pvc_prefilter_messages() {
    let spec = json!({"containers": [{"name": "app", "image": "a"}],
        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data-web-0"}}]});
    for msg in [
        "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        "0/1 nodes are available: 1 pod has unbound immediate PersistentVolumeClaims.",
    ] {
        let f = sched(spec.clone(), msg);
        assert_eq!(f.rule, "unbound-pvc", "{msg}");
        has(
            &f,
            &[
                "data-web-0 is not bound",
                "kubectl describe pvc data-web-0 -n shop",
            ],
        );
        assert_eq!(
            f.checks,
            vec![ObjectRef::PersistentVolumeClaim("data-web-0".into())]
        );
    }
    let p = pending(spec.clone(), None);
    let e = vec![event(
        "FailedScheduling",
        "0/3 nodes are available: persistentvolumeclaim \"data-web-0\" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        "",
        2,
        5,
    )];
    let mut related = Related::new();
    related.insert(
        ObjectRef::PersistentVolumeClaim("data-web-0".into()),
        Lookup::Absent,
    );
    let f = run_with(&p, &e, now(), &related, &OwnerStatus::Unknown);
    let f = find(&f, "missing-pvc");
    has(
        f,
        &[
            "PersistentVolumeClaim data-web-0 does not exist in namespace shop",
            "PersistentVolumeClaim data-web-0: absent (GET returned 404)",
        ],
    );
}

#[test]
fn old_predicates_empty_cluster_and_unparsable() {
    let f = sched(
        spec(),
        "No nodes are available that match all of the following predicates:: Insufficient cpu (3), MatchNodeSelector (2).",
    );
    assert_eq!(
        f.headline,
        "not scheduled: of the nodes, 3 lack cpu for the request 500m and 2 excluded by node affinity/selector"
    );
    let f = sched(spec(), "no nodes available to schedule pods");
    assert!(f.headline.contains("no nodes"), "{}", f.headline);
    assert!(
        f.action
            .as_deref()
            .is_some_and(|h| h.contains("kubectl get nodes"))
    );
    let f = sched(spec(), "extender \"gpu-ext\" said: nope");
    assert_eq!(
        f.headline,
        "not scheduled: the scheduler says \"extender \"gpu-ext\" said: nope\""
    );
    let long = format!("weird {}", "w".repeat(100_000));
    let f = sched(spec(), &long);
    assert!(f.headline.len() < 400);
    assert!(f.evidence.iter().all(|l| l.len() < 5000));
    let f = sched(
        spec(),
        "0/2 nodes are available: 2 Insufficient memory \u{1b}[2J.",
    );
    assert!(text(&f).contains('␛'));
}

#[test]
fn parse_unit() {
    let fe = parse("0/12 nodes are available: 3 Insufficient memory, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling.").expect("parsed");
    assert_eq!(fe.total, Some(12));
    assert_eq!(
        fe.reasons,
        vec![
            (
                9,
                "node(s) didn't match Pod's node affinity/selector".into()
            ),
            (3, "Insufficient memory".into())
        ]
    );
    assert_eq!(fe.preemption_reasons.len(), 2);
    assert_eq!(parse("hello"), None);
    assert_eq!(parse(""), None);
    let fe = parse(
        "0/1 nodes are available: 1 node(s) had taint {a: b, 2 c}, that the pod didn't tolerate.",
    )
    .expect("parsed");
    assert_eq!(fe.reasons.len(), 1);
}

#[test]
fn preemption_variants_and_nominated_node() {
    let f = sched(
        spec(),
        "0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.",
    );
    assert!(
        f.headline
            .ends_with("preemption is off for it (preemptionPolicy Never)"),
        "{}",
        f.headline
    );
    let p = pod(json!({
        "metadata": {"name": "web", "namespace": "shop", "creationTimestamp": ago(900)},
        "spec": spec(),
        "status": {"phase": "Pending", "nominatedNodeName": "node-2"}
    }));
    let e = vec![event(
        "FailedScheduling",
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
        "",
        2,
        5,
    )];
    let f = run(&p, &e, now());
    let f = find(&f, "unschedulable");
    assert_eq!(f.severity, Severity::Warning);
    has(f, &["nominated node node-2", "waiting for preempted pods"]);
}

#[test]
fn effective_request_counts_init_containers_sidecars_and_overhead() {
    let spec = json!({
        "initContainers": [
            {"name": "proxy", "image": "p", "restartPolicy": "Always", "resources": {"requests": {"memory": "1Gi"}}},
            {"name": "migrate", "image": "m", "resources": {"requests": {"memory": "6Gi", "cpu": "2"}}}
        ],
        "containers": [
            {"name": "a", "image": "a", "resources": {"requests": {"memory": "1Gi", "cpu": "250m"}}},
            {"name": "b", "image": "b", "resources": {"limits": {"memory": "2Gi", "cpu": "1"}}}
        ],
        "overhead": {"memory": "512Mi"}
    });
    let f = sched(spec, "0/1 nodes are available: 1 Insufficient memory.");
    // init: proxy 1Gi + migrate 6Gi = 7Gi > main 1+2 + sidecar 1 = 4Gi; + 512Mi overhead.
    has(
        &f,
        &[
            "cpu 2, memory 7.5Gi",
            "1 lacks memory for the request 7.5Gi",
        ],
    );
}

#[test]
fn condition_only_gates_and_silence() {
    let p = pending(
        spec(),
        Some("0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector."),
    );
    let f = run(&p, &[], now());
    let f = find(&f, "unschedulable");
    has(
        f,
        &[
            "of 4 nodes, 4 excluded by node affinity/selector",
            "condition PodScheduled=False (Unschedulable)",
            "--show-labels",
        ],
    );

    let p = pod(json!({
        "metadata": {"name": "web", "namespace": "shop", "creationTimestamp": ago(900)},
        "spec": {"containers": [{"name": "a", "image": "a"}], "schedulingGates": [{"name": "example.com/quota"}]},
        "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]}
    }));
    has(
        find(&run(&p, &[], now()), "scheduling-gated"),
        &["example.com/quota", "schedulingGates"],
    );

    let p = pod(json!({
        "metadata": {"name": "web", "namespace": "shop", "creationTimestamp": ago(900)},
        "spec": {"containers": [{"name": "a", "image": "a"}], "schedulerName": "my-scheduler"},
        "status": {"phase": "Pending"}
    }));
    has(
        find(&run(&p, &[], now()), "not-scheduled"),
        &["my-scheduler"],
    );

    // Scheduled since: an old FailedScheduling event means nothing.
    let p = pod_with(spec(), json!({"phase": "Running"}));
    let e = vec![event(
        "FailedScheduling",
        "0/3 nodes are available: 3 Insufficient cpu.",
        "",
        2,
        5,
    )];
    assert!(run(&p, &e, now()).iter().all(|f| f.rule != "unschedulable"));
}
