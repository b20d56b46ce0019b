//! The pod printer's test vectors of `docs/protocols.md` §6.2 as pod JSON with the READY,
//! STATUS and RESTARTS cells (and row condition) `kubectl get pod` prints for them, plus the
//! builders they are written with: container statuses, states and a pod created 1 h before
//! [`now`].

mod derived;
mod upstream;

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

/// The printing time of every vector: 2025-01-01T12:00:00Z.
pub fn now() -> Timestamp {
    "2025-01-01T12:00:00Z".parse().expect("valid timestamp")
}

/// RFC 3339 text of `now − secs`.
pub fn ago(secs: i64) -> String {
    (now() - SignedDuration::from_secs(secs)).to_string()
}

pub const DAY: i64 = 86_400;

/// A container status: `name`, `ready`, `restartCount`, `state` (Null = none) and
/// `lastState.terminated.finishedAt` `last` seconds ago.
pub fn cs(name: &str, ready: bool, restarts: i32, state: Value, last: Option<i64>) -> Value {
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

/// The container status `v` with `started` set to `s`.
pub fn started(mut v: Value, s: bool) -> Value {
    v["started"] = json!(s);
    v
}

/// `state.running`, started 5 s ago.
pub fn running() -> Value {
    json!({"running": {"startedAt": ago(5)}})
}

/// `state.waiting` with `reason` (none when empty).
pub fn waiting(reason: &str) -> Value {
    if reason.is_empty() {
        json!({"waiting": {}})
    } else {
        json!({"waiting": {"reason": reason}})
    }
}

/// `state.terminated` with `exitCode`, and `reason` and `signal` unless empty / 0.
pub fn terminated(reason: &str, exit_code: i32, signal: i32) -> Value {
    let mut t = json!({"exitCode": exit_code});
    if !reason.is_empty() {
        t["reason"] = json!(reason);
    }
    if signal != 0 {
        t["signal"] = json!(signal);
    }
    json!({"terminated": t})
}

/// Spec containers named `names`.
pub fn containers(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| json!({"name": n, "image": "img"}))
            .collect(),
    )
}

/// Spec: the main container c1 alone.
pub fn one() -> Value {
    json!({"containers": containers(&["c1"])})
}

/// Spec: init container i1, then the main container c1.
pub fn init1() -> Value {
    json!({"initContainers": containers(&["i1"]), "containers": containers(&["c1"])})
}

/// Statuses: c1 not ready, waiting without a reason, never restarted.
pub fn main_waiting() -> Value {
    json!([cs("c1", false, 0, waiting(""), None)])
}

/// A native sidecar: an init container with `restartPolicy: Always`.
pub fn sidecar(name: &str) -> Value {
    json!({"name": name, "image": "img", "restartPolicy": "Always"})
}

/// A pod condition.
pub fn cond(type_: &str, status: &str) -> Value {
    json!({"type": type_, "status": status})
}

/// A pod named `test` created 1 h before `now`.
pub fn pod(spec: Value, status: Value) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "test", "namespace": "default", "creationTimestamp": ago(3600)},
        "spec": spec, "status": status,
    })
}

/// The pod `v` with a `deletionTimestamp` 10 s ago.
pub fn deleted(mut v: Value) -> Value {
    v["metadata"]["deletionTimestamp"] = json!(ago(10));
    v
}

/// One vector: the pod and the cells its row must print.
pub struct Vector {
    pub id: &'static str,
    pub pod: Value,
    pub ready: &'static str,
    pub status: &'static str,
    pub restarts: &'static str,
    /// `Some(reason)` when the row carries the `Completed` row condition with that reason.
    pub row_condition: Option<&'static str>,
}

/// A vector without a row condition.
pub fn v(
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

/// `vec` with the `Completed` row condition of `reason`.
pub fn with_cond(mut vec: Vector, reason: &'static str) -> Vector {
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

/// Containers c1 and c2 with [`two_statuses`] in `phase`.
pub fn phase_pod(phase: &str) -> Value {
    pod(
        json!({"containers": containers(&["c1", "c2"])}),
        json!({"phase": phase, "containerStatuses": two_statuses()}),
    )
}

/// Vectors 1–31 (restated from kubernetes `printers_test.go`), then D1–D10 (derived from §6.1).
pub fn vectors() -> Vec<Vector> {
    let mut all = upstream::vectors();
    all.extend(derived::vectors());
    all
}
