//! podscope's side of `metrics.k8s.io` against the simulator (`docs/usage.md`): `--once -o
//! json` usage equals what `kubectl top pod --containers` prints in the same window; the poll
//! probes once and stops without the group (`--no-metrics`) and on a refusal (403); through a
//! `Session`, the oomkilled scenario's samples rise to the limit, the warning comes before the
//! kill and the OOM finding quotes the last sample.

use crate::common;
use std::path::PathBuf;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use podscope::app::generation::Generation;
use podscope::app::{Msg, State, update};
use podscope::cluster::Session;
use podscope::cluster::target_tx::TargetTx;
use podscope::model::usage::MetricsApi;
use podscope::sim::metrics::MetricsConfig;
use podscope::sim::{SimClock, SimConfig, Simulator};
use serde_json::Value;

use common::cluster::{kubectl, run_bin};
use common::sim::raw_get;

/// A simulator `speed`× real time running `scenarios`, metrics every `resolution` seconds
/// (`None`: `--no-metrics`), refusing `deny`.
async fn start(
    speed: f64,
    scenarios: &[&str],
    resolution: Option<u64>,
    deny: &[(&str, &str)],
) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, speed),
        scenarios: scenarios.iter().map(PathBuf::from).collect(),
        metrics: MetricsConfig {
            enabled: resolution.is_some(),
            resolution: Duration::from_secs(resolution.unwrap_or(15)),
        },
        deny: deny
            .iter()
            .map(|(v, r)| ((*v).to_owned(), (*r).to_owned()))
            .collect(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

async fn served(sim: &Simulator, path: &str) -> Value {
    let raw = raw_get(sim, path).await;
    let text = raw.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// Runs the poll for `pod` to its end (at most 10 s) and returns what it sent.
async fn poll_to_end(sim: &Simulator, pod: &str) -> Vec<Msg> {
    let client = common::sim::client(sim).await;
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let stamped = TargetTx::new(tx, Generation::FIRST);
    tokio::time::timeout(
        Duration::from_secs(10),
        podscope::cluster::metrics::poll(client, "default".into(), pod.into(), stamped),
    )
    .await
    .expect("the poll ends by itself");
    let mut out = Vec::new();
    while let Ok(m) = rx.try_recv() {
        out.push(m.untagged());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_metrics_the_poll_probes_once_and_stops() {
    let sim = start(1.0, &["hello"], None, &[]).await;
    let before = sim.traffic();
    let msgs = poll_to_end(&sim, "hello").await;
    assert!(
        matches!(msgs.as_slice(), [Msg::MetricsStatus(MetricsApi::Absent)]),
        "{msgs:?}"
    );
    let served = sim.traffic().since(before);
    assert_eq!(served.requests, 1, "the probe only: {served:?}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_read_is_said_and_ends_the_poll() {
    let sim = start(1.0, &["hello"], Some(1), &[("get", "pods")]).await;
    let msgs = poll_to_end(&sim, "hello").await;
    let reasons: Vec<&str> = msgs
        .iter()
        .filter_map(|m| match m {
            Msg::MetricsStatus(MetricsApi::Forbidden(r)) => Some(r.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 1, "{msgs:?}");
    assert!(reasons[0].contains("forbidden"), "{}", reasons[0]);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_json_usage_is_what_kubectl_top_prints() {
    let Some(bin) = kubectl() else {
        return;
    };
    let sim = start(1.0, &["hello"], Some(15), &[]).await;
    let path = "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/hello";
    // Both containers are sampled once they ran at a grid point.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while served(&sim, path).await["containers"]
        .as_array()
        .map(Vec::len)
        != Some(2)
    {
        assert!(tokio::time::Instant::now() < deadline, "hello has metrics");
        let seen = sim.store().now().as_second();
        assert!(
            common::wait::wait_until(Duration::from_secs(5), || sim.store().now().as_second()
                > seen)
            .await,
            "the clock moves"
        );
    }
    let cache = tempfile::tempdir().expect("tempdir");
    for _ in 0..5 {
        let before = served(&sim, path).await["timestamp"].clone();
        let once = common::sim::podscope_once(
            sim.kubeconfig_path(),
            "default",
            "hello",
            sim.store().now(),
        );
        assert!(
            once.status.success(),
            "{}",
            String::from_utf8_lossy(&once.stderr)
        );
        let doc: Value = serde_json::from_slice(&once.stdout).expect("JSON");
        let (ok, top, err) = run_bin(
            &bin,
            sim.kubeconfig_path(),
            cache.path(),
            &["top", "pod", "hello", "--containers", "--no-headers"],
            &[],
        )
        .await;
        assert!(ok, "{err}");
        let after = served(&sim, path).await["timestamp"].clone();
        // Init containers that ran to completion have no sample (`usage: null`).
        let stamps: Vec<&Value> = doc["containers"]
            .as_array()
            .expect("containers")
            .iter()
            .map(|c| &c["usage"]["timestamp"])
            .filter(|t| !t.is_null())
            .collect();
        if before != after || stamps.len() != 2 || stamps.iter().any(|s| **s != before) {
            continue;
        }
        for row in top.lines() {
            let cells: Vec<&str> = row.split_whitespace().collect();
            let [_, name, cpu, memory] = cells[..] else {
                panic!("{row}");
            };
            let c = doc["containers"]
                .as_array()
                .and_then(|cs| cs.iter().find(|c| c["name"] == name))
                .unwrap_or_else(|| panic!("{name} in {doc}"));
            assert_eq!(c["usage"]["cpu"], cpu, "{name}: {top}");
            assert_eq!(c["usage"]["memory"], memory, "{name}: {top}");
            assert_eq!(c["usage"]["window"], "15s");
        }
        sim.shutdown().await;
        return;
    }
    panic!("five readings each crossed a window boundary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_session_sees_the_leak_warns_before_the_kill_and_quotes_the_last_sample() {
    let sim = start(5.0, &["oomkilled"], Some(1), &[]).await;
    let target = common::sim::target(&sim, "default", "coord-2").await;
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let mut state = State::new(
        "default",
        "coord-2",
        sim.store().now(),
        podscope::ui::theme::Theme::monochrome(),
    );
    let mut session = Session::start(target, tx);
    // When the warning was first seen on a running instance.
    let mut warned_at: Option<Timestamp> = None;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let quoted = |s: &State| {
        s.target.diagnosis.iter().any(|f| {
            f.rule == "oom-killed"
                && f.evidence
                    .iter()
                    .any(|e| e.starts_with("metrics.k8s.io: last seen "))
        })
    };
    while !quoted(&state) {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("the OOM finding quotes a sample within 60 s")
            .expect("channel open");
        for cmd in update(&mut state, msg) {
            session.execute(&cmd);
        }
        let now = sim.store().now();
        update(&mut state, Msg::Tick(now));
        let running = state
            .target
            .pod
            .as_ref()
            .and_then(|p| p.containers.first())
            .is_some_and(|c| matches!(c.state, podscope::model::ContainerState::Running { .. }));
        if running
            && warned_at.is_none()
            && state
                .target
                .diagnosis
                .iter()
                .any(|f| f.rule == "memory-near-limit" && f.headline.contains("of limit 512Mi"))
        {
            warned_at = Some(now);
        }
    }
    let warned_at = warned_at.expect("memory-near-limit while the container ran");
    let killed_at = state
        .target
        .pod
        .as_ref()
        .and_then(|p| p.containers.first())
        .and_then(|c| match &c.state {
            podscope::model::ContainerState::Terminated(t) => Some(t),
            _ => c.last_state.as_ref(),
        })
        .and_then(|t| t.finished_at)
        .expect("the kill's finishedAt");
    assert!(
        killed_at >= warned_at - SignedDuration::from_secs(5),
        "warned at {warned_at}, killed at {killed_at}"
    );
    let samples: Vec<i64> = state
        .target
        .usage
        .history
        .of("coord")
        .expect("coord")
        .samples
        .iter()
        .map(|s| s.memory_bytes)
        .collect();
    assert!(samples.len() >= 3, "{samples:?}");
    let f = state
        .target
        .diagnosis
        .iter()
        .find(|f| f.rule == "oom-killed")
        .expect("oom");
    let line = f
        .evidence
        .iter()
        .find(|e| e.starts_with("metrics.k8s.io: last seen "))
        .expect("quoted");
    assert!(
        line.contains(" of 512Mi (") && line.ends_with("before the kill"),
        "{line}"
    );
    session.execute(&podscope::app::Cmd::Quit);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_warns_from_its_one_sample_when_memory_nears_the_limit() {
    // The OOM program's memory grows to its 512Mi limit over 45 s of each run (docs/metrics.md),
    // so near the end of a run one `--once` sample is above 90 % of it.
    let sim = start(4.0, &["oomkilled"], Some(1), &[]).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    loop {
        let once = common::sim::podscope_once(
            sim.kubeconfig_path(),
            "default",
            "coord-2",
            sim.store().now(),
        );
        assert!(
            once.status.success(),
            "{}",
            String::from_utf8_lossy(&once.stderr)
        );
        let doc: Value = serde_json::from_slice(&once.stdout).expect("JSON");
        let near = doc["diagnosis"]
            .as_array()
            .and_then(|d| d.iter().find(|f| f["rule"] == "memory-near-limit"));
        if let Some(f) = near {
            let headline = f["headline"].as_str().unwrap_or_default();
            assert!(headline.starts_with("memory "), "{f}");
            assert!(headline.contains("of limit 512Mi ("), "{f}");
            assert!(
                headline.contains("one sample so far"),
                "a single reading has no trend: {f}"
            );
            assert_eq!(f["severity"], "warning", "{f}");
            assert_eq!(f["container"], "coord", "{f}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no --once reading above 90 % of the limit: {doc}"
        );
    }
    sim.shutdown().await;
}
