//! Helpers shared by the `sim_*` integration tests: case folders, expected.md tables, kubectl.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use podscope::sim::{SimClock, SimConfig, Simulator, load_fixture};

/// Every case folder under `assets/cases/`, sorted.
pub fn case_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cases");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("assets/cases is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("pod.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The case folder whose name starts with `prefix`.
pub fn case(prefix: &str) -> PathBuf {
    case_dirs()
        .into_iter()
        .find(|d| {
            d.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .expect("case folder exists")
}

/// The first data row of expected.md's "Expected `kubectl get pod` columns" table, as
/// (header, cell) pairs.
pub fn expected_columns(dir: &Path) -> Vec<(String, String)> {
    let md = std::fs::read_to_string(dir.join("expected.md")).expect("expected.md");
    let mut lines = md
        .lines()
        .skip_while(|l| !l.contains("Expected `kubectl get pod` columns"));
    let mut table = lines.by_ref().filter(|l| l.trim_start().starts_with('|'));
    let cells = |l: &str| -> Vec<String> {
        l.trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let header = cells(table.next().expect("table header"));
    let _separator = table.next();
    let row = cells(table.next().expect("first table row"));
    header.into_iter().zip(row).collect()
}

/// The path of `kubectl` on PATH, if any.
pub fn kubectl() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("kubectl"))
        .find(|p| p.is_file())
}

/// Starts the simulator on port 0 with `dirs`, the clock frozen at the first one's snapshot time.
pub async fn start_frozen(dirs: &[PathBuf]) -> Simulator {
    let fx = load_fixture(&dirs[0]).expect("fixture loads");
    let snapshot = fx.snapshot_time.expect("expected.md has a snapshot time");
    Simulator::start(SimConfig {
        fixtures: dirs.to_vec(),
        clock: SimClock::Frozen(snapshot),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// Runs kubectl with the simulator's kubeconfig (and a private cache dir); returns
/// (exit success, stdout, stderr).
pub async fn run_kubectl(sim: &Simulator, cache: &Path, args: &[&str]) -> (bool, String, String) {
    let bin = kubectl().expect("kubectl on PATH");
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new(bin)
            .arg("--kubeconfig")
            .arg(sim.kubeconfig_path())
            .arg("--cache-dir")
            .arg(cache)
            .args(args)
            .output(),
    )
    .await
    .expect("kubectl finishes within 60 s")
    .expect("kubectl runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Raw HTTP/1.1 GET over a plain TcpStream (no HTTP library), returning the whole response text
/// (headers and de-chunked body are NOT separated; chunk framing stays in place).
pub async fn raw_get(url: &str, path_and_query: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host)
        .await
        .expect("connects");
    let req = format!("GET {path_and_query} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n");
    stream.write_all(req.as_bytes()).await.expect("writes");
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut buf))
        .await
        .expect("response ends within 10 s")
        .expect("reads");
    String::from_utf8_lossy(&buf).into_owned()
}
