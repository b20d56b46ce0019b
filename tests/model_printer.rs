//! Table test of the pod printer against every vector of `notes/protocols.md` §6.2
//! (1–32 restated from kubernetes `printers_test.go`, D1–D10 derived from §6.1).

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Pod;
use podscope::model::printer::{age, pod_row, print_pod, row_conditions};
use serde_json::{Value, json};

fn now() -> Timestamp {
    "2025-01-01T12:00:00Z".parse().expect("valid timestamp")
}

/// RFC 3339 text of `now − secs`.
fn ago(secs: i64) -> String {
    (now() - SignedDuration::from_secs(secs)).to_string()
}

const DAY: i64 = 86_400;

/// A container status: `name`, `ready`, `restartCount`, `state` (Null = none) and
/// `lastState.terminated.finishedAt` `last` seconds ago.
fn cs(name: &str, ready: bool, restarts: i32, state: Value, last: Option<i64>) -> Value {
    let mut v = json!({"name": name, "ready": ready, "restartCount": restarts, "image": "img", "imageID": ""});
    if !state.is_null() {
        v["state"] = state;
    }
    if let Some(secs) = last {
        v["lastState"] =
            json!({"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": ago(secs)}});
    }
    v
}

fn started(mut v: Value, s: bool) -> Value {
    v["started"] = json!(s);
    v
}

fn running() -> Value {
    json!({"running": {"startedAt": ago(5)}})
}

fn waiting(reason: &str) -> Value {
    if reason.is_empty() {
        json!({"waiting": {}})
    } else {
        json!({"waiting": {"reason": reason}})
    }
}

fn terminated(reason: &str, exit_code: i32, signal: i32) -> Value {
    let mut t = json!({"exitCode": exit_code});
    if !reason.is_empty() {
        t["reason"] = json!(reason);
    }
    if signal != 0 {
        t["signal"] = json!(signal);
    }
    json!({"terminated": t})
}

fn containers(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| json!({"name": n, "image": "img"}))
            .collect(),
    )
}

fn sidecar(name: &str) -> Value {
    json!({"name": name, "image": "img", "restartPolicy": "Always"})
}

fn cond(type_: &str, status: &str) -> Value {
    json!({"type": type_, "status": status})
}

/// A pod named `test` created 1 h before `now`.
fn pod(spec: Value, status: Value) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "test", "namespace": "default", "creationTimestamp": ago(3600)},
        "spec": spec, "status": status,
    })
}

fn deleted(mut v: Value) -> Value {
    v["metadata"]["deletionTimestamp"] = json!(ago(10));
    v
}

struct Vector {
    id: &'static str,
    pod: Value,
    ready: &'static str,
    status: &'static str,
    restarts: &'static str,
    /// `Some(reason)` when the row carries the `Completed` row condition with that reason.
    row_condition: Option<&'static str>,
}

fn v(
    id: &'static str,
    pod: Value,
    ready: &'static str,
    status: &'static str,
    restarts: &'static str,
) -> Vector {
    Vector {
        id,
        pod,
        ready,
        status,
        restarts,
        row_condition: None,
    }
}

fn with_cond(mut vec: Vector, reason: &'static str) -> Vector {
    vec.row_condition = Some(reason);
    vec
}

/// Statuses shared by vectors 1, 27–32: `[ready running r3], [r3 no state]`.
fn two_statuses() -> Value {
    json!([
        cs("c1", true, 3, running(), None),
        cs("c2", false, 3, Value::Null, None)
    ])
}

fn phase_pod(phase: &str) -> Value {
    pod(
        json!({"containers": containers(&["c1", "c2"])}),
        json!({"phase": phase, "containerStatuses": two_statuses()}),
    )
}

fn vectors() -> Vec<Vector> {
    let two = || json!({"containers": containers(&["c1", "c2"])});
    let one = || json!({"containers": containers(&["c1"])});
    let init1 =
        || json!({"initContainers": containers(&["i1"]), "containers": containers(&["c1"])});
    let init2 =
        || json!({"initContainers": containers(&["i1", "i2"]), "containers": containers(&["c1"])});
    let sc2 = || json!({"initContainers": [sidecar("sc1"), sidecar("sc2")], "containers": containers(&["c1"])});
    let main_waiting = || json!([cs("c1", false, 0, waiting(""), None)]);
    let mut out = vec![
        v("1", phase_pod("podPhase"), "1/2", "podPhase", "6"),
        v(
            "2",
            pod(
                two(),
                json!({"phase": "podPhase", "containerStatuses": [
            cs("c1", true, 3, running(), None), cs("c2", false, 3, waiting("ContainerWaitingReason"), None)]}),
            ),
            "1/2",
            "ContainerWaitingReason",
            "6",
        ),
        v(
            "3",
            pod(
                two(),
                json!({"phase": "podPhase", "containerStatuses": [
            cs("c1", false, 3, waiting("ContainerWaitingReason"), None),
            cs("c2", false, 3, terminated("ContainerTerminatedReason", 2, 0), None)]}),
            ),
            "0/2",
            "ContainerWaitingReason",
            "6",
        ),
        v(
            "4",
            pod(
                two(),
                json!({"phase": "podPhase", "containerStatuses": [
            cs("c1", true, 3, running(), None), cs("c2", true, 3, Value::Null, None)]}),
            ),
            "1/2",
            "podPhase",
            "6",
        ),
        v(
            "5",
            pod(
                two(),
                json!({"phase": "podPhase", "reason": "podReason", "containerStatuses": [
            cs("c1", true, 3, running(), None), cs("c2", true, 3, Value::Null, None)]}),
            ),
            "1/2",
            "podReason",
            "6",
        ),
        v(
            "6",
            pod(
                two(),
                json!({"phase": "Running", "containerStatuses": [
            cs("c1", true, 3, terminated("Completed", 0, 0), None), cs("c2", true, 3, running(), None)]}),
            ),
            "1/2",
            "NotReady",
            "6",
        ),
        v(
            "7",
            pod(
                two(),
                json!({"phase": "Running", "conditions": [cond("Ready", "True")], "containerStatuses": [
            cs("c1", true, 3, terminated("Completed", 0, 0), None), cs("c2", true, 3, running(), None)]}),
            ),
            "1/2",
            "Running",
            "6",
        ),
        v(
            "8",
            pod(
                init1(),
                json!({"phase": "podPhase",
            "initContainerStatuses": [cs("i1", false, 3, running(), Some(10))],
            "containerStatuses": main_waiting()}),
            ),
            "0/1",
            "Init:0/1",
            "3 (10s ago)",
        ),
        v(
            "9",
            pod(
                init2(),
                json!({"phase": "podPhase",
            "initContainerStatuses": [cs("i1", false, 3, running(), Some(10)), cs("i2", false, 0, waiting(""), None)],
            "containerStatuses": main_waiting()}),
            ),
            "0/1",
            "Init:0/2",
            "3 (10s ago)",
        ),
        v(
            "10",
            pod(
                init2(),
                json!({"phase": "podPhase",
            "initContainerStatuses": [cs("i1", false, 0, terminated("", 0, 0), None), cs("i2", false, 3, running(), Some(10))],
            "containerStatuses": main_waiting()}),
            ),
            "0/1",
            "Init:1/2",
            "3 (10s ago)",
        ),
        v(
            "11",
            pod(
                init2(),
                json!({"phase": "podPhase",
            "initContainerStatuses": [cs("i1", false, 2, terminated("", 0, 0), Some(120)), cs("i2", false, 3, running(), Some(10))],
            "containerStatuses": main_waiting()}),
            ),
            "0/1",
            "Init:1/2",
            "5 (10s ago)",
        ),
        v(
            "12",
            pod(
                init1(),
                json!({"phase": "Running",
            "initContainerStatuses": [cs("i1", false, 2, terminated("", 0, 0), Some(120))],
            "containerStatuses": [cs("c1", false, 4, running(), Some(20))]}),
            ),
            "0/1",
            "Running",
            "4 (20s ago)",
        ),
        v(
            "13",
            pod(
                one(),
                json!({"phase": "Running", "containerStatuses": [cs("c1", true, 3, running(), Some(5 * DAY))]}),
            ),
            "1/1",
            "Running",
            "3 (5d ago)",
        ),
        v(
            "14",
            pod(
                two(),
                json!({"phase": "Running", "containerStatuses": [
            cs("c1", true, 0, running(), None), cs("c2", true, 3, running(), Some(10 * DAY))]}),
            ),
            "2/2",
            "Running",
            "3 (10d ago)",
        ),
        v(
            "15",
            pod(
                two(),
                json!({"phase": "Running", "containerStatuses": [
            cs("c1", true, 6, running(), Some(5 * DAY)), cs("c2", true, 3, running(), Some(20 * DAY))]}),
            ),
            "2/2",
            "Running",
            "9 (5d ago)",
        ),
        v(
            "16",
            pod(
                two(),
                json!({"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]}),
            ),
            "0/2",
            "SchedulingGated",
            "0",
        ),
        with_cond(
            v(
                "17",
                pod(
                    one(),
                    json!({"phase": "Succeeded", "containerStatuses": [
            cs("c1", false, 0, terminated("Completed", 0, 0), None)]}),
                ),
                "0/1",
                "Completed",
                "0",
            ),
            "Succeeded",
        ),
        with_cond(
            v(
                "18",
                pod(
                    one(),
                    json!({"phase": "Failed", "containerStatuses": [
            cs("c1", false, 0, terminated("Error", 1, 0), None)]}),
                ),
                "0/1",
                "Error",
                "0",
            ),
            "Failed",
        ),
        with_cond(
            v(
                "19",
                deleted(pod(
                    one(),
                    json!({"phase": "Succeeded", "containerStatuses": [
            cs("c1", false, 0, terminated("Completed", 0, 0), None)]}),
                )),
                "0/1",
                "Completed",
                "0",
            ),
            "Succeeded",
        ),
        v(
            "20",
            deleted(pod(
                one(),
                json!({"phase": "Running", "containerStatuses": [
            cs("c1", false, 0, running(), None)]}),
            )),
            "0/1",
            "Terminating",
            "0",
        ),
        v(
            "21",
            deleted(pod(one(), json!({"phase": "Pending"}))),
            "0/1",
            "Terminating",
            "0",
        ),
        v(
            "22",
            pod(
                sc2(),
                json!({"phase": "Pending", "conditions": [cond("Initialized", "False")],
            "initContainerStatuses": [
                started(cs("sc1", false, 3, running(), Some(10)), false),
                started(cs("sc2", false, 0, waiting(""), None), false)],
            "containerStatuses": main_waiting()}),
            ),
            "0/3",
            "Init:0/2",
            "3 (10s ago)",
        ),
        v(
            "23",
            pod(
                sc2(),
                json!({"phase": "Pending", "conditions": [cond("Initialized", "False")],
            "initContainerStatuses": [
                started(cs("sc1", false, 3, running(), Some(10)), true),
                started(cs("sc2", false, 0, running(), None), false)],
            "containerStatuses": main_waiting()}),
            ),
            "0/3",
            "Init:1/2",
            "3 (10s ago)",
        ),
        v(
            "24",
            pod(
                sc2(),
                json!({"phase": "Running", "conditions": [cond("Initialized", "True")],
            "initContainerStatuses": [
                started(cs("sc1", false, 3, running(), Some(10)), true),
                started(cs("sc2", false, 0, running(), None), true)],
            "containerStatuses": [cs("c1", true, 4, running(), Some(20))]}),
            ),
            "1/3",
            "Running",
            "7 (10s ago)",
        ),
        with_cond(
            v(
                "25",
                pod(
                    sc2(),
                    json!({"phase": "Succeeded", "conditions": [cond("Initialized", "True")],
            "initContainerStatuses": [
                started(cs("sc1", false, 3, terminated("Error", 137, 0), Some(10)), false),
                started(cs("sc2", false, 0, terminated("Error", 137, 0), None), false)],
            "containerStatuses": [cs("c1", false, 4, terminated("Completed", 0, 0), Some(20))]}),
                ),
                "0/3",
                "Completed",
                "7 (10s ago)",
            ),
            "Succeeded",
        ),
        v(
            "26",
            pod(
                json!({"initContainers": [{"name": "init1", "image": "img"}, sidecar("sidecar1")],
                           "containers": containers(&["container1"])}),
                json!({"phase": "Running",
                "initContainerStatuses": [cs("initinvalid", false, 0, Value::Null, None),
                    cs("init1", false, 0, Value::Null, None), cs("sidecar1", false, 0, Value::Null, None)],
                "containerStatuses": [cs("containerinvalid", false, 0, Value::Null, None),
                    cs("container1", false, 0, Value::Null, None)]}),
            ),
            "0/2",
            "Init:0/2",
            "0",
        ),
        v("27", phase_pod("Running"), "1/2", "Running", "6"),
        v("28", phase_pod("Pending"), "1/2", "Pending", "6"),
        v("29", phase_pod("Unknown"), "1/2", "Unknown", "6"),
        with_cond(
            v("30", phase_pod("Succeeded"), "1/2", "Succeeded", "6"),
            "Succeeded",
        ),
        with_cond(v("31", phase_pod("Failed"), "1/2", "Failed", "6"), "Failed"),
    ];
    // Derived vectors D1–D10.
    let init_state = |state: Value, restarts: i32, last: Option<i64>| {
        pod(
            init1(),
            json!({"phase": "Pending",
            "initContainerStatuses": [cs("i1", false, restarts, state, last)],
            "containerStatuses": main_waiting()}),
        )
    };
    let main_state = |state: Value, restarts: i32, last: Option<i64>| {
        pod(
            one(),
            json!({"phase": "Running", "containerStatuses": [cs("c1", false, restarts, state, last)]}),
        )
    };
    out.extend([
        v(
            "D1",
            init_state(terminated("", 137, 9), 0, None),
            "0/1",
            "Init:Signal:9",
            "0",
        ),
        v(
            "D2",
            init_state(terminated("", 1, 0), 0, None),
            "0/1",
            "Init:ExitCode:1",
            "0",
        ),
        v(
            "D3",
            init_state(terminated("Error", 1, 0), 0, None),
            "0/1",
            "Init:Error",
            "0",
        ),
        v(
            "D4",
            init_state(waiting("CrashLoopBackOff"), 5, Some(40)),
            "0/1",
            "Init:CrashLoopBackOff",
            "5 (40s ago)",
        ),
        v(
            "D5",
            init_state(waiting("PodInitializing"), 0, None),
            "0/1",
            "Init:0/1",
            "0",
        ),
        v(
            "D6",
            pod(
                init1(),
                json!({"phase": "Pending",
            "initContainerStatuses": [cs("i1", false, 0, terminated("Completed", 0, 0), None)],
            "containerStatuses": [cs("c1", false, 0, waiting("PodInitializing"), None)]}),
            ),
            "0/1",
            "PodInitializing",
            "0",
        ),
        v(
            "D7a",
            main_state(terminated("", 137, 9), 0, None),
            "0/1",
            "Signal:9",
            "0",
        ),
        v(
            "D7b",
            main_state(terminated("", 137, 0), 0, None),
            "0/1",
            "ExitCode:137",
            "0",
        ),
        v(
            "D8",
            main_state(waiting("CrashLoopBackOff"), 5, Some(40)),
            "0/1",
            "CrashLoopBackOff",
            "5 (40s ago)",
        ),
        v(
            "D9",
            deleted(pod(
                one(),
                json!({"phase": "Running", "reason": "NodeLost",
            "containerStatuses": [cs("c1", true, 0, running(), None)]}),
            )),
            "1/1",
            "Unknown",
            "0",
        ),
        v(
            "D10",
            main_state(waiting("ImagePullBackOff"), 0, None),
            "0/1",
            "ImagePullBackOff",
            "0",
        ),
    ]);
    out
}

fn to_pod(v: &Value) -> Pod {
    serde_json::from_value(v.clone()).expect("test pod deserialises")
}

#[test]
fn every_protocols_vector() {
    let all = vectors();
    assert_eq!(
        all.len(),
        31 + 11,
        "vectors 1–31 here, 32 below, D1–D10 with D7 split in two"
    );
    let mut failures = Vec::new();
    for vec in &all {
        let p = to_pod(&vec.pod);
        let row = pod_row(&p, now());
        let got = (
            row.ready.as_str(),
            row.status.as_str(),
            row.restarts.as_str(),
        );
        if got != (vec.ready, vec.status, vec.restarts) {
            failures.push(format!(
                "vector {}: got {got:?}, want {:?}",
                vec.id,
                (vec.ready, vec.status, vec.restarts)
            ));
        }
        let conds = row_conditions(&p);
        match vec.row_condition {
            None => {
                if !conds.is_empty() {
                    failures.push(format!(
                        "vector {}: unexpected row conditions {conds:?}",
                        vec.id
                    ));
                }
            }
            Some(reason) => {
                let msg = if reason == "Succeeded" {
                    "The pod has completed successfully."
                } else {
                    "The pod failed."
                };
                let ok = conds.len() == 1
                    && conds[0].type_ == "Completed"
                    && conds[0].status == "True"
                    && conds[0].reason == reason
                    && conds[0].message == msg;
                if !ok {
                    failures.push(format!(
                        "vector {}: row conditions {conds:?}, want Completed/{reason}",
                        vec.id
                    ));
                }
            }
        }
        assert_eq!(row.name, "test");
        assert_eq!(
            row.age, "60m",
            "vector {}: created 1h ago prints 60m",
            vec.id
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn vector_32_wide_cells() {
    let mut v = phase_pod("podPhase");
    v["spec"]["nodeName"] = json!("test1");
    v["spec"]["readinessGates"] = json!([
        {"conditionType": "condition1"}, {"conditionType": "condition2"}, {"conditionType": "condition3"}]);
    v["status"]["podIPs"] = json!([{"ip": "1.1.1.1"}, {"ip": "2001:db8::"}]);
    v["status"]["nominatedNodeName"] = json!("node1");
    v["status"]["conditions"] = json!([cond("condition1", "True"), cond("condition2", "False")]);
    let row = pod_row(&to_pod(&v), now());
    assert_eq!(
        (
            row.ready.as_str(),
            row.status.as_str(),
            row.restarts.as_str()
        ),
        ("1/2", "podPhase", "6")
    );
    assert_eq!(row.ip, "1.1.1.1");
    assert_eq!(row.node, "test1");
    assert_eq!(row.nominated_node, "node1");
    assert_eq!(row.readiness_gates, "1/3");
}

#[test]
fn wide_cells_default_to_none() {
    let row = pod_row(&to_pod(&phase_pod("Running")), now());
    assert_eq!(
        (
            row.ip.as_str(),
            row.node.as_str(),
            row.nominated_node.as_str(),
            row.readiness_gates.as_str()
        ),
        ("<none>", "<none>", "<none>", "<none>")
    );
}

#[test]
fn age_unknown_without_creation_timestamp() {
    assert_eq!(age(None, now()), "<unknown>");
    assert_eq!(
        age(Some(now() - SignedDuration::from_secs(16)), now()),
        "16s"
    );
    let mut v = phase_pod("Running");
    v["metadata"]
        .as_object_mut()
        .expect("object")
        .remove("creationTimestamp");
    assert_eq!(pod_row(&to_pod(&v), now()).age, "<unknown>");
}

#[test]
fn last_restart_is_newest_finished_at() {
    // Vector 15: the newer of the two finishedAt values (5 d, not 20 d) is kept.
    let p = to_pod(&pod(
        json!({"containers": containers(&["c1", "c2"])}),
        json!({"phase": "Running", "containerStatuses": [
        cs("c1", true, 6, running(), Some(5 * DAY)), cs("c2", true, 3, running(), Some(20 * DAY))]}),
    ));
    let print = print_pod(&p);
    assert_eq!(
        print.last_restart,
        Some(now() - SignedDuration::from_secs(5 * DAY))
    );
    assert_eq!(print.restarts, 9);
    assert_eq!(print.ready_text(), "2/2");
}
