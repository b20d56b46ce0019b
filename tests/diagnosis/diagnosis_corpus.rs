//! Grades the diagnosis on every case of the corpus that has a `grade.json` (`docs/corpus.md`):
//! the first finding's container and severity, the words its headline and its whole text must
//! carry, and the contradictions no finding may say. Every case is graded and every failure is
//! listed before the test fails, so one run shows the whole picture.

use crate::common;
use std::path::Path;

use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::{Finding, Severity};
use serde_json::Value;

use common::diagnosis::{diagnosis, text};

fn cases() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cases");
    let mut out: Vec<String> = std::fs::read_dir(&root)
        .expect("assets/cases")
        .flatten()
        .filter(|e| e.path().join("grade.json").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

fn grade(case: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(case)
        .join("grade.json");
    let text = std::fs::read_to_string(&path).expect("grade.json");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{case}: grade.json: {e}"))
}

/// Whether `hay` (lowercased) holds one of the `|`-separated alternatives of `want`.
fn holds(hay: &str, want: &str) -> bool {
    want.split('|')
        .any(|alt| hay.contains(&alt.trim().to_lowercase()))
}

fn words(g: &Value, key: &str) -> Vec<String> {
    g[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|w| w.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// What is wrong with `all` (the findings of `case`) against its grade; empty when right.
fn problems(case: &str, g: &Value, all: &[Finding]) -> Vec<String> {
    let mut out = Vec::new();
    let Some(first) = all.first() else {
        return vec!["no finding".to_owned()];
    };
    let want_container = g["container"].as_str();
    if first.container.as_deref() != want_container {
        out.push(format!(
            "container {:?}, want {want_container:?}",
            first.container
        ));
    }
    let severity = match first.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    if let Some(want) = g["severity"].as_str().filter(|w| *w != severity) {
        out.push(format!("severity {severity}, want {want}"));
    }
    let head = first.headline.to_lowercase();
    for w in words(g, "headline") {
        if !holds(&head, &w) {
            out.push(format!("headline lacks {w:?}"));
        }
    }
    let whole = text(first).to_lowercase();
    for w in words(g, "text") {
        if !holds(&whole, &w) {
            out.push(format!("text lacks {w:?}"));
        }
    }
    let everything = all
        .iter()
        .map(text)
        .collect::<Vec<_>>()
        .join("\n")
        .to_lowercase();
    for w in words(g, "absent") {
        if holds(&everything, &w) {
            out.push(format!("says {w:?}, which contradicts the case"));
        }
    }
    let _ = case;
    out
}

#[test]
fn every_graded_case_gets_the_diagnosis_a_good_tool_gives() {
    let cases = cases();
    let mut failed = Vec::new();
    for case in &cases {
        let g = grade(case);
        let owner = match g["owner"].as_str() {
            Some("gone") => OwnerStatus::Gone,
            Some("exists") => OwnerStatus::Exists,
            _ => OwnerStatus::Unknown,
        };
        let all = diagnosis(case, owner);
        let p = problems(case, &g, &all);
        if !p.is_empty() {
            let dump = all.iter().map(text).collect::<Vec<_>>().join("\n----\n");
            failed.push(format!("{case}:\n  - {}\n{dump}\n", p.join("\n  - ")));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} graded cases wrong:\n\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
    assert!(
        cases.len() >= 40,
        "the corpus has {} graded cases, want at least 40",
        cases.len()
    );
}

#[test]
fn a_grade_that_the_findings_do_not_meet_fails() {
    // The grader itself: a grade naming another container and a word no finding says fails.
    let case = cases().into_iter().next().expect("a graded case");
    let all = diagnosis(&case, OwnerStatus::Unknown);
    let g: Value = serde_json::json!({
        "container": "no-such-container",
        "severity": "info",
        "headline": ["a word no headline has"],
        "text": [],
        "absent": [all[0].headline.split_whitespace().next().unwrap_or("x")],
    });
    let p = problems(&case, &g, &all);
    assert_eq!(p.len(), 4, "{p:?}");
}
