//! The official Kubernetes Python client (`kubernetes`, pinned in tests/python/requirements.txt)
//! against the simulator: discovery, watch, logs with every parameter, exec with binary and text
//! frames, resize, port-forward (tests/python/official.py does the calls). The expected values
//! are the API's documented behaviour and the seed article's captured output (`hello from
//! hello`, hello's `listening on [::]:8080` and `GET /` lines, crash's `unknown port`).

use crate::common;
use std::path::Path;

use common::python;
use common::sim::{scenario, wait_pod};
use k8s_openapi::api::core::v1::Pod;
use podscope::sim::{SimConfig, Simulator};
use regex::Regex;
use serde_json::{Value, json};

/// A simulator (real clock) running the seed's `hello` and `crash` pods; waits until hello's
/// containers are ready and crash has restarted once.
async fn start() -> Simulator {
    let sim = Simulator::start(SimConfig {
        scenarios: vec![scenario("hello.yaml"), scenario("crash.yaml")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    wait_pod(&sim.store(), "hello", 60, containers_ready).await;
    wait_pod(&sim.store(), "crash", 60, |p| restarts(p) >= 1).await;
    sim
}

fn containers_ready(p: &Pod) -> bool {
    p.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .is_some_and(|v| !v.is_empty() && v.iter().all(|c| c.ready))
}

fn restarts(p: &Pod) -> i32 {
    p.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|v| v.first())
        .map_or(0, |c| c.restart_count)
}

async fn py(sim: &Simulator, python: &Path, args: &[&str]) -> Value {
    python::run_async(
        python.to_path_buf(),
        "official.py",
        sim.kubeconfig_path().to_path_buf(),
        args,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_from_the_lists_resource_version_sees_added_modified_deleted() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start().await;
    let out = py(&sim, &python, &["watch"]).await;
    assert_eq!(out["listed"], 0, "{out}");
    let events: Vec<(String, String)> = out["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| {
            (
                e[0].as_str().unwrap_or("").into(),
                e[1].as_str().unwrap_or("").into(),
            )
        })
        .collect();
    assert_eq!(
        events.first(),
        Some(&("ADDED".into(), "watched".into())),
        "{out}"
    );
    assert_eq!(
        events.last(),
        Some(&("DELETED".into(), "watched".into())),
        "{out}"
    );
    assert!(
        events[1..events.len() - 1]
            .iter()
            .all(|(t, _)| t == "MODIFIED"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn port_forward_then_logs_with_every_parameter() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start().await;
    // The seed's request: port 8081 (nginx) proxies to hello, which logs the request.
    for _ in 0..2 {
        let out = py(&sim, &python, &["port_forward", "hello", "8081", "/"]).await;
        assert_eq!(
            out,
            json!({"status": "HTTP/1.1 200 OK", "body": "hello from hello\n"})
        );
    }
    let out = py(&sim, &python, &["logs", "hello", "hello"]).await;
    let lines: Vec<&str> = out["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].ends_with(" hello 1.0 listening on [::]:8080"),
        "{out}"
    );
    let get = Regex::new(r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d 127\.0\.0\.1:\d+ GET /$").expect("re");
    assert!(lines[1..].iter().all(|l| get.is_match(l)), "{out}");
    // timestamps=true: RFC 3339 with nanoseconds before each line.
    let ts = Regex::new(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$").expect("re");
    assert!(
        out["timestamps"]
            .as_array()
            .expect("timestamps")
            .iter()
            .all(|t| t.as_str().is_some_and(|t| ts.is_match(t))),
        "{out}"
    );
    assert_eq!(out["tail1"], format!("{}\n", lines[2]));
    assert_eq!(out["limit10"], lines[0][..10]);
    assert_eq!(out["since3600"], format!("{}\n", lines.join("\n")));

    let prev = py(&sim, &python, &["logs_previous", "crash"]).await;
    let unknown_port = Regex::new(
        r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d listen: listen tcp: lookup tcp/abc: unknown port\n$",
    )
    .expect("re");
    assert!(
        prev["previous"]
            .as_str()
            .is_some_and(|p| unknown_port.is_match(p)),
        "{prev}"
    );
    // The kubelet's answer for a container that never restarted, as the API server relays it.
    assert_eq!(
        prev["noPrevious"],
        "400 previous terminated container \"proxy\" in pod \"hello\" not found"
    );

    let follow = py(&sim, &python, &["logs_follow", "hello", "hello", "3"]).await;
    assert_eq!(follow["lines"], json!(lines), "{follow}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_with_binary_and_text_stdin_frames() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start().await;
    let out = py(&sim, &python, &["exec_binary"]).await;
    assert_eq!(
        out,
        json!({"stdout": "out\n", "stderr": "err\n", "returncode": 3})
    );
    for kind in ["binary", "text"] {
        let out = py(&sim, &python, &["exec_stdin", kind]).await;
        assert_eq!(
            (&out["stdout"], &out["returncode"], &out["protocol"]),
            (&json!("hello\n"), &json!(0), &json!("v5.channel.k8s.io")),
            "stdin as {kind} frames: {out}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resize_sent_as_text_reaches_the_terminal() {
    let Some(python) = python::python() else {
        return;
    };
    let sim = start().await;
    let out = py(&sim, &python, &["exec_resize"]).await;
    assert!(
        out["stdout"].as_str().is_some_and(|s| s.contains("40 120")),
        "{out}"
    );
    assert_eq!(out["returncode"], 0, "{out}");
}
