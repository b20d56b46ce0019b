//! GETs of the objects a pod refers to (`secrets`, `configmaps`, `persistentvolumeclaims` in
//! its namespace, and `nodes`), as podscope's diagnosis asks about them with one GET each.
//!
//! The simulator stores none of these (only pods, events and workloads), so every such object
//! is absent: `404` with the API server's `Status` body (`reason: NotFound`, `secrets "db-creds" not found`). RBAC
//! denials (`SimConfig.deny`, e.g. `("get", "secrets")`) are answered 403 by the auth
//! middleware before these routes run. Nodes are a 404 too for now (the seed's node is not
//! served as an object). Any other verb is `405 MethodNotAllowed`.

use axum::Router;
use axum::extract::Path;
use axum::http::Method;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};

use super::status::ApiError;
use super::store::Store;

/// The namespaced resources served, by plural.
const NAMESPACED: [&str; 3] = ["secrets", "configmaps", "persistentvolumeclaims"];

/// `GET /api/v1/namespaces/{ns}/{secrets|configmaps|persistentvolumeclaims}/{name}` and
/// `GET /api/v1/nodes/{name}`, each answering 404 NotFound.
pub fn routes() -> Router<Store> {
    let mut router = Router::new();
    for plural in NAMESPACED {
        router = router.route(
            &format!("/api/v1/namespaces/{{ns}}/{plural}/{{name}}"),
            absent(plural, |Path((_ns, name)): Path<(String, String)>| name),
        );
    }
    router.route(
        "/api/v1/nodes/{name}",
        absent("nodes", |Path(name): Path<String>| name),
    )
}

/// A GET-only route answering `<plural> "<name>" not found`, the name taken from the path by
/// `name`.
fn absent<P>(plural: &'static str, name: fn(P) -> String) -> MethodRouter<Store>
where
    P: axum::extract::FromRequestParts<Store> + Send + 'static,
{
    get(move |p: P| async move { ApiError::not_found(plural, &name(p)).into_response() }).fallback(
        |method: Method| async move {
            let r: Response = ApiError::method_not_allowed(method.as_str()).into_response();
            r
        },
    )
}
