//! A bare `podscope` through the binary (`docs/picker.md`): on a real terminal (tmux) against
//! the simulator running the demo scenarios, the picker lists the namespace's pods, typing `cra`
//! narrows it to `crash`, Enter attaches (the header shows `default/crash`) and `q` leaves with
//! exit 0; Esc on the picker leaves at once with the terminal restored; a refused `list pods`
//! is a setup error before anything is drawn. Without a terminal, or with `--once`, there is
//! nothing to pick with: one line naming what to pass, exit 2.

use crate::common;
use common::tmux::{Session, keys, missing, new_session, wait_for};
use podscope::sim::{SimConfig, Simulator};

/// `sh -c 'CMD; echo rc=$?; sleep 60'` in a 120×30 session, so the exit code stays on screen.
#[must_use]
fn start(session: &str, cmd: &str) -> Session {
    let sh = format!("sh -c '{cmd}; echo rc=$?; sleep 60'");
    new_session(session, 120, 30, &sh);
    Session(session.to_owned())
}

fn podscope() -> &'static str {
    env!("CARGO_BIN_EXE_podscope")
}

const NO_TARGET: &str = "podscope: no target; pass a POD, a workload (deploy/NAME, sts/NAME, job/NAME, …) or -l SELECTOR";

/// Runs the binary with `args`, stdin, stdout and stderr piped, `KUBECONFIG` pointing nowhere:
/// (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(podscope())
        .args(args)
        .env("KUBECONFIG", "/nonexistent/kubeconfig")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("podscope runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn without_a_terminal_a_bare_podscope_names_what_to_pass_and_exits_2() {
    let no_tty = format!("{NO_TARGET} (the pod picker needs a terminal)\n");
    for args in [&[][..], &["-n", "shop"][..], &["-A"][..], &["attach"][..]] {
        let (code, out, err) = run(args);
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (2, "", no_tty.as_str()),
            "{args:?}"
        );
    }
    // `--once` says it the same way, terminal or not (a snapshot needs one pod).
    let (code, out, err) = run(&["--once"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (2, "", format!("{NO_TARGET}\n").as_str())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_picker_lists_filters_and_attaches() {
    if missing("the pod picker in tmux") {
        return;
    }
    let sim = Simulator::start(SimConfig::demo())
        .await
        .expect("simulator starts");
    let cmd = format!(
        "{} --kubeconfig {}",
        podscope(),
        sim.kubeconfig_path().display()
    );
    let session = format!("podscope-picker-{}", std::process::id());
    let (listed, filtered, attached, after) = tokio::task::block_in_place(|| {
        let _guard = start(&session, &cmd);
        let listed = wait_for(&session, "the picker's rows", 20, |s| {
            s.contains("pods in default (") && s.contains(" crash ") && s.contains(" hello ")
        });
        keys(&session, "c");
        keys(&session, "r");
        keys(&session, "a");
        let filtered = wait_for(&session, "the filter", 20, |s| {
            s.contains("filter: cra") && s.contains(", 1 shown)")
        });
        keys(&session, "Enter");
        let attached = wait_for(&session, "the crash pod", 20, |s| {
            s.lines()
                .next()
                .is_some_and(|l| l.starts_with("default/crash"))
                && s.contains("Diagnosis")
        });
        keys(&session, "q");
        let after = wait_for(&session, "the exit code", 20, |s| s.contains("rc=0"));
        (listed, filtered, attached, after)
    });
    sim.shutdown().await;
    assert!(
        listed.contains("NAME") && listed.contains("READY") && listed.contains("RESTARTS"),
        "{listed}"
    );
    assert!(!listed.contains("NAMESPACE"), "{listed}");
    assert!(filtered.contains("filter: cra"), "{filtered}");
    let rows: Vec<&str> = filtered.lines().filter(|l| l.starts_with("│▶")).collect();
    assert_eq!(rows.len(), 1, "{filtered}");
    assert!(rows[0].contains("crash"), "{filtered}");
    assert!(!attached.contains("pods in default"), "{attached}");
    assert!(
        !after.contains("Diagnosis"),
        "the TUI's screen is gone: {after}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn esc_leaves_the_picker_with_exit_0_and_the_terminal_restored() {
    if missing("the pod picker's Esc in tmux") {
        return;
    }
    let sim = Simulator::start(SimConfig::demo())
        .await
        .expect("simulator starts");
    let cmd = format!(
        "{} --kubeconfig {} -A",
        podscope(),
        sim.kubeconfig_path().display()
    );
    let session = format!("podscope-picker-esc-{}", std::process::id());
    let (listed, after) = tokio::task::block_in_place(|| {
        let _guard = start(&session, &cmd);
        let listed = wait_for(&session, "the picker", 20, |s| {
            s.contains("pods in all namespaces (") && s.contains(" crash ")
        });
        keys(&session, "Escape");
        let after = wait_for(&session, "the exit code", 20, |s| s.contains("rc=0"));
        (listed, after)
    });
    sim.shutdown().await;
    assert!(listed.contains("NAMESPACE"), "{listed}");
    assert!(!after.contains("pods in all namespaces"), "{after}");
    assert!(after.trim_start().starts_with("rc=0"), "{after}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_list_of_pods_is_a_setup_error_before_anything_is_drawn() {
    if missing("the pod picker's refused list in tmux") {
        return;
    }
    let sim = Simulator::start(SimConfig {
        deny: vec![("list".into(), "pods".into())],
        ..SimConfig::demo()
    })
    .await
    .expect("simulator starts");
    let kc = sim.kubeconfig_path().display().to_string();
    let screens = tokio::task::block_in_place(|| {
        [("", "default"), (" -A", "all")].map(|(flag, what)| {
            let session = format!("podscope-picker-403-{what}-{}", std::process::id());
            let _guard = start(&session, &format!("{} --kubeconfig {kc}{flag}", podscope()));
            wait_for(&session, "the exit code", 20, |s| s.contains("rc="))
        })
    });
    sim.shutdown().await;
    let [namespace, all] = screens;
    assert!(
        namespace
            .starts_with("podscope: forbidden (403): cannot list pods in namespace \"default\": "),
        "{namespace}"
    );
    assert!(
        all.starts_with("podscope: forbidden (403): cannot list pods in all namespaces: "),
        "{all}"
    );
    for screen in [&namespace, &all] {
        assert!(screen.contains("\nrc=2"), "{screen}");
        assert!(!screen.contains("┌"), "nothing drawn: {screen}");
    }
}
