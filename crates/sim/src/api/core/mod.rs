//! The core objects around a pod over HTTP, under `/api/v1`: Namespaces, Nodes, ConfigMaps,
//! Secrets, Services, Endpoints, ServiceAccounts, PersistentVolumeClaims and
//! PersistentVolumes (`docs/core-api.md`). They share the workloads' write and delete code
//! (`workloads::writes`, `workloads::delete`, called with the core group `""`) and the pod
//! routes' GET/LIST/WATCH (`routes::collection`, `routes::single`). By concept: [`defaults`]
//! (what the API server fills in and allocates), [`namespaces`] (the defaults at start, the
//! NamespaceLifecycle admission, the namespace controller), [`seed`] (the `kubernetes`
//! Service), [`events_v1`] (`events.k8s.io/v1`, a view of the stored core/v1 Events).

mod cluster;
pub mod defaults;
pub mod events_v1;
pub mod namespaces;
pub mod protobuf;
pub mod seed;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::Value;

use super::decode;
use super::object::Resource;
use super::query::Query;
use super::routes::{collection, single};
use super::status::ApiError;
use super::store::Store;
use super::workloads::{delete, writes};
use cluster::{
    create_top, delete_item_top, delete_top, get_sub_top, get_top, list_top, namespace_update,
    update_sub_top, update_top,
};

/// The core-group resources served here (pods and events have routes of their own).
pub const SERVED: [Resource; 9] = [
    Resource::ConfigMaps,
    Resource::Endpoints,
    Resource::Namespaces,
    Resource::Nodes,
    Resource::PersistentVolumeClaims,
    Resource::PersistentVolumes,
    Resource::Secrets,
    Resource::ServiceAccounts,
    Resource::Services,
];

/// The routes of the [`SERVED`] kinds; merge into the main router (pods' and events'
/// static routes win over these).
pub fn routes() -> Router<Store> {
    Router::new()
        .route(
            "/api/v1/{plural}",
            only(get(list_top).post(create_top).delete(delete_top)),
        )
        .route(
            "/api/v1/namespaces",
            only(
                get(|s, q, h| list_top(s, Path("namespaces".into()), q, h))
                    .post(|s, q, h, b| create_top(s, Path("namespaces".into()), q, h, b)),
            ),
        )
        .route(
            "/api/v1/namespaces/{name}",
            only(
                get(|s, Path(n): Path<String>, h| get_top(s, Path(("namespaces".into(), n)), h))
                    .put(namespace_update)
                    .patch(namespace_update)
                    .delete(|s, Path(n): Path<String>, q, b| {
                        delete_item_top(s, Path(("namespaces".into(), n)), q, b)
                    }),
            ),
        )
        .route(
            "/api/v1/{plural}/{name}",
            only(
                get(get_top)
                    .put(update_top)
                    .patch(update_top)
                    .delete(delete_item_top),
            ),
        )
        .route(
            "/api/v1/{plural}/{name}/{sub}",
            only(get(get_sub_top).put(update_sub_top).patch(update_sub_top)),
        )
        .route(
            "/api/v1/namespaces/{ns}/{plural}",
            only(
                get(list_ns)
                    .post(create_ns)
                    .delete(delete_ns)
                    .put(update_ns_sub),
            ),
        )
        .route(
            "/api/v1/namespaces/{ns}/{plural}/{name}",
            only(
                get(get_ns)
                    .put(update_ns)
                    .patch(update_ns)
                    .delete(delete_item_ns),
            ),
        )
        .route(
            "/api/v1/namespaces/{ns}/{plural}/{name}/{sub}",
            only(get(get_sub_ns).put(update_sub_ns).patch(update_sub_ns)),
        )
        .merge(events_v1::routes())
}

fn only(r: MethodRouter<Store>) -> MethodRouter<Store> {
    r.fallback(|method: Method| async move { ApiError::method_not_allowed(method.as_str()) })
}

fn respond(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

/// The served resource of a `/api/v1` plural with the scope the path has. Errors: 404 (the
/// API server's catch-all) for anything else.
fn served(plural: &str, namespaced: bool) -> Result<Resource, ApiError> {
    SERVED
        .into_iter()
        .find(|r| r.plural() == plural && r.namespaced() == namespaced)
        .ok_or_else(ApiError::no_route)
}

/// The path tuple the workload handlers take, in the core group.
fn core_path(ns: String, plural: &str) -> Path<(String, String, String, String)> {
    Path((String::new(), "v1".into(), ns, plural.to_string()))
}

fn core_item(
    ns: String,
    plural: &str,
    name: String,
) -> Path<(String, String, String, String, String)> {
    Path((String::new(), "v1".into(), ns, plural.to_string(), name))
}

/// A create's body as JSON for the write path: a protobuf body of a kind [`protobuf`]
/// decodes is turned into JSON; a cluster-scoped object's `metadata.namespace` is removed
/// (the registry's `BeforeCreate` clears it). Other bodies pass unchanged (the write path
/// answers 415 for other protobuf). Errors: 400 for a malformed body.
fn create_body(res: Resource, h: &mut HeaderMap, body: Bytes) -> Result<Bytes, ApiError> {
    let ct = h
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let mut value: Value = if ct.contains("protobuf") && protobuf::decodes(res) {
        protobuf::to_json(res, &body)?
    } else if ct.contains("protobuf") || ct.contains("cbor") || res.namespaced() {
        return Ok(body);
    } else {
        decode::parse_body(&body, ct.contains("yaml"))?
    };
    if !res.namespaced()
        && let Some(m) = value.get_mut("metadata").and_then(Value::as_object_mut)
    {
        m.remove("namespace");
    }
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(Bytes::from(serde_json::to_vec(&value).unwrap_or_default()))
}

/// Only the `status` subresource is served for these kinds. Errors: 404.
fn status_only(sub: &str) -> Result<(), ApiError> {
    (sub == "status")
        .then_some(())
        .ok_or_else(ApiError::no_route)
}

async fn list_ns(
    State(store): State<Store>,
    Path((ns, plural)): Path<(String, String)>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
) -> Response {
    if plural == "status" {
        return respond(single(&store, Resource::Namespaces, "", &ns, &h));
    }
    respond(
        served(&plural, true)
            .and_then(|res| collection(store, res, Some(ns), Query::parse(q.as_deref()), &h)),
    )
}

async fn create_ns(
    state: State<Store>,
    Path((ns, plural)): Path<(String, String)>,
    q: RawQuery,
    mut h: HeaderMap,
    body: Bytes,
) -> Response {
    let body = match served(&plural, true).and_then(|r| create_body(r, &mut h, body)) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    writes::create(state, core_path(ns, &plural), q, h, body).await
}

async fn delete_ns(
    state: State<Store>,
    Path((ns, plural)): Path<(String, String)>,
    q: RawQuery,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, true) {
        return e.into_response();
    }
    delete::delete_collection(state, core_path(ns, &plural), q, body).await
}

/// `PUT /api/v1/namespaces/{name}/status` and `…/finalize` (a Namespace's status, and its
/// `spec.finalizers`, which the namespace controller empties; `docs/core-api.md` §3).
async fn update_ns_sub(
    state: State<Store>,
    Path((ns, sub)): Path<(String, String)>,
    method: Method,
    q: RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    let path = Path((
        String::new(),
        "v1".into(),
        String::new(),
        "namespaces".into(),
        ns,
    ));
    match sub.as_str() {
        "status" => {
            let Path((g, v, n, p, name)) = path;
            writes::update_sub(state, Path((g, v, n, p, name, sub)), method, q, h, body).await
        }
        "finalize" => writes::update(state, path, method, q, h, body).await,
        _ => ApiError::no_route().into_response(),
    }
}

async fn get_ns(
    State(store): State<Store>,
    Path((ns, plural, name)): Path<(String, String, String)>,
    h: HeaderMap,
) -> Response {
    respond(served(&plural, true).and_then(|res| single(&store, res, &ns, &name, &h)))
}

async fn update_ns(
    state: State<Store>,
    Path((ns, plural, name)): Path<(String, String, String)>,
    method: Method,
    q: RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, true) {
        return e.into_response();
    }
    writes::update(state, core_item(ns, &plural, name), method, q, h, body).await
}

async fn delete_item_ns(
    state: State<Store>,
    Path((ns, plural, name)): Path<(String, String, String)>,
    q: RawQuery,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, true) {
        return e.into_response();
    }
    delete::delete(state, core_item(ns, &plural, name), q, body).await
}

async fn get_sub_ns(
    State(store): State<Store>,
    Path((ns, plural, name, sub)): Path<(String, String, String, String)>,
    h: HeaderMap,
) -> Response {
    respond(
        served(&plural, true)
            .and_then(|res| status_only(&sub).map(|()| res))
            .and_then(|res| single(&store, res, &ns, &name, &h)),
    )
}

async fn update_sub_ns(
    state: State<Store>,
    Path((ns, plural, name, sub)): Path<(String, String, String, String)>,
    method: Method,
    q: RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, true).and_then(|_| status_only(&sub)) {
        return e.into_response();
    }
    writes::update_sub(
        state,
        Path((String::new(), "v1".into(), ns, plural, name, sub)),
        method,
        q,
        h,
        body,
    )
    .await
}
