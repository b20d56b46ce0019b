//! `podscope POD --once -o json` against the simulator, for every case in assets/cases:
//! the kubectl columns from expected.md, kubelet order, and (where kubectl is on PATH) agreement
//! with `kubectl get pod` against the same server.

use crate::common;
use std::process::Command;

use podscope::sim::Simulator;

fn podscope_json(sim: &Simulator, ns: &str, pod: &str, now: jiff::Timestamp) -> serde_json::Value {
    let out = common::sim::podscope_once(sim.kubeconfig_path(), ns, pod, now);
    assert!(
        out.status.success(),
        "podscope --once failed for {pod}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON on stdout")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_json_matches_expected_for_every_case() {
    let kubectl = common::cluster::kubectl();
    let dirs = common::cluster::case_dirs();
    assert!(
        dirs.len() >= 20,
        "expected the case corpus, found {}",
        dirs.len()
    );
    for dir in dirs {
        let (sim, exp, ns) = common::sim::start_case(&common::cluster::case_name(&dir), &[]).await;
        let doc = tokio::task::block_in_place(|| podscope_json(&sim, &ns, &exp.name, exp.now));
        let case = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_owned();
        let pod = &doc["pod"];
        assert_eq!(pod["name"], exp.name.as_str(), "{case}");
        assert_eq!(pod["namespace"], ns.as_str(), "{case}");
        assert_eq!(pod["ready"], exp.ready.as_str(), "{case} READY");
        assert_eq!(pod["status"], exp.status.as_str(), "{case} STATUS");
        assert_eq!(pod["restarts"], exp.restarts.as_str(), "{case} RESTARTS");
        assert_eq!(pod["age"], exp.age.as_str(), "{case} AGE");

        // Containers in kubelet order: init/sidecar (spec order), main, ephemeral.
        let raw: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("pod.json")).expect("pod.json"))
                .expect("json");
        let mut want: Vec<(String, &str)> = Vec::new();
        for c in raw["spec"]["initContainers"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let kind = if c["restartPolicy"] == "Always" {
                "sidecar"
            } else {
                "init"
            };
            want.push((c["name"].as_str().unwrap_or("").to_owned(), kind));
        }
        for c in raw["spec"]["containers"].as_array().into_iter().flatten() {
            want.push((c["name"].as_str().unwrap_or("").to_owned(), "main"));
        }
        for c in raw["spec"]["ephemeralContainers"]
            .as_array()
            .into_iter()
            .flatten()
        {
            want.push((c["name"].as_str().unwrap_or("").to_owned(), "ephemeral"));
        }
        let got: Vec<(String, &str)> = doc["containers"]
            .as_array()
            .expect("containers array")
            .iter()
            .take(want.len())
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or("").to_owned(),
                    c["type"].as_str().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(got, want, "{case}: kubelet order");

        // Every CrashLoopBackOff container has a countdown; nothing else has one.
        for c in doc["containers"].as_array().into_iter().flatten() {
            let crashloop = c["state"]["waiting"]["reason"] == "CrashLoopBackOff";
            assert_eq!(
                !c["backoff"].is_null(),
                crashloop,
                "{case}/{}: backoff presence",
                c["name"]
            );
        }

        if let Some(kubectl) = &kubectl {
            let out = Command::new(kubectl)
                .arg("--kubeconfig")
                .arg(sim.kubeconfig_path())
                .args(["get", "pod", &exp.name, "-n", &ns, "--no-headers"])
                .output()
                .expect("kubectl runs");
            assert!(
                out.status.success(),
                "{case}: kubectl failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let line = String::from_utf8_lossy(&out.stdout).to_string();
            // NAME READY STATUS RESTARTS... (RESTARTS may be "5 (70s ago)")
            let cols: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(
                cols[1],
                pod["ready"].as_str().unwrap_or(""),
                "{case}: kubectl READY"
            );
            assert_eq!(
                cols[2],
                pod["status"].as_str().unwrap_or(""),
                "{case}: kubectl STATUS"
            );
            let restarts = pod["restarts"].as_str().unwrap_or("");
            assert!(
                line.contains(restarts),
                "{case}: kubectl RESTARTS {line:?} vs {restarts:?}"
            );
        }
        sim.shutdown().await;
    }
}

/// Case 21 on the simulator: the pod's Job owner is asked for once (the simulator stores no Jobs
/// and answers `jobs.batch "cron-sync-28194180" not found`, as an API server whose Job was
/// deleted does), so the JSON says the owner is gone and how to release the pod.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_json_diagnoses_the_finalizer_and_the_missing_owner() {
    let (sim, exp, ns) =
        common::sim::start_case("21-terminating-job-tracking-finalizer", &[]).await;
    let doc = tokio::task::block_in_place(|| podscope_json(&sim, &ns, &exp.name, exp.now));
    let pod = &doc["pod"];
    assert_eq!(
        pod["finalizers"],
        serde_json::json!(["batch.kubernetes.io/job-tracking"])
    );
    assert_eq!(pod["owner"]["kind"], "Job");
    assert_eq!(pod["owner"]["name"], "cron-sync-28194180");
    assert_eq!(pod["owner"]["exists"], false);
    assert_eq!(
        pod["deletion"]["diagnosis"],
        "deleted 2d3h ago, held by finalizer batch.kubernetes.io/job-tracking; \
         owner Job cron-sync-28194180 is gone: nothing will remove it"
    );
    let hint = pod["deletion"]["hint"].as_str().unwrap_or("");
    assert!(hint.contains("--type=json"), "{hint}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_reports_a_missing_pod_like_kubectl() {
    let dir = common::cluster::case_dirs().remove(0);
    let (sim, _, ns) = common::sim::start_case(&common::cluster::case_name(&dir), &[]).await;
    let out = tokio::task::block_in_place(|| {
        Command::new(env!("CARGO_BIN_EXE_podscope"))
            .arg("--kubeconfig")
            .arg(sim.kubeconfig_path())
            .args(["-n", &ns, "no-such-pod", "--once"])
            .output()
            .expect("podscope runs")
    });
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "pods \"no-such-pod\" not found in namespace \"{ns}\""
        )),
        "{err}"
    );
    sim.shutdown().await;
}

#[test]
fn unknown_context_lists_known_ones_and_exits_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let kc = dir.path().join("config");
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:9\ncontexts:\n- name: alpha\n  context:\n    cluster: c\n    user: u\n- name: beta\n  context:\n    cluster: c\n    user: u\ncurrent-context: alpha\nusers:\n- name: u\n  user: {}\n",
    )
    .expect("write kubeconfig");
    let out = Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("--kubeconfig")
        .arg(&kc)
        .args(["--context", "gamma", "web", "--once"])
        .output()
        .expect("podscope runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("context \"gamma\" does not exist"), "{err}");
    assert!(err.contains("alpha, beta"), "{err}");
}

#[test]
fn missing_kubeconfig_file_exits_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args(["--kubeconfig", "/nonexistent/kubeconfig", "web"])
        .output()
        .expect("podscope runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read kubeconfig /nonexistent/kubeconfig"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn unreachable_server_exits_2_before_the_tui() {
    let dir = tempfile::tempdir().expect("tempdir");
    let kc = dir.path().join("config");
    // Port 9 (discard) on loopback: nothing listens there.
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:9\ncontexts:\n- name: a\n  context:\n    cluster: c\n    user: u\ncurrent-context: a\nusers:\n- name: u\n  user: {}\n",
    )
    .expect("write kubeconfig");
    let out = Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("--kubeconfig")
        .arg(&kc)
        .args(["web"])
        .output()
        .expect("podscope runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot get pods in namespace \"default\""),
        "{err}"
    );
}
