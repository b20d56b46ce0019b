//! Driving the TUI in tmux: run a command in a detached session of a given size, send keys, and
//! wait for the screen to show something (polling `capture-pane`, never a fixed sleep).

use std::process::Command;
use std::time::Duration;

use super::wait::wait_until_blocking;

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

/// Starts `cmd` in a detached `cols`×`rows` session named `session`. Tests run in parallel, and
/// when two start the first tmux server at the same moment one of them can fail to connect to
/// it ("server exited unexpectedly"): the start is retried until it succeeds, for at most 10 s,
/// with the last error in the panic message.
pub fn new_session(session: &str, cols: u16, rows: u16, cmd: &str) {
    let (cols, rows) = (cols.to_string(), rows.to_string());
    let args = [
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        &cols,
        "-y",
        &rows,
        cmd,
    ];
    let mut last = String::new();
    let started = wait_until_blocking(Duration::from_secs(10), Duration::from_millis(100), || {
        match Command::new("tmux").args(args).output() {
            Ok(out) if out.status.success() => true,
            Ok(out) => {
                last = String::from_utf8_lossy(&out.stderr).trim().to_owned();
                false
            }
            Err(e) => {
                last = e.to_string();
                false
            }
        }
    });
    assert!(started, "tmux starts: {last}");
}

/// Sends `keys` (tmux key names) to `session`.
pub fn keys(session: &str, keys: &str) {
    tmux(&["send-keys", "-t", session, keys]);
}

/// What the pane of `session` shows now (empty when tmux fails).
pub fn screen(session: &str) -> String {
    tmux(&["capture-pane", "-p", "-t", session]).unwrap_or_default()
}

/// How often the screen is captured while waiting on it.
pub const CAPTURE_EVERY: Duration = Duration::from_millis(50);

/// The screen once `f` holds, captured every [`CAPTURE_EVERY`] for at most `within`; `Err` with
/// the last screen on time-out.
pub fn screen_within(
    session: &str,
    within: Duration,
    f: impl Fn(&str) -> bool,
) -> Result<String, String> {
    let mut last = String::new();
    let held = wait_until_blocking(within, CAPTURE_EVERY, || {
        last = screen(session);
        f(&last)
    });
    if held { Ok(last) } else { Err(last) }
}

/// The screen once `f` holds (see [`screen_within`]), for at most `secs` seconds; panics with
/// `what` and the last screen on time-out.
pub fn wait_for(session: &str, what: &str, secs: u64, f: impl Fn(&str) -> bool) -> String {
    screen_within(session, Duration::from_secs(secs), f)
        .unwrap_or_else(|screen| panic!("timed out waiting for {what}; screen:\n{screen}"))
}

/// Waits (at most 5 s) until `session` no longer exists; panics with `what` otherwise.
pub fn wait_gone(session: &str, what: &str) {
    let gone = wait_until_blocking(Duration::from_secs(5), CAPTURE_EVERY, || {
        tmux(&["has-session", "-t", session]).is_none()
    });
    assert!(
        gone,
        "{what}: tmux session {session} still exists after 5 s"
    );
}

/// Ends `session`, with `q` first so the TUI restores the terminal.
pub fn end(session: &str) {
    keys(session, "q");
    let _ = tmux(&["kill-session", "-t", session]);
}

/// A tmux session, ended ([`end`]) when dropped, also when an assertion fails.
pub struct Session(pub String);

impl Drop for Session {
    fn drop(&mut self) {
        end(&self.0);
    }
}
