//! Time as text for the view: ages, "x ago", Go durations. Every function takes `now`.
//!
//! Thin names over `crate::model::duration` (kubectl's `HumanDuration`, Go's `Duration.String`).

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use crate::model::duration::{format_go_duration, human_duration, run_duration};

/// kubectl `HumanDuration` of `d` (`70s`, `4m30s`, `10m`, `73m`, `4d3h`); negative → `0s`.
#[must_use]
pub fn human(d: SignedDuration) -> String {
    human_duration(d)
}

/// How long an instance ran from `started` to `finished` (whole-second timestamps): `<1s`,
/// `≈1s`, then kubectl style (`45s`, `4m30s`).
#[must_use]
pub fn ran(started: Timestamp, finished: Timestamp) -> String {
    run_duration(finished.duration_since(started))
}

/// The age of `t` at `now`, kubectl style (`10m`).
#[must_use]
pub fn age(t: Timestamp, now: Timestamp) -> String {
    human(now.duration_since(t))
}

/// `"<age> ago"`, e.g. `70s ago`.
#[must_use]
pub fn ago(t: Timestamp, now: Timestamp) -> String {
    format!("{} ago", age(t, now))
}

/// Go `time.Duration` text: `40s`, `1m30s`, `5m0s`, `1h0m0s`.
#[must_use]
pub fn go(d: Duration) -> String {
    format_go_duration(d)
}
