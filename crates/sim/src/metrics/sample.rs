//! One metrics sample, as metrics-server would hold it after its last scrape
//! (`docs/metrics.md` §3): the sample instant is the last point of the resolution grid at or
//! before the store's clock, and every number is a pure function of the pods, their usage
//! profiles ([`crate::runtime::usage`]) and that instant — so two readers in one window
//! get the same numbers, and no timer thread runs.
//!
//! Objects as metrics-server writes them (`pkg/api/pod.go`, `pkg/api/node.go`,
//! `pkg/storage/types.go` of kubernetes-sigs/metrics-server; the types of
//! `k8s.io/metrics/pkg/apis/metrics/v1beta1/types.go`).

use std::time::Duration;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Container, Node, Pod};
use serde_json::{Value, json};

use super::quantity;
use crate::runtime::usage::{self, Usage};

/// The API version of the served objects.
pub const API_VERSION: &str = "metrics.k8s.io/v1beta1";

/// What the simulated node's system (kubelet, runtime, kernel) uses besides the pods.
pub const SYSTEM_CPU_NANOCORES: u64 = 85_000_000;
/// The system's memory working set, bytes (about 640Mi).
pub const SYSTEM_MEMORY_BYTES: u64 = 640 * 1024 * 1024;

/// The sample a reader at one instant sees: its `timestamp` and `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The last grid point at or before the reading: a whole multiple of the resolution
    /// since the Unix epoch.
    pub timestamp: Timestamp,
    /// The resolution in whole seconds (≥ 1), the span the CPU rate is averaged over.
    pub window_secs: i64,
}

impl Sample {
    /// The sample at `now` for a `resolution` (whole seconds; below 1 s counts as 1 s).
    #[must_use]
    pub fn at(now: Timestamp, resolution: Duration) -> Self {
        let step = i64::try_from(resolution.as_secs())
            .unwrap_or(i64::MAX)
            .max(1);
        let grid = now.as_second().div_euclid(step) * step;
        Sample {
            timestamp: Timestamp::from_second(grid).unwrap_or(now),
            window_secs: step,
        }
    }

    /// The window as Go's `time.Duration.String()` writes it: `15s`, `1m0s`, `1h2m3s`.
    #[must_use]
    pub fn window_text(&self) -> String {
        go_duration(self.window_secs)
    }
}

/// `secs` as Go's `Duration.String()` of whole seconds.
#[must_use]
pub fn go_duration(secs: i64) -> String {
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, _) => format!("{m}m{s}s"),
        _ => format!("{h}h{m}m{s}s"),
    }
}

/// The containers of `pod` that were running at the sample (started at or before it and
/// still running), init containers first (restartable sidecars), each with its usage.
#[must_use]
pub fn container_usage(pod: &Pod, sample: &Sample) -> Vec<(String, Usage)> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    let Some(status) = pod.status.as_ref() else {
        return Vec::new();
    };
    if status.phase.as_deref() != Some("Running") {
        return Vec::new();
    }
    let statuses = status
        .init_container_statuses
        .iter()
        .chain(status.container_statuses.iter())
        .flatten();
    let containers: Vec<&Container> = spec
        .init_containers
        .iter()
        .flatten()
        .chain(spec.containers.iter())
        .collect();
    let (ns, name) = (
        pod.metadata.namespace.as_deref().unwrap_or("default"),
        pod.metadata.name.as_deref().unwrap_or_default(),
    );
    let mut out = Vec::new();
    for st in statuses {
        let Some(started) = st
            .state
            .as_ref()
            .and_then(|s| s.running.as_ref())
            .and_then(|r| r.started_at.as_ref())
            .map(|t| t.0)
        else {
            continue;
        };
        if started > sample.timestamp {
            continue;
        }
        let Some(c) = containers.iter().find(|c| c.name == st.name) else {
            continue;
        };
        let elapsed = sample.timestamp.duration_since(started).as_secs_f64();
        let seed = seed_of(&[ns, name, &st.name], sample.timestamp.as_second());
        out.push((st.name.clone(), usage::usage(c, elapsed, seed)));
    }
    out
}

/// One served metrics object and its total usage (a pod's summed over its containers), the
/// cells of its Table row.
#[derive(Debug, Clone, PartialEq)]
pub struct Metrics {
    /// The `PodMetrics` or `NodeMetrics` object.
    pub json: Value,
    /// The usage the Table row shows.
    pub total: Usage,
}

/// The `PodMetrics` of `pod` at `sample`, `None` while no container of it has a sample
/// (metrics-server then answers 404 and leaves it out of lists). `created` is the reading's
/// instant: metrics-server stamps `metadata.creationTimestamp` with the time of the request.
#[must_use]
pub fn pod_metrics(pod: &Pod, sample: &Sample, created: Timestamp) -> Option<Metrics> {
    let usage = container_usage(pod, sample);
    if usage.is_empty() {
        return None;
    }
    let containers: Vec<Value> = usage
        .iter()
        .map(|(name, u)| json!({"name": name, "usage": usage_json(u)}))
        .collect();
    let mut meta = json!({
        "name": pod.metadata.name.clone().unwrap_or_default(),
        "namespace": pod.metadata.namespace.clone().unwrap_or_else(|| "default".into()),
        "creationTimestamp": seconds(created),
    });
    if let Some(labels) = pod.metadata.labels.as_ref().filter(|l| !l.is_empty()) {
        meta["labels"] = json!(labels);
    }
    let total = usage.iter().fold(Usage::default(), |t, (_, u)| t.plus(u));
    let json = json!({
        "kind": "PodMetrics", "apiVersion": API_VERSION, "metadata": meta,
        "timestamp": seconds(sample.timestamp), "window": sample.window_text(),
        "containers": containers,
    });
    Some(Metrics { json, total })
}

/// The `NodeMetrics` of `node`: the sum of the usage of the pods bound to it
/// (`spec.nodeName`) plus the system's [`SYSTEM_CPU_NANOCORES`] and [`SYSTEM_MEMORY_BYTES`]
/// with a small jitter.
#[must_use]
pub fn node_metrics(node: &Node, pods: &[&Pod], sample: &Sample, created: Timestamp) -> Metrics {
    let name = node.metadata.name.clone().unwrap_or_default();
    let base = seed_of(&[&name], sample.timestamp.as_second());
    let mut total = Usage {
        nanocores: SYSTEM_CPU_NANOCORES + base % 10_000_000,
        bytes: SYSTEM_MEMORY_BYTES + (base % 2048) * usage::PAGE,
    };
    for pod in pods
        .iter()
        .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(&name))
    {
        for (_, u) in container_usage(pod, sample) {
            total = total.plus(&u);
        }
    }
    let mut meta = json!({"name": name, "creationTimestamp": seconds(created)});
    if let Some(labels) = node.metadata.labels.as_ref().filter(|l| !l.is_empty()) {
        meta["labels"] = json!(labels);
    }
    let json = json!({
        "kind": "NodeMetrics", "apiVersion": API_VERSION, "metadata": meta,
        "timestamp": seconds(sample.timestamp), "window": sample.window_text(),
        "usage": usage_json(&total),
    });
    Metrics { json, total }
}

/// `{"cpu": …, "memory": …}` in metrics-server's quantity forms.
#[must_use]
pub fn usage_json(u: &Usage) -> Value {
    json!({"cpu": quantity::cpu(u.nanocores), "memory": quantity::memory(u.bytes)})
}

/// An instant as `metav1.Time` writes it (RFC 3339, whole seconds).
fn seconds(t: Timestamp) -> String {
    Timestamp::from_second(t.as_second())
        .unwrap_or(t)
        .to_string()
}

/// A jitter seed from names and the sample's second (FNV-1a).
fn seed_of(parts: &[&str], second: i64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in parts
        .iter()
        .flat_map(|p| p.bytes().chain([0]))
        .chain(second.to_le_bytes())
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_sit_on_the_grid() {
        let now: Timestamp = "2026-12-01T21:40:29.7Z".parse().expect("ts");
        let s = Sample::at(now, Duration::from_secs(15));
        assert_eq!(s.timestamp.to_string(), "2026-12-01T21:40:15Z");
        assert_eq!(s.window_text(), "15s");
        let one = Sample::at(now, Duration::from_millis(200));
        assert_eq!(one.timestamp.to_string(), "2026-12-01T21:40:29Z");
        assert_eq!(one.window_text(), "1s");
        assert_eq!(go_duration(60), "1m0s");
        assert_eq!(go_duration(3723), "1h2m3s");
    }
}
