//! Ephemeral containers run through the kubelet model, refereed by real kubectl on every version
//! of the matrix (`kubectl.1.27` … `kubectl.1.33` beside `kubectl`): `kubectl debug -i … -- sh -c
//! 'echo hi'` prints `hi`, the container ends `terminated` with its exit code and stays listed,
//! its log and events are those of any container (`docs/simulator-kubelet.md`).

use crate::common;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::cluster::{kubectl_versions, run, run_bin, run_file};
use common::pod_json::{events_of, pod_json, status};
use common::sim::{all_ready, scenario, start_dynamic_for_kubectl, wait_pod};
use common::wait::wait_until;
use serde_json::Value;
use tokio::io::AsyncWriteExt;

/// The debugger's name from kubectl's `Defaulting debug container name to debugger-xxxxx.`.
fn debugger_name(out: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix("Defaulting debug container name to "))
        .map(|n| n.trim_end_matches('.').to_string())
        .unwrap_or_else(|| panic!("no debugger name in {out:?}"))
}

/// `kubectl debug` against `sim` with `bin`, stdin closed; (success, stdout, stderr).
async fn debug(
    bin: &Path,
    sim: &podscope::sim::Simulator,
    cache: &Path,
    script: &str,
) -> (bool, String, String) {
    let args = [
        "debug",
        "hello",
        "-i",
        "--image=busybox:1.37",
        "--target=hello",
        "--",
        "sh",
        "-c",
        script,
    ];
    run_bin(bin, sim.kubeconfig_path(), cache, &args, &[]).await
}

/// Every kubectl of the matrix: the command runs, prints through attach (or the logs kubectl
/// falls back to), ends `Completed` 0 / `Error` 3 and stays listed; `kubectl logs` reads it;
/// its events read as render-config's (the same image); the same imageID.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_debug_runs_the_command_on_every_version() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(1.0).await else {
        return;
    };
    let (ok, _, err) = run_file(&sim, cache.path(), "apply", &scenario("hello.yaml")).await;
    assert!(ok, "apply: {err}");
    wait_pod(&sim.store(), "hello", 60, all_ready).await;
    let init_events = events_of(&sim, cache.path(), "spec.initContainers{render-config}").await;
    for (version, bin) in kubectl_versions() {
        let (ok, out, err) = debug(&bin, &sim, cache.path(), "echo hi").await;
        assert!(ok, "kubectl {version} debug: {out}\n{err}");
        assert!(
            out.lines().any(|l| l == "hi"),
            "kubectl {version}: {out}\n{err}"
        );
        let name = debugger_name(&out);

        let pod = pod_json(&sim, cache.path()).await;
        let st = status(&pod, "ephemeralContainerStatuses", &name);
        let term = &st["state"]["terminated"];
        assert_eq!(
            (&term["exitCode"], &term["reason"]),
            (&Value::from(0), &Value::from("Completed")),
            "{version}: {st}"
        );
        assert_eq!(st["restartCount"], 0, "{st}");
        assert_eq!(st["ready"], false, "{st}");
        assert_eq!(st["lastState"], serde_json::json!({}), "{st}");
        assert_eq!(st["image"], "busybox:1.37", "{st}");
        let init = status(&pod, "initContainerStatuses", "render-config");
        assert_eq!(st["imageID"], init["imageID"], "{st}");
        assert!(
            st["containerID"]
                .as_str()
                .is_some_and(|i| i.starts_with("containerd://")),
            "{st}"
        );

        let (ok, logs, err) = run(&sim, cache.path(), &["logs", "hello", "-c", &name]).await;
        assert!(ok, "logs: {err}");
        assert_eq!(logs, "hi\n");
        let evs = events_of(
            &sim,
            cache.path(),
            &format!("spec.ephemeralContainers{{{name}}}"),
        )
        .await;
        assert_eq!(
            evs, init_events,
            "kubectl {version}: the debugger's events read as render-config's"
        );

        // The kubelet's attach reports Success whatever the exit code, so kubectl debug exits
        // 0 (its attach returns no error); the status has the code.
        let (ok, out, err) = debug(&bin, &sim, cache.path(), "echo hi; exit 3").await;
        assert!(ok, "kubectl {version} debug: {out}\n{err}");
        assert!(out.lines().any(|l| l == "hi"), "kubectl {version}: {out}");
        let name = debugger_name(&out);
        let pod = pod_json(&sim, cache.path()).await;
        let term = &status(&pod, "ephemeralContainerStatuses", &name)["state"]["terminated"];
        assert_eq!(
            (&term["exitCode"], &term["reason"]),
            (&Value::from(3), &Value::from("Error")),
            "{version}: {term}"
        );
    }
}

/// What comes after the attach goes through it too: `echo hi; sleep 2; echo bye` prints both
/// lines, and kubectl ends when the container does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_streams_the_output_until_the_container_ends() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(1.0).await else {
        return;
    };
    let (ok, _, err) = run_file(&sim, cache.path(), "apply", &scenario("hello.yaml")).await;
    assert!(ok, "apply: {err}");
    wait_pod(&sim.store(), "hello", 60, all_ready).await;
    let bin = common::cluster::kubectl().expect("kubectl");
    let (ok, out, err) = debug(&bin, &sim, cache.path(), "echo hi; sleep 2; echo bye").await;
    assert!(ok, "{out}\n{err}");
    let lines: Vec<&str> = out.lines().filter(|l| *l == "hi" || *l == "bye").collect();
    assert_eq!(lines, ["hi", "bye"], "{out}\n{err}");
    let name = debugger_name(&out);
    let pod = pod_json(&sim, cache.path()).await;
    let term = &status(&pod, "ephemeralContainerStatuses", &name)["state"]["terminated"];
    assert_eq!(term["reason"], "Completed", "{term}");
}

/// Without a command the image's shell runs interactively over attach until `exit`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_debug_without_command_runs_the_shell() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(1.0).await else {
        return;
    };
    let (ok, _, err) = run_file(&sim, cache.path(), "apply", &scenario("hello.yaml")).await;
    assert!(ok, "apply: {err}");
    wait_pod(&sim.store(), "hello", 60, all_ready).await;
    let bin = common::cluster::kubectl().expect("kubectl");
    let mut child = tokio::process::Command::new(bin)
        .arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .arg("--cache-dir")
        .arg(cache.path())
        .args([
            "debug",
            "hello",
            "-i",
            "--image=busybox:1.37",
            "--target=hello",
        ])
        .env_remove("KUBECONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("kubectl starts");
    let mut stdin = child.stdin.take().expect("stdin");
    // The shell reads what arrives after the attach: wait until the debugger runs.
    let store = sim.store();
    let running = wait_until(Duration::from_secs(30), || {
        store.pod("default", "hello").is_some_and(|p| {
            p.status
                .and_then(|s| s.ephemeral_container_statuses)
                .is_some_and(|l| {
                    l.iter()
                        .any(|s| s.state.as_ref().is_some_and(|st| st.running.is_some()))
                })
        })
    })
    .await;
    assert!(running, "the debugger never ran");
    stdin
        .write_all(b"echo from-shell\nexit 5\n")
        .await
        .expect("stdin");
    drop(stdin);
    let out = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .expect("kubectl ends")
        .expect("output");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.lines().any(|l| l == "from-shell"), "{text}");
    let name = debugger_name(&text);
    let pod = pod_json(&sim, cache.path()).await;
    let term = &status(&pod, "ephemeralContainerStatuses", &name)["state"]["terminated"];
    assert_eq!(
        (&term["exitCode"], &term["reason"]),
        (&Value::from(5), &Value::from("Error")),
        "{term}"
    );
}

/// `podscope debug POD -- sh -c …` sees the command's output over attach and ends with the
/// container (exit 0: the attach's status), which stays `terminated` with the script's code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_debug_with_a_command_prints_its_output() {
    use k8s_openapi::api::core::v1::Pod;
    use kube::api::{Api, PostParams};
    let sim = common::sim::start_dynamic(1.0).await;
    let store = sim.store();
    let api: Api<Pod> = Api::namespaced(common::sim::client(&sim).await, "default");
    let text = std::fs::read_to_string(scenario("hello.yaml")).expect("hello.yaml");
    let pod: Pod = serde_yaml_ng::from_str(&text).expect("pod yaml");
    api.create(&PostParams::default(), &pod)
        .await
        .expect("created");
    wait_pod(&store, "hello", 60, all_ready).await;
    let kubeconfig = sim.kubeconfig_path().to_string_lossy().into_owned();
    let args = [
        "debug",
        "--kubeconfig",
        &kubeconfig,
        "hello",
        "--target",
        "hello",
        "--",
        "sh",
        "-c",
        "echo hi; exit 2",
    ];
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args(args)
        .env_remove("KUBECONFIG")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), out)
        .await
        .expect("podscope debug ends")
        .expect("podscope runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(stdout, "hi\n", "{stderr}");
    let name = debugger_name(&stderr);
    let pod = store.pod("default", "hello").expect("pod");
    let st = pod
        .status
        .and_then(|s| s.ephemeral_container_statuses)
        .and_then(|l| l.into_iter().find(|s| s.name == name))
        .expect("the debugger's status");
    let term = st.state.and_then(|s| s.terminated).expect("terminated");
    assert_eq!((term.exit_code, term.reason.as_deref()), (2, Some("Error")));

    // A command that ends at once may be over before the attach: its log is shown instead, as
    // kubectl debug does, so the output is the same either way.
    let quick = [
        "debug",
        "--kubeconfig",
        &kubeconfig,
        "hello",
        "--target",
        "hello",
        "--",
        "sh",
        "-c",
        "echo quick",
    ];
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args(quick)
        .env_remove("KUBECONFIG")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), out)
        .await
        .expect("podscope debug ends")
        .expect("podscope runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "quick\n", "{stderr}");
}
