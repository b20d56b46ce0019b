//! The CrashLoopBackOff countdown: when the kubelet will try the next restart.
//!
//! See `notes/protocols.md` §5: delay from `state.waiting.message` (`back-off 2m40s restarting
//! failed container=…`), else estimated from `restartCount` on the 10 s doubling / 300 s cap curve.

use std::time::Duration;

use jiff::Timestamp;

/// Where the back-off delay came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackoffSource {
    /// Parsed from `state.waiting.message`: the kubelet's own figure.
    Message,
    /// Estimated from `restartCount` (message missing or unparseable).
    Estimate,
}

/// The kubelet's back-off curve: `initial · 2^n`, capped at `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackoffCurve {
    /// First non-zero wait (10 s by default; 1 s with `ReduceDefaultCrashLoopBackOffDecay`).
    pub initial: Duration,
    /// Cap (300 s by default; 60 s with the reduced decay).
    pub max: Duration,
}

/// A container's current CrashLoopBackOff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backoff {
    /// The wait the kubelet imposes before the next restart.
    pub delay: Duration,
    /// `lastState.terminated.finishedAt + delay`; `None` when finishedAt is unknown.
    pub next_restart_at: Option<Timestamp>,
    /// Where `delay` came from.
    pub source: BackoffSource,
}

/// What to show for a back-off at a given `now`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Countdown {
    /// The restart is due in this many whole seconds (rounded up, ≥ 1).
    In(u64),
    /// Due, within the kubelet's sync slack (~15 s): "restarting…".
    Restarting,
    /// Due for longer than the slack: "overdue".
    Overdue,
    /// No `finishedAt` to count from.
    Unknown,
}
