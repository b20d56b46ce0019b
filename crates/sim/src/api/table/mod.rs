//! Server-side printing: `meta.k8s.io/v1` Tables for `kubectl get` (Accept `…;as=Table;…`).
//!
//! Columns mirror kubernetes `pkg/printers/internalversion/printers.go` (AddHandlers): pods
//! `Name, Ready, Status, Restarts, Age` (priority 0) and `IP, Node, Nominated Node, Readiness Gates`
//! (priority 1); events `Last Seen, Type, Reason, Object, Subobject*, Source*, Message, First Seen*,
//! Count*, Name*` (* priority 1). Cells come from [`podscope_model::printer`]; the server always
//! generates the wide cells. `rows[].object` is a `PartialObjectMetadata` (`includeObject=Metadata`).

mod core;
mod core_cells;
mod core_kinds;
mod node;
mod workloads;
#[cfg(test)]
mod workloads_tests;

use axum::http::{HeaderMap, header};
use jiff::Timestamp;
use serde_json::{Value, json};

use super::object::{Object, Resource};

/// Whether the request's `Accept` asks for a Table (kubectl get does; kube-rs never does).
pub fn wants_table(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("as=Table"))
}

pub(super) fn column(name: &str, priority: u8, description: &str) -> Value {
    let mut c = json!({"name": name, "type": "string", "format": "", "description": description, "priority": priority});
    if name == "Name" {
        c["format"] = json!("name");
    }
    c
}

fn partial_metadata(obj: &Object) -> Value {
    let meta = obj
        .to_json()
        .get("metadata")
        .cloned()
        .unwrap_or_else(|| json!({}));
    json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": meta})
}

/// A `meta.k8s.io/v1` Table of `objects` (all of kind `resource`) at `now`, with
/// `metadata.resourceVersion` = `rv`.
pub fn table(resource: Resource, objects: &[Object], rv: u64, now: Timestamp) -> Value {
    let columns = match resource {
        Resource::Pods => core::pod_columns(),
        Resource::Events => core::event_columns(),
        Resource::Nodes => node::columns(),
        other if core_kinds::prints(other) => core_kinds::columns(other),
        other => workloads::columns(other),
    };
    let rows: Vec<Value> = objects
        .iter()
        .map(|o| {
            let mut row = match o {
                Object::Pod(p) => core::pod_row(p, now),
                Object::Event(e) => core::event_row(e, now),
                Object::Node(n) => node::row(n, now),
                other if core_kinds::prints(other.resource()) => core_kinds::row(other, now),
                other => workloads::row(other, now),
            };
            row["object"] = partial_metadata(o);
            row
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": rv.to_string()},
        "columnDefinitions": columns,
        "rows": rows,
    })
}
