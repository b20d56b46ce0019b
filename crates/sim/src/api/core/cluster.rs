//! The `/api/v1/{plural}[/{name}[/status]]` handlers of the cluster-scoped kinds
//! (Namespaces, Nodes, PersistentVolumes), and the all-namespaces lists of the namespaced ones.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method};
use axum::response::{IntoResponse, Response};

use super::{SERVED, core_item, core_path, create_body, namespaces, respond, served, status_only};
use crate::api::query::Query;
use crate::api::routes::{collection, single};
use crate::api::status::ApiError;
use crate::api::store::Store;
use crate::api::workloads::{delete, writes};

pub(super) async fn list_top(
    State(store): State<Store>,
    Path(plural): Path<String>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
) -> Response {
    let res = SERVED.into_iter().find(|r| r.plural() == plural);
    respond(
        res.ok_or_else(ApiError::no_route)
            .and_then(|res| collection(store, res, None, Query::parse(q.as_deref()), &h)),
    )
}

pub(super) async fn create_top(
    state: State<Store>,
    Path(plural): Path<String>,
    q: RawQuery,
    mut h: HeaderMap,
    body: Bytes,
) -> Response {
    let body = match served(&plural, false).and_then(|r| create_body(r, &mut h, body)) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    writes::create(state, core_path(String::new(), &plural), q, h, body).await
}

pub(super) async fn delete_top(
    state: State<Store>,
    Path(plural): Path<String>,
    q: RawQuery,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, false) {
        return e.into_response();
    }
    delete::delete_collection(state, core_path(String::new(), &plural), q, body).await
}

pub(super) async fn get_top(
    State(store): State<Store>,
    Path((plural, name)): Path<(String, String)>,
    h: HeaderMap,
) -> Response {
    respond(served(&plural, false).and_then(|res| single(&store, res, "", &name, &h)))
}

pub(super) async fn update_top(
    state: State<Store>,
    Path((plural, name)): Path<(String, String)>,
    method: Method,
    q: RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, false) {
        return e.into_response();
    }
    writes::update(
        state,
        core_item(String::new(), &plural, name),
        method,
        q,
        h,
        body,
    )
    .await
}

pub(super) async fn delete_item_top(
    state: State<Store>,
    Path((plural, name)): Path<(String, String)>,
    q: RawQuery,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, false) {
        return e.into_response();
    }
    if plural == "namespaces" && namespaces::UNDELETABLE.contains(&name.as_str()) {
        return namespaces::undeletable(&name).into_response();
    }
    delete::delete(state, core_item(String::new(), &plural, name), q, body).await
}

pub(super) async fn namespace_update(
    state: State<Store>,
    Path(name): Path<String>,
    method: Method,
    q: RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    update_top(state, Path(("namespaces".into(), name)), method, q, h, body).await
}

pub(super) async fn get_sub_top(
    State(store): State<Store>,
    Path((plural, name, sub)): Path<(String, String, String)>,
    h: HeaderMap,
) -> Response {
    respond(
        served(&plural, false)
            .and_then(|res| status_only(&sub).map(|()| res))
            .and_then(|res| single(&store, res, "", &name, &h)),
    )
}

pub(super) async fn update_sub_top(
    state: State<Store>,
    Path((plural, name, sub)): Path<(String, String, String)>,
    method: Method,
    q: RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(e) = served(&plural, false).and_then(|_| status_only(&sub)) {
        return e.into_response();
    }
    let Path((g, v, ns, p, n)) = core_item(String::new(), &plural, name);
    writes::update_sub(state, Path((g, v, ns, p, n, sub)), method, q, h, body).await
}
