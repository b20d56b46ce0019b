//! Vectors 1–31 of `docs/protocols.md` §6.2, restated from kubernetes `printers_test.go`
//! (`TestPrintPod*`): phases, waiting and terminated reasons, init containers, native sidecars,
//! restarts with the last one's age, deletion and the `Completed` row condition.

use serde_json::{Value, json};

use super::{
    DAY, Vector, cond, containers, cs, deleted, init1, main_waiting, one, phase_pod, pod, running,
    sidecar, started, terminated, v, waiting, with_cond,
};

/// Vectors 1–31 in order (32, the wide cells, is a test of its own).
pub fn vectors() -> Vec<Vector> {
    let two = || json!({"containers": containers(&["c1", "c2"])});
    let init2 =
        || json!({"initContainers": containers(&["i1", "i2"]), "containers": containers(&["c1"])});
    let sc2 = || json!({"initContainers": [sidecar("sc1"), sidecar("sc2")], "containers": containers(&["c1"])});
    vec![
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
    ]
}
