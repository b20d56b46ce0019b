//! `kubectl top` (1.33 and 1.27) against the simulator's `metrics.k8s.io` (`docs/metrics.md`
//! §5): `top pod --containers`, `top pod NAME`, `top pod -A` and `top node` print the values
//! of the objects served in the same window, rounded as kubectl rounds them (CPU
//! `MilliValue()`, rounded up; memory `Value()/(1024*1024)`; a node's percentages against
//! its allocatable); with metrics off kubectl says `error: Metrics API not available`.

use crate::common;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use podscope::sim::metrics::{MetricsConfig, quantity};
use podscope::sim::{SimClock, SimConfig, Simulator};
use serde_json::Value;

use common::cluster::{kubectl, kubectl_versions, run_bin};
use common::sim::raw_get;
use common::wait::wait_until;

const MI: u64 = 1024 * 1024;
/// The simulated node's allocatable: 4 CPUs and 8045804Ki.
const ALLOCATABLE_MILLICORES: u64 = 4000;
const ALLOCATABLE_BYTES: u64 = 8_045_804 * 1024;

async fn start(scenarios: &[&str], metrics: bool) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, 1.0),
        scenarios: scenarios.iter().map(PathBuf::from).collect(),
        metrics: MetricsConfig {
            enabled: metrics,
            resolution: Duration::from_secs(15),
        },
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// kubectl 1.33 and 1.27 when installed beside `kubectl`, else `kubectl` itself.
fn kubectls() -> Vec<(String, PathBuf)> {
    let wanted: Vec<(String, PathBuf)> = kubectl_versions()
        .into_iter()
        .filter(|(v, _)| v == "1.33" || v == "1.27")
        .collect();
    if wanted.is_empty() {
        kubectl()
            .map(|k| ("PATH".to_owned(), k))
            .into_iter()
            .collect()
    } else {
        wanted
    }
}

async fn json(sim: &Simulator, path: &str) -> Value {
    let raw = raw_get(sim, path).await;
    let text = raw.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {raw}"))
}

fn nanocores(q: &str) -> u64 {
    let (num, factor) = match q.as_bytes().last() {
        Some(b'n') => (&q[..q.len() - 1], 1),
        Some(b'u') => (&q[..q.len() - 1], 1_000),
        Some(b'm') => (&q[..q.len() - 1], 1_000_000),
        _ => (q, 1_000_000_000),
    };
    num.parse::<u64>().unwrap_or_else(|_| panic!("cpu {q}")) * factor
}

fn bytes(q: &str) -> u64 {
    for (suffix, factor) in [("Ki", 1024), ("Mi", MI), ("Gi", 1024 * MI)] {
        if let Some(n) = q.strip_suffix(suffix) {
            return n.parse::<u64>().unwrap_or_else(|_| panic!("memory {q}")) * factor;
        }
    }
    q.parse().unwrap_or_else(|_| panic!("memory {q}"))
}

/// kubectl's cells for a usage: `"<ceil(nanocores/10⁶)>m"`, `"<bytes/Mi>Mi"`.
fn cells(nano: u64, b: u64) -> (String, String) {
    (
        format!("{}m", nano.div_ceil(1_000_000)),
        format!("{}Mi", b / MI),
    )
}

/// The usage of an object (`usage`, or the sum of `containers[].usage`).
fn total(m: &Value) -> (u64, u64) {
    if let Some(u) = m.get("usage") {
        return (
            nanocores(u["cpu"].as_str().unwrap_or("0")),
            bytes(u["memory"].as_str().unwrap_or("0")),
        );
    }
    m["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .fold((0, 0), |(c, b), x| {
            (
                c + nanocores(x["usage"]["cpu"].as_str().unwrap_or("0")),
                b + bytes(x["usage"]["memory"].as_str().unwrap_or("0")),
            )
        })
}

fn rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .skip(1)
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect()
}

/// Runs `kubectl args` between two reads of `path`; retries (a few times) until both reads
/// carry the same sample `timestamp`, so kubectl read that sample too. Returns its stdout and
/// the served object.
async fn in_one_window(
    bin: &Path,
    sim: &Simulator,
    cache: &Path,
    args: &[&str],
    path: &str,
) -> (String, Value) {
    for _ in 0..5 {
        let before = json(sim, path).await;
        let (ok, out, err) = run_bin(bin, sim.kubeconfig_path(), cache, args, &[]).await;
        assert!(ok, "kubectl {args:?} failed: {err}\n{out}");
        let after = json(sim, path).await;
        let stamp = |v: &Value| {
            v.get("items")
                .and_then(|i| i.get(0))
                .unwrap_or(v)
                .get("timestamp")
                .cloned()
        };
        if stamp(&before).is_some() && stamp(&before) == stamp(&after) {
            return (out, after);
        }
    }
    panic!("five kubectl runs each crossed a sample boundary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_top_prints_the_served_values() {
    let versions = kubectls();
    if versions.is_empty() {
        return;
    }
    let sim = start(&["hello"], true).await;
    let store = sim.store();
    // Both containers of hello have a sample once they ran at a grid point.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let m = json(
            &sim,
            "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/hello",
        )
        .await;
        if m["containers"].as_array().map(Vec::len) == Some(2) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "hello has metrics: {m}"
        );
        let seen = store.now().as_second();
        assert!(wait_until(Duration::from_secs(20), || store.now().as_second() > seen).await);
    }
    let pods = "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods";
    for (version, bin) in versions {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = dir.path();

        let (out, list) =
            in_one_window(&bin, &sim, cache, &["top", "pod", "--containers"], pods).await;
        let header: Vec<&str> = out
            .lines()
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        assert_eq!(
            header,
            ["POD", "NAME", "CPU(cores)", "MEMORY(bytes)"],
            "{version}"
        );
        let mut expected = Vec::new();
        for m in list["items"].as_array().into_iter().flatten() {
            for c in m["containers"].as_array().into_iter().flatten() {
                let (cpu, mem) = cells(
                    nanocores(c["usage"]["cpu"].as_str().unwrap_or("0")),
                    bytes(c["usage"]["memory"].as_str().unwrap_or("0")),
                );
                let pod = m["metadata"]["name"].as_str().unwrap_or("").to_owned();
                let name = c["name"].as_str().unwrap_or("").to_owned();
                expected.push(vec![pod, name, cpu, mem]);
            }
        }
        let mut got = rows(&out);
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "{version}: {out}");

        let one = format!("{pods}/hello");
        let (out, m) = in_one_window(&bin, &sim, cache, &["top", "pod", "hello"], &one).await;
        let (cpu, mem) = total(&m);
        let (cpu, mem) = cells(cpu, mem);
        assert_eq!(
            rows(&out),
            [vec!["hello".to_owned(), cpu, mem]],
            "{version}: {out}"
        );

        // `kubectl get podmetrics` asks for metrics-server's Table: the summed quantities.
        let (out, m) =
            in_one_window(&bin, &sim, cache, &["get", "podmetrics", "hello"], &one).await;
        let (cpu, mem) = total(&m);
        let header: Vec<&str> = out
            .lines()
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        assert_eq!(header, ["NAME", "CPU", "MEMORY", "WINDOW"], "{version}");
        assert_eq!(
            rows(&out),
            [vec![
                "hello".to_owned(),
                quantity::cpu(cpu),
                quantity::memory(mem),
                "15s".to_owned()
            ]],
            "{version}: {out}"
        );

        let (out, list) = in_one_window(
            &bin,
            &sim,
            cache,
            &["top", "pod", "-A"],
            "/apis/metrics.k8s.io/v1beta1/pods",
        )
        .await;
        let header: Vec<&str> = out
            .lines()
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        assert_eq!(
            header,
            ["NAMESPACE", "NAME", "CPU(cores)", "MEMORY(bytes)"],
            "{version}"
        );
        assert_eq!(
            rows(&out).len(),
            list["items"].as_array().map_or(0, Vec::len),
            "{out}"
        );

        let (out, node) = in_one_window(
            &bin,
            &sim,
            cache,
            &["top", "node"],
            "/apis/metrics.k8s.io/v1beta1/nodes/sim-node-1",
        )
        .await;
        let (cpu_n, mem_b) = total(&node);
        let (cpu, mem) = cells(cpu_n, mem_b);
        let cpu_pct = format!(
            "{}%",
            cpu_n.div_ceil(1_000_000) * 100 / ALLOCATABLE_MILLICORES
        );
        let mem_pct = format!("{}%", mem_b * 100 / ALLOCATABLE_BYTES);
        assert_eq!(
            rows(&out),
            [vec!["sim-node-1".to_owned(), cpu, cpu_pct, mem, mem_pct]],
            "{version}: {out}"
        );
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_top_without_metrics_says_the_api_is_not_available() {
    let versions = kubectls();
    if versions.is_empty() {
        return;
    }
    let sim = start(&["hello"], false).await;
    for (version, bin) in versions {
        let dir = tempfile::tempdir().expect("tempdir");
        for args in [&["top", "pod"][..], &["top", "node"][..]] {
            let (ok, out, err) = run_bin(&bin, sim.kubeconfig_path(), dir.path(), args, &[]).await;
            assert!(!ok, "{version} {args:?}: {out}");
            assert!(
                err.lines().any(|l| l == "error: Metrics API not available"),
                "{version} {args:?}: {err}"
            );
        }
    }
    sim.shutdown().await;
}

/// Starts the `podscope sim` binary with `args` and waits for its kubeconfig line.
async fn podscope_sim(args: &[&str], kc: &Path) -> tokio::process::Child {
    use tokio::io::AsyncBufReadExt as _;
    let mut sim = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("sim")
        .args(args)
        .arg("--kubeconfig-out")
        .arg(kc)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("podscope sim starts");
    let mut lines = tokio::io::BufReader::new(sim.stdout.take().expect("stdout")).lines();
    let ready = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.starts_with("kubeconfig: ") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(ready, Ok(true), "podscope sim printed no kubeconfig line");
    // Keep reading: a closed pipe would make the sim's next line (`try: …`) fail and exit it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    sim
}

/// The binary's flags: `--metric-resolution 2s` sets the window, `--no-metrics` removes the
/// group, `--metric-resolution 0s` is a clap error (exit 2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_sim_flags_set_the_resolution_and_remove_the_group() {
    let bad = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args(["sim", "--metric-resolution", "0s"])
        .output()
        .await
        .expect("podscope runs");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("the resolution must be at least 1s"), "{err}");
    let Some(bin) = kubectl() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let kc = dir.path().join("on.kubeconfig");
    let mut sim = podscope_sim(&["--metric-resolution", "2s"], &kc).await;
    let path = "/apis/metrics.k8s.io/v1beta1/nodes/sim-node-1";
    let (ok, out, err) = run_bin(&bin, &kc, &cache, &["get", "--raw", path], &[]).await;
    assert!(ok, "{err}");
    let node: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(node["window"], "2s", "{out}");
    let _ = sim.start_kill();
    let _ = sim.wait().await;

    let kc = dir.path().join("off.kubeconfig");
    let mut sim = podscope_sim(&["--no-metrics"], &kc).await;
    let (ok, _, err) = run_bin(&bin, &kc, &cache, &["top", "node"], &[]).await;
    assert!(!ok);
    assert_eq!(err, "error: Metrics API not available\n");
    let _ = sim.start_kill();
    let _ = sim.wait().await;
}
