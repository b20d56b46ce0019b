//! The apps/v1 and batch/v1 Tables (filled in by the printers of
//! `pkg/printers/internalversion/printers.go`).

use jiff::Timestamp;
use serde_json::{Value, json};

use super::column;
use crate::model::printer;
use crate::sim::api::object::{Object, Resource};

/// The column definitions of `resource`'s Table.
pub(super) fn columns(_resource: Resource) -> Vec<Value> {
    vec![
        column("Name", 0, "Name must be unique within a namespace."),
        column(
            "Age",
            0,
            "CreationTimestamp is a timestamp representing the server time when this object was created.",
        ),
    ]
}

/// One row of `obj` at `now`.
pub(super) fn row(obj: &Object, now: Timestamp) -> Value {
    let created = obj.meta().creation_timestamp.as_ref().map(|t| t.0);
    json!({"cells": [obj.name(), printer::age(created, now)]})
}
