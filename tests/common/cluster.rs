//! Helpers for tests that run against the simulator and kubectl: case folders, namespaces,
//! the kubectl binary.

use std::path::{Path, PathBuf};

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

/// The folder name of a case (`04-crashloop-oomkilled-jvm`).
pub fn case_name(dir: &Path) -> String {
    dir.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned()
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
