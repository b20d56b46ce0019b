//! `--now T` in the real TUI: attached in an 80×24 tmux session to case 07 served as it was at
//! its snapshot (2025), the header's age starts at the case's `AGE 8m48s` — not years — and
//! keeps running from there, one second a second.

use crate::common;
use std::time::{Duration, Instant};

use common::tmux::{keys, missing, new_session, tmux, wait_for};

const CASE: &str = "07-liveness-kills-slow-start-exit143";

/// The seconds of the header's `AGE 8mNNs`, if the screen shows that age.
fn age_seconds(screen: &str) -> Option<u64> {
    let rest = screen.split("AGE 8m").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    rest[digits.len()..]
        .starts_with('s')
        .then(|| digits.parse().ok())?
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn now_starts_the_clock_and_it_runs_from_there() {
    if missing("the --now TUI-in-tmux test") {
        return;
    }
    let (sim, exp, ns) = common::sim::start_case(CASE, &[]).await;
    let cmd = format!(
        "{} --kubeconfig {} -n {ns} {} --now {}",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display(),
        exp.name,
        exp.now
    );
    let session = format!("podscope-now-{}", std::process::id());
    tokio::task::block_in_place(|| {
        new_session(&session, 80, 24, &cmd);
        let first = wait_for(&session, "the pod's age", 20, |s| age_seconds(s).is_some());
        let start = age_seconds(&first).expect("an age");
        // Started at the case's 8m48s (a few seconds may have passed before the first frame).
        assert!((48..=58).contains(&start), "{first}");
        wait_for(&session, "the age moving on", 20, |s| {
            age_seconds(s).is_some_and(|secs| secs > start)
        });
        keys(&session, "q");
        let deadline = Instant::now() + Duration::from_secs(5);
        while tmux(&["has-session", "-t", &session]).is_some() {
            assert!(Instant::now() < deadline, "q did not quit");
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    sim.shutdown().await;
}
