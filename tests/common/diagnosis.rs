//! Diagnosing a case from `assets/cases/<case>/` in-process, with the case's log files as the
//! tails podscope would read (`docs/corpus.md`: `logs-*.txt` for the container the status points
//! at, `logs/<container>.*.txt` for a named one) and its `related.json` as the lookups' answers,
//! at the case's snapshot time.

use std::path::{Path, PathBuf};

use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::case_logs::{SavedLog, tails as assign};
use podscope::model::diagnosis::{Finding, Inputs, LogTails, Lookup, ObjectRef, Related, diagnose};
use podscope::model::event::sort_newest_first;

fn dir(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(case)
}

/// The case's saved logs as tails.
pub fn tails(case: &str) -> LogTails {
    let dir = dir(case);
    let pod = super::cases::pod(case);
    let mut files: Vec<(Option<String>, bool, String)> = Vec::new();
    for (file, previous) in [("logs-previous.txt", true), ("logs-current.txt", false)] {
        if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
            files.push((None, previous, text));
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir.join("logs")) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let (container, previous) = if let Some(c) = name.strip_suffix(".previous.txt") {
                (c.to_owned(), true)
            } else if let Some(c) = name.strip_suffix(".current.txt") {
                (c.to_owned(), false)
            } else {
                continue;
            };
            if let Ok(text) = std::fs::read_to_string(e.path()) {
                files.push((Some(container), previous, text));
            }
        }
    }
    let saved: Vec<SavedLog<'_>> = files
        .iter()
        .map(|(c, previous, text)| SavedLog {
            container: c.as_deref(),
            previous: *previous,
            text,
        })
        .collect();
    assign(&pod, &saved)
}

/// The case's `related.json` (`docs/corpus.md`), empty without one.
pub fn related(case: &str) -> Related {
    let mut out = Related::new();
    let Ok(text) = std::fs::read_to_string(dir(case).join("related.json")) else {
        return out;
    };
    let doc: serde_json::Value = serde_json::from_str(&text).expect("related.json is JSON");
    let Some(map) = doc.as_object() else {
        return out;
    };
    let strings = |v: &serde_json::Value, k: &str| -> Vec<String> {
        v[k].as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    for (key, v) in map {
        let Some((kind, name)) = key.split_once('/') else {
            continue;
        };
        let r = match kind {
            "Secret" => ObjectRef::Secret(name.to_owned()),
            "ConfigMap" => ObjectRef::ConfigMap(name.to_owned()),
            "PersistentVolumeClaim" => ObjectRef::PersistentVolumeClaim(name.to_owned()),
            "Node" => ObjectRef::Node(name.to_owned()),
            _ => continue,
        };
        let answer = if v.as_str() == Some("absent") {
            Lookup::Absent
        } else {
            Lookup::Found {
                keys: strings(v, "keys"),
                phase: v["phase"].as_str().map(str::to_owned),
                conditions: strings(v, "conditions"),
            }
        };
        out.insert(r, answer);
    }
    out
}

/// The case's diagnosis at its snapshot time, with `owner` as the owner check's answer.
pub fn diagnosis(case: &str, owner: OwnerStatus) -> Vec<Finding> {
    let pod = super::cases::pod(case);
    let mut events = super::cases::events(case);
    sort_newest_first(&mut events);
    let logs = tails(case);
    let related = related(case);
    diagnose(&Inputs::new(
        &pod,
        &events,
        &logs,
        &related,
        &owner,
        super::cases::expected(case).now,
    ))
}

/// One finding as text (headline, evidence, action), for `contains` checks and messages.
pub fn text(f: &Finding) -> String {
    format!(
        "{}\n{}\n{}",
        f.headline,
        f.evidence.join("\n"),
        f.action.clone().unwrap_or_default()
    )
}
