//! The decisive event of each corpus case of the pod-network and volume areas is found by its
//! row, read from the case's events.json.

use podscope_model::diagnosis::kb::{self, On};
use podscope_model::sanitize::sanitize;

/// `(case, event reason, row id)`: the decisive event of each corpus case of these areas.
const CASE_EVENTS: &[(&str, &str, &str)] = &[
    (
        "53-sandbox-cni-not-initialized",
        "NetworkNotReady",
        "cni-not-initialized",
    ),
    (
        "54-sandbox-host-local-no-ip",
        "FailedCreatePodSandBox",
        "cni-no-ip",
    ),
    (
        "55-sandbox-calico-nodename-missing",
        "FailedCreatePodSandBox",
        "cni-calico-nodename",
    ),
    (
        "56-sandbox-cilium-api-timeout",
        "FailedCreatePodSandBox",
        "cni-cilium-api-timeout",
    ),
    (
        "57-sandbox-flannel-subnet-env-missing",
        "FailedCreatePodSandBox",
        "cni-flannel-subnet-env",
    ),
    (
        "58-volume-secret-not-found-init",
        "FailedMount",
        "volume-object-not-found",
    ),
    (
        "59-volume-multi-attach-rolling-update",
        "FailedAttachVolume",
        "volume-multi-attach-used",
    ),
    (
        "60-volume-attach-timeout-external-attacher",
        "FailedAttachVolume",
        "volume-attach-timeout",
    ),
    (
        "61-volume-csi-driver-not-registered",
        "FailedMount",
        "volume-csi-driver-not-registered",
    ),
    (
        "62-volume-node-affinity-conflict-zone",
        "FailedScheduling",
        "volume-node-affinity-conflict",
    ),
    (
        "63-volume-nfs-access-denied",
        "FailedMount",
        "volume-nfs-access-denied",
    ),
    (
        "64-terminating-cni-teardown-failed",
        "FailedKillPod",
        "cni-teardown-failed",
    ),
    (
        "65-sandbox-multus-plugin-missing",
        "FailedCreatePodSandBox",
        "cni-plugin-binary-missing",
    ),
];

fn events(case: &str) -> Vec<(String, String)> {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(case)
        .join("events.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("events.json is JSON");
    doc["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|e| {
            (
                e["reason"].as_str().unwrap_or_default().to_owned(),
                sanitize(e["message"].as_str().unwrap_or_default()).into_owned(),
            )
        })
        .collect()
}

#[test]
fn the_corpus_cases_decisive_events_find_their_rows() {
    let mut failures = Vec::new();
    for (case, reason, id) in CASE_EVENTS {
        let found: Vec<&str> = events(case)
            .iter()
            .filter(|(r, _)| r == reason)
            .filter_map(|(r, message)| kb::find(On::Event(r), message))
            .map(|hit| hit.entry.id)
            .collect();
        if !found.contains(id) {
            failures.push(format!(
                "{case}: {reason} events found {found:?}, want {id}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
