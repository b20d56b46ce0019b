//! Server-side apply and `metadata.managedFields`, generic over an object's JSON and its
//! OpenAPI schema (`docs/server-side-apply.md`).
//!
//! - [`apply`]: a `PATCH` with `Content-Type: application/apply-patch+yaml` — the applied
//!   configuration merged into the live object (or creating it), conflicts with other managers
//!   as 409 unless `force=true`, fields the manager stopped applying removed when nobody else
//!   owns them, the manager's `Apply` entry set to what it applied;
//! - [`record_update`]: every other write (create, PUT, PATCH) records an `Update` entry for
//!   its manager ([`manager`]) holding the fields it changed, taken from the other managers.
//!
//! Submodules: [`fieldset`] (paths and the `FieldsV1` encoding), [`walk`] (the schema-driven
//! walks), [`entries`] (the `managedFields` list).

mod entries;
pub(crate) mod fieldset;
pub(crate) mod pod;
pub(crate) mod walk;

use axum::http::{HeaderMap, header};
use jiff::Timestamp;
use serde_json::{Value, json};

use super::query::Query;
use super::status::ApiError;
use entries::{Entry, Operation};
use fieldset::FieldSet;
use walk::At;

/// The `Content-Type` of a server-side apply patch.
pub(crate) const APPLY_PATCH: &str = "application/apply-patch+yaml";

/// Whether a request's `Content-Type` is a server-side apply patch.
pub(crate) fn is_apply(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim() == APPLY_PATCH)
}

/// The field manager of a write: the `fieldManager` query parameter, else the user agent up
/// to its first `/` (`kubectl/v1.33.0 (linux/amd64) …` → `kubectl`), non-printable characters
/// dropped and cut at 128 characters, as kube-apiserver's `prefixFromUserAgent` derives it.
/// Errors: 422 for a `fieldManager` longer than 128 characters.
pub(crate) fn manager(q: &Query, h: &HeaderMap) -> Result<String, ApiError> {
    if let Some(m) = q.get("fieldManager").filter(|m| !m.is_empty()) {
        if m.chars().count() > 128 {
            return Err(ApiError {
                code: 422,
                reason: "Invalid",
                message: format!(
                    "fieldManager: Too long: may not be more than 128 bytes (got {:?})",
                    m
                ),
            });
        }
        return Ok(m.to_string());
    }
    let ua = h
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let prefix = ua.split('/').next().unwrap_or("");
    Ok(prefix
        .chars()
        .filter(|c| !c.is_control())
        .take(128)
        .collect())
}

/// The manager of an apply: `fieldManager` is required. Errors: 422 as kube-apiserver words it
/// (`PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for
/// apply patch`).
pub(crate) fn apply_manager(q: &Query) -> Result<String, ApiError> {
    match q.get("fieldManager").filter(|m| !m.is_empty()) {
        Some(_) => manager(q, &HeaderMap::new()),
        None => Err(ApiError {
            code: 422,
            reason: "Invalid",
            message: "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch".into(),
        }),
    }
}

/// Who writes, for which schema and subresource, at what time.
pub(crate) struct Writer<'a> {
    /// The OpenAPI schema name of the object (`io.k8s.api.apps.v1.Deployment`).
    pub root: &'a str,
    /// The object's `apiVersion` (`v1`, `apps/v1`), recorded in the entry.
    pub api_version: &'a str,
    /// The field manager ([`manager`]).
    pub manager: &'a str,
    /// `Some("status")` for a write of the status subresource.
    pub subresource: Option<&'a str>,
    /// The store's clock.
    pub now: Timestamp,
}

/// The part of an object field ownership is about: without `apiVersion`, `kind`, the
/// server-owned metadata (as the API server's field manager strips them) and, for the main
/// resource, `status` (which its writes do not change); for the `status` subresource only
/// `status`.
fn owned_part(v: &Value, subresource: Option<&str>) -> Value {
    let mut v = v.clone();
    let Some(m) = v.as_object_mut() else {
        return json!({});
    };
    if subresource == Some("status") {
        return json!({"status": m.get("status").cloned().unwrap_or(Value::Null)});
    }
    for k in ["apiVersion", "kind", "status"] {
        m.remove(k);
    }
    if let Some(meta) = m.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in [
            "name",
            "namespace",
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "selfLink",
            "managedFields",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
        ] {
            meta.remove(k);
        }
    }
    v
}

/// What an absent object is compared with: the empty object of the kind as the API server's
/// typed decoding has it (its non-pointer structs present, `containers: null`), so a create
/// owns `f:spec` without a `.` member while new maps and lists get one.
fn empty_object(root: &str) -> Value {
    let pod_spec = json!({"containers": null});
    let template = json!({"metadata": {}, "spec": pod_spec});
    let kind = root.rsplit('.').next().unwrap_or("");
    match kind {
        "Pod" => json!({"metadata": {}, "spec": pod_spec}),
        "Deployment" => json!({"metadata": {}, "spec": {"template": template, "strategy": {}}}),
        "StatefulSet" | "DaemonSet" => {
            json!({"metadata": {}, "spec": {"template": template, "updateStrategy": {}}})
        }
        "ReplicaSet" | "Job" => json!({"metadata": {}, "spec": {"template": template}}),
        "CronJob" => {
            json!({"metadata": {}, "spec": {"jobTemplate": {"metadata": {}, "spec": {"template": template}}}})
        }
        _ => json!({"metadata": {}}),
    }
}

fn differences(w: &Writer, old: Option<&Value>, new: &Value) -> (FieldSet, FieldSet) {
    let old = match old {
        Some(o) => owned_part(o, w.subresource),
        None => owned_part(&empty_object(w.root), w.subresource),
    };
    let new = owned_part(new, w.subresource);
    let (mut changed, mut removed) = (FieldSet::default(), FieldSet::default());
    walk::compare(
        Some(&old),
        Some(&new),
        At::root(w.root),
        &mut Vec::new(),
        &mut changed,
        &mut removed,
    );
    (changed, removed)
}

/// Records an ordinary write of `new` over `old` (`None`: a create) in `new`'s
/// `metadata.managedFields`: the writer's `Update` entry gains the paths it added or changed
/// and loses those it removed; every other entry loses them (an update takes ownership without
/// conflicts); empty entries are dropped. A write that changes nothing keeps the entries (and
/// their times) as they were. The entries start from `old`'s (a create: from `new`'s own).
pub(crate) fn record_update(w: &Writer, old: Option<&Value>, new: &mut Value) {
    let base = entries::read(old.unwrap_or(new));
    let (changed, removed) = differences(w, old, new);
    let mut list = base;
    if !changed.is_empty() || !removed.is_empty() {
        let gone = changed.union(&removed);
        for e in &mut list {
            e.set = e.set.difference(&gone);
        }
        let me = entries::find_or_add(&mut list, w, Operation::Update);
        me.set = me.set.union(&changed);
        me.time = Some(entries::time(w.now));
    }
    entries::write(new, list);
}

/// Server-side apply of `applied` (the request's object, YAML decoded) to `live` (`None`: the
/// object does not exist and is created). Returns the new object, `metadata.managedFields`
/// included; the caller decodes, defaults, validates and stores it. Errors: 409 Conflict
/// `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1:
/// .spec.containers[name="hello"].image` when `force` is false and fields the configuration
/// changes are owned by other managers (wording of kube-apiserver's `NewConflictError`).
pub(crate) fn apply(
    w: &Writer,
    live: Option<&Value>,
    applied: &Value,
    force: bool,
) -> Result<Value, ApiError> {
    let at = At::root(w.root);
    let mut config = owned_part(applied, None);
    // Metadata left empty (a configuration naming only the object) is no owned field.
    if let Some(m) = config.as_object_mut()
        && m.get("metadata")
            .and_then(Value::as_object)
            .is_some_and(|o| o.is_empty())
    {
        m.remove("metadata");
    }
    let mut applied_set = FieldSet::default();
    walk::field_set(&config, at, &mut Vec::new(), &mut applied_set);
    let mut list = live.map(entries::read).unwrap_or_default();
    let mut new = live.cloned().unwrap_or_else(|| json!({}));
    walk::merge(&mut new, &config, at);
    for k in ["apiVersion", "kind"] {
        if let Some(v) = applied.get(k) {
            new[k] = v.clone();
        }
    }
    if let Some(name) = applied["metadata"].get("name")
        && new.is_object()
    {
        new["metadata"]["name"] = name.clone();
    }
    let (changed, _) = differences(w, live, &new);
    let is_me = |e: &Entry| {
        e.manager == w.manager && e.operation == Operation::Apply && e.subresource.is_none()
    };
    let conflicts: Vec<(String, FieldSet)> = list
        .iter()
        .filter(|e| !is_me(e))
        .map(|e| (e.describe(), e.set.intersection(&changed)))
        .filter(|(_, c)| !c.is_empty())
        .collect();
    if !conflicts.is_empty() && !force {
        return Err(entries::conflict_error(&conflicts));
    }
    for e in list.iter_mut().filter(|e| !is_me(e)) {
        e.set = e.set.difference(&changed);
    }
    let previous = list
        .iter()
        .find(|e| is_me(e))
        .map(|e| e.set.clone())
        .unwrap_or_default();
    let others = list
        .iter()
        .filter(|e| !is_me(e))
        .fold(FieldSet::default(), |acc, e| acc.union(&e.set));
    let dropped = previous.difference(&applied_set);
    for path in dropped.0.iter().rev() {
        if !others.covers(path) && !applied_set.covers(path) {
            walk::remove(&mut new, path, at);
        }
    }
    let touched = live.is_none_or(|l| l != &new) || previous != applied_set;
    let me = entries::find_or_add(&mut list, w, Operation::Apply);
    me.set = applied_set;
    if touched || me.time.is_none() {
        me.time = Some(entries::time(w.now));
    }
    entries::write(&mut new, list);
    Ok(new)
}

#[cfg(test)]
mod tests;
