//! `EventSummary`: one core/v1 Event about the pod, as shown in the events pane.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Event;

use super::printer::age;
use super::sanitize::sanitize;

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
    /// `lastTimestamp` alone, `None` when unset (an event recorded through events.k8s.io with
    /// only `eventTime`): the key `kubectl describe` sorts its Events table by.
    pub last_timestamp_field: Option<Timestamp>,
    /// `source.component`, else `reportingComponent`.
    pub source: String,
    /// `involvedObject.fieldPath`, e.g. `spec.containers{metrics}`.
    pub field_path: String,
}

impl EventSummary {
    /// Builds the summary of one core/v1 `Event`, every string sanitised (single line).
    ///
    /// `count`: `series.count` when `series` is set, else `count`, else 1. Timestamps and `source`
    /// fall back as documented on the fields (legacy `firstTimestamp`/`lastTimestamp`/`count`
    /// events and new-API `eventTime`/`series` events both appear in practice).
    pub fn from_event(e: &Event) -> EventSummary {
        let text = |s: &Option<String>| sanitize(s.as_deref().unwrap_or("")).into_owned();
        let series = e.series.as_ref();
        let count = series.and_then(|s| s.count).or(e.count).unwrap_or(1);
        let first_timestamp = e
            .first_timestamp
            .as_ref()
            .map(|t| t.0)
            .or_else(|| e.event_time.as_ref().map(|t| t.0))
            .or_else(|| e.metadata.creation_timestamp.as_ref().map(|t| t.0));
        let last_timestamp = e
            .last_timestamp
            .as_ref()
            .map(|t| t.0)
            .or_else(|| {
                series
                    .and_then(|s| s.last_observed_time.as_ref())
                    .map(|t| t.0)
            })
            .or(first_timestamp);
        let component = e
            .source
            .as_ref()
            .and_then(|s| s.component.as_deref())
            .filter(|c| !c.is_empty());
        let source = component.or(e.reporting_component.as_deref()).unwrap_or("");
        EventSummary {
            uid: text(&e.metadata.uid),
            type_: text(&e.type_),
            reason: text(&e.reason),
            message: text(&e.message),
            count,
            first_timestamp,
            last_timestamp,
            last_timestamp_field: e.last_timestamp.as_ref().map(|t| t.0),
            source: sanitize(source).into_owned(),
            field_path: text(&e.involved_object.field_path),
        }
    }

    /// The Age cell of `kubectl describe`'s Events table at `now`: `since(first)`, or
    /// `"<since(last)> (x<count> over <since(first)>)"` when `count > 1`; `<unknown>` for a
    /// missing timestamp. Durations use `HumanDuration` (`docs/protocols.md` §7).
    pub fn age_text(&self, now: Timestamp) -> String {
        let first = age(self.first_timestamp, now);
        if self.count > 1 {
            format!(
                "{} (x{} over {first})",
                age(self.last_timestamp, now),
                self.count
            )
        } else {
            first
        }
    }
}

/// Sorts events newest first by `last_timestamp` (then `first_timestamp`); events without any
/// timestamp go last. Stable, so equal times keep the server's order.
pub fn sort_newest_first(v: &mut [EventSummary]) {
    v.sort_by(|a, b| {
        (
            b.last_timestamp.is_some(),
            b.last_timestamp,
            b.first_timestamp,
        )
            .cmp(&(
                a.last_timestamp.is_some(),
                a.last_timestamp,
                a.first_timestamp,
            ))
    });
}
