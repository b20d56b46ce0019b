//! Drives the real TUI in an 80×24 tmux session against the simulator serving case 07 (liveness
//! kills a slow start): the diagnosis block is on the first screen, Enter expands it and Esc
//! closes it, Tab moves the focus into the events and ↓ selects one, `q` quits.

use crate::common;
use common::tmux::{keys, missing, new_session, wait_for, wait_gone};

const CASE: &str = "07-liveness-kills-slow-start-exit143";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnosis_block_expands_and_events_take_the_focus() {
    if missing("the diagnosis TUI-in-tmux test") {
        return;
    }
    let (sim, cmd) = common::sim::start_case_live(CASE).await;
    let session = format!("podscope-diagnosis-{}", std::process::id());
    tokio::task::block_in_place(|| {
        new_session(&session, 80, 24, &cmd);
        let first = wait_for(&session, "the diagnosis block", 20, |s| {
            s.contains(" Diagnosis") && s.contains("✗ likely: container db")
        });
        let rows: Vec<&str> = first.lines().collect();
        assert!(rows[3].starts_with(" Diagnosis"), "{first}");
        keys(&session, "Enter");
        wait_for(&session, "the expanded diagnosis", 20, |s| {
            s.contains("Enter/Esc back") && !s.contains(" Containers")
        });
        keys(&session, "Escape");
        wait_for(&session, "the pod view", 20, |s| s.contains(" Containers"));
        keys(&session, "Tab");
        wait_for(&session, "the events focused", 20, |s| {
            s.contains("▶ Events")
        });
        keys(&session, "Down");
        wait_for(&session, "an event selected", 20, |s| {
            s.lines()
                .any(|l| l.starts_with("▶ Warning") || l.starts_with("▶ Normal"))
        });
        keys(&session, "q");
        wait_gone(&session, "q did not quit");
    });
    sim.shutdown().await;
}
