//! Workload deletes: `DELETE …/{name}` with `propagationPolicy`, `orphanDependents` and
//! preconditions, and `DELETE` of a collection, answered as the generic registry does
//! (`docs/workloads-api.md` §4).

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::{object_response, resolve, respond};
use crate::api::object::Resource;
use crate::api::query::Query;
use crate::api::select::Selector;
use crate::api::status::{ApiError, json_response};
use crate::api::store::{Propagation, Store};

type ItemPath = Path<(String, String, String, String, String)>;

/// The `DeleteOptions` of a DELETE: the body's JSON, or empty. Errors: 400.
fn delete_options(body: &[u8]) -> Result<Value, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("DeleteOptions: json parse error: {e}")))
}

/// The propagation a DELETE asks for: `propagationPolicy` (query, then body), else
/// `orphanDependents` (`true` → Orphan), else the resource's default: Orphan for batch/v1
/// Jobs (kept for old clients, as the Job registry does), Background for the rest.
fn propagation(res: Resource, q: &Query, opts: &Value) -> Result<Propagation, ApiError> {
    let asked = q
        .get("propagationPolicy")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .or_else(|| opts["propagationPolicy"].as_str().map(str::to_string));
    if let Some(p) = asked {
        return Propagation::parse(&p);
    }
    let orphan = q
        .get("orphanDependents")
        .map(|v| v == "true")
        .or_else(|| opts["orphanDependents"].as_bool());
    Ok(match orphan {
        Some(true) => Propagation::Orphan,
        Some(false) => Propagation::Background,
        None if res == Resource::Jobs => Propagation::Orphan,
        None => Propagation::Background,
    })
}

/// Deletes one object; the answer the API server gives: a `Status` of `Success` with
/// `details` (name, group, kind = the plural, uid) when it is gone, the object (with
/// `deletionTimestamp`) when finalizers hold it.
fn delete_one(
    store: &Store,
    res: Resource,
    ns: &str,
    name: &str,
    q: &Query,
    opts: &Value,
) -> Result<Response, ApiError> {
    let obj = store
        .object(res, ns, name)
        .ok_or_else(|| ApiError::not_found(&res.qualified(), name))?;
    let pre = &opts["preconditions"];
    for (field, have) in [
        ("uid", obj.meta().uid.as_deref()),
        ("resourceVersion", obj.meta().resource_version.as_deref()),
    ] {
        if let Some(want) = pre[field].as_str()
            && Some(want) != have
        {
            let why = format!(
                "Precondition failed: {field} in precondition: {want}, {field} in object meta: {}",
                have.unwrap_or("")
            );
            return Err(ApiError::conflict(&res.qualified(), name, &why));
        }
    }
    let last = store.delete_object_with(res, ns, name, propagation(res, q, opts)?)?;
    if store.object(res, ns, name).is_some() {
        return Ok(object_response(StatusCode::OK, &last, &[]));
    }
    Ok(json_response(
        StatusCode::OK,
        &json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
            "details": {"name": name, "group": res.group(), "kind": res.plural(), "uid": last.meta().uid},
        }),
    ))
}

/// `DELETE /apis/{group}/v1/namespaces/{ns}/{plural}/{name}`.
pub(crate) async fn delete(
    State(store): State<Store>,
    Path((group, version, ns, plural, name)): ItemPath,
    RawQuery(q): RawQuery,
    body: Bytes,
) -> Response {
    respond((|| {
        let res = resolve(&group, &version, &plural)?;
        let opts = delete_options(&body)?;
        delete_one(&store, res, &ns, &name, &Query::parse(q.as_deref()), &opts)
    })())
}

/// `DELETE /apis/{group}/v1/namespaces/{ns}/{plural}` (deletecollection): every object the
/// label and field selectors match, answered with the list of their last states.
pub(crate) async fn delete_collection(
    State(store): State<Store>,
    Path((group, version, ns, plural)): Path<(String, String, String, String)>,
    RawQuery(q): RawQuery,
    body: Bytes,
) -> Response {
    respond((|| {
        let res = resolve(&group, &version, &plural)?;
        let q = Query::parse(q.as_deref());
        let opts = delete_options(&body)?;
        let sel = Selector::parse(res, q.get("fieldSelector"), q.get("labelSelector"))?;
        let (objects, _) = store.list(res, Some(&ns));
        let mut items = Vec::new();
        for o in objects.iter().filter(|o| sel.matches(o)) {
            let last =
                store.delete_object_with(res, &ns, o.name(), propagation(res, &q, &opts)?)?;
            items.push(last.to_json());
        }
        Ok(json_response(
            StatusCode::OK,
            &json!({
                "kind": format!("{}List", res.kind()), "apiVersion": res.api_version(),
                "metadata": {"resourceVersion": store.resource_version().to_string()}, "items": items,
            }),
        ))
    })())
}
