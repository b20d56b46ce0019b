//! What the metrics API's samples add to the memory story (`docs/usage.md` "Diagnosis"):
//!
//! - `memory-near-limit` (warning): a running container's last working set, sampled in its
//!   current instance, passed 90 % of `limits.memory` (or 75 % while rising fast enough to
//!   reach it within two sampling windows, before another sample could show 90 %); the growth rate over the recent samples
//!   and the time left at that rate are stated, since the kernel's OOM killer acts at the limit
//!   without warning.
//! - the OOMKilled finding ([`super::memory::oom`]) quotes the last sample taken before the kill
//!   ([`last_before_kill`]).

use jiff::Timestamp;

use super::{Finding, Inputs, Severity};
use crate::pod::{ContainerState, ContainerSummary, Terminated};
use crate::resources::{MI, Resources, memory_text, percent};
use crate::usage::Sample;
use crate::usage::window_text;

/// The share of `limits.memory` past which the warning is given.
pub const NEAR_LIMIT: f64 = 0.9;
/// Below [`NEAR_LIMIT`], the share past which a growth that reaches the limit within two
/// sampling windows is warned about too.
pub const SOON_FROM: f64 = 0.75;
/// Growth below this (bytes per minute) is "not rising".
const FLAT_BYTES_PER_MIN: f64 = 256.0 * 1024.0;

/// `8Mi/min`, `0.5Mi/min`: a rate of bytes per minute in mebibytes.
#[must_use]
#[allow(clippy::cast_precision_loss)] // display only
pub fn rate_text(bytes_per_min: f64) -> String {
    let mi = bytes_per_min / MI as f64;
    let n = if mi >= 10.0 {
        format!("{mi:.0}")
    } else {
        let s = format!("{mi:.1}");
        s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
    };
    format!("{n}Mi/min")
}

/// `12:03:10`: the UTC wall-clock time of a sample.
fn clock(t: Timestamp) -> String {
    t.strftime("%H:%M:%S").to_string()
}

/// The `memory-near-limit` warning for `c`, when it runs, has a memory limit and its last sample
/// of this instance is past [`NEAR_LIMIT`] of it.
#[must_use]
#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)] // ratios and minutes
pub fn near_limit(inp: &Inputs<'_>, c: &ContainerSummary) -> Option<Finding> {
    let ContainerState::Running { started_at } = &c.state else {
        return None;
    };
    let history = inp.usage?.of(&c.name)?;
    let resources = Resources::of_container(inp.pod, &c.name);
    let limit = resources.memory_limit_bytes()?;
    let limit_text = resources.limits.memory.as_ref()?.text.clone();
    let last = history.since(*started_at).last()?;
    let ratio = last.memory_bytes as f64 / limit as f64;
    let rate = history.memory_rate_per_min(*started_at);
    // Rising so fast that the limit comes before the next two samples: the 90 % mark would
    // only be seen, if at all, after the kill.
    let limit_before_two_windows = rate.is_some_and(|r| {
        r > FLAT_BYTES_PER_MIN
            && (limit - last.memory_bytes).max(0) as f64 / r * 60.0
                <= 2.0 * last.window.as_secs_f64()
    });
    if ratio <= NEAR_LIMIT && !(ratio > SOON_FROM && limit_before_two_windows) {
        return None;
    }
    let pct = percent(last.memory_bytes as f64, limit as f64).unwrap_or(0);
    let used = memory_text(last.memory_bytes);
    let trend = match rate {
        Some(r) if r > FLAT_BYTES_PER_MIN => {
            // Under a minute left, in seconds (at 506Mi of 512Mi rising 171Mi/min: ~2s).
            let seconds = ((limit - last.memory_bytes).max(0) as f64 / r * 60.0).round() as i64;
            let left = if seconds < 60 {
                format!("~{}s", seconds.max(1))
            } else {
                format!("~{} min", (seconds as f64 / 60.0).round() as i64)
            };
            format!(
                ", rising {}: an OOM kill is likely within {left}",
                rate_text(r)
            )
        }
        Some(_) => ", not rising: a spike of a few Mi would reach it".to_owned(),
        None => ": one sample so far, no trend yet".to_owned(),
    };
    let mut f = Finding::new(
        "memory-near-limit",
        Severity::Warning,
        Some(&c.name),
        format!("memory {used} of limit {limit_text} ({pct}%){trend}"),
    )
    .with(format!(
        "metrics.k8s.io: working set {used} at {} (window {})",
        clock(last.at),
        window_text(last.window)
    ))
    .with(format!("resources: limits.memory {limit_text}"));
    let samples: Vec<&Sample> = history.since(*started_at).collect();
    if let (Some(first), true) = (samples.first(), samples.len() > 1) {
        f = f.with(format!(
            "{} samples since {}: {} → {}",
            samples.len(),
            clock(first.at),
            memory_text(first.memory_bytes),
            used
        ));
    }
    if history.dropped > 0 {
        f = f.with(format!(
            "{} older samples dropped (the last {} are kept)",
            history.dropped,
            crate::usage::HISTORY_LEN
        ));
    }
    Some(f.action(format!(
        "the kernel kills the container when it reaches {limit_text}: raise limits.memory, or find what grows (a leak, a cache without bound) before it does"
    )))
}

/// The sentence about the last sample of `c` taken in instance `t` before it was OOM-killed:
/// `last seen 509Mi of 512Mi (99%) at 12:03:10, 15s before the kill`.
#[must_use]
#[allow(clippy::cast_precision_loss)] // a percentage
pub fn last_before_kill(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> Option<String> {
    let history = inp.usage?.of(&c.name)?;
    let end = t.finished_at?;
    let s = history.last_at_or_before(end)?;
    if t.started_at.is_some_and(|start| s.at < start) {
        return None;
    }
    let used = memory_text(s.memory_bytes);
    let resources = Resources::of_container(inp.pod, &c.name);
    let of = match (resources.memory_limit_bytes(), &resources.limits.memory) {
        (Some(limit), Some(text)) => format!(
            " of {} ({}%)",
            text.text,
            percent(s.memory_bytes as f64, limit as f64).unwrap_or(0)
        ),
        _ => String::new(),
    };
    let before = end.duration_since(s.at).as_secs();
    Some(format!(
        "last seen {used}{of} at {}, {before}s before the kill",
        clock(s.at)
    ))
}
