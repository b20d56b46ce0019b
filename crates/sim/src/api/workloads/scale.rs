//! The `scale` subresource of Deployments, ReplicaSets and StatefulSets: an `autoscaling/v1`
//! `Scale` whose `spec.replicas` is the object's `spec.replicas`, and whose status carries
//! `status.replicas` and the selector in its string form (`app=web`), as the registries'
//! `ScaleREST` serve it (`pkg/registry/apps/deployment/storage/storage.go`).

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::writes::{Body, check_identity};
use crate::api::label_selector;
use crate::api::object::{Object, Resource};
use crate::api::status::{ApiError, json_response};
use crate::api::store::Store;

/// The schema a strategic merge patch of a Scale follows.
const SCALE_SCHEMA: &str = "io.k8s.api.autoscaling.v1.Scale";

/// The Scale of `obj`.
fn scale_of(obj: &Object) -> Value {
    let doc = obj.to_json();
    let m = obj.meta();
    let selector = match obj {
        Object::Deployment(d) => label_selector::to_string(Some(&d.spec.selector)),
        Object::ReplicaSet(r) => label_selector::to_string(Some(&r.spec.selector)),
        Object::StatefulSet(s) => label_selector::to_string(Some(&s.spec.selector)),
        _ => None,
    }
    .unwrap_or_default();
    json!({
        "kind": "Scale", "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": m.name, "namespace": m.namespace, "uid": m.uid,
            "resourceVersion": m.resource_version, "creationTimestamp": doc["metadata"]["creationTimestamp"],
        },
        "spec": {"replicas": doc["spec"]["replicas"].as_i64().unwrap_or(1)},
        "status": {"replicas": doc["status"]["replicas"].as_i64().unwrap_or(0), "selector": selector},
    })
}

/// `GET …/{name}/scale`. Errors: 404 `deployments.apps "x" not found`.
pub(super) fn get(
    store: &Store,
    res: Resource,
    ns: &str,
    name: &str,
) -> Result<Response, ApiError> {
    let obj = store
        .object(res, ns, name)
        .ok_or_else(|| ApiError::not_found(&res.qualified(), name))?;
    Ok(json_response(StatusCode::OK, &scale_of(&obj)))
}

/// `PUT`/`PATCH …/{name}/scale`: writes the Scale's `spec.replicas` into the object (a spec
/// change: `metadata.generation` grows). Errors: 400 (not a Scale, name mismatch), 404, 409
/// (stale resourceVersion), 422 (negative replicas).
pub(super) fn update(
    store: &Store,
    res: Resource,
    ns: &str,
    name: &str,
    body: &Body,
) -> Result<Response, ApiError> {
    let obj = store.update_object(res, ns, name, |stored| {
        let new = body.apply(scale_of(stored), SCALE_SCHEMA)?;
        match new["kind"].as_str() {
            None | Some("Scale") => {}
            Some(k) => {
                return Err(ApiError::bad_request(format!(
                    "Scale in version \"v1\" cannot be handled as a Scale: kind {k:?} is not Scale"
                )));
            }
        }
        check_identity(res, name, &new, stored.meta().resource_version.as_deref())?;
        let replicas = match &new["spec"]["replicas"] {
            Value::Null => 0,
            v => v.as_i64().ok_or_else(|| {
                ApiError::bad_request(format!(
                    "Scale in version \"v1\" cannot be handled as a Scale: spec.replicas: invalid type: {v}, expected i32"
                ))
            })?,
        };
        if replicas < 0 {
            return Err(ApiError::invalid(
                "Scale.autoscaling",
                name,
                &[format!(
                    "spec.replicas: Invalid value: {replicas}: must be greater than or equal to 0"
                )],
            ));
        }
        let mut doc = stored.to_json();
        doc["spec"]["replicas"] = json!(replicas);
        *stored = Object::from_json(res, doc)?;
        Ok(())
    })?;
    Ok(json_response(StatusCode::OK, &scale_of(&obj)))
}
