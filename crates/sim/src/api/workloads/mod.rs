//! The apps/v1 and batch/v1 workload resources over HTTP: Deployments, ReplicaSets,
//! StatefulSets, DaemonSets, Jobs and CronJobs (`docs/workloads-api.md`). By concept:
//! [`discovery`] (`/apis`, the group and version documents), [`writes`] (POST, PUT, PATCH and
//! `…/status`), [`delete`], [`scale`] (`…/scale`), [`defaults`] and [`validate`] (what the
//! API server fills in and refuses). GET, LIST and WATCH share the pod routes' code
//! (`routes::collection`, `routes::single`), selectors included.

pub mod defaults;
pub(crate) mod delete;
pub(crate) mod discovery;
pub(crate) mod discovery_aggregated;
mod scale;
pub mod validate;
pub(crate) mod writes;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};

use super::object::{Object, Resource};
use super::query::Query;
use super::routes::{collection, single};
use super::status::{ApiError, json_response};
use super::store::Store;

/// The routes under `/apis/{group}/{version}/…`; merge into the main router.
pub fn routes() -> Router<Store> {
    Router::new()
        .route("/apis/{group}", only(get(discovery::group)))
        .route("/apis/{group}/{version}", only(get(discovery::resources)))
        .route("/apis/{group}/{version}/{plural}", only(get(list_all)))
        .route(
            "/apis/{group}/{version}/namespaces/{ns}/{plural}",
            only(
                get(list_in_namespace)
                    .post(writes::create)
                    .delete(delete::delete_collection),
            ),
        )
        .route(
            "/apis/{group}/{version}/namespaces/{ns}/{plural}/{name}",
            only(
                get(get_one)
                    .put(writes::update)
                    .patch(writes::update)
                    .delete(delete::delete),
            ),
        )
        .route(
            "/apis/{group}/{version}/namespaces/{ns}/{plural}/{name}/{sub}",
            only(
                get(get_sub)
                    .put(writes::update_sub)
                    .patch(writes::update_sub),
            ),
        )
}

fn only(r: MethodRouter<Store>) -> MethodRouter<Store> {
    r.fallback(|method: Method| async move { ApiError::method_not_allowed(method.as_str()) })
}

fn respond(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

/// The stored resource of `/apis/{group}/{version}/…/{plural}`. Errors: 404 (the API
/// server's catch-all) for other groups, versions or plurals.
pub(crate) fn resolve(group: &str, version: &str, plural: &str) -> Result<Resource, ApiError> {
    Resource::from_group_plural(group, plural)
        .filter(|_| version == "v1")
        .ok_or_else(ApiError::no_route)
}

/// The JSON answer of a write: the object, and one `Warning: 299 - "…"` header per warning
/// (unknown fields under `fieldValidation=Warn`).
pub(crate) fn object_response(code: StatusCode, obj: &Object, warnings: &[String]) -> Response {
    let mut resp = json_response(code, &obj.to_json());
    for w in warnings {
        if let Ok(v) = HeaderValue::from_str(&format!("299 - {w:?}")) {
            resp.headers_mut().append(header::WARNING, v);
        }
    }
    resp
}

async fn list_all(
    State(store): State<Store>,
    Path((group, version, plural)): Path<(String, String, String)>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
) -> Response {
    respond(
        resolve(&group, &version, &plural)
            .and_then(|res| collection(store, res, None, Query::parse(q.as_deref()), &h)),
    )
}

async fn list_in_namespace(
    State(store): State<Store>,
    Path((group, version, ns, plural)): Path<(String, String, String, String)>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
) -> Response {
    respond(
        resolve(&group, &version, &plural)
            .and_then(|res| collection(store, res, Some(ns), Query::parse(q.as_deref()), &h)),
    )
}

async fn get_one(
    State(store): State<Store>,
    Path((group, version, ns, plural, name)): Path<(String, String, String, String, String)>,
    h: HeaderMap,
) -> Response {
    match resolve(&group, &version, &plural) {
        Ok(res) => respond(single(&store, res, &ns, &name, &h)),
        // An object of a kind the simulator does not store (the owner a pod names, say) does
        // not exist, worded as the API server does: `foos.example.com "x" not found`.
        Err(_) => ApiError::not_found(&format!("{plural}.{group}"), &name).into_response(),
    }
}

async fn get_sub(
    State(store): State<Store>,
    Path((group, version, ns, plural, name, sub)): Path<(
        String,
        String,
        String,
        String,
        String,
        String,
    )>,
    h: HeaderMap,
) -> Response {
    respond((|| {
        let res = resolve(&group, &version, &plural)?;
        match sub.as_str() {
            "status" => single(&store, res, &ns, &name, &h),
            "scale" if res.has_scale() => scale::get(&store, res, &ns, &name),
            _ => Err(ApiError::no_route()),
        }
    })())
}
