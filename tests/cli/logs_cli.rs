//! `podscope logs` against the simulator, refereed by real `kubectl logs`: the same stdout,
//! stderr and exit code (`docs/protocols.md` §2.3); and the stream task behind the log pane
//! (batches of lines, then the end with the server's reason). Following (`-f`) is in
//! logs_follow.rs.

use crate::common;
use common::cluster::{case, file_lines, kubectl, name_ns, run as run_kubectl};
use common::run::podscope;
use common::sim::{client, start_frozen};
use podscope::sim::Simulator;

/// Runs the same `logs` arguments through podscope and kubectl and asserts identical stdout,
/// stderr and success; returns podscope's (code, stdout, stderr). Without kubectl, only runs
/// podscope (the callers assert the expected texts themselves).
async fn same_as_kubectl(sim: &Simulator, args: &[&str]) -> (i32, String, String) {
    let mine = podscope(sim, args).await;
    if kubectl().is_none() {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_task_sends_batches_then_the_end() {
    use k8s_openapi::api::core::v1::Pod;
    use podscope::app::Msg;
    use podscope::cluster::logs::{StreamSpec, stream_task};

    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let want = file_lines(&dir, "logs-previous.txt");
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let api: kube::Api<Pod> = kube::Api::namespaced(client(&sim).await, &ns);
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
    tokio::spawn(stream_task(
        api.clone(),
        spec(7, true),
        podscope::cluster::TargetTx::new(tx.clone(), podscope::app::generation::Generation(7)),
    ));
    let mut got = Vec::new();
    loop {
        // Every message is stamped with the generation the task was started for.
        let msg = rx.recv().await.expect("a message");
        let Msg::ForTarget(podscope::app::generation::Generation(7), msg) = msg else {
            panic!("not stamped with generation 7: {msg:?}");
        };
        match *msg {
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
    tokio::spawn(stream_task(
        api,
        bad,
        podscope::cluster::TargetTx::new(tx, podscope::app::generation::Generation::FIRST),
    ));
    match rx.recv().await.expect("a message").untagged() {
        Msg::LogStreamEnded { stream: 8, reason } => assert_eq!(
            reason.as_deref(),
            Some(format!("container nope is not valid for pod {name}").as_str())
        ),
        other => panic!("unexpected {other:?}"),
    }
    sim.shutdown().await;
}

/// The connection flags may come before the subcommand, as kubectl takes them: `podscope
/// --kubeconfig K -n NS logs POD --previous` prints the same log as with the flags after `POD`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_flags_before_the_subcommand() {
    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let want = file_lines(&dir, "logs-previous.txt");
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let kubeconfig = sim.kubeconfig_path();
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"));
    cmd.arg("--kubeconfig")
        .arg(kubeconfig)
        .args(["-n", &ns, "logs", &name, "--previous"])
        .env_remove("KUBECONFIG");
    let out = tokio::time::timeout(std::time::Duration::from_secs(60), cmd.output())
        .await
        .expect("podscope finishes within 60 s")
        .expect("podscope runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), want);
    sim.shutdown().await;
}
