//! Helpers shared by the `sim_workloads_api*` tests: a simulator on a frozen clock, manifests
//! written to files, kubectl that must succeed, a table print split into header and rows.
#![allow(dead_code)]

use std::path::Path;

use podscope::sim::{SimClock, SimConfig, Simulator};

use super::common::cluster::run;

/// The simulator (HTTPS, token, no fixtures, no controllers) with its clock frozen at
/// 2025-03-01T12:00:00Z, so every AGE is `0s`.
pub async fn start() -> Simulator {
    let t: jiff::Timestamp = "2025-03-01T12:00:00Z".parse().expect("time");
    Simulator::start(SimConfig {
        clock: SimClock::Frozen(t),
        // The API layer alone: no controller acts on the stored workloads.
        controllers: false,
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// Writes `text` to `dir/name`; its path.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("manifest written");
    path.to_string_lossy().into_owned()
}

/// kubectl `args` against `sim`, which must succeed; its stdout.
pub async fn ok(sim: &Simulator, cache: &Path, args: &[&str]) -> String {
    let (success, out, err) = run(sim, cache, args).await;
    assert!(success, "kubectl {args:?} failed: {err}");
    out
}

/// The header line and the whitespace-split rows of a table print.
pub fn table(out: &str) -> (String, Vec<Vec<String>>) {
    let mut lines = out.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next().unwrap_or("").trim_end().to_string();
    let rows = lines
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    (header, rows)
}
