//! The metrics API's configuration (`sim/metrics`), kept in the store so every request and
//! every simulator in one process reads its own.

use super::Store;
use crate::metrics::MetricsConfig;

impl Store {
    /// Whether `metrics.k8s.io` is served, and its resolution (default: on, 15 s).
    pub fn metrics_config(&self) -> MetricsConfig {
        self.inner.metrics.get()
    }

    /// Sets the metrics configuration (the simulator does at start, from `SimConfig`).
    pub fn set_metrics_config(&self, cfg: MetricsConfig) {
        self.inner.metrics.set(cfg);
    }
}
