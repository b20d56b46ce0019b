//! `apiregistration.k8s.io/v1` `apiservices`, read-only (`docs/core-api.md` §9): the
//! aggregation layer's registry of group-versions. kube-apiserver registers one `Local`
//! APIService per group-version it serves itself (`apiServicesToRegister` and the
//! `apiVersionPriorities` table in `pkg/controlplane/apiserver/aggregator.go`); metrics-server's
//! manifest adds `v1beta1.metrics.k8s.io`, backed by the Service `kube-system/metrics-server`,
//! which the availability controller (`staging/src/k8s.io/kube-aggregator/pkg/controllers/
//! status`) marks `Available=True`, reason `Passed`, "all checks passed". With metrics off
//! (`--no-metrics`) that one is absent. GET and LIST (JSON or kubectl's Table: `NAME SERVICE
//! AVAILABLE AGE`); `?watch` and writes are refused with 405.

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};

use super::object::Resource;
use super::query::Query;
use super::status::{ApiError, json_response};
use super::store::Store;
use super::table;

/// The group this module serves.
pub const GROUP: &str = "apiregistration.k8s.io";

/// The local group-versions with their `groupPriorityMinimum` and `versionPriority`
/// (kube-apiserver's `apiVersionPriorities`).
const LOCAL: [(&str, &str, i64, i64); 9] = [
    ("", "v1", 18000, 1),
    (GROUP, "v1", 18000, 15),
    ("apps", "v1", 17800, 15),
    ("events.k8s.io", "v1", 17750, 15),
    ("authentication.k8s.io", "v1", 17700, 15),
    ("authorization.k8s.io", "v1", 17600, 15),
    ("batch", "v1", 17400, 15),
    ("coordination.k8s.io", "v1", 16500, 15),
    ("discovery.k8s.io", "v1", 16200, 15),
];

/// The routes under `/apis/apiregistration.k8s.io`, merged before the generic group routes.
pub fn routes() -> Router<Store> {
    let only = |r: MethodRouter<Store>| {
        r.fallback(|method: Method| async move { ApiError::method_not_allowed(method.as_str()) })
    };
    Router::new()
        .route("/apis/apiregistration.k8s.io", only(get(group)))
        .route("/apis/apiregistration.k8s.io/", only(get(group)))
        .route("/apis/apiregistration.k8s.io/v1", only(get(resources)))
        .route("/apis/apiregistration.k8s.io/v1/", only(get(resources)))
        .route(
            "/apis/apiregistration.k8s.io/v1/apiservices",
            only(get(list)),
        )
        .route(
            "/apis/apiregistration.k8s.io/v1/apiservices/{name}",
            only(get(get_one)),
        )
}

/// The group's entry in `/apis` (`APIGroupList.groups[]`), without `kind`.
#[must_use]
pub fn group_json() -> Value {
    let v = json!({"groupVersion": format!("{GROUP}/v1"), "version": "v1"});
    json!({"name": GROUP, "versions": [v.clone()], "preferredVersion": v})
}

async fn group() -> Response {
    let mut body = group_json();
    body["kind"] = json!("APIGroup");
    body["apiVersion"] = json!("v1");
    json_response(StatusCode::OK, &body)
}

/// The `resources` of `apiregistration.k8s.io/v1` as kube-apiserver lists them.
#[must_use]
pub fn resource_entries() -> Vec<Value> {
    vec![
        json!({"name": "apiservices", "singularName": "apiservice", "namespaced": false,
               "kind": "APIService", "categories": ["api-extensions"],
               "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]}),
        json!({"name": "apiservices/status", "singularName": "", "namespaced": false,
               "kind": "APIService", "verbs": ["get", "patch", "update"]}),
    ]
}

async fn resources() -> Response {
    json_response(
        StatusCode::OK,
        &json!({"kind": "APIResourceList", "apiVersion": "v1",
                "groupVersion": format!("{GROUP}/v1"), "resources": resource_entries()}),
    )
}

/// The APIService objects of this simulator, in name order (as etcd lists them). Their
/// `creationTimestamp` is the `kube-system` namespace's (the cluster's start).
#[must_use]
pub fn all(store: &Store) -> Vec<Value> {
    let created = store
        .object(Resource::Namespaces, "", "kube-system")
        .map(|o| o.to_json()["metadata"]["creationTimestamp"].clone())
        .unwrap_or(Value::Null);
    let condition = |reason: &str, message: &str| {
        json!([{"type": "Available", "status": "True", "lastTransitionTime": created,
                "reason": reason, "message": message}])
    };
    let mut out: Vec<Value> = LOCAL
        .iter()
        .map(|(group, version, gp, vp)| {
            json!({
                "kind": "APIService", "apiVersion": format!("{GROUP}/v1"),
                "metadata": {"name": format!("{version}.{group}"), "creationTimestamp": created,
                             "labels": {"kube-aggregator.kubernetes.io/automanaged": "onstart"}},
                "spec": {"group": group, "version": version, "groupPriorityMinimum": gp,
                         "versionPriority": vp},
                "status": {"conditions": condition("Local", "Local APIServices are always available")},
            })
        })
        .collect();
    if store.metrics_config().enabled {
        out.push(json!({
            "kind": "APIService", "apiVersion": format!("{GROUP}/v1"),
            "metadata": {"name": "v1beta1.metrics.k8s.io", "creationTimestamp": created,
                         "labels": {"k8s-app": "metrics-server"}},
            "spec": {"group": "metrics.k8s.io", "version": "v1beta1",
                     "groupPriorityMinimum": 100, "versionPriority": 100,
                     "insecureSkipTLSVerify": true,
                     "service": {"namespace": "kube-system", "name": "metrics-server", "port": 443}},
            "status": {"conditions": condition("Passed", "all checks passed")},
        }));
    }
    out.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    out
}

/// kubectl's columns for APIServices (kube-aggregator's printer): `Name`, `Service` (`Local`
/// or `namespace/name`), `Available` (the condition's status, `False (reason)` when not
/// `True`), `Age`.
fn as_table(items: &[Value], store: &Store) -> Value {
    let now = store.now();
    let rows: Vec<Value> = items
        .iter()
        .map(|a| {
            let service = match a["spec"]["service"].as_object() {
                Some(s) => format!(
                    "{}/{}",
                    s["namespace"].as_str().unwrap_or(""),
                    s["name"].as_str().unwrap_or("")
                ),
                None => "Local".to_string(),
            };
            let cond = &a["status"]["conditions"][0];
            let status = cond["status"].as_str().unwrap_or("Unknown");
            let available = if status == "True" {
                status.to_string()
            } else {
                format!("{status} ({})", cond["reason"].as_str().unwrap_or(""))
            };
            let created = a["metadata"]["creationTimestamp"]
                .as_str()
                .and_then(|t| t.parse().ok());
            json!({
                "cells": [a["metadata"]["name"], service, available,
                          podscope_model::printer::age(created, now)],
                "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                           "metadata": a["metadata"]},
            })
        })
        .collect();
    let column = |name: &str, format: &str, description: &str| {
        json!({"name": name, "type": "string", "format": format, "description": description,
               "priority": 0})
    };
    json!({
        "kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {},
        "columnDefinitions": [
            column("Name", "name", "Name must be unique within a namespace."),
            column("Service", "", "The reference to the service that hosts this API endpoint."),
            column("Available", "", "Whether this service is available."),
            column("Age", "", "CreationTimestamp is a timestamp representing the server time when this object was created."),
        ],
        "rows": rows,
    })
}

async fn list(State(store): State<Store>, RawQuery(q): RawQuery, h: HeaderMap) -> Response {
    let q = Query::parse(q.as_deref());
    match q.flag("watch") {
        Ok(false) => {}
        Ok(true) => return ApiError::method_not_allowed("WATCH").into_response(),
        Err(e) => return e.into_response(),
    }
    let items = all(&store);
    let body = if table::wants_table(&h) {
        as_table(&items, &store)
    } else {
        json!({"kind": "APIServiceList", "apiVersion": format!("{GROUP}/v1"),
               "metadata": {"resourceVersion": store.resource_version().to_string()},
               "items": items})
    };
    json_response(StatusCode::OK, &body)
}

async fn get_one(State(store): State<Store>, Path(name): Path<String>, h: HeaderMap) -> Response {
    let Some(item) = all(&store)
        .into_iter()
        .find(|a| a["metadata"]["name"] == name.as_str())
    else {
        return ApiError::not_found("apiservices.apiregistration.k8s.io", &name).into_response();
    };
    let body = if table::wants_table(&h) {
        as_table(std::slice::from_ref(&item), &store)
    } else {
        item
    };
    json_response(StatusCode::OK, &body)
}
