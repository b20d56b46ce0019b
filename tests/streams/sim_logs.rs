//! Logs against the simulator: fixture logs through real kubectl, the kubelet's and apiserver's
//! exact 400 messages (`docs/protocols.md` §2.3).

use crate::common;
use common::cluster::{case, file_lines, kubectl, name_ns, run as run_kubectl};
use common::sim::{raw_get, start_frozen};
use k8s_openapi::api::core::v1::ContainerStatus;
use podscope::sim::load_fixture;
use regex::Regex;
use serde_json::Value;

/// The name of the first of `statuses` that has (`terminated`) or has not a
/// `lastState.terminated`.
fn first_with_last_terminated(statuses: &[ContainerStatus], terminated: bool) -> Option<String> {
    statuses
        .iter()
        .find(|s| {
            s.last_state
                .as_ref()
                .and_then(|l| l.terminated.as_ref())
                .is_some()
                == terminated
        })
        .map(|s| s.name.clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_logs_previous_prints_the_previous_run() {
    if kubectl().is_none() {
        return;
    }
    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let cache = tempfile::tempdir().expect("tempdir");
    let want = file_lines(&dir, "logs-previous.txt");

    let (ok, out, err) = run_kubectl(
        &sim,
        cache.path(),
        &["logs", &name, "-n", &ns, "--previous"],
    )
    .await;
    assert!(ok, "kubectl logs --previous failed: {err}");
    assert_eq!(out.lines().collect::<Vec<_>>(), want);

    // CrashLoopBackOff: without --previous the kubelet serves the last terminated run too.
    let (ok, out, err) = run_kubectl(&sim, cache.path(), &["logs", &name, "-n", &ns]).await;
    assert!(ok, "kubectl logs failed: {err}");
    assert_eq!(out.lines().collect::<Vec<_>>(), want);

    let (ok, out, err) = run_kubectl(
        &sim,
        cache.path(),
        &[
            "logs",
            &name,
            "-n",
            &ns,
            "--previous",
            "--tail=2",
            "--timestamps",
        ],
    )
    .await;
    assert!(ok, "kubectl logs --tail failed: {err}");
    let stamp = Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z ").expect("regex");
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), 2, "{out}");
    for (line, want) in got.iter().zip(&want[want.len() - 2..]) {
        assert!(stamp.is_match(line), "timestamp prefix: {line}");
        assert_eq!(&line[31..], want.as_str());
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_errors_use_the_exact_kubelet_and_apiserver_messages() {
    let dir = case("29-");
    let fx = load_fixture(&dir).expect("fixture");
    let (name, ns) = name_ns(&dir);
    let statuses = fx
        .pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .expect("statuses");
    let never_restarted = first_with_last_terminated(&statuses, false)
        .expect("a container without lastState.terminated");
    let restarted =
        first_with_last_terminated(&statuses, true).expect("a container with lastState.terminated");
    let names: Vec<String> = fx
        .pod
        .spec
        .as_ref()
        .expect("spec")
        .containers
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert!(names.len() > 1, "case 29 has several containers");
    let sim = start_frozen(std::slice::from_ref(&dir)).await;

    // Multi-container pod without `container`: apiserver BadRequest (raw: kubectl defaults client-side).
    let raw = raw_get(&sim, &format!("/api/v1/namespaces/{ns}/pods/{name}/log")).await;
    assert!(raw.starts_with("HTTP/1.1 400"), "{raw}");
    let status: Value =
        serde_json::from_str(raw.lines().last().expect("body")).expect("Status JSON");
    assert_eq!(status["reason"], "BadRequest");
    assert_eq!(status["code"], 400);
    assert_eq!(
        status["message"],
        format!(
            "a container name must be specified for pod {name}, choose one of: [{}]",
            names.join(" ")
        )
    );

    let raw = raw_get(
        &sim,
        &format!("/api/v1/namespaces/{ns}/pods/{name}/log?container=nope"),
    )
    .await;
    assert!(
        raw.contains(&format!(
            "\"message\":\"container nope is not valid for pod {name}\""
        )),
        "{raw}"
    );

    let raw = raw_get(&sim, &format!("/api/v1/namespaces/{ns}/pods/absent/log")).await;
    assert!(
        raw.starts_with("HTTP/1.1 404") && raw.contains(r#""message":"pods \"absent\" not found""#),
        "{raw}"
    );

    if kubectl().is_some() {
        let cache = tempfile::tempdir().expect("tempdir");
        let (ok, _, err) = run_kubectl(
            &sim,
            cache.path(),
            &[
                "logs",
                &name,
                "-n",
                &ns,
                "-c",
                &never_restarted,
                "--previous",
            ],
        )
        .await;
        assert!(!ok);
        assert_eq!(
            err.trim(),
            format!(
                "Error from server (BadRequest): previous terminated container \"{never_restarted}\" in pod \"{name}\" not found"
            )
        );
        let (ok, out, err) = run_kubectl(
            &sim,
            cache.path(),
            &["logs", &name, "-n", &ns, "-c", &restarted, "--previous"],
        )
        .await;
        assert!(ok, "{err}");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            file_lines(&dir, "logs-previous.txt")
        );
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_container_reports_why() {
    if kubectl().is_none() {
        return;
    }
    let dir = case("13-");
    let fx = load_fixture(&dir).expect("fixture");
    let (name, ns) = name_ns(&dir);
    let status = &fx
        .pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .expect("statuses")[0];
    let reason = status
        .state
        .as_ref()
        .and_then(|s| s.waiting.as_ref())
        .and_then(|w| w.reason.clone());
    assert_eq!(reason.as_deref(), Some("ImagePullBackOff"));
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, _, err) = run_kubectl(&sim, cache.path(), &["logs", &name, "-n", &ns]).await;
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "Error from server (BadRequest): container \"{}\" in pod \"{name}\" is waiting to start: trying and failing to pull image",
            status.name
        )
    );
    sim.shutdown().await;
}
