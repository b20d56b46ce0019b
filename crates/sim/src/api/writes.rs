//! Pod writes: `POST …/pods` (create), `PUT`/`PATCH …/pods/{name}` and `…/pods/{name}/status`,
//! `DELETE …/pods/{name}` with graceful termination.
//!
//! Spec changes through PUT/PATCH are refused (422) but the few the API server allows
//! ([`super::pod_update`]); an accepted one is handed to the kubelet (`Intent::Update`). A `metadata.resourceVersion` in the body that is not
//! the stored one is a 409 Conflict. `dryRun` is not simulated (writes always happen).
//! Every write records its field manager in `metadata.managedFields`, and a PATCH of
//! `application/apply-patch+yaml` is a server-side apply ([`super::apply`]).

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, put};
use jiff::SignedDuration;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde_json::Value;

use super::admission;
use super::apply;
use super::decode::{self, FieldValidation};
use super::patch::{self, PatchKind};
use super::query::Query;
use super::status::{ApiError, json_response};
use super::store::{Intent, Store};

const SPEC_FORBIDDEN: &str = "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

fn is_yaml(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("yaml"))
}

fn pod_response(code: StatusCode, pod: &Pod, warnings: &[String]) -> Response {
    let body = serde_json::to_value(pod).unwrap_or(Value::Null);
    let mut resp = json_response(code, &body);
    for w in warnings {
        let text = format!("299 - {:?}", w);
        if let Ok(v) = HeaderValue::from_str(&text) {
            resp.headers_mut().append(header::WARNING, v);
        }
    }
    resp
}

fn respond(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

/// `POST /api/v1/namespaces/{ns}/pods` → 201 Created with the stored pod.
pub(crate) async fn create(
    State(store): State<Store>,
    Path(ns): Path<String>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    respond((|| {
        let q = Query::parse(q.as_deref());
        let fv = FieldValidation::parse(q.get("fieldValidation"))?;
        let value = decode::parse_body(&body, is_yaml(&h))?;
        let manager = apply::manager(&q, &h)?;
        create_from(&store, &ns, value, fv, &manager, None)
    })())
}

/// Creates a pod from `value` (a POST body, or with `apply = Some(force)` the server-side
/// apply configuration of an absent pod) → 201; the manager's `Update` (or `Apply`) entry is
/// recorded over the defaulted pod, as the API server records it before admission.
fn create_from(
    store: &Store,
    ns: &str,
    value: Value,
    fv: FieldValidation,
    manager: &str,
    apply: Option<bool>,
) -> Result<Response, ApiError> {
    let w = apply::pod::writer(store.now(), manager, false);
    let value = match apply {
        Some(force) => apply::apply(&w, None, &value, force)?,
        None => value,
    };
    let (mut pod, warnings) = decode::decode_pod(value, fv)?;
    if apply.is_none() {
        admission::apply_defaults(&mut pod);
        apply::pod::record_update(&w, None, &mut pod);
    }
    let pod = admission::create_pod_and_run(store, ns, pod)?;
    Ok(pod_response(StatusCode::CREATED, &pod, &warnings))
}

/// Writes `new` over `stored` (inside the store's update): the whole object but spec and system
/// metadata, or only `status` when `status_only`. Errors: 400 (name mismatch), 409 (stale
/// resourceVersion), 422 (a spec change the API server refuses). `Ok(true)` when the spec
/// changed (the kubelet must be told).
fn overwrite(stored: &mut Pod, new: Pod, name: &str, status_only: bool) -> Result<bool, ApiError> {
    if let Some(n) = new.metadata.name.as_deref()
        && n != name
    {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({n}) does not match the name on the URL ({name})"
        )));
    }
    if let Some(rv) = new
        .metadata
        .resource_version
        .as_deref()
        .filter(|r| !r.is_empty())
        && Some(rv) != stored.metadata.resource_version.as_deref()
    {
        return Err(ApiError::conflict(
            "pods",
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        ));
    }
    if status_only {
        stored.status = new.status;
        return Ok(false);
    }
    let mut spec_pod = Pod {
        spec: new.spec.clone(),
        ..Pod::default()
    };
    admission::apply_defaults(&mut spec_pod);
    if let (Some(s), Some(old)) = (spec_pod.spec.as_mut(), stored.spec.as_ref())
        && s.node_name.is_none()
    {
        s.node_name = old.node_name.clone();
    }
    let spec_changed = spec_pod.spec != stored.spec;
    if spec_changed {
        // The few changes the API server allows (images, …): `pod_update`.
        let (Some(old), Some(new)) = (stored.spec.as_ref(), spec_pod.spec) else {
            return Err(ApiError::invalid(
                "Pod",
                name,
                &[SPEC_FORBIDDEN.to_string()],
            ));
        };
        stored.spec = Some(super::pod_update::validate_update(name, old, new)?);
    }
    let keep = stored.metadata.clone();
    let mut meta = new.metadata;
    meta.uid = keep.uid;
    meta.creation_timestamp = keep.creation_timestamp;
    meta.deletion_timestamp = keep.deletion_timestamp;
    meta.deletion_grace_period_seconds = keep.deletion_grace_period_seconds;
    meta.generation = keep.generation;
    meta.namespace = keep.namespace;
    meta.managed_fields = keep.managed_fields;
    stored.metadata = meta;
    Ok(spec_changed)
}

/// The `PUT` and `PATCH` handlers of `/api/v1/namespaces/{ns}/pods/{name}` (→ 200 with the
/// stored pod), or of `…/{name}/status` when `status_only` (only `status` is written).
pub(crate) fn update(status_only: bool) -> MethodRouter<Store> {
    let handler = move |State(store): State<Store>,
                        Path((ns, name)): Path<(String, String)>,
                        method: Method,
                        RawQuery(q): RawQuery,
                        h: HeaderMap,
                        body: Bytes| async move {
        respond(update_pod(
            &store,
            &ns,
            &name,
            &method,
            q.as_deref(),
            &h,
            &body,
            status_only,
        ))
    };
    put(handler).patch(handler)
}

/// A PUT body (decoded before the pod is looked up, as the API server does) or a PATCH.
enum Update {
    Replace(Box<Pod>, Vec<String>),
    Patch(PatchKind, Value),
    /// A server-side apply configuration, and `force`.
    Apply(Value, bool),
}

/// One path for PUT and PATCH: bodies are decoded by [`decode`], a patch is applied to the
/// stored pod under the store's lock (so a kubelet status update in between is no conflict),
/// then [`overwrite`] writes it. An update that changes nothing is not written.
#[allow(clippy::too_many_arguments)]
fn update_pod(
    store: &Store,
    ns: &str,
    name: &str,
    method: &Method,
    q: Option<&str>,
    h: &HeaderMap,
    body: &[u8],
    status_only: bool,
) -> Result<Response, ApiError> {
    let q = Query::parse(q);
    let fv = FieldValidation::parse(q.get("fieldValidation"))?;
    let mut manager = apply::manager(&q, h)?;
    let update = if *method == Method::PATCH && apply::is_apply(h) && !status_only {
        let config = decode::parse_body(body, true)?;
        let force = q.flag("force")?;
        manager = apply::apply_manager(&q)?;
        if store.pod(ns, name).is_none() {
            return create_from(store, ns, config, fv, &manager, Some(force));
        }
        Update::Apply(config, force)
    } else if *method == Method::PATCH {
        let ct = h
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        Update::Patch(
            PatchKind::from_content_type(ct)?,
            decode::decode_patch(body)?,
        )
    } else {
        let (pod, warnings) = decode::decode_pod(decode::parse_body(body, is_yaml(h))?, fv)?;
        Update::Replace(Box::new(pod), warnings)
    };
    let w = apply::pod::writer(store.now(), &manager, status_only);
    let mut warnings = Vec::new();
    let mut spec_changed = false;
    let pod = store.try_update_pod(ns, name, |stored| {
        let old = stored.clone();
        let mut applied_fields = None;
        let new = match &update {
            Update::Replace(pod, w) => {
                warnings.clone_from(w);
                (**pod).clone()
            }
            Update::Patch(kind, p) => {
                let mut doc = serde_json::to_value(&*stored).unwrap_or(Value::Null);
                patch::apply(*kind, &mut doc, p)?;
                let (pod, w) = decode::decode_pod(doc, fv)?;
                warnings = w;
                pod
            }
            Update::Apply(config, force) => {
                let doc = serde_json::to_value(&*stored).unwrap_or(Value::Null);
                let merged = apply::apply(&w, Some(&doc), config, *force)?;
                let (pod, unknown) = decode::decode_pod(merged, fv)?;
                warnings = unknown;
                applied_fields = Some(pod.metadata.managed_fields.clone());
                pod
            }
        };
        spec_changed = overwrite(stored, new, name, status_only)?;
        match applied_fields {
            Some(fields) => stored.metadata.managed_fields = fields,
            None => apply::pod::record_update(&w, Some(&old), stored),
        }
        Ok(())
    })?;
    if spec_changed {
        store.submit(Intent::Update {
            namespace: ns.to_string(),
            name: name.to_string(),
        });
    }
    // The last finalizer of a pod whose deletion is otherwise complete was removed: the
    // registry deletes it during the update and answers with its last state.
    let pod = if Store::removable(&pod) {
        store.delete_pod(ns, name)?
    } else {
        pod
    };
    Ok(pod_response(StatusCode::OK, &pod, &warnings))
}

/// The grace period a delete asks for: query `gracePeriodSeconds`, else the body's, else
/// none (the pod's own applies). Errors: 400 for malformed values.
fn requested_grace(q: &Query, opts: &Value) -> Result<Option<i64>, ApiError> {
    let from_query = match q.get("gracePeriodSeconds").filter(|v| !v.is_empty()) {
        Some(v) => Some(v.parse::<i64>().map_err(|_| {
            ApiError::bad_request(format!("invalid value for gracePeriodSeconds: {v:?}"))
        })?),
        None => None,
    };
    let from_body = match opts.get("gracePeriodSeconds") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_i64().ok_or_else(|| {
            ApiError::bad_request(format!(
                "DeleteOptions.gracePeriodSeconds: invalid value {v}"
            ))
        })?),
    };
    Ok(from_query.or(from_body))
}

/// `DELETE /api/v1/namespaces/{ns}/pods/{name}` → 200 with the pod (its `deletionTimestamp`
/// set, or its last state when removed at once: grace 0, unscheduled or finished pods).
pub(crate) async fn delete(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    RawQuery(q): RawQuery,
    body: Bytes,
) -> Response {
    respond(delete_pod(
        &store,
        &ns,
        &name,
        &Query::parse(q.as_deref()),
        &body,
    ))
}

pub(super) fn delete_pod(
    store: &Store,
    ns: &str,
    name: &str,
    q: &Query,
    body: &[u8],
) -> Result<Response, ApiError> {
    let opts: Value = if body.iter().all(u8::is_ascii_whitespace) {
        Value::Object(serde_json::Map::new())
    } else {
        serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request(format!("DeleteOptions: json parse error: {e}")))?
    };
    let pod = store
        .pod(ns, name)
        .ok_or_else(|| ApiError::not_found("pods", name))?;
    let pre = opts.get("preconditions");
    for (field, have) in [
        ("uid", pod.metadata.uid.as_deref()),
        ("resourceVersion", pod.metadata.resource_version.as_deref()),
    ] {
        if let Some(want) = pre.and_then(|p| p.get(field)).and_then(Value::as_str)
            && Some(want) != have
        {
            let why = format!(
                "Precondition failed: {field} in precondition: {want}, {field} in object meta: {}",
                have.unwrap_or("")
            );
            return Err(ApiError::conflict("pods", name, &why));
        }
    }
    let grace = requested_grace(q, &opts)?;
    let pod = delete_pod_gracefully(store, ns, name, grace)?;
    Ok(pod_response(StatusCode::OK, &pod, &[]))
}

/// Deletes a pod as `DELETE …/pods/{name}` does, for in-process callers (the controllers):
/// the grace period is `grace_seconds`, else the pod's `terminationGracePeriodSeconds`, else
/// 30 (a negative value counts as 1). Grace 0, an unscheduled or a finished pod is removed now
/// (unless finalizers hold it); otherwise `deletionTimestamp` = now + grace (only ever moved
/// earlier) and the kubelet driver terminates the containers, then removes the pod. Returns
/// the pod's last or kept state. Errors: 404 `pods "x" not found`.
pub(crate) fn delete_pod_gracefully(
    store: &Store,
    ns: &str,
    name: &str,
    grace_seconds: Option<i64>,
) -> Result<Pod, ApiError> {
    let pod = store
        .pod(ns, name)
        .ok_or_else(|| ApiError::not_found("pods", name))?;
    let spec = pod
        .spec
        .as_ref()
        .and_then(|s| s.termination_grace_period_seconds);
    // A negative period becomes 1 s (`CheckGracefulDelete` of pkg/registry/core/pod/strategy.go).
    let grace = grace_seconds.or(spec).unwrap_or(30);
    let grace = if grace < 0 { 1 } else { grace };
    let unbound = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .is_none_or(str::is_empty);
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    let finished = matches!(phase, Some("Succeeded" | "Failed"));
    if grace == 0 || unbound || finished {
        // Removed now, unless finalizers hold it (then kept with deletionTimestamp).
        let last = store.finalize_pod(ns, name)?;
        store.submit(Intent::Delete {
            namespace: ns.to_string(),
            name: name.to_string(),
            grace: 0,
        });
        return Ok(last);
    }
    let now = store.now();
    let deadline = now
        .checked_add(SignedDuration::from_secs(grace))
        .unwrap_or(now);
    let updated = store.try_update_pod(ns, name, |p| {
        let shorter = p
            .metadata
            .deletion_timestamp
            .as_ref()
            .is_none_or(|t| deadline < t.0);
        if shorter {
            p.metadata.deletion_timestamp = Some(Time(deadline));
            p.metadata.deletion_grace_period_seconds = Some(grace);
        }
        Ok(())
    })?;
    store.submit(Intent::Delete {
        namespace: ns.to_string(),
        name: name.to_string(),
        grace,
    });
    Ok(updated)
}
