//! HTTP routes of the simulated API server: discovery (each document also with a trailing
//! slash, as kube-apiserver serves `/api/` and `/apis/`), pods, events, logs (see
//! `docs/protocols.md` Appendix B), the core objects of [`super::core`] and the apps/batch
//! workloads of [`workloads`]. Every error is a `metav1.Status` JSON body.

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};

use super::object::{Object, Resource};
use super::query::Query;
use super::select::Selector;
use super::status::{ApiError, json_response};
use super::store::Store;
use super::workloads::discovery;
use super::{collection_writes, ephemeral, logs, paging, table, watch, workloads, writes};

/// The router for `store`; unknown paths answer 404, unsupported verbs 405 (Status bodies).
pub fn router(store: Store) -> Router {
    Router::new()
        .route("/version", only_get(get(version)))
        .route("/version/", only_get(get(version)))
        .route("/healthz", only_get(get(healthz)))
        .route("/livez", only_get(get(healthz)))
        .route("/readyz", only_get(get(healthz)))
        .route("/api", only_get(get(discovery::api_versions)))
        .route("/api/", only_get(get(discovery::api_versions)))
        .route("/apis", only_get(get(discovery::group_list)))
        .route("/apis/", only_get(get(discovery::group_list)))
        .route("/apis/{group}/", only_get(get(discovery::group)))
        .route(
            "/apis/{group}/{version}/",
            only_get(get(discovery::resources)),
        )
        .route("/api/v1", only_get(get(discovery::core_resources)))
        .route("/api/v1/", only_get(get(discovery::core_resources)))
        .route("/api/v1/pods", list_all(Resource::Pods))
        .route(
            "/api/v1/namespaces/{ns}/pods",
            only_get(
                list_in_namespace(Resource::Pods)
                    .post(writes::create)
                    .delete(collection_writes::delete_pods),
            ),
        )
        .route(
            "/api/v1/namespaces/{ns}/pods/{name}",
            only_get(
                get_one(Resource::Pods)
                    .merge(writes::update(false))
                    .delete(writes::delete),
            ),
        )
        .route(
            "/api/v1/namespaces/{ns}/pods/{name}/status",
            only_get(get_one(Resource::Pods).merge(writes::update(true))),
        )
        .route(
            "/api/v1/namespaces/{ns}/pods/{name}/log",
            only_get(get(logs::websocket::pod_log)),
        )
        .route("/api/v1/events", list_all(Resource::Events))
        .route(
            "/api/v1/namespaces/{ns}/events",
            only_get(list_in_namespace(Resource::Events).post(collection_writes::create_event)),
        )
        .route(
            "/api/v1/namespaces/{ns}/events/{name}",
            only_get(get_one(Resource::Events).delete(collection_writes::delete_event)),
        )
        .route(
            "/api/v1/namespaces/{ns}/pods/{name}/ephemeralcontainers",
            get(ephemeral::get)
                .patch(ephemeral::patch)
                .put(ephemeral::put),
        )
        .merge(crate::stream::routes())
        .merge(super::core::routes())
        .merge(workloads::routes())
        .merge(crate::metrics::routes())
        .merge(super::apiservices::routes())
        .fallback(|| async { ApiError::no_route() })
        .layer(axum::middleware::from_fn_with_state(
            store.clone(),
            super::core::namespaces::lifecycle,
        ))
        .with_state(store)
}

fn only_get(r: MethodRouter<Store>) -> MethodRouter<Store> {
    r.fallback(|method: Method| async move { ApiError::method_not_allowed(method.as_str()) })
}

fn respond(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /version`: kube-apiserver's `version.Info`, its `major`, `minor` and `gitVersion` from
/// [`crate::KUBERNETES_VERSION`] (`v1.33.0` → `"1"`, `"33"`), the build fields fixed.
async fn version() -> Response {
    let git = crate::KUBERNETES_VERSION;
    let mut parts = git.trim_start_matches('v').split('.');
    let major = parts.next().unwrap_or("1");
    let minor = parts.next().unwrap_or("0");
    json_response(
        StatusCode::OK,
        &json!({
            "major": major, "minor": minor, "gitVersion": git,
            "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
            "buildDate": "2025-01-01T00:00:00Z", "goVersion": "go1.24.0", "compiler": "gc",
            "platform": "linux/amd64"
        }),
    )
}

/// `/healthz`, `/livez`, `/readyz`: `200 ok` in plain text, as kube-apiserver answers.
async fn healthz() -> &'static str {
    "ok"
}

/// `GET` of a collection across namespaces (`/api/v1/pods`, `/api/v1/events`).
fn list_all(res: Resource) -> MethodRouter<Store> {
    only_get(get(
        move |State(s): State<Store>, RawQuery(q): RawQuery, h: HeaderMap| async move {
            respond(collection(s, res, None, Query::parse(q.as_deref()), &h))
        },
    ))
}

/// `GET` of a collection in one namespace (`…/namespaces/{ns}/pods`, `…/events`).
fn list_in_namespace(res: Resource) -> MethodRouter<Store> {
    get(
        move |State(s): State<Store>,
              Path(ns): Path<String>,
              RawQuery(q): RawQuery,
              h: HeaderMap| async move {
            respond(collection(s, res, Some(ns), Query::parse(q.as_deref()), &h))
        },
    )
}

/// `GET` of one object (`…/pods/{name}`, `…/pods/{name}/status`, `…/events/{name}`).
fn get_one(res: Resource) -> MethodRouter<Store> {
    get(
        move |State(s): State<Store>, Path((ns, name)): Path<(String, String)>, h: HeaderMap| async move {
            respond(single(&s, res, &ns, &name, &h))
        },
    )
}

/// LIST or WATCH of a collection. A LIST reads `resourceVersion`/`resourceVersionMatch`,
/// `limit` and `continue` ([`paging`]: pages with an opaque continue token and
/// `metadata.remainingItemCount`, an `Exact` read of an older state, 410 once it left the
/// history); `metadata.resourceVersion` is the RV the list is at.
pub(crate) fn collection(
    store: Store,
    res: Resource,
    ns: Option<String>,
    q: Query,
    h: &HeaderMap,
) -> Result<Response, ApiError> {
    let sel = Selector::parse(res, q.get("fieldSelector"), q.get("labelSelector"))?;
    let as_table = table::wants_table(h);
    if q.flag("watch")? {
        return watch::serve(store, res, ns, sel, &q, as_table);
    }
    let req = paging::ListRequest::parse(&store, &q)?;
    let unselected = sel.fields.is_empty() && sel.labels.is_empty();
    let page = paging::list(
        &store,
        res,
        ns.as_deref(),
        &req,
        |o| sel.matches(o),
        unselected,
    )?;
    let (objects, rv) = (page.objects, page.rv);
    let mut body = if as_table {
        table::table(res, &objects, rv, store.now())
    } else {
        let items: Vec<Value> = objects.iter().map(Object::to_json).collect();
        json!({
            "kind": format!("{}List", res.kind()), "apiVersion": res.api_version(),
            "metadata": {"resourceVersion": rv.to_string()}, "items": items
        })
    };
    if let Some(next) = page.next {
        body["metadata"]["continue"] = json!(next);
    }
    if let Some(n) = page.remaining {
        body["metadata"]["remainingItemCount"] = json!(n);
    }
    Ok(json_response(StatusCode::OK, &body))
}

/// GET of one object (or its one-row Table). Errors: 404 `deployments.apps "x" not found`.
pub(crate) fn single(
    store: &Store,
    res: Resource,
    ns: &str,
    name: &str,
    h: &HeaderMap,
) -> Result<Response, ApiError> {
    let rv = store.resource_version();
    let obj = store
        .object(res, ns, name)
        .ok_or_else(|| ApiError::not_found(&res.qualified(), name))?;
    let body = if table::wants_table(h) {
        table::table(res, std::slice::from_ref(&obj), rv, store.now())
    } else {
        obj.to_json()
    };
    Ok(json_response(StatusCode::OK, &body))
}
