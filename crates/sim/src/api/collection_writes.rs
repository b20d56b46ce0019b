//! The writes the API server also takes on the pod and event collections: `DELETE
//! …/namespaces/{ns}/pods` (deletecollection: every pod the label and field selectors match,
//! each deleted as `DELETE …/pods/{name}` deletes it, answered with the PodList of what was
//! deleted) and `POST …/namespaces/{ns}/events` / `DELETE …/events/{name}` (controllers and
//! operators record their own Events). Errors are `metav1.Status` bodies as elsewhere.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use k8s_openapi::api::core::v1::Event;
use serde_json::json;

use super::decode;
use super::object::{Object, Resource};
use super::query::Query;
use super::select::Selector;
use super::status::{ApiError, json_response};
use super::store::{Store, generated_name};

fn respond(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

/// `DELETE /api/v1/namespaces/{ns}/pods[?labelSelector=…&fieldSelector=…]`: deletes every
/// matching pod gracefully (the DeleteOptions body and `gracePeriodSeconds` apply to each) and
/// answers 200 with a `PodList` of their states after the delete request.
pub(crate) async fn delete_pods(
    State(store): State<Store>,
    Path(ns): Path<String>,
    RawQuery(q): RawQuery,
    body: Bytes,
) -> Response {
    respond((|| {
        let q = Query::parse(q.as_deref());
        let sel = Selector::parse(
            Resource::Pods,
            q.get("fieldSelector"),
            q.get("labelSelector"),
        )?;
        let (pods, _) = store.list(Resource::Pods, Some(&ns));
        let mut items = Vec::new();
        for pod in pods.iter().filter(|p| sel.matches(p)) {
            match super::writes::delete_pod(&store, &ns, pod.name(), &q, &body) {
                Ok(_) => items.push(
                    store
                        .object(Resource::Pods, &ns, pod.name())
                        .unwrap_or_else(|| pod.clone())
                        .to_json(),
                ),
                // Gone meanwhile (its deletion finished): nothing left to delete.
                Err(e) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
        let rv = store.resource_version().to_string();
        Ok(json_response(
            StatusCode::OK,
            &json!({"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": rv}, "items": items}),
        ))
    })())
}

/// `POST /api/v1/namespaces/{ns}/events` (JSON or YAML): stores a core/v1 Event → 201.
/// `metadata.generateName` gives a name when none is set. Errors: 400 (a body namespace other
/// than the path's, neither name nor generateName), 409 `events "x" already exists`.
pub(crate) async fn create_event(
    State(store): State<Store>,
    Path(ns): Path<String>,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    respond((|| {
        let yaml = h
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|c| c.contains("yaml"));
        let value = decode::parse_body(&body, yaml)?;
        let mut event: Event = serde_json::from_value(value)
            .map_err(|e| ApiError::bad_request(format!("json: {e}")))?;
        match event.metadata.namespace.as_deref() {
            Some(n) if !n.is_empty() && n != ns => {
                return Err(ApiError::bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request",
                ));
            }
            _ => event.metadata.namespace = Some(ns.clone()),
        }
        if event.metadata.name.as_deref().is_none_or(str::is_empty) {
            match event
                .metadata
                .generate_name
                .as_deref()
                .filter(|g| !g.is_empty())
            {
                Some(prefix) => event.metadata.name = Some(generated_name(prefix)),
                None => return Err(ApiError::bad_request("name or generateName is required")),
            }
        }
        let name = event.metadata.name.clone().unwrap_or_default();
        if store.object(Resource::Events, &ns, &name).is_some() {
            return Err(ApiError::already_exists("events", &name));
        }
        let stored = store.add_event(event)?;
        Ok(json_response(
            StatusCode::CREATED,
            &Object::Event(stored.into()).to_json(),
        ))
    })())
}

/// `DELETE /api/v1/namespaces/{ns}/events/{name}` → 200 with the deleted Event. Errors: 404.
pub(crate) async fn delete_event(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
) -> Response {
    respond(
        store
            .delete_event(&ns, &name)
            .map(|e| json_response(StatusCode::OK, &Object::Event(e.into()).to_json())),
    )
}
