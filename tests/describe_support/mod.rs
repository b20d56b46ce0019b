//! Shared by the describe tests: reading a pod and its events as `kubectl describe` does, running
//! kubectl at the same moment, and comparing two describe texts line for line with the ages
//! masked.
#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use kube::api::{Api, ListParams};
use podscope::model::EventSummary;
use podscope::model::describe::{Layout, describe_pod_with};

use crate::common::cluster::run_bin;

/// The pod `ns/name` and the events kubectl's describe lists for it (field selector on the
/// involved object's name, namespace and uid), in the API's order.
pub async fn read(client: &kube::Client, ns: &str, name: &str) -> (Pod, Vec<Event>) {
    let pod = Api::<Pod>::namespaced(client.clone(), ns)
        .get(name)
        .await
        .expect("get pod");
    // kubectl looks up a mirror pod's events under the uid of its static pod.
    let uid = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("kubernetes.io/config.mirror"))
        .or(pod.metadata.uid.as_ref())
        .cloned()
        .unwrap_or_default();
    let fields = format!(
        "involvedObject.name={name},involvedObject.namespace={ns},involvedObject.uid={uid}"
    );
    let events = Api::<Event>::namespaced(client.clone(), ns)
        .list(&ListParams::default().fields(&fields))
        .await
        .expect("list events")
        .items;
    (pod, events)
}

/// What changes the describe text: the pod's resourceVersion and each event's.
fn version(pod: &Pod, events: &[Event]) -> (Option<String>, Vec<Option<String>>) {
    (
        pod.metadata.resource_version.clone(),
        events
            .iter()
            .map(|e| e.metadata.resource_version.clone())
            .collect(),
    )
}

/// `kubectl describe pod` (binary `kubectl`, `TZ=UTC`) and ours (in `layout`) of the same pod
/// and events:
/// reads the pod and events, runs kubectl, reads again, and retries (for at most 60 s) until
/// nothing changed across the pair. Returns (ours, kubectl's).
pub async fn describe_pair(
    client: &kube::Client,
    kubectl: &Path,
    layout: Layout,
    kubeconfig: &Path,
    cache: &Path,
    ns: &str,
    name: &str,
) -> (String, String) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (pod, events) = read(client, ns, name).await;
        let (ok, theirs, err) = run_bin(
            kubectl,
            kubeconfig,
            cache,
            &["describe", "pod", name, "-n", ns],
            &[("TZ", "UTC")],
        )
        .await;
        assert!(ok, "kubectl describe pod {ns}/{name}: {err}");
        let now = Timestamp::now();
        let (pod2, events2) = read(client, ns, name).await;
        if version(&pod, &events) == version(&pod2, &events2) {
            let summaries: Vec<EventSummary> =
                events.iter().map(EventSummary::from_event).collect();
            return (describe_pod_with(&pod, &summaries, now, layout), theirs);
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{ns}/{name} kept changing for 60 s"
        );
    }
}

/// Replaces every duration token (`5m`, `2m30s`, `3h`, `<invalid>`, `<unknown>`) with `AGE`.
fn mask_durations(s: &str) -> String {
    let re = regex::Regex::new(r"(<invalid>|<unknown>|\b(\d+[smhdy])+\b)").expect("regex");
    re.replace_all(s, "AGE").into_owned()
}

/// kubectl before 1.33 prints a projected source's set `optional` as a pointer address
/// (`SecretOptionalName:  0xc0002c61c9`), which we print as `true`/`false`: both become `SET`.
fn mask_pointer(l: &str) -> String {
    let re = regex::Regex::new(
        r"^(\s+(SecretOptionalName|ConfigMapOptional):\s+)(0x[0-9a-f]+|true|false)$",
    )
    .expect("regex");
    re.replace(l, "${1}SET").into_owned()
}

/// The Events lines with every duration masked and runs of spaces collapsed (the Age column's
/// width moves the columns after it).
fn event_lines(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .map(|l| mask_durations(&l.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect()
}

/// Compares two describe texts line for line. Masked: the value of `Status:  Terminating
/// (lasts …)`, a set projected `optional` before 1.33 ([`mask_pointer`]) and the ages in the
/// Events table. Equal texts pass; otherwise the Events lines
/// are compared with their durations masked and their spacing collapsed (an age's width moves
/// the columns after it). `Err` names the first difference.
pub fn compare(ours: &str, theirs: &str) -> Result<(), String> {
    if ours == theirs {
        return Ok(());
    }
    let split = |t: &str| -> (Vec<String>, Vec<String>) {
        let lines: Vec<&str> = t.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("Events:"))
            .unwrap_or(lines.len());
        // The `Events:` line itself (with `<none>`, aligned with the lines above) is part of
        // the head.
        let to = (at + 1).min(lines.len());
        let head: Vec<String> = lines[..to]
            .iter()
            .map(|l| {
                if l.starts_with("Status:") && l.contains("Terminating (lasts") {
                    mask_durations(l)
                } else {
                    mask_pointer(l)
                }
            })
            .collect();
        let events = event_lines(&lines[to..]);
        (head, events)
    };
    let (oh, oe) = split(ours);
    let (th, te) = split(theirs);
    for (i, (a, b)) in oh.iter().zip(th.iter()).enumerate() {
        if a != b {
            return Err(format!(
                "line {}:\n ours:    {a:?}\n kubectl: {b:?}\n--- ours\n{ours}\n--- kubectl\n{theirs}",
                i + 1
            ));
        }
    }
    if oh.len() != th.len() {
        return Err(format!(
            "{} lines before Events vs kubectl's {}\n--- ours\n{ours}\n--- kubectl\n{theirs}",
            oh.len(),
            th.len()
        ));
    }
    if oe != te {
        return Err(format!(
            "events differ:\n ours:    {oe:?}\n kubectl: {te:?}\n--- ours\n{ours}\n--- kubectl\n{theirs}"
        ));
    }
    Ok(())
}
