//! Driving the TUI in tmux: run a command in a detached session of a given size, send keys, and
//! wait for the screen to show something (polling `capture-pane`, never a fixed sleep).

use std::process::Command;
use std::time::{Duration, Instant};

/// `tmux ARGS…`: its stdout when it succeeded.
pub fn tmux(args: &[&str]) -> Option<String> {
    let out = Command::new("tmux").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether tmux is not installed (after [`super::tools::skip`] of `what`; with
/// `PODSCOPE_REQUIRE_TOOLS=1` the test fails instead).
pub fn missing(what: &str) -> bool {
    let missing = tmux(&["-V"]).is_none();
    if missing {
        super::tools::skip(what, "tmux is not installed");
    }
    missing
}

/// Starts `cmd` in a detached `cols`×`rows` session named `session`.
pub fn new_session(session: &str, cols: u16, rows: u16, cmd: &str) {
    let (cols, rows) = (cols.to_string(), rows.to_string());
    tmux(&[
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        &cols,
        "-y",
        &rows,
        cmd,
    ])
    .expect("tmux starts");
}

/// Sends `keys` (tmux key names) to `session`.
pub fn keys(session: &str, keys: &str) {
    tmux(&["send-keys", "-t", session, keys]);
}

/// The screen once `f` holds, polled every 200 ms for at most `secs` seconds; panics with
/// `what` and the last screen on time-out.
pub fn wait_for(session: &str, what: &str, secs: u64, f: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(secs);
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

/// Ends `session`, with `q` first so the TUI restores the terminal.
pub fn end(session: &str) {
    keys(session, "q");
    let _ = tmux(&["kill-session", "-t", session]);
}
