//! Resource usage from the metrics API (`metrics.k8s.io/v1beta1`, `docs/usage.md`): one
//! PodMetrics object as metrics-server writes it, parsed into per-container samples, and the
//! bounded [`history`] of them since attach.
//!
//! A PodMetrics reads:
//! `{"kind":"PodMetrics","apiVersion":"metrics.k8s.io/v1beta1","metadata":{"name":"web",
//! "namespace":"default",…},"timestamp":"2025-01-01T12:03:10Z","window":"15.012s",
//! "containers":[{"name":"app","usage":{"cpu":"2398029n","memory":"14624Ki"}}]}` —
//! `timestamp` is the end of the window the CPU rate was measured over, `window` its length (a
//! Go duration), CPU in cores (usually nanocores, `n`), memory the working set in bytes
//! (usually `Ki`).

pub mod history;

use std::time::Duration;

use jiff::Timestamp;
use serde::Deserialize;

pub use history::{ContainerHistory, HISTORY_LEN, UsageHistory};

use super::duration::parse_go_duration;
use super::resources::Quantity;

/// Whether the cluster serves the metrics API, as the probe found (`docs/usage.md`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum MetricsApi {
    /// Not asked yet.
    #[default]
    Unknown,
    /// `GET /apis/metrics.k8s.io/v1beta1` answered: samples follow.
    Served,
    /// The group is not served (404 or 503 from the probe): no metrics-server.
    Absent,
    /// RBAC refused the read (403); the server's reason.
    Forbidden(String),
    /// Another failure, in one line (transport, a body that is not PodMetrics).
    Failed(String),
}

impl MetricsApi {
    /// The one line the detail shows when there are no samples to show, if any.
    #[must_use]
    pub fn line(&self) -> Option<String> {
        match self {
            MetricsApi::Unknown | MetricsApi::Served => None,
            MetricsApi::Absent => {
                Some("metrics: not available (no metrics.k8s.io on this cluster)".to_owned())
            }
            MetricsApi::Forbidden(reason) => Some(format!("metrics: forbidden ({reason})")),
            MetricsApi::Failed(why) => Some(format!("metrics: failed ({why})")),
        }
    }
}

/// One container's usage at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The PodMetrics' `timestamp`.
    pub at: Timestamp,
    /// Its `window`.
    pub window: Duration,
    /// CPU in millicores, rounded up as `kubectl top` does.
    pub cpu_millicores: i64,
    /// Memory (working set) in bytes.
    pub memory_bytes: i64,
}

/// One PodMetrics object: the pod's containers' samples at one `timestamp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodMetrics {
    /// `metadata.name`.
    pub name: String,
    /// `timestamp`.
    pub timestamp: Timestamp,
    /// `window`.
    pub window: Duration,
    /// `(container name, sample)` in the order the server listed them.
    pub containers: Vec<(String, Sample)>,
}

#[derive(Deserialize)]
struct Wire {
    #[serde(default)]
    metadata: WireMeta,
    timestamp: String,
    window: String,
    #[serde(default)]
    containers: Vec<WireContainer>,
}

#[derive(Deserialize, Default)]
struct WireMeta {
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
struct WireContainer {
    name: String,
    #[serde(default)]
    usage: std::collections::BTreeMap<String, String>,
}

impl PodMetrics {
    /// Parses a PodMetrics document.
    ///
    /// # Errors
    /// One line naming what is wrong: not JSON of that shape, a `timestamp` that is not RFC
    /// 3339, a `window` that is not a Go duration, a usage that is not a quantity.
    pub fn from_json(body: &str) -> Result<PodMetrics, String> {
        let wire: Wire = serde_json::from_str(body).map_err(|e| format!("not PodMetrics: {e}"))?;
        let timestamp: Timestamp = wire
            .timestamp
            .parse()
            .map_err(|e| format!("timestamp {:?}: {e}", wire.timestamp))?;
        let window = parse_go_duration(&wire.window)
            .ok_or_else(|| format!("window {:?} is not a duration", wire.window))?;
        let mut containers = Vec::new();
        for c in wire.containers {
            let read = |key: &str| -> Result<Quantity, String> {
                let text = c.usage.get(key).map_or("0", String::as_str);
                Quantity::parse(text).map_err(|e| format!("container {}: {key}: {e}", c.name))
            };
            let sample = Sample {
                at: timestamp,
                window,
                cpu_millicores: read("cpu")?.millis(),
                memory_bytes: read("memory")?.units(),
            };
            containers.push((c.name, sample));
        }
        Ok(PodMetrics {
            name: wire.metadata.name,
            timestamp,
            window,
            containers,
        })
    }

    /// The sample of container `name`, if listed.
    #[must_use]
    pub fn container(&self, name: &str) -> Option<&Sample> {
        self.containers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
    }
}

/// Go's `Duration.String()` of a window as `kubectl` would show it, to whole milliseconds:
/// `15s`, `15.012s`, `1m0s`.
#[must_use]
pub fn window_text(w: Duration) -> String {
    let ms = w.as_millis();
    let (m, s_ms) = (ms / 60_000, ms % 60_000);
    let secs = if s_ms % 1000 == 0 {
        format!("{}s", s_ms / 1000)
    } else {
        let frac = format!("{:03}", s_ms % 1000);
        format!("{}.{}s", s_ms / 1000, frac.trim_end_matches('0'))
    };
    if m > 0 { format!("{m}m{secs}") } else { secs }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As metrics-server writes it (`kubectl get --raw /apis/metrics.k8s.io/v1beta1/…`).
    pub const BODY: &str = r#"{"kind":"PodMetrics","apiVersion":"metrics.k8s.io/v1beta1","metadata":{"name":"web","namespace":"default","creationTimestamp":"2025-01-01T12:03:11Z","labels":{"app":"web"}},"timestamp":"2025-01-01T12:03:10Z","window":"15.012s","containers":[{"name":"app","usage":{"cpu":"2398029n","memory":"14624Ki"}},{"name":"sidecar","usage":{"cpu":"0","memory":"512Ki"}}]}"#;

    #[test]
    fn parses_metrics_server_shape() {
        let m = PodMetrics::from_json(BODY).expect("parses");
        assert_eq!(m.name, "web");
        assert_eq!(m.window, Duration::from_millis(15_012));
        let app = m.container("app").expect("app");
        assert_eq!(app.cpu_millicores, 3);
        assert_eq!(app.memory_bytes, 14624 * 1024);
        assert_eq!(
            m.container("sidecar").map(|s| s.memory_bytes),
            Some(512 * 1024)
        );
        assert_eq!(window_text(m.window), "15.012s");
        assert_eq!(window_text(Duration::from_secs(15)), "15s");
        assert_eq!(window_text(Duration::from_secs(60)), "1m0s");
    }

    #[test]
    fn refuses_bad_bodies() {
        assert!(PodMetrics::from_json("{}").is_err());
        let bad = BODY.replace("14624Ki", "lots");
        let e = PodMetrics::from_json(&bad).expect_err("bad quantity");
        assert!(e.contains("container app: memory"), "{e}");
    }
}
