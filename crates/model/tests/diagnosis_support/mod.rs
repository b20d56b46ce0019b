//! Helpers for the diagnosis rule tests: cases from `assets/cases/`, pods and events built from
//! JSON, running `diagnose`, and finding a rule's finding.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::{Finding, Inputs, LogTails, Related, diagnose};
use podscope_model::event::sort_newest_first;
use podscope_model::{EventSummary, PodSummary};
use serde_json::{Value, json};

/// The folder of case `id` (`"13"` → `assets/cases/13-imagepullbackoff-tag-not-found`).
pub fn case_dir(id: &str) -> PathBuf {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("assets/cases");
    std::fs::read_dir(&root)
        .expect("assets/cases")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{id}-")))
        })
        .expect("a case folder")
}

/// Case `id`: its pod, its events (newest first) and its snapshot time.
pub fn case(id: &str) -> (PodSummary, Vec<EventSummary>, Timestamp) {
    let dir = case_dir(id);
    let pod: Pod =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pod.json")).expect("pod.json"))
            .expect("a Pod");
    let list: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("events.json")).expect("events"))
            .expect("a List");
    let mut events: Vec<EventSummary> = list["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|i| EventSummary::from_event(&serde_json::from_value::<Event>(i).expect("Event")))
        .collect();
    sort_newest_first(&mut events);
    let md = std::fs::read_to_string(dir.join("expected.md")).expect("expected.md");
    let line = md
        .lines()
        .find(|l| l.contains("Snapshot time"))
        .expect("snapshot line");
    let now: Timestamp = line
        .rsplit('`')
        .nth(1)
        .expect("timestamp")
        .parse()
        .expect("RFC 3339");
    (PodSummary::from_pod(&pod), events, now)
}

/// The diagnosis with nothing looked up and the owner not checked.
pub fn run(pod: &PodSummary, events: &[EventSummary], now: Timestamp) -> Vec<Finding> {
    run_with(pod, events, now, &Related::new(), &OwnerStatus::Unknown)
}

/// The diagnosis with `related` answers and the owner's status.
pub fn run_with(
    pod: &PodSummary,
    events: &[EventSummary],
    now: Timestamp,
    related: &Related,
    owner: &OwnerStatus,
) -> Vec<Finding> {
    diagnose(&Inputs::new(
        pod,
        events,
        &LogTails::default(),
        related,
        owner,
        now,
    ))
}

/// The finding of `rule`; panics with the whole diagnosis when there is none.
pub fn find<'a>(findings: &'a [Finding], rule: &str) -> &'a Finding {
    findings
        .iter()
        .find(|f| f.rule == rule)
        .unwrap_or_else(|| panic!("no {rule} finding in {findings:#?}"))
}

/// Headline, evidence and hint in one string, for `contains` checks.
pub fn text(f: &Finding) -> String {
    format!(
        "{}\n{}\n{}",
        f.headline,
        f.evidence.join("\n"),
        f.action.as_deref().unwrap_or("")
    )
}

/// Asserts `f`'s text contains every needle.
pub fn has(f: &Finding, needles: &[&str]) {
    let t = text(f);
    for n in needles {
        assert!(t.contains(n), "{n:?} missing in:\n{t}");
    }
}

/// A pod from JSON (`metadata`, `spec`, `status` as given).
pub fn pod(v: Value) -> PodSummary {
    PodSummary::from_pod(&serde_json::from_value::<Pod>(v).expect("a Pod"))
}

/// The fixed clock of these tests.
pub fn now() -> Timestamp {
    "2024-05-01T12:00:00Z".parse().expect("time")
}

/// `now` minus `secs` as RFC 3339.
pub fn ago(secs: i64) -> String {
    (now() - jiff::SignedDuration::from_secs(secs)).to_string()
}

/// A kubelet-style event: reason, message, fieldPath (empty for the pod), count, last seen
/// `secs` ago (first seen 10 min before).
pub fn event(reason: &str, message: &str, field_path: &str, count: i32, secs: i64) -> EventSummary {
    let mut involved = json!({"kind": "Pod", "name": "web", "namespace": "shop"});
    if !field_path.is_empty() {
        involved["fieldPath"] = json!(field_path);
    }
    let v = json!({
        "metadata": {"name": format!("web.{reason}"), "namespace": "shop"},
        "involvedObject": involved,
        "reason": reason,
        "message": message,
        "type": "Warning",
        "count": count,
        "firstTimestamp": ago(secs + 600),
        "lastTimestamp": ago(secs),
        "source": {"component": "kubelet"}
    });
    EventSummary::from_event(&serde_json::from_value::<Event>(v).expect("an Event"))
}

/// A pod `shop/web` created 20 min ago, on `node-1`, with `spec` and `status`.
pub fn pod_with(spec: Value, status: Value) -> PodSummary {
    let mut spec = spec;
    if spec.get("nodeName").is_none() {
        spec["nodeName"] = json!("node-1");
    }
    pod(json!({
        "metadata": {"name": "web", "namespace": "shop", "uid": "u1",
                     "creationTimestamp": ago(1200)},
        "spec": spec,
        "status": status
    }))
}

/// A main container status waiting with `reason`/`message`.
pub fn waiting(name: &str, reason: &str, message: &str) -> Value {
    json!({"name": name, "image": "x", "imageID": "", "ready": false, "restartCount": 0,
           "state": {"waiting": {"reason": reason, "message": message}}})
}

/// The image the pull tests use.
pub const IMG: &str = "registry.corp/shop/web:1.4.2";

/// A pod whose container `web` waits with `reason`/`message`, plus a `Failed to pull` event
/// with `answer` (when given), the generic `Error: ErrImagePull` and a `Pulling` event.
pub fn pulling(
    reason: &str,
    message: &str,
    answer: Option<&str>,
) -> (PodSummary, Vec<EventSummary>) {
    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG, "imagePullPolicy": "IfNotPresent"}]}),
        json!({"phase": "Pending", "containerStatuses": [waiting("web", reason, message)]}),
    );
    let mut events = Vec::new();
    events.push(event(
        "Failed",
        "Error: ErrImagePull",
        "spec.containers{web}",
        4,
        30,
    ));
    if let Some(a) = answer {
        events.push(event(
            "Failed",
            &format!("Failed to pull image \"{IMG}\": {a}"),
            "spec.containers{web}",
            4,
            30,
        ));
    }
    events.push(event(
        "Pulling",
        &format!("Pulling image \"{IMG}\""),
        "spec.containers{web}",
        4,
        31,
    ));
    (p, events)
}
