//! Drives the real TUI in an 80×24 tmux session against the simulator serving case 07 (liveness
//! kills a slow start): the diagnosis block is on the first screen, Enter expands it and Esc
//! closes it, Tab moves the focus into the events and ↓ selects one, `q` quits.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use podscope::sim::{SimClock, SimConfig, Simulator};

const CASE: &str = "07-liveness-kills-slow-start-exit143";

fn tmux(args: &[&str]) -> Option<String> {
    let out = Command::new("tmux").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The pane's text once `f` holds (20 s at most).
fn wait_for(session: &str, what: &str, f: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]).unwrap_or_default();
        if f(&screen) {
            return screen;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn keys(session: &str, k: &str) {
    tmux(&["send-keys", "-t", session, k]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnosis_block_expands_and_events_take_the_focus() {
    if tmux(&["-V"]).is_none() {
        eprintln!("SKIP: tmux not installed; the TUI-in-tmux test is skipped");
        return;
    }
    let dir = common::cluster::cases_dir().join(CASE);
    let exp = common::cases::expected(CASE);
    let ns = common::cluster::namespace(&dir);
    let sim = Simulator::start(SimConfig {
        fixtures: vec![dir.clone()],
        listen: "127.0.0.1:0".parse().expect("addr"),
        kubeconfig_out: None,
        clock: SimClock::Real,
        shift_to_now: true,
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let session = format!("podscope-diagnosis-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {} -n {ns} {}",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display(),
        exp.name
    );
    tokio::task::block_in_place(|| {
        tmux(&[
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "80",
            "-y",
            "24",
            &cmd,
        ])
        .expect("tmux starts");
        let first = wait_for(&session, "the diagnosis block", |s| {
            s.contains(" Diagnosis") && s.contains("✗ db:")
        });
        let rows: Vec<&str> = first.lines().collect();
        assert!(rows[3].starts_with(" Diagnosis"), "{first}");
        keys(&session, "Enter");
        wait_for(&session, "the expanded diagnosis", |s| {
            s.contains("Enter/Esc back") && !s.contains(" Containers")
        });
        keys(&session, "Escape");
        wait_for(&session, "the pod view", |s| s.contains(" Containers"));
        keys(&session, "Tab");
        wait_for(&session, "the events focused", |s| s.contains("▶ Events"));
        keys(&session, "Down");
        wait_for(&session, "an event selected", |s| {
            s.lines()
                .any(|l| l.starts_with("▶ Warning") || l.starts_with("▶ Normal"))
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
