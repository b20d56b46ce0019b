//! `EventSummary`: one core/v1 Event about the pod, as shown in the events pane.

use jiff::Timestamp;

/// One pod event (`kubectl describe`'s Events table row), sanitised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventSummary {
    /// `metadata.uid` (identity across MODIFIED updates of an aggregated event).
    pub uid: String,
    /// `type`: `Normal` or `Warning`.
    pub type_: String,
    /// `reason`, e.g. `BackOff`, `Unhealthy`, `Killing`.
    pub reason: String,
    /// `message`.
    pub message: String,
    /// `count` (1 when absent; series count when `series` is set).
    pub count: i32,
    /// `firstTimestamp`, else `eventTime`, else `metadata.creationTimestamp`.
    pub first_timestamp: Option<Timestamp>,
    /// `lastTimestamp`, else `series.lastObservedTime`, else `first_timestamp`.
    pub last_timestamp: Option<Timestamp>,
    /// `source.component`, else `reportingComponent`.
    pub source: String,
    /// `involvedObject.fieldPath`, e.g. `spec.containers{metrics}`.
    pub field_path: String,
}
