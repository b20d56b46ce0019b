//! Per-container back-off entries, as the kubelet keeps them in memory.
//!
//! Mirrors client-go `util/flowcontrol/backoff.go` as the kubelet uses it (`docs/protocols.md` §5.1):
//! an entry `{backoff, lastUpdate}` per key; [`BackoffTable::next`] starts at the curve's `initial`
//! or doubles up to `max`; an entry expires (resets) when the container ran longer than
//! [`RESET_AFTER`] between its restart and its exit. The same table type serves image pulls
//! (keyed separately), where the kubelet checks "since the last update" instead of "since exit".

use std::collections::HashMap;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use podscope_model::BackoffCurve;

/// A container that ran longer than this (restart → exit) gets its back-off reset (600 s, as
/// recent kubelets set explicitly, independent of the curve's `max`).
pub const RESET_AFTER: SignedDuration = SignedDuration::from_secs(600);

/// One entry: the current wait and when it was last bumped (the restart or pull-failure time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    backoff: Duration,
    last_update: Timestamp,
}

/// The kubelet's in-memory back-off map (one per purpose: restarts, image pulls).
#[derive(Debug, Clone)]
pub(crate) struct BackoffTable {
    curve: BackoffCurve,
    entries: HashMap<String, Entry>,
}

impl BackoffTable {
    /// An empty table on `curve` (10 s → 300 s by default).
    pub(crate) fn new(curve: BackoffCurve) -> Self {
        Self {
            curve,
            entries: HashMap::new(),
        }
    }

    fn expired(entry: &Entry, event_time: Timestamp) -> bool {
        event_time.duration_since(entry.last_update) > RESET_AFTER
    }

    /// `IsInBackOffSince(key, t_exit)`: `Some(backoff)` when the entry exists, has not expired
    /// and `now − t_exit < backoff`; the caller must then wait until `t_exit + backoff`.
    pub(crate) fn in_backoff_since(
        &self,
        key: &str,
        t_exit: Timestamp,
        now: Timestamp,
    ) -> Option<Duration> {
        let entry = self.entries.get(key)?;
        if Self::expired(entry, t_exit) {
            return None;
        }
        let waited = now.duration_since(t_exit);
        (waited < to_signed(entry.backoff)).then_some(entry.backoff)
    }

    /// `IsInBackOffSinceUpdate(key, now)` (image pulls): `Some(backoff)` while
    /// `now − lastUpdate < backoff`.
    pub(crate) fn in_backoff_since_update(&self, key: &str, now: Timestamp) -> Option<Duration> {
        let entry = self.entries.get(key)?;
        let waited = now.duration_since(entry.last_update);
        (waited < to_signed(entry.backoff)).then_some(entry.backoff)
    }

    /// `Next(key, event_time)` at `now`: a missing or expired entry starts at `initial`, else the
    /// wait doubles up to `max`; `lastUpdate = now`. Returns the new wait.
    pub(crate) fn next(&mut self, key: &str, event_time: Timestamp, now: Timestamp) -> Duration {
        let backoff = match self.entries.get(key) {
            Some(entry) if !Self::expired(entry, event_time) => {
                entry.backoff.saturating_mul(2).min(self.curve.max)
            }
            _ => self.curve.initial.min(self.curve.max),
        };
        self.entries.insert(
            key.to_string(),
            Entry {
                backoff,
                last_update: now,
            },
        );
        backoff
    }

    /// Forgets every entry whose key starts with `prefix` (the pod was removed).
    pub(crate) fn forget_prefix(&mut self, prefix: &str) {
        self.entries.retain(|k, _| !k.starts_with(prefix));
    }
}

/// `std` duration → jiff signed duration (saturating).
pub(crate) fn to_signed(d: Duration) -> SignedDuration {
    SignedDuration::try_from(d).unwrap_or(SignedDuration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + s).expect("valid test time")
    }

    fn curve() -> BackoffCurve {
        BackoffCurve {
            initial: Duration::from_secs(10),
            max: Duration::from_secs(300),
        }
    }

    #[test]
    fn sequence_matches_protocols_5_1() {
        // Waits before restart n: 0, 10, 20, 40, 80, 160, 300, 300 (protocols.md §5.1).
        let mut table = BackoffTable::new(curve());
        let mut waits = Vec::new();
        let mut now = 0;
        for _ in 0..8 {
            let exit = now + 1;
            let wait = table
                .in_backoff_since("k", t(exit), t(exit))
                .map_or(0, |d| d.as_secs());
            waits.push(wait);
            now = exit + wait as i64;
            table.next("k", t(exit), t(now));
        }
        assert_eq!(waits, vec![0, 10, 20, 40, 80, 160, 300, 300]);
    }

    #[test]
    fn resets_after_ten_minutes_of_running() {
        let mut table = BackoffTable::new(curve());
        table.next("k", t(0), t(1));
        table.next("k", t(2), t(12)); // 20 s now
        // Ran from 12 to 613 (601 s > 600 s): expired, restart at once, next wait back to 10 s.
        assert_eq!(table.in_backoff_since("k", t(613), t(614)), None);
        assert_eq!(table.next("k", t(613), t(614)), Duration::from_secs(10));
        // Ran exactly 600 s: not expired.
        table.next("j", t(0), t(0));
        assert_eq!(
            table.in_backoff_since("j", t(600), t(601)),
            Some(Duration::from_secs(10))
        );
    }
}
