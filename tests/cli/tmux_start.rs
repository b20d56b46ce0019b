//! Bad starts on a real terminal (tmux): stdout redirected or `TERM=dumb` refuse the TUI with
//! one line and exit 2 before anything is drawn; a mistyped pod name shows the closest names of
//! the simulator's namespace (its seed `hello` pod) on the waiting screen at once.

use crate::common;
use crate::stream_support;
use common::tmux::{Session, end, keys, missing, new_session, wait_for};

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

#[test]
fn redirected_stdout_or_term_dumb_refuse_the_tui_with_exit_2() {
    if missing("the start-up checks in tmux") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("out");
    let session = format!("podscope-start-redirect-{}", std::process::id());
    let _guard = start(
        &session,
        &format!("{} demo > {}", podscope(), file.display()),
    );
    let screen = wait_for(&session, "the exit code", 20, |s| s.contains("rc="));
    end(&session);
    assert!(
        screen.contains("podscope: not a terminal; use --once for a snapshot\nrc=2"),
        "{screen}"
    );
    // Nothing was drawn into the file: no escape codes, no alternate screen.
    assert_eq!(std::fs::read(&file).expect("the file"), b"");

    let session = format!("podscope-start-dumb-{}", std::process::id());
    let _guard = start(&session, &format!("TERM=dumb {} demo", podscope()));
    let screen = wait_for(&session, "the exit code", 20, |s| s.contains("rc="));
    end(&session);
    assert!(
        screen.contains(
            "podscope: TERM=dumb cannot show the TUI (it needs cursor movement); use --once for a snapshot\nrc=2"
        ),
        "{screen}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mistyped_pod_shows_the_closest_names_while_waiting() {
    if missing("the waiting screen in tmux") {
        return;
    }
    let sim = stream_support::start().await;
    let session = format!("podscope-start-helo-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {} helo",
        podscope(),
        stream_support::kubeconfig(&sim)
    );
    let screen = tokio::task::block_in_place(|| {
        let _guard = start(&session, &cmd);
        let screen = wait_for(&session, "the suggestion", 20, |s| {
            s.contains("did you mean hello?")
        });
        keys(&session, "q");
        let after = wait_for(&session, "the exit code", 20, |s| s.contains("rc=0"));
        end(&session);
        assert!(
            !after.contains("did you mean"),
            "the TUI's screen is gone: {after}"
        );
        screen
    });
    sim.shutdown().await;
    assert!(
        screen.contains(
            "pod \"helo\" not found in namespace \"default\"; did you mean hello? Waiting for it to appear…"
        ),
        "{screen}"
    );
}
