//! Following a container's log across restarts: where to resume, which re-fetched lines are
//! duplicates, and the marker lines (`docs/protocols.md` §2.4).
//!
//! The kubelet ends a follow stream when the container stops; the client re-requests with
//! `sinceTime`. The server compares `sinceTime` per line (line time ≥ sinceTime is sent), and
//! kube-rs rounds `sinceTime` to whole seconds, so a resumed request is sent with the last
//! timestamp floored to the second ([`ResumePoint::since_time`]) and the lines up to the resume
//! point are dropped here.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use super::duration::{format_go_duration, human_duration};
use super::log::LogLine;
use super::pod::Terminated;
use super::signal::{signal_by_number, signal_name};

/// Where a stream left off: the last timestamp seen and how many lines carried exactly it
/// (several lines can share one timestamp; they arrive in file order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResumePoint {
    /// Timestamp of the last line read.
    pub last_ts: Timestamp,
    /// Number of lines read with exactly `last_ts` (≥ 1).
    pub lines_at_last_ts: usize,
}

impl ResumePoint {
    /// Records one more line with timestamp `ts` into `point` (lines are in file order; a line
    /// older than the point, e.g. after a clock step, does not move it back).
    pub fn observe(point: &mut Option<ResumePoint>, ts: Timestamp) {
        match point {
            Some(p) if p.last_ts == ts => p.lines_at_last_ts += 1,
            Some(p) if p.last_ts > ts => {}
            _ => {
                *point = Some(ResumePoint {
                    last_ts: ts,
                    lines_at_last_ts: 1,
                });
            }
        }
    }

    /// The `sinceTime` to request: `last_ts` floored to the whole second, so that kube-rs's
    /// rounding to seconds can never skip a line after the resume point.
    #[must_use]
    pub fn since_time(&self) -> Timestamp {
        Timestamp::from_second(
            self.last_ts.as_second() - i64::from(self.last_ts.subsec_nanosecond() < 0),
        )
        .unwrap_or(self.last_ts)
    }
}

/// Decides, line by line in arrival order, which lines of a re-fetch (requested with
/// [`ResumePoint::since_time`]) were already read: lines older than `last_ts`, and the first
/// `lines_at_last_ts` lines with exactly `last_ts`. Once a newer line passed, everything passes.
/// Lines without a timestamp always pass.
#[derive(Debug, Clone)]
pub struct ResumeFilter {
    point: Option<ResumePoint>,
    seen_at_ts: usize,
}

impl ResumeFilter {
    /// A filter for `point`; `None` lets everything pass.
    #[must_use]
    pub fn new(point: Option<ResumePoint>) -> ResumeFilter {
        ResumeFilter {
            point,
            seen_at_ts: 0,
        }
    }

    /// Whether the filter still drops lines (cheap check to skip timestamp parsing).
    #[must_use]
    pub fn active(&self) -> bool {
        self.point.is_some()
    }

    /// `true` if a line with timestamp `ts` is new and must be kept.
    pub fn keep(&mut self, ts: Option<Timestamp>) -> bool {
        let (Some(p), Some(ts)) = (self.point, ts) else {
            return true;
        };
        if ts < p.last_ts {
            return false;
        }
        if ts == p.last_ts && self.seen_at_ts < p.lines_at_last_ts {
            self.seen_at_ts += 1;
            return false;
        }
        self.point = None;
        true
    }
}

/// Drops from `lines` (a new fetch with `sinceTime`, in arrival order) those at or before
/// `point` (see [`ResumeFilter`]).
#[must_use]
pub fn drop_before_resume(lines: Vec<LogLine>, point: Option<ResumePoint>) -> Vec<LogLine> {
    let mut filter = ResumeFilter::new(point);
    lines.into_iter().filter(|l| filter.keep(l.ts)).collect()
}

/// The marker inserted where a container instance ended and the next began, e.g.
/// `── restarted: OOMKilled, exit 137 (SIGKILL) after 45s, back-off 2m40s ──`.
///
/// `prev` is the instance that ended (`lastState.terminated`); the signal comes from an exit code
/// 128 + N, else from `terminated.signal`; "after" is `finishedAt − startedAt` in `kubectl` age
/// form (omitted when either is unknown or the container never started); `backoff` is the
/// CrashLoopBackOff wait in Go duration form as the kubelet prints it (omitted when `None`).
#[must_use]
pub fn restart_marker(prev: &Terminated, backoff: Option<Duration>) -> String {
    let mut parts = Vec::with_capacity(3);
    let signal = signal_name(prev.exit_code).or_else(|| signal_by_number(prev.signal));
    let exit = match signal {
        Some(sig) => format!("exit {} ({sig})", prev.exit_code),
        None => format!("exit {}", prev.exit_code),
    };
    let mut head = String::new();
    if !prev.reason.is_empty() {
        head.push_str(&prev.reason);
        head.push_str(", ");
    }
    head.push_str(&exit);
    if let Some(ran) = ran_for(prev) {
        head.push_str(" after ");
        head.push_str(&human_duration(ran));
    }
    parts.push(head);
    if let Some(b) = backoff {
        parts.push(format!("back-off {}", format_go_duration(b)));
    }
    format!("── restarted: {} ──", parts.join(", "))
}

fn ran_for(t: &Terminated) -> Option<SignedDuration> {
    let (start, end) = (t.started_at?, t.finished_at?);
    (start.as_second() > 0 && end >= start).then(|| end.duration_since(start))
}

/// The marker for instances that ran while podscope was not reading and whose logs the kubelet
/// no longer has (it keeps only the previous instance), e.g.
/// `── 2 restarts not seen: their logs are gone (the kubelet keeps only the previous instance) ──`.
#[must_use]
pub fn lost_instances_marker(count: u32) -> String {
    let what = if count == 1 {
        "1 restart not seen: its log is gone".to_owned()
    } else {
        format!("{count} restarts not seen: their logs are gone")
    };
    format!("── {what} (the kubelet keeps only the previous instance) ──")
}

/// Tracks the [`ResumePoint`] of a stream from the raw timestamp tokens of its lines without
/// parsing each one: lines sharing the same token bytes are counted, and only the last token is
/// parsed, on demand ([`ResumeTracker::point`]). Allocation-free after the first line.
#[derive(Debug, Clone, Default)]
pub struct ResumeTracker {
    token: Vec<u8>,
    count: usize,
    base: Option<ResumePoint>,
}

impl ResumeTracker {
    /// Starts from `point` (lines already read before this stream), or from nothing.
    #[must_use]
    pub fn new(point: Option<ResumePoint>) -> ResumeTracker {
        ResumeTracker {
            token: Vec::new(),
            count: 0,
            base: point,
        }
    }

    /// Records a line whose timestamp token (see [`crate::log::timestamp_token`]) is `token`.
    pub fn observe(&mut self, token: &[u8]) {
        if self.token == token {
            self.count += 1;
        } else {
            self.token.clear();
            self.token.extend_from_slice(token);
            self.count = 1;
        }
    }

    /// Records a line whose timestamp is already parsed (`ts`): the tokens seen so far are folded
    /// into the starting point first, so both kinds of input may follow each other.
    pub fn observe_ts(&mut self, ts: Timestamp) {
        if !self.token.is_empty() {
            self.base = self.point();
            self.token.clear();
            self.count = 0;
        }
        ResumePoint::observe(&mut self.base, ts);
    }

    /// Where the stream left off: the last token seen (if it parses) with its line count, merged
    /// with the starting point (same timestamp → counts add up; an older one never wins).
    #[must_use]
    pub fn point(&self) -> Option<ResumePoint> {
        let last = std::str::from_utf8(&self.token)
            .ok()
            .and_then(|t| t.parse::<Timestamp>().ok())
            .map(|ts| ResumePoint {
                last_ts: ts,
                lines_at_last_ts: self.count,
            });
        match (self.base, last) {
            (Some(b), Some(l)) if b.last_ts == l.last_ts => Some(ResumePoint {
                last_ts: b.last_ts,
                lines_at_last_ts: b.lines_at_last_ts + l.lines_at_last_ts,
            }),
            (Some(b), Some(l)) if b.last_ts > l.last_ts => Some(b),
            (b, l) => l.or(b),
        }
    }
}
