//! The knowledge base's kubelet and scheduler tables (`crates/model/src/diagnosis/kb/kubelet.rs`,
//! `scheduler.rs`): every row compiles, every row is found for a real message of the form the
//! component writes (with the values worth quoting in its named groups), the specific rows win
//! over the general ones, every placeholder of a row's meaning and action is filled when it
//! matches, and the texts of the corpus cases 66-77 find their rows.

use podscope_model::diagnosis::kb::{self, On};

/// `(where, text, row id, named groups that must be captured with these values)`.
type Sample = (
    On<'static>,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

mod corpus;
mod kubelet_samples;
mod scheduler_samples;

/// Every sample message of the two tables.
fn samples() -> impl Iterator<Item = &'static Sample> {
    [kubelet_samples::SAMPLES, scheduler_samples::SAMPLES]
        .into_iter()
        .flatten()
}

fn group<'a>(hit: &'a kb::Hit, name: &str) -> Option<&'a str> {
    hit.groups
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn every_row_compiles() {
    let invalid = kb::invalid_rows();
    assert!(invalid.is_empty(), "rows that do not compile: {invalid:#?}");
}

#[test]
fn every_sample_finds_its_row_and_groups() {
    let mut failures = Vec::new();
    for (on, text, id, groups) in samples() {
        let Some(hit) = kb::find(*on, text) else {
            failures.push(format!("{id}: no row for {on:?} {text:?}"));
            continue;
        };
        if hit.entry.id != *id {
            failures.push(format!("{id}: got {} for {text:?}", hit.entry.id));
            continue;
        }
        for (name, value) in *groups {
            if group(&hit, name) != Some(*value) {
                failures.push(format!(
                    "{id}: group {name} = {:?}, want {value:?}",
                    group(&hit, name)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_kubelet_and_scheduler_row_has_a_sample() {
    let sampled: Vec<&str> = samples().map(|s| s.2).collect();
    let missing: Vec<&str> = kb::kubelet::ENTRIES
        .iter()
        .chain(kb::scheduler::ENTRIES)
        .map(|e| e.id)
        .filter(|id| !sampled.contains(id))
        .collect();
    assert!(missing.is_empty(), "rows without a sample: {missing:?}");
}

#[test]
fn rows_are_prefixed_by_their_table_and_unique() {
    let mut seen = std::collections::BTreeSet::new();
    for e in kb::kubelet::ENTRIES {
        assert!(e.id.starts_with("kubelet-"), "{}", e.id);
        assert!(seen.insert(e.id), "duplicate {}", e.id);
    }
    for e in kb::scheduler::ENTRIES {
        assert!(e.id.starts_with("scheduler-"), "{}", e.id);
        assert!(seen.insert(e.id), "duplicate {}", e.id);
    }
}

/// Every `{name}` of a row's meaning and action is a group the sample captured or one the caller
/// fills; nothing is left unfilled.
#[test]
fn placeholders_are_filled_for_every_sample() {
    let context = [
        ("container", "c"),
        ("pod", "p"),
        ("namespace", "ns"),
        ("node", "n"),
        ("reason", "r"),
    ];
    let mut failures = Vec::new();
    for (on, text, id, _) in samples() {
        let Some(hit) = kb::find(*on, text) else {
            continue;
        };
        for filled in [hit.meaning(&context), hit.action(&context)] {
            // A jsonpath in an action (`{.status...}`) is not a placeholder.
            let left: Vec<&str> = filled
                .match_indices('{')
                .map(|(i, _)| &filled[i..])
                .filter(|rest| rest[1..].starts_with(|c: char| c.is_ascii_alphabetic()))
                .filter(|rest| {
                    let end = rest.find('}').unwrap_or(rest.len());
                    rest[1..end]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
                .collect();
            if !left.is_empty() {
                failures.push(format!("{id}: unfilled {left:?} in {filled:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Healthy or unrelated texts of the same places find no row of these tables.
#[test]
fn unrelated_texts_find_no_kubelet_or_scheduler_row() {
    for (on, text) in [
        (
            On::Event("FailedScheduling"),
            "0/3 nodes are available: 3 Insufficient memory.",
        ),
        (On::Event("Killing"), "Stopping container web"),
        (
            On::Status("ContainersNotReady"),
            "containers with unready status: [web]",
        ),
        (
            On::Event("Unhealthy"),
            "Readiness probe failed: HTTP probe failed with statuscode: 503",
        ),
        (On::Event("Failed"), "Error: ImagePullBackOff"),
    ] {
        let hit = kb::find(on, text);
        assert!(
            hit.as_ref()
                .is_none_or(|h| !h.entry.id.starts_with("kubelet-")
                    && !h.entry.id.starts_with("scheduler-")),
            "{text:?} found {:?}",
            hit.map(|h| h.entry.id)
        );
    }
}
