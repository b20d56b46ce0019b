//! `--once -o json`: the document (see the module docs of [`super`]).

use jiff::Timestamp;
use serde_json::{Value, json};

use crate::model::deletion::{OwnerStatus, diagnose};
use crate::model::diagnosis::Finding;
use crate::model::resources::{Pair, Resources, cpu_text, memory_text};
use crate::model::signal::signal_name;
use crate::model::usage::{PodMetrics, Sample, window_text};
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

/// `{"cpu": "100m", "memory": "256Mi"}` of one of requests/limits, the texts as written
/// (absent keys left out).
fn pair_json(p: &Pair) -> Value {
    let mut m = serde_json::Map::new();
    if let Some(a) = &p.cpu {
        m.insert("cpu".into(), Value::String(a.text.clone()));
    }
    if let Some(a) = &p.memory {
        m.insert("memory".into(), Value::String(a.text.clone()));
    }
    Value::Object(m)
}

/// `containers[].resources`: `{"requests": {…}, "limits": {…}}` (`docs/usage.md`).
fn resources_json(pod: &PodSummary, c: &ContainerSummary) -> Value {
    let r = Resources::of_container(pod, &c.name);
    json!({"requests": pair_json(&r.requests), "limits": pair_json(&r.limits)})
}

/// `containers[].usage`: `{"cpu": "12m", "memory": "34Mi", "cpuMillicores": 12,
/// "memoryBytes": 35651584, "window": "15s", "timestamp": "…"}` as `kubectl top` prints the
/// values (`docs/usage.md`).
#[must_use]
pub fn usage_json(s: &Sample) -> Value {
    json!({
        "cpu": cpu_text(s.cpu_millicores),
        "memory": memory_text(s.memory_bytes),
        "cpuMillicores": s.cpu_millicores,
        "memoryBytes": s.memory_bytes,
        "window": window_text(s.window),
        "timestamp": s.at.to_string(),
    })
}

/// Sets `containers[].usage` of `doc` (made by [`to_json`]) from one PodMetrics read: each
/// container's sample, `null` for a container it does not list (or without `metrics`).
pub fn add_usage(doc: &mut Value, metrics: Option<&PodMetrics>) {
    let Some(containers) = doc.get_mut("containers").and_then(Value::as_array_mut) else {
        return;
    };
    for c in containers {
        let name = c
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let usage = metrics
            .and_then(|m| m.container(&name))
            .map_or(Value::Null, usage_json);
        if let Some(obj) = c.as_object_mut() {
            obj.insert("usage".into(), usage);
        }
    }
}

fn container_json(pod: &PodSummary, c: &ContainerSummary, now: Timestamp) -> Value {
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
        "resources": resources_json(pod, c),
        "usage": Value::Null,
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
        "containers": pod.containers.iter().map(|c| container_json(pod, c, now)).collect::<Vec<_>>(),
        "conditions": pod.conditions.iter().map(|c| json!({
            "type": c.type_,
            "status": c.status,
            "reason": c.reason,
            "message": c.message,
            "lastTransitionTime": ts(c.last_transition_time),
        })).collect::<Vec<_>>(),
        "timeline": crate::model::timeline::reconstruct(pod, events),
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
