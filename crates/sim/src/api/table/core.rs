//! The core/v1 Tables: pods and events (`printPod`, `printEvent` of
//! `pkg/printers/internalversion/printers.go`).

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use serde_json::{Value, json};

use super::column;
use podscope_model::printer;

pub(super) fn pod_columns() -> Vec<Value> {
    vec![
        column("Name", 0, "Name must be unique within a namespace."),
        column(
            "Ready",
            0,
            "The aggregate readiness state of this pod for accepting traffic.",
        ),
        column(
            "Status",
            0,
            "The aggregate status of the containers in this pod.",
        ),
        column(
            "Restarts",
            0,
            "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
        ),
        column(
            "Age",
            0,
            "CreationTimestamp is a timestamp representing the server time when this object was created.",
        ),
        column(
            "IP",
            1,
            "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
        ),
        column(
            "Node",
            1,
            "NodeName indicates in which node this pod is scheduled.",
        ),
        column(
            "Nominated Node",
            1,
            "nominatedNodeName is set when this pod preempts other pods on the node.",
        ),
        column(
            "Readiness Gates",
            1,
            "If specified, all readiness gates will be evaluated for pod readiness.",
        ),
    ]
}

pub(super) fn event_columns() -> Vec<Value> {
    vec![
        column(
            "Last Seen",
            0,
            "The time at which the most recent occurrence of this event was recorded.",
        ),
        column(
            "Type",
            0,
            "Type of this event (Normal, Warning), new types could be added in the future.",
        ),
        column(
            "Reason",
            0,
            "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
        ),
        column("Object", 0, "The object that this event is about."),
        column(
            "Subobject",
            1,
            "The subobject (fieldPath) that this event is about.",
        ),
        column("Source", 1, "The component reporting this event."),
        column(
            "Message",
            0,
            "A human-readable description of the status of this operation.",
        ),
        column(
            "First Seen",
            1,
            "The time at which the event was first recorded.",
        ),
        column("Count", 1, "The number of times this event has occurred."),
        column("Name", 1, "Name must be unique within a namespace."),
    ]
}

pub(super) fn pod_row(pod: &Pod, now: Timestamp) -> Value {
    let r = printer::pod_row(pod, now);
    let conditions: Vec<Value> = printer::row_conditions(pod)
        .into_iter()
        .map(|c| json!({"type": c.type_, "status": c.status, "reason": c.reason, "message": c.message}))
        .collect();
    let mut row = json!({
        "cells": [r.name, r.ready, r.status, r.restarts, r.age, r.ip, r.node, r.nominated_node, r.readiness_gates],
    });
    if !conditions.is_empty() {
        row["conditions"] = Value::Array(conditions);
    }
    row
}

pub(super) fn event_row(e: &Event, now: Timestamp) -> Value {
    let first = e
        .first_timestamp
        .as_ref()
        .map(|t| t.0)
        .or_else(|| e.event_time.as_ref().map(|t| t.0));
    let first_text = printer::age(first, now);
    let mut last_text = match &e.last_timestamp {
        Some(t) => printer::age(Some(t.0), now),
        None => first_text.clone(),
    };
    let mut count = i64::from(e.count.unwrap_or(0));
    if let Some(series) = &e.series {
        last_text = printer::age(series.last_observed_time.as_ref().map(|t| t.0), now);
        count = i64::from(series.count.unwrap_or(0));
    } else if count == 0 {
        count = 1;
    }
    let io = &e.involved_object;
    let kind = io.kind.clone().unwrap_or_default().to_lowercase();
    let target = match io.name.as_deref() {
        Some(n) if !n.is_empty() => format!("{kind}/{n}"),
        _ => kind,
    };
    let source = match &e.source {
        Some(s) if s.component.as_deref().is_some_and(|c| !c.is_empty()) => match s.host.as_deref()
        {
            Some(h) if !h.is_empty() => format!("{}, {h}", s.component.as_deref().unwrap_or("")),
            _ => s.component.clone().unwrap_or_default(),
        },
        _ => match (
            e.reporting_component.as_deref(),
            e.reporting_instance.as_deref(),
        ) {
            (Some(c), Some(i)) if !i.is_empty() => format!("{c}, {i}"),
            (Some(c), _) => c.to_string(),
            _ => String::new(),
        },
    };
    json!({"cells": [
        last_text,
        e.type_.clone().unwrap_or_default(),
        e.reason.clone().unwrap_or_default(),
        target,
        io.field_path.clone().unwrap_or_default(),
        source,
        e.message.clone().unwrap_or_default().trim(),
        first_text,
        count,
        e.metadata.name.clone().unwrap_or_default(),
    ]})
}
