//! The live CrashLoopBackOff countdown as text and as a small gauge (elapsed / back-off).

use std::time::Duration;

use jiff::Timestamp;
use ratatui::text::Span;

use super::clock;
use super::theme::Theme;
use crate::model::{Backoff, BackoffSource, Countdown};

/// `restart in 1m30s (back-off 2m40s)`; `≈` marks an estimated back-off.
#[must_use]
pub fn text(backoff: &Backoff, now: Timestamp) -> String {
    let approx = if backoff.source == BackoffSource::Estimate {
        "≈"
    } else {
        ""
    };
    let delay = format!("back-off {approx}{}", clock::go(backoff.delay));
    match backoff.countdown(now) {
        Countdown::In(secs) => format!(
            "restart in {approx}{} ({delay})",
            clock::go(Duration::from_secs(secs))
        ),
        Countdown::Restarting => format!("restarting… ({delay})"),
        Countdown::Overdue => format!("restart overdue ({delay})"),
        Countdown::Unknown => format!("{delay}, finish time unknown"),
    }
}

/// The list's short form: `in 1m30s`, `in ≈1m30s`, `restarting…`, `overdue`.
#[must_use]
pub fn short_text(backoff: &Backoff, now: Timestamp) -> String {
    let approx = if backoff.source == BackoffSource::Estimate {
        "≈"
    } else {
        ""
    };
    match backoff.countdown(now) {
        Countdown::In(secs) => format!("in {approx}{}", clock::go(Duration::from_secs(secs))),
        Countdown::Restarting => "restarting…".to_owned(),
        Countdown::Overdue => "overdue".to_owned(),
        Countdown::Unknown => format!("back-off {approx}{}", clock::go(backoff.delay)),
    }
}

/// The countdown of a deleted pod: nothing will restart it, so no clock runs:
/// `no restart: pod deleted (back-off 40s)`.
#[must_use]
pub fn deleted_text(backoff: &Backoff) -> String {
    let approx = if backoff.source == BackoffSource::Estimate {
        "≈"
    } else {
        ""
    };
    format!(
        "no restart: pod deleted (back-off {approx}{})",
        clock::go(backoff.delay)
    )
}

/// A `width`-cell bar: filled part = elapsed share of the back-off, as two styled spans.
#[must_use]
pub fn gauge(backoff: &Backoff, now: Timestamp, width: u16, theme: &Theme) -> Vec<Span<'static>> {
    let total = backoff.delay.as_secs_f64();
    let ratio = match (backoff.countdown(now), total > 0.0) {
        (Countdown::In(secs), true) => {
            (1.0 - std::time::Duration::from_secs(secs).as_secs_f64() / total).clamp(0.0, 1.0)
        }
        (Countdown::Unknown, _) => 0.0,
        _ => 1.0,
    };
    let width_f = f64::from(width);
    // Truncation to a cell count: ratio is in 0..=1, so the product is in 0..=width.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let filled = (ratio * width_f).round() as usize;
    let empty = usize::from(width).saturating_sub(filled);
    vec![
        Span::styled("━".repeat(filled), theme.gauge),
        Span::styled("─".repeat(empty), theme.dim),
    ]
}
