//! The CrashLoopBackOff countdown: when the kubelet will try the next restart.
//!
//! See `docs/protocols.md` §5: delay from `state.waiting.message` (`back-off 2m40s restarting
//! failed container=…`), else estimated from `restartCount` on the 10 s doubling / 300 s cap curve.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::ContainerStatus;

use super::duration::parse_go_duration;

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

/// How long a due restart is shown as [`Countdown::Restarting`] before it becomes
/// [`Countdown::Overdue`]: the kubelet restarts at its first pod sync after the back-off expires,
/// which up to K8s 1.34 is requeued 10–15 s later (`docs/protocols.md` §5.1).
pub const RESTARTING_SLACK: Duration = Duration::from_secs(15);

impl BackoffCurve {
    /// The kubelet default: 10 s initial, 300 s cap (`initialCrashLoopBackOff`, `MaxContainerBackOff`).
    pub const DEFAULT: BackoffCurve = BackoffCurve {
        initial: Duration::from_secs(10),
        max: Duration::from_secs(300),
    };

    /// `ReduceDefaultCrashLoopBackOffDecay` (alpha 1.33): 1 s initial, 60 s cap.
    pub const REDUCED: BackoffCurve = BackoffCurve {
        initial: Duration::from_secs(1),
        max: Duration::from_secs(60),
    };

    /// `min(initial · 2^exp, max)` without overflow.
    fn doubled(&self, exp: u32) -> Duration {
        let factor = 1u32.checked_shl(exp.min(31)).unwrap_or(u32::MAX);
        self.initial
            .checked_mul(factor)
            .map_or(self.max, |d| d.min(self.max))
    }

    /// The wait the kubelet imposes before restart number `restart_number` (1-based) of a
    /// container that keeps crashing without ever running 10 min: restart 1 happens at once,
    /// then `initial · 2^(n−2)` capped — `0, 10, 20, 40, 80, 160, 300, 300, …` s by default.
    /// `restart_number` 0 (no restart) is 0 too.
    pub fn delay_before_restart(&self, restart_number: u32) -> Duration {
        if restart_number <= 1 {
            Duration::ZERO
        } else {
            self.doubled(restart_number - 2)
        }
    }

    /// The back-off a container in `CrashLoopBackOff` with `restartCount = r` is most likely
    /// waiting out: `min(initial · 2^(r−1), max)` (r = 4 → `1m20s`, r = 5 → `2m40s`, r ≥ 6 →
    /// `5m0s`). `r ≤ 0` gives `initial`. An estimate: a back-off reset or a kubelet restart makes it
    /// wrong, so prefer the waiting message (§5.1 heuristic).
    pub fn shown_backoff(&self, restart_count: i32) -> Duration {
        let exp = u32::try_from(restart_count.saturating_sub(1)).unwrap_or(0);
        self.doubled(exp)
    }
}

/// Strips an ASCII-case-insensitive `prefix` from `s`.
fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Parses the kubelet's CrashLoopBackOff `state.waiting.message`
/// (`back-off 2m40s restarting failed container=coord pod=coord-2_data(<uid>)`, any case: old
/// kubelets wrote `Back-off`) into the back-off delay and the container name.
///
/// `None` when the text has another shape or the delay is not Go duration text.
pub fn parse_waiting_message(msg: &str) -> Option<(Duration, String)> {
    let rest = strip_prefix_ci(msg.trim(), "back-off ")?;
    let (delay_text, rest) = rest.split_once(' ')?;
    let rest = strip_prefix_ci(rest, "restarting failed container=")?;
    let (container, rest) = rest.split_once(' ')?;
    let pod = strip_prefix_ci(rest, "pod=")?;
    if container.is_empty() || pod.is_empty() {
        return None;
    }
    let delay = parse_go_duration(delay_text)?;
    Some((delay, container.to_string()))
}

impl Backoff {
    /// The back-off of a container, when `state.waiting.reason == "CrashLoopBackOff"`.
    ///
    /// The delay comes from the waiting message ([`BackoffSource::Message`]), else from
    /// `curve.shown_backoff(restartCount)` ([`BackoffSource::Estimate`]); `next_restart_at` is
    /// `lastState.terminated.finishedAt + delay` (`docs/protocols.md` §5.3).
    pub fn from_status(status: &ContainerStatus, curve: BackoffCurve) -> Option<Backoff> {
        let waiting = status.state.as_ref()?.waiting.as_ref()?;
        if waiting.reason.as_deref() != Some("CrashLoopBackOff") {
            return None;
        }
        let (delay, source) = match waiting.message.as_deref().and_then(parse_waiting_message) {
            Some((delay, _)) => (delay, BackoffSource::Message),
            None => (
                curve.shown_backoff(status.restart_count),
                BackoffSource::Estimate,
            ),
        };
        let finished_at = status
            .last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref())
            .and_then(|t| t.finished_at.as_ref())
            .map(|t| t.0);
        let next_restart_at = finished_at.and_then(|t| {
            let d = SignedDuration::try_from(delay).ok()?;
            t.checked_add(d).ok()
        });
        Some(Backoff {
            delay,
            next_restart_at,
            source,
        })
    }

    /// What to show at `now`: [`Countdown::In`] whole seconds (rounded up) before
    /// `next_restart_at`, at most the back-off `delay` (a server clock ahead of ours); [`Countdown::Restarting`] from the due time until [`RESTARTING_SLACK`]
    /// after it (inclusive); [`Countdown::Overdue`] after that; [`Countdown::Unknown`] without
    /// `finishedAt`.
    pub fn countdown(&self, now: Timestamp) -> Countdown {
        let Some(next) = self.next_restart_at else {
            return Countdown::Unknown;
        };
        let remaining = next.duration_since(now);
        if remaining.is_positive() {
            let secs = u64::try_from(remaining.as_secs()).unwrap_or(0);
            let round_up = u64::from(remaining.subsec_nanos() > 0);
            // Never more than the back-off itself: more means the API server's clock runs ahead
            // of ours (finishedAt in our future), and the kubelet waits `delay`, not the skew.
            let cap = self.delay.as_secs() + u64::from(self.delay.subsec_nanos() > 0);
            return Countdown::In((secs + round_up).min(cap));
        }
        let late = now.duration_since(next);
        match SignedDuration::try_from(RESTARTING_SLACK) {
            Ok(slack) if late <= slack => Countdown::Restarting,
            _ => Countdown::Overdue,
        }
    }

    /// The wait the kubelet will most likely impose after the next crash: `min(2 · delay, max)`
    /// (§5.3 step 6; wrong when the container then runs more than 10 min, which resets it).
    pub fn predicted_next_delay(&self, curve: BackoffCurve) -> Duration {
        self.delay
            .checked_mul(2)
            .map_or(curve.max, |d| d.min(curve.max))
    }
}
