//! The knowledge base's pod-network and volume tables (`crates/model/src/diagnosis/kb/cni.rs`,
//! `crates/model/src/diagnosis/kb/volumes.rs`): every row compiles, every row is found for a real
//! message of the component that says it (the kubelet's, the runtime's, a CNI plugin's, the
//! attach/detach controller's, the scheduler's), with the values worth quoting in its named
//! groups; the specific rows win over the generic ones; the decisive event of each corpus case
//! of these areas is found by its row; and harmless messages of the same events match no row.

use podscope_model::diagnosis::kb::{self, On};
use podscope_model::sanitize::sanitize;

/// `(where, message, row id, named groups that must be captured with these values)`.
type Line = (
    On<'static>,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const SANDBOX: On<'static> = On::Event("FailedCreatePodSandBox");
const KILL: On<'static> = On::Event("FailedKillPod");
const MOUNT: On<'static> = On::Event("FailedMount");
const ATTACH: On<'static> = On::Event("FailedAttachVolume");
const SCHED: On<'static> = On::Event("FailedScheduling");
mod cni_samples;
mod corpus;
mod volume_samples;

/// Every sample message of the two tables.
fn lines() -> impl Iterator<Item = &'static Line> {
    [cni_samples::LINES, volume_samples::LINES]
        .into_iter()
        .flatten()
}

/// Messages of the same events that no row of these tables may claim.
const INNOCENT: &[(On<'static>, &str)] = &[
    (
        On::Event("FailedScheduling"),
        "0/12 nodes are available: 3 Insufficient memory, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling.",
    ),
    (
        On::Event("SandboxChanged"),
        "Pod sandbox changed, it will be killed and re-created.",
    ),
    (
        On::Event("SuccessfulAttachVolume"),
        r#"AttachVolume.Attach succeeded for volume "pvc-6f1c2a9e-3b7d-4e58-9a0c-2d8e4f7b1c35""#,
    ),
    (
        On::Event("Scheduled"),
        "Successfully assigned ledger/ledger-pg-0 to node-c1",
    ),
    (On::Log, "INFO mounted /data, 3 files"),
    (On::Log, "level=info msg=\"network ready\""),
];

fn cni_or_volume(id: &str) -> bool {
    id.starts_with("cni-") || id.starts_with("volume-")
}

#[test]
fn every_row_compiles() {
    let invalid = kb::invalid_rows();
    assert!(invalid.is_empty(), "rows that do not compile: {invalid:#?}");
}

/// Each message as the component wrote it, and as the diagnosis reads it: events and statuses
/// are sanitised to one line first (`model::sanitize`: a newline becomes `␊`).
#[test]
fn every_message_finds_its_row_and_groups() {
    let mut failures = Vec::new();
    for (on, raw, id, groups) in lines() {
        for text in [raw.to_string(), sanitize(raw).into_owned()] {
            let Some(hit) = kb::find(*on, &text) else {
                failures.push(format!("{id}: no row for {text:?}"));
                continue;
            };
            if hit.entry.id != *id {
                failures.push(format!("{id}: got {} for {text:?}", hit.entry.id));
                continue;
            }
            for (name, value) in *groups {
                let got = hit
                    .groups
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.as_str());
                if got != Some(*value) {
                    failures.push(format!(
                        "{id}: group {name} = {got:?}, want {value:?} in {text:?}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_row_of_both_tables_is_exercised() {
    let tested: std::collections::BTreeSet<&str> = lines().map(|l| l.2).collect();
    let missing: Vec<&str> = kb::entries()
        .map(|e| e.id)
        .filter(|id| cni_or_volume(id) && !tested.contains(id))
        .collect();
    assert!(missing.is_empty(), "rows without a message: {missing:?}");
}

#[test]
fn rows_are_well_formed() {
    for e in kb::entries().filter(|e| cni_or_volume(e.id)) {
        assert!(!e.on.is_empty(), "{}: reads nothing", e.id);
        assert!(!e.source.is_empty(), "{}: no source", e.id);
        assert!(
            !e.meaning.is_empty() && !e.action.is_empty(),
            "{}: meaning and action",
            e.id
        );
        // every placeholder of the meaning and the action is a group or a context name
        for text in [e.meaning, e.action] {
            let mut rest = text;
            while let Some(open) = rest.find('{') {
                let after = &rest[open + 1..];
                let close = after.find('}').expect("closed placeholder");
                let key = &after[..close];
                let known = ["container", "pod", "namespace", "node", "reason"].contains(&key)
                    || e.pattern.contains(&format!("?P<{key}>"))
                    // literal braces of a jsonpath in an action
                    || key.starts_with('.');
                assert!(known, "{}: unknown placeholder {{{key}}}", e.id);
                rest = &after[close + 1..];
            }
        }
    }
}

#[test]
fn harmless_messages_match_no_row_of_these_tables() {
    for (on, text) in INNOCENT {
        if let Some(hit) = kb::find(*on, text) {
            assert!(
                !cni_or_volume(hit.entry.id),
                "{text:?} matched {}",
                hit.entry.id
            );
        }
    }
}
