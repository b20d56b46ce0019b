//! `metrics.k8s.io/v1beta1` over raw HTTP (`docs/metrics.md`): discovery, the PodMetrics and
//! NodeMetrics objects in metrics-server's shape (units, `window`, `timestamp` on the
//! resolution grid, identical numbers within one window), selectors, 404s, the OOM program's
//! memory rising to its limit before the OOMKilled, and `--no-metrics` (the group absent, its
//! paths 404).

use crate::common;
use std::path::PathBuf;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use podscope::sim::metrics::MetricsConfig;
use podscope::sim::{SimClock, SimConfig, Simulator, Store};
use serde_json::Value;

use common::sim::raw_get;
use common::wait::wait_until;

const MI: u64 = 1024 * 1024;

/// A simulator on a clock `speed`× real time with `scenarios` and metrics at `resolution`
/// seconds (`None`: metrics off).
async fn start(speed: f64, scenarios: &[&str], resolution: Option<u64>) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, speed),
        scenarios: scenarios.iter().map(PathBuf::from).collect(),
        metrics: MetricsConfig {
            enabled: resolution.is_some(),
            resolution: Duration::from_secs(resolution.unwrap_or(15)),
        },
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// The status code and JSON body of a raw HTTP response.
fn parse(raw: &str) -> (u16, Value) {
    let code = raw
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let text = raw.split("\r\n\r\n").nth(1).unwrap_or("");
    (code, serde_json::from_str(text).unwrap_or(Value::Null))
}

async fn get(sim: &Simulator, path: &str) -> (u16, Value) {
    parse(&raw_get(sim, path).await)
}

fn running(store: &Store, name: &str) -> bool {
    store.pod("default", name).is_some_and(|p| {
        p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
            && p.status
                .as_ref()
                .and_then(|s| s.container_statuses.as_ref())
                .is_some_and(|cs| {
                    cs.iter()
                        .all(|c| c.state.as_ref().is_some_and(|s| s.running.is_some()))
                })
    })
}

/// Nanocores of a metrics-server CPU quantity (`"2398029n"`, `"5m"`, `"1"`).
fn nanocores(q: &str) -> u64 {
    let (num, factor) = match q.as_bytes().last() {
        Some(b'n') => (&q[..q.len() - 1], 1),
        Some(b'u') => (&q[..q.len() - 1], 1_000),
        Some(b'm') => (&q[..q.len() - 1], 1_000_000),
        _ => (q, 1_000_000_000),
    };
    num.parse::<u64>().unwrap_or_else(|_| panic!("cpu {q}")) * factor
}

/// Bytes of a metrics-server memory quantity (`"14624Ki"`, `"12Mi"`, `"1023"`).
fn bytes(q: &str) -> u64 {
    for (suffix, factor) in [("Ki", 1024), ("Mi", MI), ("Gi", 1024 * MI)] {
        if let Some(n) = q.strip_suffix(suffix) {
            return n.parse::<u64>().unwrap_or_else(|_| panic!("memory {q}")) * factor;
        }
    }
    q.parse().unwrap_or_else(|_| panic!("memory {q}"))
}

fn container<'a>(m: &'a Value, name: &str) -> &'a Value {
    m["containers"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("container {name} in {m}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pod_and_node_metrics_have_metrics_servers_shape() {
    // 4× real time: the next 1-minute grid point comes within 15 real seconds.
    let sim = start(4.0, &["hello", "image-pull"], Some(60)).await;
    let store = sim.store();
    assert!(
        wait_until(Duration::from_secs(30), || running(&store, "hello")).await,
        "hello runs"
    );

    let (code, apis) = get(&sim, "/apis").await;
    assert_eq!(code, 200);
    let group = apis["groups"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == "metrics.k8s.io"))
        .unwrap_or_else(|| panic!("metrics.k8s.io in {apis}"));
    assert_eq!(
        group["preferredVersion"]["groupVersion"],
        "metrics.k8s.io/v1beta1"
    );
    let (code, res) = get(&sim, "/apis/metrics.k8s.io/v1beta1").await;
    assert_eq!(code, 200);
    let kinds: Vec<(&str, &str, bool)> = res["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap_or(""),
                r["kind"].as_str().unwrap_or(""),
                r["namespaced"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("nodes", "NodeMetrics", false),
            ("pods", "PodMetrics", true)
        ]
    );
    assert_eq!(
        res["resources"][1]["verbs"],
        serde_json::json!(["get", "list"])
    );

    // The hello pod: main container and its sidecar (a restartable init container). A container
    // has a sample once it ran at the sample's instant: wait for the next grid point.
    let started = store.now();
    assert!(
        wait_until(Duration::from_secs(30), || {
            store.now().as_second() / 60 > started.as_second() / 60
        })
        .await,
        "a new sample"
    );
    let path = "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/hello";
    let (code, m) = get(&sim, path).await;
    assert_eq!(code, 200, "{m}");
    let (_, again) = get(&sim, path).await;
    assert_eq!(m["kind"], "PodMetrics");
    assert_eq!(m["apiVersion"], "metrics.k8s.io/v1beta1");
    assert_eq!(m["metadata"]["name"], "hello");
    assert_eq!(m["metadata"]["namespace"], "default");
    assert_eq!(m["metadata"]["labels"]["app.kubernetes.io/name"], "hello");
    assert_eq!(m["window"], "1m0s");
    let ts: Timestamp = m["timestamp"]
        .as_str()
        .expect("timestamp")
        .parse()
        .expect("rfc3339");
    assert_eq!(ts.as_second() % 60, 0, "on the grid: {ts}");
    let now = store.now();
    assert!(
        ts <= now && now.duration_since(ts) < SignedDuration::from_secs(60),
        "{ts} at {now}"
    );
    if again["timestamp"] == m["timestamp"] {
        assert_eq!(
            again["containers"], m["containers"],
            "one window, one sample"
        );
    }
    let hello = container(&m, "hello");
    let cpu = hello["usage"]["cpu"].as_str().expect("cpu");
    let mem = hello["usage"]["memory"].as_str().expect("memory");
    assert!(cpu.ends_with('n'), "nanocores: {cpu}");
    assert!(mem.ends_with("Ki"), "whole pages in Ki: {mem}");
    assert!(
        (1_000_000..=3_000_000).contains(&nanocores(cpu)),
        "hello cpu {cpu}"
    );
    assert!(
        (11 * MI..13 * MI).contains(&bytes(mem)),
        "hello memory {mem}"
    );
    let proxy = container(&m, "proxy");
    assert!(bytes(proxy["usage"]["memory"].as_str().expect("memory")) < 5 * MI);

    // Lists: by namespace, across namespaces, by label and by name; the pod that never pulls
    // its image has no sample.
    let (_, list) = get(&sim, "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods").await;
    assert_eq!(list["kind"], "PodMetricsList");
    let names: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["metadata"]["name"].as_str())
        .collect();
    assert_eq!(names, ["hello"]);
    let (code, _) = get(&sim, "/apis/metrics.k8s.io/v1beta1/pods?watch=true").await;
    assert_eq!(code, 405, "no watch");
    let (_, all) = get(&sim, "/apis/metrics.k8s.io/v1beta1/pods").await;
    assert_eq!(all["items"].as_array().map(Vec::len), Some(1));
    let (_, none) = get(
        &sim,
        "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?labelSelector=app.kubernetes.io%2Fname%3Dother",
    )
    .await;
    assert_eq!(none["items"], serde_json::json!([]));
    let (_, by_name) = get(
        &sim,
        "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?fieldSelector=metadata.name%3Dhello",
    )
    .await;
    assert_eq!(by_name["items"].as_array().map(Vec::len), Some(1));
    let (code, err) = get(
        &sim,
        "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?fieldSelector=spec.nodeName%3Dx",
    )
    .await;
    assert_eq!(
        (code, err["message"].as_str()),
        (
            400,
            Some(
                "\"spec.nodeName\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
            )
        )
    );
    let pending = store
        .list(podscope::sim::Resource::Pods, Some("default"))
        .0
        .into_iter()
        .map(|o| o.name().to_owned())
        .find(|n| n != "hello")
        .expect("the image-pull pod");
    let (code, err) = get(
        &sim,
        &format!("/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/{pending}"),
    )
    .await;
    assert_eq!(code, 404);
    assert_eq!(
        err["message"],
        format!("podmetrics.metrics.k8s.io \"default/{pending}\" not found")
    );
    let (code, err) = get(
        &sim,
        "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nope",
    )
    .await;
    assert_eq!(
        (code, err["message"].as_str()),
        (404, Some("pods \"nope\" not found"))
    );

    // The node: the sum of its pods plus the system's share.
    let (code, node) = get(&sim, "/apis/metrics.k8s.io/v1beta1/nodes/sim-node-1").await;
    assert_eq!(code, 200, "{node}");
    assert_eq!(node["kind"], "NodeMetrics");
    assert_eq!(node["window"], "1m0s");
    let (_, pod) = get(&sim, path).await;
    if node["timestamp"] == pod["timestamp"] {
        let pod_cpu: u64 = pod["containers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| nanocores(c["usage"]["cpu"].as_str().unwrap_or("0")))
            .sum();
        let node_cpu = nanocores(node["usage"]["cpu"].as_str().expect("cpu"));
        assert!(node_cpu > pod_cpu + 80_000_000, "{node} vs {pod}");
    }
    let (_, nodes) = get(&sim, "/apis/metrics.k8s.io/v1beta1/nodes").await;
    assert_eq!(nodes["kind"], "NodeMetricsList");
    assert_eq!(nodes["items"][0]["metadata"]["name"], "sim-node-1");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_oom_program_grows_to_its_limit_before_the_oomkill() {
    // 45 virtual seconds at 5× are 9 real ones; a 1 s resolution samples each virtual second.
    let sim = start(5.0, &["oomkilled"], Some(1)).await;
    let store = sim.store();
    let path = "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/coord-2";
    let mut readings: Vec<(String, u64)> = Vec::new();
    let killed = |store: &Store| {
        store.pod("default", "coord-2").is_some_and(|p| {
            p.status
                .and_then(|s| s.container_statuses)
                .into_iter()
                .flatten()
                .any(|c| {
                    c.last_state
                        .and_then(|s| s.terminated)
                        .is_some_and(|t| t.reason.as_deref() == Some("OOMKilled"))
                })
        })
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !killed(&store) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "OOMKilled within 60 s"
        );
        let seen = store.now().as_second();
        assert!(
            wait_until(Duration::from_secs(5), || store.now().as_second() > seen).await,
            "the clock moves"
        );
        let (code, m) = get(&sim, path).await;
        if code != 200 || killed(&store) {
            continue;
        }
        let mem = bytes(
            container(&m, "coord")["usage"]["memory"]
                .as_str()
                .expect("memory"),
        );
        let ts = m["timestamp"].as_str().unwrap_or_default().to_owned();
        if readings.last().is_none_or(|(t, _)| *t != ts) {
            readings.push((ts, mem));
        }
    }
    assert!(readings.len() >= 5, "{readings:?}");
    assert!(
        readings.windows(2).all(|w| w[1].1 > w[0].1),
        "memory rises window after window: {readings:?}"
    );
    let last = readings.last().map_or(0, |r| r.1);
    assert!(
        last * 10 >= 512 * MI * 9,
        "≥ 90 % of 512Mi before the kill: {readings:?}"
    );
    assert!(last <= 512 * MI);
    assert!(readings[0].1 >= 384 * MI, "from -Xms384m: {readings:?}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_metrics_the_group_is_absent() {
    let sim = start(1.0, &["hello"], None).await;
    let (_, apis) = get(&sim, "/apis").await;
    let names: Vec<&str> = apis["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .filter_map(|g| g["name"].as_str())
        .collect();
    assert!(!names.contains(&"metrics.k8s.io"), "{names:?}");
    assert!(names.contains(&"apps"));
    for path in [
        "/apis/metrics.k8s.io",
        "/apis/metrics.k8s.io/v1beta1",
        "/apis/metrics.k8s.io/v1beta1/pods",
        "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/hello",
        "/apis/metrics.k8s.io/v1beta1/nodes/sim-node-1",
    ] {
        let (code, body) = get(&sim, path).await;
        assert_eq!(code, 404, "{path}");
        assert_eq!(
            body["message"], "the server could not find the requested resource",
            "{path}"
        );
    }
    sim.shutdown().await;
}
