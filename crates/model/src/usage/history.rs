//! The samples seen since attach, per container, bounded: the last [`HISTORY_LEN`] of each are
//! kept and the number dropped before them is counted. The history belongs to the pod, not to
//! a container instance, so it survives restarts: the OOM finding quotes the last sample
//! before the kill (`docs/usage.md`).

use std::collections::{BTreeMap, VecDeque};

use jiff::Timestamp;

use super::{PodMetrics, Sample};

/// Samples kept per container (30 min at the default 15 s resolution).
pub const HISTORY_LEN: usize = 120;
/// Samples the growth rate is fitted over (the most recent ones).
pub const RATE_SAMPLES: usize = 8;

/// One container's samples, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerHistory {
    /// The last [`HISTORY_LEN`] samples, oldest first.
    pub samples: VecDeque<Sample>,
    /// How many older samples were dropped to keep the bound.
    pub dropped: u64,
}

/// The samples of every container of the pod, by container name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsageHistory {
    /// By container name.
    pub containers: BTreeMap<String, ContainerHistory>,
    /// The `timestamp` of the last PodMetrics taken in.
    pub last_timestamp: Option<Timestamp>,
}

impl UsageHistory {
    /// Takes in one PodMetrics; `false` (nothing changed) when its `timestamp` is not newer
    /// than the last one's (the same window read twice).
    pub fn push(&mut self, m: &PodMetrics) -> bool {
        if self.last_timestamp.is_some_and(|t| m.timestamp <= t) {
            return false;
        }
        self.last_timestamp = Some(m.timestamp);
        for (name, s) in &m.containers {
            let h = self.containers.entry(name.clone()).or_default();
            h.samples.push_back(*s);
            while h.samples.len() > HISTORY_LEN {
                h.samples.pop_front();
                h.dropped += 1;
            }
        }
        true
    }

    /// The history of container `name`.
    #[must_use]
    pub fn of(&self, name: &str) -> Option<&ContainerHistory> {
        self.containers.get(name)
    }

    /// The last sample of container `name`.
    #[must_use]
    pub fn last(&self, name: &str) -> Option<&Sample> {
        self.of(name)?.samples.back()
    }
}

impl ContainerHistory {
    /// The last sample taken at or before `t`.
    #[must_use]
    pub fn last_at_or_before(&self, t: Timestamp) -> Option<&Sample> {
        self.samples.iter().rev().find(|s| s.at <= t)
    }

    /// The samples taken at or after `since` (all when `None`), oldest first.
    pub fn since(&self, since: Option<Timestamp>) -> impl Iterator<Item = &Sample> {
        self.samples
            .iter()
            .filter(move |s| since.is_none_or(|t| s.at >= t))
    }

    /// The memory growth in bytes per minute: the least-squares slope over the last
    /// [`RATE_SAMPLES`] samples at or after `since` (the current instance's start). `None`
    /// with fewer than two samples or no time between them.
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // bytes and seconds as floats for a fitted rate
    pub fn memory_rate_per_min(&self, since: Option<Timestamp>) -> Option<f64> {
        let recent: Vec<&Sample> = self.since(since).collect();
        let tail = &recent[recent.len().saturating_sub(RATE_SAMPLES)..];
        let first = tail.first()?;
        if tail.len() < 2 {
            return None;
        }
        let points: Vec<(f64, f64)> = tail
            .iter()
            .map(|s| {
                let secs = s.at.duration_since(first.at).as_secs_f64();
                (secs / 60.0, s.memory_bytes as f64)
            })
            .collect();
        let n = points.len() as f64;
        let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
        let my = points.iter().map(|p| p.1).sum::<f64>() / n;
        let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
        if sxx <= 0.0 {
            return None;
        }
        let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        Some(sxy / sxx)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn metrics(at_s: i64, mem_mi: i64) -> PodMetrics {
        let at = Timestamp::from_second(1_735_732_800 + at_s).expect("ts");
        PodMetrics {
            name: "web".into(),
            timestamp: at,
            window: Duration::from_secs(15),
            containers: vec![(
                "app".into(),
                Sample {
                    at,
                    window: Duration::from_secs(15),
                    cpu_millicores: 12,
                    memory_bytes: mem_mi * 1024 * 1024,
                },
            )],
        }
    }

    #[test]
    fn bounded_and_deduplicated() {
        let mut h = UsageHistory::default();
        for i in 0..130 {
            assert!(h.push(&metrics(i * 15, 100 + i)));
        }
        assert!(!h.push(&metrics(129 * 15, 1)), "same window again");
        let app = h.of("app").expect("app");
        assert_eq!(app.samples.len(), HISTORY_LEN);
        assert_eq!(app.dropped, 10);
        assert_eq!(
            h.last("app").map(|s| s.memory_bytes),
            Some(229 * 1024 * 1024)
        );
    }

    #[test]
    fn rate_per_minute() {
        let mut h = UsageHistory::default();
        // 2Mi every 15 s: 8Mi/min.
        for i in 0..10 {
            h.push(&metrics(i * 15, 400 + 2 * i));
        }
        let rate = h
            .of("app")
            .and_then(|a| a.memory_rate_per_min(None))
            .expect("rate");
        assert!((rate / (1024.0 * 1024.0) - 8.0).abs() < 1e-9, "{rate}");
        let one = UsageHistory::default();
        assert!(one.of("app").is_none());
    }
}
