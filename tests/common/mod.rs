//! Shared helpers for the integration tests: case fixtures and the simulator.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use jiff::Timestamp;

/// `assets/cases` in this repository.
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("cases")
}

/// Every case folder, sorted by name.
pub fn case_dirs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("assets/cases exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("pod.json").exists())
        .collect();
    v.sort();
    v
}

/// The expected `kubectl get pod` columns and the snapshot time from a case's expected.md.
#[derive(Debug, Clone)]
pub struct Expected {
    pub snapshot: Timestamp,
    pub name: String,
    pub ready: String,
    pub status: String,
    pub restarts: String,
    pub age: String,
}

/// Parses expected.md: the backticked RFC 3339 after "Snapshot time" and the first data row of
/// the table after "Expected `kubectl get pod` columns".
pub fn expected(dir: &Path) -> Expected {
    let text = std::fs::read_to_string(dir.join("expected.md")).expect("expected.md");
    let snap_line = text
        .lines()
        .find(|l| l.contains("Snapshot time"))
        .expect("a Snapshot time line");
    let snapshot: Timestamp = snap_line
        .split('`')
        .nth(1)
        .expect("backticked time")
        .parse()
        .expect("RFC 3339");
    let mut lines = text
        .lines()
        .skip_while(|l| !l.contains("Expected `kubectl get pod` columns"))
        .filter(|l| l.starts_with('|'));
    let _header = lines.next().expect("table header");
    let _rule = lines.next().expect("table rule");
    let row = lines.next().expect("table row");
    let cells: Vec<String> = row
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_owned())
        .collect();
    Expected {
        snapshot,
        name: cells[0].clone(),
        ready: cells[1].clone(),
        status: cells[2].clone(),
        restarts: cells[3].clone(),
        age: cells[4].clone(),
    }
}

/// `metadata.namespace` of a case's pod.json.
pub fn namespace(dir: &Path) -> String {
    let pod: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pod.json")).expect("pod.json"))
            .expect("json");
    pod["metadata"]["namespace"]
        .as_str()
        .unwrap_or("default")
        .to_owned()
}

/// The kubectl binary on PATH, or `None` after printing why the caller skips.
pub fn kubectl() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        let candidate = dir.join("kubectl");
        if candidate.is_file() {
            return Some(candidate);
        }
    }
    eprintln!("SKIP: kubectl not found on PATH; the kubectl comparison is skipped");
    None
}
