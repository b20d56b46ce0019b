//! Discovery in the legacy (unaggregated) form kube-apiserver 1.33 also serves, built from
//! [`Resource::ALL`]: `/api` (`APIVersions`), `/api/v1` and `/apis/{group}/v1`
//! (`APIResourceList` with verbs, `shortNames`, `singularName`, `categories` and the
//! subresources), `/apis` (`APIGroupList`) and `/apis/{group}` (`APIGroup`). kubectl asks for
//! the aggregated form first and falls back to this one when the answer is plain JSON
//! (`docs/workloads-api.md` §1, `docs/core-api.md` §1).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::discovery_aggregated as aggregated;
use crate::api::object::Resource;
use crate::api::status::{ApiError, json_response};
use crate::api::store::Store;

/// The served groups in the order kube-apiserver lists them (its group priorities), each
/// with its one version `v1`.
pub const GROUPS: [&str; 7] = [
    "apps",
    "events.k8s.io",
    crate::api::reviews::AUTHENTICATION,
    crate::api::reviews::AUTHORIZATION,
    "batch",
    "coordination.k8s.io",
    "discovery.k8s.io",
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

/// `GET /apis` (and `/apis/`): `apiregistration.k8s.io` (the highest group priority), the
/// [`GROUPS`], then `metrics.k8s.io` unless metrics are off (`docs/metrics.md` §1).
pub(crate) async fn group_list(State(store): State<Store>, h: HeaderMap) -> Response {
    if let Some(v) = aggregated::wanted(&h) {
        let mut groups = vec![(
            crate::api::apiservices::GROUP.to_string(),
            vec![aggregated::version_entry(
                crate::api::apiservices::GROUP,
                "v1",
                &crate::api::apiservices::resource_entries(),
            )],
        )];
        for g in GROUPS {
            let entries = resource_entries(g);
            groups.push((
                g.to_string(),
                vec![aggregated::version_entry(g, "v1", &entries)],
            ));
        }
        if store.metrics_config().enabled {
            let (group, version) = (crate::metrics::GROUP, crate::metrics::VERSION);
            let entries = crate::metrics::routes::resource_entries();
            groups.push((
                group.to_string(),
                vec![aggregated::version_entry(group, version, &entries)],
            ));
        }
        return aggregated::response(v, groups);
    }
    let mut groups = vec![crate::api::apiservices::group_json()];
    groups.extend(GROUPS.iter().map(|g| group_json(g)));
    if store.metrics_config().enabled {
        groups.push(crate::metrics::routes::group_json());
    }
    json_response(
        StatusCode::OK,
        &json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}),
    )
}

/// `GET /apis/{group}`. Errors: 404 for other groups.
pub(crate) async fn group(Path(group): Path<String>) -> Response {
    if !GROUPS.contains(&group.as_str()) {
        return ApiError::no_route().into_response();
    }
    let mut body = group_json(&group);
    body["kind"] = json!("APIGroup");
    body["apiVersion"] = json!("v1");
    json_response(StatusCode::OK, &body)
}

/// The verbs of `r`: every verb, but Namespaces have no `deletecollection`.
fn verbs(r: Resource) -> Vec<&'static str> {
    ALL_VERBS
        .into_iter()
        .filter(|v| !(r == Resource::Namespaces && *v == "deletecollection"))
        .collect()
}

/// The `categories` of `r`: `all` for pods, services and the workloads.
fn categories(r: Resource) -> &'static [&'static str] {
    if r == Resource::Pods || r == Resource::Services || Resource::WORKLOADS.contains(&r) {
        &["all"]
    } else {
        &[]
    }
}

fn sub(r: Resource, name: &str, kind: &str, verbs: &[&str]) -> Value {
    json!({
        "name": format!("{}/{name}", r.plural()), "singularName": "", "namespaced": r.namespaced(),
        "kind": kind, "verbs": verbs,
    })
}

/// The subresources discovery lists for `r`, in name order.
fn subresources(r: Resource) -> Vec<Value> {
    let status = || sub(r, "status", r.kind(), &SUB_VERBS);
    match r {
        Resource::Pods => vec![
            sub(r, "attach", "PodAttachOptions", &["create", "get"]),
            sub(r, "ephemeralcontainers", "Pod", &SUB_VERBS),
            sub(r, "exec", "PodExecOptions", &["create", "get"]),
            sub(r, "log", "Pod", &["get"]),
            sub(
                r,
                "portforward",
                "PodPortForwardOptions",
                &["create", "get"],
            ),
            status(),
        ],
        Resource::Namespaces => vec![sub(r, "finalize", "Namespace", &["update"]), status()],
        Resource::Deployments | Resource::ReplicaSets | Resource::StatefulSets => {
            let mut scale = sub(r, "scale", "Scale", &SUB_VERBS);
            scale["group"] = json!("autoscaling");
            scale["version"] = json!("v1");
            vec![scale, status()]
        }
        Resource::Nodes
        | Resource::Services
        | Resource::PersistentVolumeClaims
        | Resource::PersistentVolumes
        | Resource::DaemonSets
        | Resource::Jobs
        | Resource::CronJobs => vec![status()],
        _ => vec![],
    }
}

/// The `APIResource` entries of one resource: itself, then its subresources.
fn entries(r: Resource) -> Vec<Value> {
    let mut main = json!({
        "name": r.plural(), "singularName": r.singular(), "namespaced": r.namespaced(),
        "kind": r.kind(), "verbs": verbs(r),
    });
    if !r.short_names().is_empty() {
        main["shortNames"] = json!(r.short_names());
    }
    if !categories(r).is_empty() {
        main["categories"] = json!(categories(r));
    }
    let mut out = vec![main];
    out.extend(subresources(r));
    out
}

/// The `resources` of `group`/v1, in name order (`events.k8s.io` serves the core Events).
pub(crate) fn resource_entries(group: &str) -> Vec<Value> {
    if group == "events.k8s.io" {
        return entries(Resource::Events);
    }
    let reviews = crate::api::reviews::discovery_resources(group);
    if !reviews.is_empty() {
        return reviews;
    }
    let mut kinds: Vec<Resource> = Resource::ALL
        .into_iter()
        .filter(|r| r.group() == group)
        .collect();
    kinds.sort_by_key(|r| r.plural());
    kinds.into_iter().flat_map(entries).collect()
}

/// `GET /api/v1` (and `/api/v1/`): the core group's resources.
pub(crate) async fn core_resources() -> Response {
    json_response(
        StatusCode::OK,
        &json!({
            "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "v1",
            "resources": resource_entries(""),
        }),
    )
}

/// `GET /api` (and `/api/`): the one legacy version, `v1`.
pub(crate) async fn api_versions(h: HeaderMap) -> Response {
    if let Some(v) = aggregated::wanted(&h) {
        let core = aggregated::version_entry("", "v1", &resource_entries(""));
        return aggregated::response(v, vec![(String::new(), vec![core])]);
    }
    json_response(
        StatusCode::OK,
        &json!({
            "kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]
        }),
    )
}

/// `GET /apis/{group}/v1`: the group's resources in name order. Errors: 404 otherwise.
pub(crate) async fn resources(Path((group, version)): Path<(String, String)>) -> Response {
    if !GROUPS.contains(&group.as_str()) || version != "v1" {
        return ApiError::no_route().into_response();
    }
    json_response(
        StatusCode::OK,
        &json!({
            "kind": "APIResourceList", "apiVersion": "v1",
            "groupVersion": format!("{group}/v1"), "resources": resource_entries(&group),
        }),
    )
}
