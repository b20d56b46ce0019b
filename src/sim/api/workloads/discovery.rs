//! Discovery of the `apps` and `batch` groups in the legacy (unaggregated) form kube-apiserver
//! 1.33 also serves: `/apis` (`APIGroupList`), `/apis/{group}` (`APIGroup`) and
//! `/apis/{group}/v1` (`APIResourceList` with verbs, `shortNames`, `singularName`,
//! `categories` and the `status`/`scale` subresources). kubectl asks for the aggregated
//! form first and falls back to this one when the answer is plain JSON
//! (`docs/workloads-api.md` §1).

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::sim::api::object::Resource;
use crate::sim::api::status::{ApiError, json_response};

/// The served groups, each with its one version.
const GROUPS: [&str; 4] = [
    "apps",
    "batch",
    crate::sim::api::reviews::AUTHORIZATION,
    crate::sim::api::reviews::AUTHENTICATION,
];

const ALL_VERBS: [&str; 8] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];
const SUB_VERBS: [&str; 3] = ["get", "patch", "update"];

fn group_json(name: &str) -> Value {
    let v = json!({"groupVersion": format!("{name}/v1"), "version": "v1"});
    json!({"name": name, "versions": [v.clone()], "preferredVersion": v})
}

/// `GET /apis`: the `apps` and `batch` groups and the reviews' `authorization.k8s.io` and
/// `authentication.k8s.io`.
pub(crate) async fn group_list() -> Response {
    let groups: Vec<Value> = GROUPS.iter().map(|g| group_json(g)).collect();
    json_response(
        StatusCode::OK,
        &json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}),
    )
}

/// `GET /apis/{group}`. Errors: 404 for other groups.
pub(super) async fn group(Path(group): Path<String>) -> Response {
    if !GROUPS.contains(&group.as_str()) {
        return ApiError::no_route().into_response();
    }
    let mut body = group_json(&group);
    body["kind"] = json!("APIGroup");
    body["apiVersion"] = json!("v1");
    json_response(StatusCode::OK, &body)
}

/// The `APIResource` entries of one resource: itself, `…/scale` (if any), `…/status`.
fn entries(r: Resource) -> Vec<Value> {
    let mut main = json!({
        "name": r.plural(), "singularName": r.singular(), "namespaced": r.namespaced(),
        "kind": r.kind(), "verbs": ALL_VERBS, "categories": ["all"],
    });
    if !r.short_names().is_empty() {
        main["shortNames"] = json!(r.short_names());
    }
    let mut out = vec![main];
    if r.has_scale() {
        out.push(json!({
            "name": format!("{}/scale", r.plural()), "singularName": "", "namespaced": true,
            "group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": SUB_VERBS,
        }));
    }
    out.push(json!({
        "name": format!("{}/status", r.plural()), "singularName": "", "namespaced": true,
        "kind": r.kind(), "verbs": SUB_VERBS,
    }));
    out
}

/// `GET /apis/{group}/v1`: the group's resources in name order. Errors: 404 otherwise.
pub(super) async fn resources(Path((group, version)): Path<(String, String)>) -> Response {
    if !GROUPS.contains(&group.as_str()) || version != "v1" {
        return ApiError::no_route().into_response();
    }
    let mut kinds: Vec<Resource> = Resource::WORKLOADS
        .into_iter()
        .filter(|r| r.group() == group)
        .collect();
    kinds.sort_by_key(|r| r.plural());
    let mut resources: Vec<Value> = kinds.into_iter().flat_map(entries).collect();
    resources.extend(crate::sim::api::reviews::discovery_resources(&group));
    json_response(
        StatusCode::OK,
        &json!({
            "kind": "APIResourceList", "apiVersion": "v1",
            "groupVersion": format!("{group}/v1"), "resources": resources,
        }),
    )
}
