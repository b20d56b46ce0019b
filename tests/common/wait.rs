//! Waiting on a condition with a deadline instead of sleeping: the condition is polled every
//! few milliseconds, so a test goes on as soon as it holds and only a deadline that is generous
//! for a loaded 2-core CI machine bounds it.

use std::time::{Duration, Instant};

/// How often [`wait_until`] checks its condition.
pub const POLL: Duration = Duration::from_millis(10);

/// Polls `cond` every [`POLL`] until it holds (`true`) or `within` has passed (`false`, after a
/// last check at the deadline). Callers assert on the result with their own message.
pub async fn wait_until(within: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if cond() {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(POLL).await;
    }
}

/// [`wait_until`] on a plain thread (tmux, `block_in_place`), checking every `every` (for
/// conditions that run a process, like `tmux capture-pane`).
pub fn wait_until_blocking(
    within: Duration,
    every: Duration,
    mut cond: impl FnMut() -> bool,
) -> bool {
    let deadline = Instant::now() + within;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(every);
    }
}
