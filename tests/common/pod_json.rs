//! kubectl's JSON of the seed's `hello` pod and its events, for tests refereed by kubectl
//! (`tests/sim/sim_ephemeral.rs`, `tests/sim/sim_pod_image_update.rs`).

use std::path::Path;

use serde_json::Value;

use super::cluster::run;

/// `kubectl get pod hello -o json`.
pub async fn pod_json(sim: &podscope::sim::Simulator, cache: &Path) -> Value {
    let (ok, out, err) = run(sim, cache, &["get", "pod", "hello", "-o", "json"]).await;
    assert!(ok, "get pod: {err}");
    serde_json::from_str(&out).expect("pod JSON")
}

/// The status named `name` in the pod JSON's list `list` (`ephemeralContainerStatuses` …).
pub fn status<'a>(pod: &'a Value, list: &str, name: &str) -> &'a Value {
    pod["status"][list]
        .as_array()
        .and_then(|l| l.iter().find(|s| s["name"] == name))
        .unwrap_or_else(|| panic!("no {list} entry {name}: {pod}"))
}

/// `(reason, message)` of the events about `field_path`, oldest first (`kubectl get events -o
/// json`).
pub async fn events_of(
    sim: &podscope::sim::Simulator,
    cache: &Path,
    field_path: &str,
) -> Vec<(String, String)> {
    let (ok, out, err) = run(sim, cache, &["get", "events", "-o", "json"]).await;
    assert!(ok, "get events: {err}");
    let list: Value = serde_json::from_str(&out).expect("events JSON");
    let mut evs: Vec<(String, String, String)> = list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["involvedObject"]["fieldPath"] == field_path)
        .map(|e| {
            (
                e["firstTimestamp"].as_str().unwrap_or("").to_string(),
                e["reason"].as_str().unwrap_or("").to_string(),
                e["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    evs.sort_by(|a, b| a.0.cmp(&b.0));
    evs.into_iter().map(|(_, r, m)| (r, m)).collect()
}
