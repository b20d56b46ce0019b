//! Bad starts through the binary, against the simulator (its seed `hello` pod, HTTPS and token):
//! the TUI refused without a terminal; a mistyped pod name answered with the namespace's
//! closest names (none when `list pods` is refused); `-c` naming no container as kubectl words
//! it; one rule for setup errors (a wrong token, a broken kubeconfig: one line, exit 2) across
//! `--once`, `logs`, `exec` and `port-forward`. The cases that need a tty (stdout redirected,
//! `TERM=dumb`, the waiting screen) are in tmux_start.rs.

use crate::common;
use crate::stream_support;
use std::path::Path;

use podscope::sim::Simulator;
use stream_support::{kubeconfig, podscope, run};

const NOT_A_TERMINAL: &str = "podscope: not a terminal; use --once for a snapshot\n";

/// Runs the binary with `args` and stdin, stdout and stderr not terminals (`run` pipes them).
async fn podscope_run(args: &[&str]) -> (i32, String, String) {
    run(podscope(), args, None).await
}

/// Asserts `err` is exactly one line.
fn one_line(err: &str) -> &str {
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_terminal_the_tui_refuses_in_one_line_and_exit_2() {
    // The demo, before its cluster starts (nothing on stdout, no panic, no backtrace).
    let (code, out, err) = podscope_run(&["demo"]).await;
    assert_eq!((code, out.as_str(), err.as_str()), (2, "", NOT_A_TERMINAL));

    // Attaching, after the cluster's answers and before anything is drawn.
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let (code, out, err) = podscope_run(&["--kubeconfig", &kc, "hello"]).await;
    assert_eq!((code, out.as_str(), err.as_str()), (2, "", NOT_A_TERMINAL));

    // `--once` needs no terminal.
    let (code, out, err) = podscope_run(&["--kubeconfig", &kc, "hello", "--once"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("hello"), "{out}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_suggests_the_closest_pod_names() {
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let (code, out, err) = podscope_run(&["--kubeconfig", &kc, "helo", "--once"]).await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "",
            "Error from server (NotFound): pods \"helo\" not found in namespace \"default\"; did you mean hello?\n"
        )
    );
    // Nothing close: kubectl's line alone.
    let (code, _, err) = podscope_run(&["--kubeconfig", &kc, "zzzzzzzz", "--once"]).await;
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "Error from server (NotFound): pods \"zzzzzzzz\" not found in namespace \"default\"\n"
        )
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_pod_list_suggests_nothing_and_adds_no_error() {
    let sim = stream_support::start_denying(&[("list", "pods")]).await;
    let kc = kubeconfig(&sim);
    let (code, _, err) = podscope_run(&["--kubeconfig", &kc, "helo", "--once"]).await;
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "Error from server (NotFound): pods \"helo\" not found in namespace \"default\"\n"
        )
    );
    sim.shutdown().await;
}

/// `podscope POD -c nope`: a setup error before the TUI (and before the terminal check), with
/// the containers to choose from (main, then init in spec order).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_to_a_container_the_pod_lacks_stops_before_the_tui() {
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let (code, out, err) = podscope_run(&["--kubeconfig", &kc, "hello", "-c", "nope"]).await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "podscope: container nope is not valid for pod hello; choose one of: hello, render-config (init), proxy (init)\n"
        )
    );
    sim.shutdown().await;
}

/// `logs -c nope` and `exec -c nope`: kubectl's lines (client-side for logs, the API server's
/// BadRequest for exec) and exit 1, compared with kubectl itself when it is on PATH.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_container_the_pod_lacks_is_kubectls_error() {
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let logs = ["logs", "hello", "-c", "nope"];
    let exec = ["exec", "hello", "-c", "nope", "--", "true"];
    let want_logs = "error: container nope is not valid for pod hello\n";
    let want_exec = "Error from server (BadRequest): container nope is not valid for pod hello\n";
    let (code, out, err) = podscope_run(&[&logs[..], &["--kubeconfig", &kc]].concat()).await;
    assert_eq!((code, out.as_str(), err.as_str()), (1, "", want_logs));
    let (code, out, err) =
        podscope_run(&[&exec[..2], &["--kubeconfig", &kc], &exec[2..]].concat()).await;
    assert_eq!((code, out.as_str(), err.as_str()), (1, "", want_exec));
    if let Some(kubectl) = common::cluster::kubectl() {
        let cache = tempfile::tempdir().expect("tempdir");
        for (args, want) in [(&logs[..], want_logs), (&exec[..], want_exec)] {
            let (ok, out, err) = common::cluster::run(&sim, cache.path(), args).await;
            assert_eq!(
                (ok, out.as_str(), err.as_str()),
                (false, "", want),
                "{kubectl:?} {args:?}"
            );
        }
    }
    sim.shutdown().await;
}

/// A copy of `sim`'s kubeconfig with another token, in `dir`.
fn wrong_token(sim: &Simulator, dir: &Path) -> String {
    let token = sim.token().expect("token").to_owned();
    let kc = std::fs::read_to_string(sim.kubeconfig_path()).expect("kubeconfig");
    let bad = dir.join("wrong-token.kubeconfig");
    std::fs::write(&bad, kc.replace(&token, "not-the-token")).expect("written");
    bad.display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_is_one_line_and_exit_2_for_every_subcommand() {
    let sim = stream_support::start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let kc = wrong_token(&sim, dir.path());
    let want = format!(
        "podscope: unauthorized (401): the server rejected the credentials to get pods in namespace \"default\": Unauthorized (server {}/)\n",
        sim.url()
    );
    for args in [
        vec!["--kubeconfig", &kc, "hello", "--once"],
        vec!["logs", "--kubeconfig", &kc, "hello"],
        vec!["exec", "--kubeconfig", &kc, "hello", "--", "true"],
        vec!["port-forward", "--kubeconfig", &kc, "hello", "0:8081"],
    ] {
        let (code, out, err) = podscope_run(&args).await;
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (2, "", want.as_str()),
            "{args:?}"
        );
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_kubeconfig_keeps_the_parsers_position_and_first_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("broken.kubeconfig");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: Config\nclusters:\n  - name: a\n   bad: 1\n",
    )
    .expect("written");
    let p = path.display().to_string();
    let want = format!(
        "podscope: cannot read kubeconfig {p}: line 5 column 4: while parsing a block collection, did not find expected '-' indicator\n"
    );
    for args in [
        vec!["--kubeconfig", &p, "hello", "--once"],
        vec!["logs", "--kubeconfig", &p, "hello"],
        vec!["exec", "--kubeconfig", &p, "hello", "--", "true"],
    ] {
        let (code, out, err) = podscope_run(&args).await;
        assert_eq!(
            (code, out.as_str(), one_line(&err)),
            (2, "", want.as_str()),
            "{args:?}"
        );
    }
}
