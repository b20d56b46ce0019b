//! `podscope logs` against the simulator, refereed by real `kubectl logs`: the same stdout,
//! stderr and exit code (`notes/protocols.md` §2.3), and `-f` following across a restart.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::cluster::{case, kubectl, run as run_kubectl};
use common::sim::start_frozen;
use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{
    ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStateWaiting,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use podscope::sim::{LogLine, Simulator, load_fixture};
use tokio::io::{AsyncBufReadExt, BufReader};

/// Runs the podscope binary with the simulator's kubeconfig: (exit code, stdout, stderr).
async fn podscope(sim: &Simulator, args: &[&str]) -> (i32, String, String) {
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
            .args(args)
            .arg("--kubeconfig")
            .arg(sim.kubeconfig_path())
            .output(),
    )
    .await
    .expect("podscope finishes within 60 s")
    .expect("podscope runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn name_ns(dir: &Path) -> (String, String) {
    let fx = load_fixture(dir).expect("fixture");
    (
        fx.pod.metadata.name.clone().expect("name"),
        fx.pod.metadata.namespace.clone().expect("namespace"),
    )
}

fn file_lines(dir: &Path, file: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(file))
        .expect("log file")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Runs the same `logs` arguments through podscope and kubectl and asserts identical stdout,
/// stderr and success; returns podscope's (code, stdout, stderr). Without kubectl, only runs
/// podscope (the callers assert the expected texts themselves).
async fn same_as_kubectl(sim: &Simulator, args: &[&str]) -> (i32, String, String) {
    let mine = podscope(sim, args).await;
    if kubectl().is_none() {
        eprintln!("kubectl is not on PATH: not comparing `{}`", args.join(" "));
        return mine;
    }
    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = run_kubectl(sim, cache.path(), args).await;
    assert_eq!(mine.1, out, "stdout of `{}`", args.join(" "));
    assert_eq!(mine.2, err, "stderr of `{}`", args.join(" "));
    assert_eq!(mine.0 == 0, ok, "exit status of `{}`", args.join(" "));
    mine
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn previous_prints_exactly_the_previous_run() {
    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let want = file_lines(&dir, "logs-previous.txt");
    let sim = start_frozen(std::slice::from_ref(&dir)).await;

    let (code, out, err) = same_as_kubectl(&sim, &["logs", &name, "-n", &ns, "--previous"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().collect::<Vec<_>>(), want);
    assert!(out.ends_with('\n'));

    // With the kubelet's timestamps: 9 fractional digits, then the same text.
    let (code, out, _) = same_as_kubectl(
        &sim,
        &["logs", &name, "-n", &ns, "-p", "--timestamps", "--tail=2"],
    )
    .await;
    assert_eq!(code, 0);
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), 2);
    for (line, want) in got.iter().zip(&want[want.len() - 2..]) {
        let (ts, text) = line.split_once(' ').expect("prefix");
        assert_eq!(ts.len(), "2025-01-01T00:04:59.000000001Z".len(), "{line}");
        assert_eq!(text, want);
    }

    // --prefix and --limit-bytes (cut mid-line, no newline added).
    same_as_kubectl(
        &sim,
        &["logs", &name, "-n", &ns, "--prefix", "--limit-bytes=25"],
    )
    .await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_carry_the_kubelet_messages_and_kubectl_wording() {
    let dir = case("29-");
    let (name, ns) = name_ns(&dir);
    let sim = start_frozen(std::slice::from_ref(&dir)).await;

    // A container that never restarted: the kubelet's 400 text, verbatim.
    let (code, out, err) = same_as_kubectl(
        &sim,
        &["logs", &name, "-n", &ns, "-c", "steady", "--previous"],
    )
    .await;
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "Error from server (BadRequest): previous terminated container \"steady\" in pod \"{name}\" not found\n"
        )
    );

    // No -c on a two-container pod: kubectl defaults to the first one and says so.
    let (code, _, err) = same_as_kubectl(&sim, &["logs", &name, "-n", &ns]).await;
    assert_eq!(code, 0);
    assert_eq!(
        err,
        "Defaulted container \"steady\" out of: steady, flaky\n"
    );

    // Client-side checks.
    let (code, _, err) = same_as_kubectl(&sim, &["logs", &name, "-n", &ns, "-c", "nope"]).await;
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            format!("error: container nope is not valid for pod {name}\n").as_str()
        )
    );
    let (code, _, err) = same_as_kubectl(
        &sim,
        &[
            "logs",
            &name,
            "-n",
            &ns,
            "--since=1m",
            "--since-time=2020-12-27T10:00:00Z",
        ],
    )
    .await;
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: at most one of `sinceTime` or `sinceSeconds` may be specified\n"
    );
    let (code, _, _) = same_as_kubectl(&sim, &["logs", "missing", "-n", &ns]).await;
    assert_eq!(code, 1);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn init_container_waiting_message() {
    // Case 08: init container in CrashLoopBackOff; the main container waits (PodInitializing).
    let dir = case("08-");
    let (name, ns) = name_ns(&dir);
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let (code, _, err) = same_as_kubectl(&sim, &["logs", &name, "-n", &ns]).await;
    assert_eq!(code, 1);
    assert!(
        err.contains("is waiting to start: PodInitializing"),
        "{err}"
    );
    // --all-containers: the init container's last run (it is in CrashLoopBackOff, so the kubelet
    // serves it without --previous), then the main container's error. kubectl 1.32 is not a
    // usable referee for stdout here: it sometimes exits on the error before writing the first
    // container's lines (seen 1 run in 5), so only stderr and the exit code are compared.
    let args = [
        "logs",
        name.as_str(),
        "-n",
        ns.as_str(),
        "--all-containers",
        "--prefix",
    ];
    let (code, out, err) = podscope(&sim, &args).await;
    let want: Vec<String> = file_lines(&dir, "logs-previous.txt")
        .iter()
        .map(|l| format!("[pod/{name}/fetch-config] {l}"))
        .collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), want);
    assert_eq!(code, 1);
    if kubectl().is_some() {
        let cache = tempfile::tempdir().expect("tempdir");
        let (ok, _, kerr) = run_kubectl(&sim, cache.path(), &args).await;
        assert!(!ok);
        assert_eq!(err, kerr);
    }
    sim.shutdown().await;
}

fn at(base: Timestamp, secs: i64) -> Timestamp {
    base.checked_add(SignedDuration::from_secs(secs))
        .expect("in range")
}

async fn wait_for(buf: &Arc<Mutex<Vec<String>>>, what: &str) {
    let found = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if buf.lock().expect("lock").iter().any(|l| l.contains(what)) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(
        found.is_ok(),
        "{what:?} did not appear; got {:?}",
        buf.lock().expect("lock")
    );
}

fn collect(pipe: impl tokio::io::AsyncRead + Unpin + Send + 'static) -> Arc<Mutex<Vec<String>>> {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let b = buf.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(pipe).lines();
        while let Ok(Some(l)) = lines.next_line().await {
            b.lock().expect("lock").push(l);
        }
    });
    buf
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_survives_a_crash_loop_restart() {
    let dir = case("29-");
    let (name, ns) = name_ns(&dir);
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let store = sim.store();
    let pod = store.pod(&ns, &name).expect("pod");
    let flaky = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|l| l.iter().find(|c| c.name == "flaky"))
        .expect("flaky status")
        .clone();
    let old_id = flaky.container_id.clone().expect("running containerID");
    let new_id = "containerd://00000000000000000000000000000000000000000000000000000000000000f1";
    let now = store.now();
    let log = |id: &str, secs: i64, text: &str| {
        store.append_log(
            &ns,
            &name,
            id,
            LogLine {
                time: at(now, secs),
                text: text.to_owned(),
            },
        );
    };
    log(&old_id, 1, "x1");
    log(&old_id, 2, "x2");

    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args([
            "logs",
            &name,
            "-n",
            &ns,
            "-c",
            "flaky",
            "-f",
            "--kubeconfig",
        ])
        .arg(sim.kubeconfig_path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("podscope starts");
    let out = collect(child.stdout.take().expect("stdout"));
    let err = collect(child.stderr.take().expect("stderr"));
    wait_for(&out, "x2").await;

    // The instance writes one more line, is OOMKilled after 45 s, and waits in CrashLoopBackOff.
    log(&old_id, 3, "x3");
    let started = flaky
        .state
        .as_ref()
        .and_then(|s| s.running.as_ref())
        .and_then(|r| r.started_at.clone())
        .expect("startedAt")
        .0;
    let terminated = ContainerStateTerminated {
        exit_code: 137,
        reason: Some("OOMKilled".into()),
        started_at: Some(Time(started)),
        finished_at: Some(Time(at(started, 45))),
        container_id: Some(old_id.clone()),
        ..Default::default()
    };
    let set = |f: &dyn Fn(&mut k8s_openapi::api::core::v1::ContainerStatus)| {
        store
            .update_pod(&ns, &name, |p| {
                let l = p
                    .status
                    .as_mut()
                    .and_then(|s| s.container_statuses.as_mut());
                if let Some(c) = l.and_then(|l| l.iter_mut().find(|c| c.name == "flaky")) {
                    f(c);
                }
            })
            .expect("pod updated");
    };
    set(&|c| {
        c.ready = false;
        c.last_state = Some(ContainerState {
            terminated: Some(terminated.clone()),
            ..Default::default()
        });
        c.state = Some(ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: Some("CrashLoopBackOff".into()),
                message: Some(format!(
                    "back-off 40s restarting failed container=flaky pod={name}_{ns}(uid)"
                )),
            }),
            ..Default::default()
        });
    });
    wait_for(&out, "x3").await;
    tokio::time::sleep(Duration::from_secs(3)).await;

    // The new instance starts and writes.
    log(new_id, 60, "n1");
    log(new_id, 61, "n2");
    set(&|c| {
        c.restart_count = 4;
        c.container_id = Some(new_id.to_owned());
        c.state = Some(ContainerState {
            running: Some(ContainerStateRunning {
                started_at: Some(Time(at(now, 59))),
            }),
            ..Default::default()
        });
    });
    wait_for(&out, "n2").await;
    wait_for(&err, "restarted").await;

    // Deleting the pod ends the command with 0.
    store.delete_pod(&ns, &name).expect("deleted");
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("podscope exits after the pod is deleted")
        .expect("wait");
    assert_eq!(status.code(), Some(0));
    tokio::time::sleep(Duration::from_millis(100)).await;

    let mut want = file_lines(&dir, "logs-current.txt");
    want.extend(["x1", "x2", "x3", "n1", "n2"].map(str::to_owned));
    assert_eq!(
        *out.lock().expect("lock"),
        want,
        "every line exactly once, in order"
    );
    assert_eq!(
        *err.lock().expect("lock"),
        ["── restarted: OOMKilled, exit 137 (SIGKILL) after 45s, back-off 40s ──"]
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_task_sends_batches_then_the_end() {
    use k8s_openapi::api::core::v1::Pod;
    use podscope::app::Msg;
    use podscope::cluster::logs::{StreamSpec, stream_task};

    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let want = file_lines(&dir, "logs-previous.txt");
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let kc = kube::config::Kubeconfig::read_from(sim.kubeconfig_path()).expect("kubeconfig");
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
        .await
        .expect("config");
    let api: kube::Api<Pod> =
        kube::Api::namespaced(kube::Client::try_from(cfg).expect("client"), &ns);
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let spec = |stream, previous| StreamSpec {
        stream,
        pod: name.clone(),
        container: String::new(),
        instance: 2,
        params: kube::api::LogParams {
            previous,
            timestamps: true,
            ..Default::default()
        },
    };
    tokio::spawn(stream_task(api.clone(), spec(7, true), tx.clone()));
    let mut got = Vec::new();
    loop {
        match rx.recv().await.expect("a message") {
            Msg::LogLines { stream: 7, lines } => got.extend(lines),
            Msg::LogStreamEnded { stream: 7, reason } => {
                assert_eq!(reason, None);
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(
        got.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
        want
    );
    assert!(got.iter().all(|l| l.ts.is_some() && l.instance == 2));

    // An unknown container: the server's message verbatim as the end reason.
    let mut bad = spec(8, false);
    bad.params.container = Some("nope".into());
    tokio::spawn(stream_task(api, bad, tx));
    match rx.recv().await.expect("a message") {
        Msg::LogStreamEnded { stream: 8, reason } => assert_eq!(
            reason.as_deref(),
            Some(format!("container nope is not valid for pod {name}").as_str())
        ),
        other => panic!("unexpected {other:?}"),
    }
    sim.shutdown().await;
}
