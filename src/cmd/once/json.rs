//! `--once -o json`: the document (see the module docs of [`super`]).

use jiff::Timestamp;
use serde_json::{Value, json};

use crate::model::deletion::{OwnerStatus, diagnose};
use crate::model::diagnosis::Finding;
use crate::model::signal::signal_name;
use crate::model::{
    Backoff, ContainerState, ContainerSummary, Countdown, EventSummary, PodSummary, Terminated,
};

fn ts(t: Option<Timestamp>) -> Value {
    t.map_or(Value::Null, |t| Value::String(t.to_string()))
}

fn terminated_json(t: &Terminated) -> Value {
    json!({
        "reason": t.reason,
        "exitCode": t.exit_code,
        "signal": t.signal,
        "message": t.message,
        "startedAt": ts(t.started_at),
        "finishedAt": ts(t.finished_at),
        "containerID": t.container_id,
    })
}

fn state_json(s: &ContainerState) -> Value {
    match s {
        ContainerState::Unknown => json!({}),
        ContainerState::Waiting { reason, message } => {
            json!({"waiting": {"reason": reason, "message": message}})
        }
        ContainerState::Running { started_at } => {
            json!({"running": {"startedAt": ts(*started_at)}})
        }
        ContainerState::Terminated(t) => json!({"terminated": terminated_json(t)}),
    }
}

/// The terminated instance whose exit code explains the container best: the current state if
/// terminated, else `lastState.terminated`.
fn latest_termination(c: &ContainerSummary) -> Option<&Terminated> {
    match &c.state {
        ContainerState::Terminated(t) => Some(t),
        _ => c.last_state.as_ref(),
    }
}

/// Seconds left before the restart (0 once due), or `None` when unknown.
fn remaining_seconds(b: &Backoff, now: Timestamp) -> Option<u64> {
    match b.countdown(now) {
        Countdown::In(s) => Some(s),
        Countdown::Restarting | Countdown::Overdue => Some(0),
        Countdown::Unknown => None,
    }
}

fn backoff_json(b: Option<&Backoff>, now: Timestamp) -> Value {
    b.map_or(Value::Null, |b| {
        json!({
            "delaySeconds": b.delay.as_secs_f64(),
            "nextRestartAt": ts(b.next_restart_at),
            "remainingSeconds": remaining_seconds(b, now),
            "source": b.source,
        })
    })
}

fn container_json(c: &ContainerSummary, now: Timestamp) -> Value {
    let signal = latest_termination(c).and_then(|t| signal_name(t.exit_code));
    json!({
        "name": c.name,
        "type": c.kind,
        "image": c.image,
        "command": c.command,
        "ready": c.ready,
        "started": c.started,
        "restartCount": c.restart_count,
        "state": state_json(&c.state),
        "lastState": c.last_state.as_ref().map_or_else(|| json!({}), |t| json!({"terminated": terminated_json(t)})),
        "signal": signal,
        "memoryLimit": c.memory_limit,
        "backoff": backoff_json(c.backoff.as_ref(), now),
        "probes": c.probes,
        "spec": super::spec::json(c),
    })
}

/// The `--once -o json` document for `pod`, its `events` (already newest first) and its
/// `diagnosis` (most important first) at `now`.
#[must_use]
pub fn to_json(
    pod: &PodSummary,
    events: &[EventSummary],
    owner: &OwnerStatus,
    diagnosis: &[Finding],
    now: Timestamp,
) -> Value {
    let row = pod.row(now);
    let deletion = diagnose(pod, owner, now);
    json!({
        "diagnosis": diagnosis,
        "pod": {
            "namespace": pod.namespace,
            "name": pod.name,
            "uid": pod.uid,
            "phase": pod.phase,
            "status": row.status,
            "ready": row.ready,
            "restarts": row.restarts,
            "age": row.age,
            "node": pod.node,
            "podIP": pod.pod_ip,
            "qosClass": pod.qos_class,
            "deletionTimestamp": ts(pod.deletion_timestamp),
            "finalizers": pod.finalizers,
            "owner": pod.owner.as_ref().map(|o| json!({
                "apiVersion": o.api_version,
                "kind": o.kind,
                "name": o.name,
                "uid": o.uid,
                "exists": match owner {
                    OwnerStatus::Exists => Value::Bool(true),
                    OwnerStatus::Gone => Value::Bool(false),
                    OwnerStatus::Unknown | OwnerStatus::Failed(_) => Value::Null,
                },
            })),
            "deletion": deletion.map(|d| json!({"diagnosis": d.headline, "hint": d.hint})),
        },
        "containers": pod.containers.iter().map(|c| container_json(c, now)).collect::<Vec<_>>(),
        "conditions": pod.conditions.iter().map(|c| json!({
            "type": c.type_,
            "status": c.status,
            "reason": c.reason,
            "message": c.message,
            "lastTransitionTime": ts(c.last_transition_time),
        })).collect::<Vec<_>>(),
        "events": events.iter().map(|e| json!({
            "type": e.type_,
            "reason": e.reason,
            "message": e.message,
            "count": e.count,
            "firstTimestamp": ts(e.first_timestamp),
            "lastTimestamp": ts(e.last_timestamp),
        })).collect::<Vec<_>>(),
    })
}
