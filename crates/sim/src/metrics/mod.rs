//! The resource metrics API, `metrics.k8s.io/v1beta1`, as metrics-server serves it through
//! the aggregation layer (`docs/metrics.md`): `PodMetrics` and `NodeMetrics` computed from
//! the usage profiles of the simulated programs ([`crate::runtime::usage`]), so
//! `kubectl top pod` and `kubectl top node` work against the simulator. By concept:
//! [`quantity`] (metrics-server's number forms), [`sample`] (the sample grid and the objects),
//! [`routes`] (discovery, GET/LIST, Tables). [`MetricsConfig`] turns it off
//! (`--no-metrics`: the group is absent and its paths 404) and sets the resolution
//! (`--metric-resolution`).

pub mod quantity;
pub mod routes;
pub mod sample;

use std::sync::Mutex;
use std::time::Duration;

pub use routes::routes;

/// The API group.
pub const GROUP: &str = "metrics.k8s.io";
/// Its one version.
pub const VERSION: &str = "v1beta1";
/// metrics-server's default `--metric-resolution`.
pub const DEFAULT_RESOLUTION: Duration = Duration::from_secs(15);

/// Whether the simulator serves `metrics.k8s.io`, and how often it samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricsConfig {
    /// Serve the group (default `true`); `false` is a cluster without metrics-server.
    pub enabled: bool,
    /// The sampling resolution (whole seconds, at least 1 s; default
    /// [`DEFAULT_RESOLUTION`]): each sample's `timestamp` is the last multiple of it since
    /// the epoch, its `window` this span.
    pub resolution: Duration,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            enabled: true,
            resolution: DEFAULT_RESOLUTION,
        }
    }
}

/// The store's copy of the [`MetricsConfig`] (set once at start), read by every request.
#[derive(Debug, Default)]
pub struct Setting(Mutex<MetricsConfig>);

impl Setting {
    /// The current configuration.
    pub fn get(&self) -> MetricsConfig {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Replaces the configuration.
    pub fn set(&self, cfg: MetricsConfig) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = cfg;
    }
}

/// Parses a `--metric-resolution` value: a Go-style duration of whole seconds (`15s`, `1m`,
/// `1m30s`) or a number of seconds (`2`). Errors: the text clap prints after `invalid value`.
pub fn parse_resolution(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if let Ok(n) = t.parse::<u64>() {
        return positive(n);
    }
    let mut total = 0u64;
    let mut digits = String::new();
    for ch in t.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        let unit = match ch {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return Err(format!("expected a duration like 15s or 1m, got {t:?}")),
        };
        let n: u64 = digits
            .parse()
            .map_err(|_| format!("expected a duration like 15s or 1m, got {t:?}"))?;
        total += n * unit;
        digits.clear();
    }
    if !digits.is_empty() {
        return Err(format!("expected a duration like 15s or 1m, got {t:?}"));
    }
    positive(total)
}

fn positive(secs: u64) -> Result<Duration, String> {
    if secs == 0 {
        Err("the resolution must be at least 1s".to_string())
    } else {
        Ok(Duration::from_secs(secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolutions() {
        assert_eq!(parse_resolution("15s"), Ok(Duration::from_secs(15)));
        assert_eq!(parse_resolution("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_resolution("1m30s"), Ok(Duration::from_secs(90)));
        assert!(parse_resolution("0s").is_err());
        assert!(parse_resolution("5x").is_err());
        assert!(parse_resolution("5").is_ok());
        assert!(parse_resolution("m").is_err());
    }
}
