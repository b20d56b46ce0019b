//! Time as text for the view: ages, "x ago", Go durations. Every function takes `now`.
//!
//! Delegates to `crate::model::duration` once that lands; until then a faithful local copy of
//! kubectl's `HumanDuration` and Go's `time.Duration` formatting (notes/protocols.md §5, §6).

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

/// kubectl `HumanDuration` of `d` (`70s`, `4m30s`, `10m`, `73m`, `4d3h`); negative → `0s`.
#[must_use]
pub fn human(d: SignedDuration) -> String {
    let secs = d.as_secs();
    if secs < -1 {
        return "<invalid>".to_owned();
    }
    let s = secs.max(0);
    let (m, h) = (s / 60, s / 3600);
    if s < 120 {
        format!("{s}s")
    } else if m < 10 {
        if s % 60 == 0 {
            format!("{m}m")
        } else {
            format!("{m}m{}s", s % 60)
        }
    } else if m < 180 {
        format!("{m}m")
    } else if h < 8 {
        if m % 60 == 0 {
            format!("{h}h")
        } else {
            format!("{h}h{}m", m % 60)
        }
    } else if h < 48 {
        format!("{h}h")
    } else if h < 24 * 8 {
        if h % 24 == 0 {
            format!("{}d", h / 24)
        } else {
            format!("{}d{}h", h / 24, h % 24)
        }
    } else if h < 24 * 365 * 2 {
        format!("{}d", h / 24)
    } else if h < 24 * 365 * 8 {
        let (y, d) = (h / 24 / 365, h / 24 % 365);
        if d == 0 {
            format!("{y}y")
        } else {
            format!("{y}y{d}d")
        }
    } else {
        format!("{}y", h / 24 / 365)
    }
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

/// Go `time.Duration` text for whole seconds: `40s`, `1m30s`, `5m0s`, `1h0m0s`.
#[must_use]
pub fn go(d: Duration) -> String {
    let mut s = d.as_secs();
    let ms = d.subsec_millis();
    if s < 60 {
        return if ms == 0 {
            format!("{s}s")
        } else {
            format!("{s}.{}s", format!("{ms:03}").trim_end_matches('0'))
        };
    }
    let h = s / 3600;
    s %= 3600;
    if h > 0 {
        format!("{h}h{}m{}s", s / 60, s % 60)
    } else {
        format!("{}m{}s", s / 60, s % 60)
    }
}
