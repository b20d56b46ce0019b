//! Vectors D1–D10 of `docs/protocols.md` §6.2, derived from the STATUS rules of §6.1: a lone
//! init container's or main container's state (signal, exit code, reason, back-off) decides the
//! cell, a completed init hands over to `PodInitializing`, and a deleted pod on a lost node
//! prints `Unknown`.

use serde_json::{Value, json};

use super::{Vector, cs, deleted, init1, main_waiting, one, pod, running, terminated, v, waiting};

/// One container's state for a derived vector: `(id, state, restartCount, lastState
/// finishedAt seconds ago, STATUS, RESTARTS)`; READY is always `0/1`.
type StateRow = (
    &'static str,
    Value,
    i32,
    Option<i64>,
    &'static str,
    &'static str,
);

/// D1–D10 (D7 split in two: with and without a signal).
pub fn vectors() -> Vec<Vector> {
    // Init container i1 in `state`; the main container waits behind it.
    let init_state = |state: Value, restarts: i32, last: Option<i64>| {
        pod(
            init1(),
            json!({"phase": "Pending",
            "initContainerStatuses": [cs("i1", false, restarts, state, last)],
            "containerStatuses": main_waiting()}),
        )
    };
    // The main container c1 in `state`.
    let main_state = |state: Value, restarts: i32, last: Option<i64>| {
        pod(
            one(),
            json!({"phase": "Running", "containerStatuses": [cs("c1", false, restarts, state, last)]}),
        )
    };
    let init_rows: [StateRow; 5] = [
        ("D1", terminated("", 137, 9), 0, None, "Init:Signal:9", "0"),
        ("D2", terminated("", 1, 0), 0, None, "Init:ExitCode:1", "0"),
        ("D3", terminated("Error", 1, 0), 0, None, "Init:Error", "0"),
        (
            "D4",
            waiting("CrashLoopBackOff"),
            5,
            Some(40),
            "Init:CrashLoopBackOff",
            "5 (40s ago)",
        ),
        ("D5", waiting("PodInitializing"), 0, None, "Init:0/1", "0"),
    ];
    let main_rows: [StateRow; 4] = [
        ("D7a", terminated("", 137, 9), 0, None, "Signal:9", "0"),
        ("D7b", terminated("", 137, 0), 0, None, "ExitCode:137", "0"),
        (
            "D8",
            waiting("CrashLoopBackOff"),
            5,
            Some(40),
            "CrashLoopBackOff",
            "5 (40s ago)",
        ),
        (
            "D10",
            waiting("ImagePullBackOff"),
            0,
            None,
            "ImagePullBackOff",
            "0",
        ),
    ];
    let mut out: Vec<Vector> = init_rows
        .into_iter()
        .map(|(id, state, rc, last, status, restarts)| {
            v(id, init_state(state, rc, last), "0/1", status, restarts)
        })
        .collect();
    out.push(v(
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
    ));
    out.extend(
        main_rows
            .into_iter()
            .map(|(id, state, rc, last, status, restarts)| {
                v(id, main_state(state, rc, last), "0/1", status, restarts)
            }),
    );
    out.push(v(
        "D9",
        deleted(pod(
            one(),
            json!({"phase": "Running", "reason": "NodeLost",
            "containerStatuses": [cs("c1", true, 0, running(), None)]}),
        )),
        "1/1",
        "Unknown",
        "0",
    ));
    out
}
