//! The seed article's `kubectl apply … && kubectl get pod -w` outputs reproduced with real
//! kubectl against the dynamic simulator (virtual clock at 10× speed). Oracles:
//! seeds/000_a32e298467e0f8f8.txt (hello and crash watch tables, `logs --previous`, lastState,
//! the back-off message) and docs/protocols.md §5 (restart back-off 0 s, 10 s, 20 s).

use crate::common;
use std::time::Duration;

use common::cluster::{finish, run, run_file, spawn};
use common::kubelet::{SEED_CRASH_WATCH, SEED_HELLO_WATCH, dedup, seed_rows};
use common::run::{Lines, collect};
use common::sim::{
    all_ready, scenario, start_dynamic_for_kubectl, wait_pod, wait_watchers, waiting_reason,
};
use common::wait::wait_until;
use regex::Regex;
use serde_json::Value;

/// A background `kubectl get … -w` and the lines it printed so far.
fn watch(
    sim: &podscope::sim::Simulator,
    cache: &std::path::Path,
    args: &[&str],
) -> (tokio::process::Child, Lines) {
    let mut child = spawn(sim, cache, args);
    let lines = collect(child.stdout.take().expect("stdout"));
    (child, lines)
}

/// What `lines` hold so far, one text.
fn text_of(lines: &Lines) -> String {
    lines.lock().expect("lock").join("\n")
}

/// Restart n's `(n, seconds from exit n−1 to start n)` from a `kubectl get -w -o json` stream,
/// once per restart, up to the first object not (yet) complete.
fn restart_gaps(versions: &str) -> Vec<(i64, i64)> {
    let mut gaps: Vec<(i64, i64)> = Vec::new();
    for v in serde_json::Deserializer::from_str(versions).into_iter::<Value>() {
        let Ok(v) = v else { break };
        let cs = &v["status"]["containerStatuses"][0];
        let n = cs["restartCount"].as_i64().unwrap_or(0);
        let started = cs["state"]["running"]["startedAt"].as_str();
        let finished = cs["lastState"]["terminated"]["finishedAt"].as_str();
        if let (Some(s), Some(f)) = (started, finished)
            && !gaps.iter().any(|(m, _)| *m == n)
        {
            let s: jiff::Timestamp = s.parse().expect("startedAt");
            let f: jiff::Timestamp = f.parse().expect("finishedAt");
            gaps.push((n, s.duration_since(f).as_secs()));
        }
    }
    gaps
}

fn restart_count(p: &k8s_openapi::api::core::v1::Pod) -> i32 {
    p.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|v| v.first())
        .map_or(0, |c| c.restart_count)
}

/// `kubectl get pod crash -o jsonpath=TEMPLATE` against `sim`: (success, stdout, stderr).
async fn crash_jsonpath(
    sim: &podscope::sim::Simulator,
    cache: &std::path::Path,
    template: &str,
) -> (bool, String, String) {
    let output = format!("jsonpath={template}");
    run(sim, cache, &["get", "pod", "crash", "-o", &output]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_apply_hello_then_watch_shows_the_seed_sequence() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(10.0).await else {
        return;
    };
    let (child, lines) = watch(&sim, cache.path(), &["get", "pods", "-w"]);
    wait_watchers(&sim, 1).await;
    let path = scenario("hello.yaml");
    let (ok, out, err) = run_file(&sim, cache.path(), "apply", &path).await;
    assert!(ok, "kubectl apply failed: {err}");
    assert_eq!(out.trim(), "pod/hello created");
    wait_pod(&sim.store(), "hello", 20, all_ready).await;
    // kubectl prints the last row a moment after the store has it.
    let want = dedup(seed_rows(SEED_HELLO_WATCH));
    wait_until(Duration::from_secs(20), || {
        dedup(seed_rows(&text_of(&lines))) == want
    })
    .await;
    finish(child).await;
    let printed = text_of(&lines);
    assert_eq!(
        dedup(seed_rows(&printed)),
        want,
        "kubectl get -w printed:\n{printed}"
    );
    // Re-applying the same manifest is a no-op for the server. kubectl still sends (and says
    // `configured` for) a patch of `$setElementOrder` directives only, because admission added
    // the `kube-api-access-*` volume and mounts the manifest does not list: the
    // resourceVersion does not move.
    let rv = sim
        .store()
        .pod("default", "hello")
        .and_then(|p| p.metadata.resource_version);
    let (ok, out, err) = run_file(&sim, cache.path(), "apply", &path).await;
    assert!(ok, "re-apply failed: {err}");
    assert_eq!(out.trim(), "pod/hello configured");
    let after = sim
        .store()
        .pod("default", "hello")
        .and_then(|p| p.metadata.resource_version);
    assert_eq!(after, rv, "the order-only patch changed the pod");
    // A real change (one more label) is sent as a strategic merge patch that leaves the
    // containers alone; applying the original again removes the label (three-way apply).
    let manifest = std::fs::read_to_string(&path).expect("hello.yaml");
    let labelled = manifest.replacen(
        "    app.kubernetes.io/name: hello\n",
        "    app.kubernetes.io/name: hello\n    tier: web\n",
        1,
    );
    assert_ne!(labelled, manifest, "hello.yaml has the app label line");
    let changed = cache.path().join("hello-tier.yaml");
    std::fs::write(&changed, labelled).expect("write manifest");
    for (file, printed, tier) in [
        (&changed, "pod/hello configured", Some("web")),
        (&changed, "pod/hello configured", Some("web")),
        (&path, "pod/hello configured", None),
    ] {
        let (ok, out, err) = run_file(&sim, cache.path(), "apply", file).await;
        assert!(ok, "apply {}: {err}", file.display());
        assert_eq!(out.trim(), printed, "apply {}", file.display());
        let pod = sim.store().pod("default", "hello").expect("hello exists");
        let labels = pod.metadata.labels.unwrap_or_default();
        assert_eq!(labels.get("tier").map(String::as_str), tier);
        assert_eq!(
            labels.get("app.kubernetes.io/name").map(String::as_str),
            Some("hello")
        );
        let spec = pod.spec.expect("spec");
        let names = |v: &[k8s_openapi::api::core::v1::Container]| -> Vec<String> {
            v.iter().map(|c| c.name.clone()).collect()
        };
        assert_eq!(names(&spec.containers), ["hello"]);
        assert_eq!(
            names(spec.init_containers.as_deref().unwrap_or(&[])),
            ["render-config", "proxy"]
        );
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crash_pod_loops_with_the_seed_rows_backoffs_logs_and_last_state() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(10.0).await else {
        return;
    };
    let store = sim.store();
    let (table, table_lines) = watch(&sim, cache.path(), &["get", "pods", "-w"]);
    let (json, json_lines) = watch(&sim, cache.path(), &["get", "pods", "-w", "-o", "json"]);
    wait_watchers(&sim, 2).await;
    let path = scenario("crash.yaml");
    let (ok, out, err) = run_file(&sim, cache.path(), "create", &path).await;
    assert!(ok, "kubectl create failed: {err}");
    assert_eq!(out.trim(), "pod/crash created");

    // Quiet moment: third restart crashed, now waiting out the 40 s back-off (4 s real).
    let pod = wait_pod(&store, "crash", 30, |p| {
        restart_count(p) == 3 && waiting_reason(p, "hello").as_deref() == Some("CrashLoopBackOff")
    })
    .await;
    let uid = pod.metadata.uid.clone().expect("uid");

    // The waiting message carries the current back-off (protocols.md §5.1).
    let (ok, msg, err) = crash_jsonpath(
        &sim,
        cache.path(),
        "{.status.containerStatuses[0].state.waiting.message}",
    )
    .await;
    assert!(ok, "{err}");
    assert_eq!(
        msg,
        format!("back-off 40s restarting failed container=hello pod=crash_default({uid})")
    );

    // `kubectl logs crash --previous`: the seed's `unknown port` line.
    let (ok, logs, err) = run(&sim, cache.path(), &["logs", "crash", "--previous"]).await;
    assert!(ok, "kubectl logs --previous failed: {err}");
    let line = Regex::new(
        r"^\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} listen: listen tcp: lookup tcp/abc: unknown port$",
    )
    .expect("regex");
    let lines: Vec<&str> = logs.lines().collect();
    assert_eq!(lines.len(), 1, "{logs}");
    assert!(line.is_match(lines[0]), "{logs}");

    // lastState as in the seed: terminated, exitCode 1, reason Error, containerID, times.
    let (ok, last, err) = crash_jsonpath(
        &sim,
        cache.path(),
        "{.status.containerStatuses[0].lastState}",
    )
    .await;
    assert!(ok, "{err}");
    let last: Value = serde_json::from_str(&last).expect("lastState JSON");
    let t = &last["terminated"];
    assert_eq!(t["exitCode"], 1);
    assert_eq!(t["reason"], "Error");
    assert!(
        t["containerID"]
            .as_str()
            .is_some_and(|s| s.starts_with("containerd://")),
        "{last}"
    );
    assert!(
        t["startedAt"].is_string() && t["finishedAt"].is_string(),
        "{last}"
    );

    // podscope --once agrees with kubectl get at this quiet moment.
    let (ok, row, err) = run(&sim, cache.path(), &["get", "pod", "crash", "--no-headers"]).await;
    assert!(ok, "{err}");
    let cells: Vec<&str> = row.split_whitespace().collect();
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .args(["-n", "default", "crash", "--once", "-o", "json"])
        .env_remove("KUBECONFIG")
        .output()
        .await
        .expect("podscope runs");
    assert!(
        out.status.success(),
        "podscope --once failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["pod"]["ready"], cells[1], "READY");
    assert_eq!(doc["pod"]["status"], cells[2], "STATUS");
    let count = |s: &str| s.split(' ').next().unwrap_or("").to_string();
    assert_eq!(
        count(doc["pod"]["restarts"].as_str().unwrap_or("")),
        cells[3],
        "RESTARTS"
    );
    assert_eq!(cells[2], "CrashLoopBackOff");

    // The seed's STATUS/READY/RESTARTS sequence up to the third crash, and the three restarts'
    // versions, once both watches printed them.
    let want = dedup(seed_rows(SEED_CRASH_WATCH));
    wait_until(Duration::from_secs(20), || {
        dedup(seed_rows(&text_of(&table_lines))).len() >= want.len()
            && restart_gaps(&text_of(&json_lines)).len() >= 3
    })
    .await;
    finish(table).await;
    finish(json).await;
    let printed = text_of(&table_lines);
    let versions = text_of(&json_lines);
    let got = dedup(seed_rows(&printed));
    assert!(
        got.len() >= want.len(),
        "kubectl get -w printed:\n{printed}"
    );
    assert_eq!(
        got[..want.len()],
        want[..],
        "kubectl get -w printed:\n{printed}"
    );

    // Restart n starts `gap` after exit n−1: immediately (next sync), then 10 s, then 20 s.
    let gaps = restart_gaps(&versions);
    assert_eq!(
        gaps.iter().map(|g| g.0).collect::<Vec<_>>(),
        vec![1, 2, 3],
        "{versions}"
    );
    let ok_gap = |got: i64, want: i64| (want..=want + 2).contains(&got);
    assert!(
        ok_gap(gaps[0].1, 0) && ok_gap(gaps[1].1, 10) && ok_gap(gaps[2].1, 20),
        "restart gaps {gaps:?}"
    );
    sim.shutdown().await;
}
