//! The `metadata.managedFields` list: one entry per (manager, operation, subresource) with
//! `apiVersion`, `time`, `fieldsType: FieldsV1` and the owned set (`docs/server-side-apply.md`
//! §1), and the 409 an apply conflict answers.

use jiff::Timestamp;
use serde_json::{Map, Value, json};

use super::Writer;
use super::fieldset::{self, FieldSet};
use crate::api::status::ApiError;

/// `operation` of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Operation {
    /// `Apply`: the fields of the manager's applied configuration.
    Apply,
    /// `Update`: the fields the manager's ordinary writes set.
    Update,
}

/// One `managedFields` entry.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// `manager`: the field manager's name.
    pub(crate) manager: String,
    /// `operation`: `Apply` or `Update`.
    pub(crate) operation: Operation,
    /// `apiVersion` of the write (`v1`, `apps/v1`).
    pub(crate) api_version: String,
    /// `time` (RFC 3339, seconds) of the last write that changed the entry.
    pub(crate) time: Option<String>,
    /// `subresource` (`status`), absent for the main resource.
    pub(crate) subresource: Option<String>,
    /// `fieldsV1`: the owned paths.
    pub(crate) set: FieldSet,
}

impl Entry {
    /// The manager as a conflict names it: `"kubectl-client-side-apply" using v1` for an
    /// `Update` entry, `"kubectl"` for an `Apply` one (kube-apiserver's `printManager`).
    pub(crate) fn describe(&self) -> String {
        match self.operation {
            Operation::Apply => format!("{:?}", self.manager),
            Operation::Update => format!("{:?} using {}", self.manager, self.api_version),
        }
    }
}

/// An entry's `time`: RFC 3339 in seconds, UTC (as `metav1.Time` is written).
pub(crate) fn time(now: Timestamp) -> String {
    now.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// The entries of `obj`'s `metadata.managedFields` (malformed ones are skipped).
pub(crate) fn read(obj: &Value) -> Vec<Entry> {
    let Some(list) = obj["metadata"]["managedFields"].as_array() else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|e| {
            let operation = match e["operation"].as_str()? {
                "Apply" => Operation::Apply,
                "Update" => Operation::Update,
                _ => return None,
            };
            Some(Entry {
                manager: e["manager"].as_str().unwrap_or("").to_string(),
                operation,
                api_version: e["apiVersion"].as_str().unwrap_or("").to_string(),
                time: e["time"].as_str().map(String::from),
                subresource: e["subresource"]
                    .as_str()
                    .filter(|s| !s.is_empty())
                    .map(String::from),
                set: FieldSet::from_fields_v1(&e["fieldsV1"]),
            })
        })
        .collect()
}

/// Writes `list` as `obj`'s `metadata.managedFields`: empty entries dropped, sorted as the API
/// server sorts them (operation, `Apply` first; then time, manager, apiVersion, subresource);
/// the field is removed when nothing is left.
pub(crate) fn write(obj: &mut Value, mut list: Vec<Entry>) {
    list.retain(|e| !e.set.is_empty());
    list.sort_by(|p, q| {
        (
            p.operation,
            &p.time,
            &p.manager,
            &p.api_version,
            &p.subresource,
        )
            .cmp(&(
                q.operation,
                &q.time,
                &q.manager,
                &q.api_version,
                &q.subresource,
            ))
    });
    let encoded: Vec<Value> = list
        .iter()
        .map(|e| {
            let mut m = Map::new();
            m.insert("apiVersion".into(), json!(e.api_version));
            m.insert("fieldsType".into(), json!("FieldsV1"));
            m.insert("fieldsV1".into(), e.set.to_fields_v1());
            m.insert("manager".into(), json!(e.manager));
            m.insert(
                "operation".into(),
                json!(match e.operation {
                    Operation::Apply => "Apply",
                    Operation::Update => "Update",
                }),
            );
            if let Some(s) = &e.subresource {
                m.insert("subresource".into(), json!(s));
            }
            if let Some(t) = &e.time {
                m.insert("time".into(), json!(t));
            }
            Value::Object(m)
        })
        .collect();
    if !obj["metadata"].is_object() {
        obj["metadata"] = json!({});
    }
    if let Some(meta) = obj["metadata"].as_object_mut() {
        if encoded.is_empty() {
            meta.remove("managedFields");
        } else {
            meta.insert("managedFields".into(), Value::Array(encoded));
        }
    }
}

/// The writer's entry for `operation` (added, empty, when it has none).
pub(crate) fn find_or_add<'a>(
    list: &'a mut Vec<Entry>,
    w: &Writer,
    operation: Operation,
) -> &'a mut Entry {
    let sub = w.subresource.map(String::from);
    let i = match list
        .iter()
        .position(|e| e.manager == w.manager && e.operation == operation && e.subresource == sub)
    {
        Some(i) => i,
        None => {
            list.push(Entry {
                manager: w.manager.to_string(),
                operation,
                api_version: w.api_version.to_string(),
                time: None,
                subresource: sub,
                set: FieldSet::default(),
            });
            list.len() - 1
        }
    };
    let e = &mut list[i];
    e.api_version = w.api_version.to_string();
    e
}

/// 409 Conflict for apply conflicts, worded as kube-apiserver's `NewConflictError`: one
/// conflict `Apply failed with 1 conflict: conflict with <manager>: <path>`; several
/// `Apply failed with N conflicts: conflicts with <manager>:` and `- <path>` lines per manager.
pub(crate) fn conflict_error(conflicts: &[(String, FieldSet)]) -> ApiError {
    let total: usize = conflicts.iter().map(|(_, s)| s.0.len()).sum();
    let message = match conflicts {
        [(who, set)] if set.0.len() == 1 => {
            let path = set.0.iter().next().map(|p| fieldset::display(p));
            format!(
                "Apply failed with 1 conflict: conflict with {who}: {}",
                path.unwrap_or_default()
            )
        }
        _ => {
            let mut lines = Vec::new();
            let mut sorted: Vec<&(String, FieldSet)> = conflicts.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            for (who, set) in sorted {
                lines.push(format!("conflicts with {who}:"));
                lines.extend(set.0.iter().map(|p| format!("- {}", fieldset::display(p))));
            }
            format!("Apply failed with {total} conflicts: {}", lines.join("\n"))
        }
    };
    ApiError {
        code: 409,
        reason: "Conflict",
        message,
    }
}
