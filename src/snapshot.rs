//! `--once` output: one snapshot of the pod as text or JSON, at a given `now`.
//!
//! The JSON document uses Kubernetes field names where the concept is the same; `status`,
//! `ready`, `restarts` and `age` are exactly what `kubectl get pod` prints (issue #2).

use std::fmt::Write as _;

use jiff::Timestamp;
use serde_json::{Value, json};

use crate::model::deletion::{OwnerStatus, diagnose};
use crate::model::duration::{format_go_duration, human_duration};
use crate::model::signal::{exit_code_meaning, signal_name};
use crate::model::{
    Backoff, ContainerState, ContainerSummary, Countdown, EventSummary, PodSummary, Terminated,
};

fn ts(t: Option<Timestamp>) -> Value {
    t.map_or(Value::Null, |t| Value::String(t.to_string()))
}

fn ago(t: Option<Timestamp>, now: Timestamp) -> String {
    t.map_or_else(
        || "<unknown>".to_owned(),
        |t| human_duration(now.duration_since(t)),
    )
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
    })
}

/// The `--once -o json` document for `pod` and its `events` (already newest first) at `now`.
#[must_use]
pub fn to_json(
    pod: &PodSummary,
    events: &[EventSummary],
    owner: &OwnerStatus,
    now: Timestamp,
) -> Value {
    let row = pod.row(now);
    let deletion = diagnose(pod, owner, now);
    json!({
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

fn describe_terminated(t: &Terminated, now: Timestamp) -> String {
    let mut s = format!(
        "{} exit code {}",
        if t.reason.is_empty() {
            "Terminated"
        } else {
            &t.reason
        },
        t.exit_code
    );
    if let Some(sig) = signal_name(t.exit_code) {
        let _ = write!(s, " ({sig})");
    }
    if let Some(m) = exit_code_meaning(t.exit_code, &t.reason) {
        let _ = write!(s, ": {m}");
    }
    if t.finished_at.is_some() {
        let _ = write!(s, ", finished {} ago", ago(t.finished_at, now));
    }
    if let (Some(a), Some(b)) = (t.started_at, t.finished_at)
        && a.as_second() > 0
    {
        let _ = write!(s, " after running {}", human_duration(b.duration_since(a)));
    }
    if let Some(m) = t.message.as_deref().filter(|m| !m.is_empty()) {
        let _ = write!(s, "\n      message: {}", m.trim_end());
    }
    s
}

fn countdown_text(b: &Backoff, now: Timestamp) -> String {
    let approx = if matches!(b.source, crate::model::BackoffSource::Estimate) {
        "≈"
    } else {
        ""
    };
    let delay = format_go_duration(b.delay);
    match b.countdown(now) {
        Countdown::In(s) => format!(
            "next restart in {approx}{} (back-off {approx}{delay})",
            human_duration(jiff::SignedDuration::from_secs(
                i64::try_from(s).unwrap_or(i64::MAX)
            ))
        ),
        Countdown::Restarting => format!("restarting… (back-off {approx}{delay} elapsed)"),
        Countdown::Overdue => format!("restart overdue (back-off {approx}{delay} elapsed)"),
        Countdown::Unknown => format!("back-off {approx}{delay}, last exit time unknown"),
    }
}

fn container_text(out: &mut String, c: &ContainerSummary, now: Timestamp) {
    let kind = format!("{:?}", c.kind).to_lowercase();
    let _ = writeln!(out, "  {kind:<9} {}  ({})", c.name, c.image);
    let state = match &c.state {
        ContainerState::Unknown => "no status yet".to_owned(),
        ContainerState::Waiting { reason, message } => match message {
            Some(m) if !m.is_empty() => format!("Waiting {reason}: {m}"),
            _ => format!("Waiting {reason}"),
        },
        ContainerState::Running { started_at } => {
            format!("Running since {} ago", ago(*started_at, now))
        }
        ContainerState::Terminated(t) => describe_terminated(t, now),
    };
    let _ = writeln!(out, "    State:      {state}");
    let _ = writeln!(
        out,
        "    Ready: {}  Started: {}  Restarts: {}",
        c.ready,
        c.started.map_or("-".to_owned(), |s| s.to_string()),
        c.restart_count
    );
    if let Some(t) = &c.last_state {
        let _ = writeln!(out, "    Last State: {}", describe_terminated(t, now));
    }
    if let Some(b) = &c.backoff {
        let _ = writeln!(out, "    Back-off:   {}", countdown_text(b, now));
    }
    if let Some(limit) = &c.memory_limit {
        let _ = writeln!(out, "    Memory limit: {limit}");
    }
    for (label, p) in [
        ("Startup", &c.probes.startup),
        ("Liveness", &c.probes.liveness),
        ("Readiness", &c.probes.readiness),
    ] {
        if let Some(p) = p {
            let _ = writeln!(out, "    {label}:{:pad$}{p}", "", pad = 11 - label.len());
        }
    }
}

/// The `--once` text summary for `pod` and its `events` (already newest first) at `now`.
#[must_use]
pub fn to_text(
    pod: &PodSummary,
    events: &[EventSummary],
    owner: &OwnerStatus,
    now: Timestamp,
) -> String {
    let row = pod.row(now);
    let mut out = String::new();
    let _ = writeln!(out, "Pod {}/{}", pod.namespace, pod.name);
    let _ = writeln!(
        out,
        "  STATUS {}   READY {}   RESTARTS {}   AGE {}",
        row.status, row.ready, row.restarts, row.age
    );
    let _ = writeln!(
        out,
        "  Phase {}   Node {}   IP {}   QoS {}",
        if pod.phase.is_empty() {
            "<none>"
        } else {
            &pod.phase
        },
        pod.node.as_deref().unwrap_or("<none>"),
        pod.pod_ip.as_deref().unwrap_or("<none>"),
        pod.qos_class.as_deref().unwrap_or("<none>"),
    );
    if let Some(d) = diagnose(pod, owner, now) {
        let _ = writeln!(out, "  Deletion: {}", d.headline);
        if let Some(hint) = d.hint {
            let _ = writeln!(out, "    {hint}");
        }
    }
    if !pod.reason.is_empty() || !pod.message.is_empty() {
        let _ = writeln!(out, "  Reason {}: {}", pod.reason, pod.message);
    }
    let _ = writeln!(out, "\nContainers (kubelet order):");
    for c in &pod.containers {
        container_text(&mut out, c, now);
    }
    let _ = writeln!(out, "\nConditions:");
    if pod.conditions.is_empty() {
        let _ = writeln!(out, "  <none>");
    }
    for c in &pod.conditions {
        let _ = writeln!(
            out,
            "  {:<26} {:<7} {} {} ({} ago)",
            c.type_,
            c.status,
            c.reason,
            c.message,
            ago(c.last_transition_time, now)
        );
    }
    let _ = writeln!(out, "\nEvents (newest first):");
    if events.is_empty() {
        let _ = writeln!(out, "  <none>");
    }
    for e in events {
        let _ = writeln!(
            out,
            "  {:<7} {:<16} {:<22} {}",
            e.type_,
            e.reason,
            e.age_text(now),
            e.message
        );
    }
    out
}
