//! Pods built for rule tests: a one-container pod whose spec and status are patched in JSON,
//! events in the kubelet's shape, and the diagnosis of the result at a fixed `now`.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::{self, Finding, Inputs, LogTail, LogTails, Related};
use podscope::model::event::sort_newest_first;
use podscope::model::{EventSummary, PodSummary};
use serde_json::{Value, json};

/// The clock of built pods: 2025-03-01T12:00:00Z.
pub fn now() -> Timestamp {
    "2025-03-01T12:00:00Z".parse().expect("time")
}

/// A running pod `default/web` with one container `app` (image `registry.example/app:1`),
/// created at 11:00:00, restartPolicy Always, grace period 30 s.
pub fn pod() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "web", "namespace": "default", "uid": "u-1", "creationTimestamp": "2025-03-01T11:00:00Z"},
        "spec": {
            "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "nodeName": "node-1",
            "containers": [{"name": "app", "image": "registry.example/app:1"}]
        },
        "status": {
            "phase": "Running",
            "containerStatuses": [{
                "name": "app", "image": "registry.example/app:1", "imageID": "", "ready": true, "started": true,
                "restartCount": 0, "state": {"running": {"startedAt": "2025-03-01T11:00:05Z"}}
            }]
        }
    })
}

/// `pod()` crash-looping: `app` waiting in CrashLoopBackOff (back-off 40s) after `restarts`
/// restarts, its last instance terminated with `reason`/`exit` from 11:58:00 to 11:59:00.
pub fn crashlooping(reason: &str, exit: i32, restarts: i32) -> Value {
    let mut p = pod();
    p["status"]["containerStatuses"][0] = json!({
        "name": "app", "image": "registry.example/app:1", "imageID": "", "ready": false, "started": false,
        "restartCount": restarts,
        "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 40s restarting failed container=app pod=web_default(u-1)"}},
        "lastState": {"terminated": {"reason": reason, "exitCode": exit, "startedAt": "2025-03-01T11:58:00Z", "finishedAt": "2025-03-01T11:59:00Z", "containerID": "containerd://abc"}}
    });
    p
}

/// A kubelet event about container `container` (`None`: about the pod) seen `count` times, last
/// at `last` (RFC 3339).
pub fn event(
    reason: &str,
    container: Option<&str>,
    message: &str,
    count: i32,
    last: &str,
) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("web.{reason}.{count}"), "namespace": "default", "uid": format!("e-{reason}-{last}")},
        "involvedObject": {"kind": "Pod", "name": "web", "namespace": "default", "uid": "u-1",
            "fieldPath": container.map(|c| format!("spec.containers{{{c}}}"))},
        "reason": reason, "message": message, "type": if reason == "Unhealthy" || reason == "BackOff" { "Warning" } else { "Normal" },
        "count": count, "firstTimestamp": "2025-03-01T11:00:10Z", "lastTimestamp": last,
        "source": {"component": "kubelet"}
    })
}

/// The diagnosis of `pod` with `events`, the previous log `previous` of `app` (if any) and the
/// owner's status `owner`, at [`now`].
pub fn diagnose_with(
    pod: &Value,
    events: &[Value],
    previous: Option<&[&str]>,
    owner: OwnerStatus,
) -> Vec<Finding> {
    let pod: Pod = serde_json::from_value(pod.clone()).expect("a Pod");
    let summary = PodSummary::from_pod(&pod);
    let mut events: Vec<EventSummary> = events
        .iter()
        .map(|e| {
            EventSummary::from_event(&serde_json::from_value::<Event>(e.clone()).expect("an Event"))
        })
        .collect();
    sort_newest_first(&mut events);
    let mut logs = LogTails::default();
    if let Some(lines) = previous {
        let restart_count = summary.container("app").map_or(0, |c| c.restart_count);
        logs.previous.insert(
            "app".to_owned(),
            LogTail::new(
                restart_count,
                Ok(lines.iter().map(|l| (*l).to_owned()).collect()),
            ),
        );
    }
    let related = Related::new();
    diagnosis::diagnose(&Inputs::new(
        &summary,
        &events,
        &logs,
        &related,
        &owner,
        now(),
    ))
}

/// [`diagnose_with`] without logs, owner unknown.
pub fn diagnose(pod: &Value, events: &[Value]) -> Vec<Finding> {
    diagnose_with(pod, events, None, OwnerStatus::Unknown)
}

/// The first finding, with every finding in the panic message when there is none.
pub fn first(findings: &[Finding]) -> &Finding {
    findings.first().expect("at least one finding")
}

/// Everything a finding says, for `contains` checks.
pub fn said(f: &Finding) -> String {
    format!(
        "{}\n{}\n{}",
        f.headline,
        f.evidence.join("\n"),
        f.action.clone().unwrap_or_default()
    )
}
