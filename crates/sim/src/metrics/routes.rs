//! The HTTP face of `metrics.k8s.io/v1beta1` (`docs/metrics.md` §1–2): the group and version
//! discovery documents, GET and LIST of `PodMetrics` (namespaced) and `NodeMetrics`
//! (cluster-scoped), label and field selectors, and Tables where the client asks
//! (`Accept: …;as=Table;…`, metrics-server's `pkg/api/table.go` columns `Name`, `cpu`,
//! `memory`, `Window`). With metrics off every path here is the API server's catch-all 404.

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use k8s_openapi::api::core::v1::{Node, Pod};
use serde_json::{Value, json};

use super::sample::{self, API_VERSION, Metrics, Sample};
use super::{GROUP, VERSION};
use crate::api::object::{Object, Resource};
use crate::api::query::Query;
use crate::api::select::Selector;
use crate::api::status::{ApiError, json_response};
use crate::api::store::Store;
use crate::api::table;

/// The routes under `/apis/metrics.k8s.io`; merged into the API router before the generic
/// `/apis/{group}/…` routes, which they take precedence over.
pub fn routes() -> Router<Store> {
    Router::new()
        .route("/apis/metrics.k8s.io", only(get(group)))
        .route("/apis/metrics.k8s.io/", only(get(group)))
        .route("/apis/metrics.k8s.io/v1beta1", only(get(resources)))
        .route("/apis/metrics.k8s.io/v1beta1/", only(get(resources)))
        .route(
            "/apis/metrics.k8s.io/v1beta1/pods",
            only(get(list_all_pods)),
        )
        .route(
            "/apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods",
            only(get(list_pods)),
        )
        .route(
            "/apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods/{name}",
            only(get(get_pod)),
        )
        .route("/apis/metrics.k8s.io/v1beta1/nodes", only(get(list_nodes)))
        .route(
            "/apis/metrics.k8s.io/v1beta1/nodes/{name}",
            only(get(get_node)),
        )
}

fn only(r: MethodRouter<Store>) -> MethodRouter<Store> {
    r.fallback(|method: Method| async move { ApiError::method_not_allowed(method.as_str()) })
}

fn respond(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

/// The sample a request at the store's now reads. Errors: the catch-all 404 with metrics off.
fn sample_of(store: &Store) -> Result<Sample, ApiError> {
    let cfg = store.metrics_config();
    if !cfg.enabled {
        return Err(ApiError::no_route());
    }
    Ok(Sample::at(store.now(), cfg.resolution))
}

/// The group's entry in `/apis` (`APIGroupList.groups[]`) and its `APIGroup` document.
#[must_use]
pub fn group_json() -> Value {
    let v = json!({"groupVersion": API_VERSION, "version": VERSION});
    json!({"name": GROUP, "versions": [v.clone()], "preferredVersion": v})
}

/// `GET /apis/metrics.k8s.io`: the `APIGroup`.
async fn group(State(store): State<Store>) -> Response {
    respond(sample_of(&store).map(|_| {
        let mut body = group_json();
        body["kind"] = json!("APIGroup");
        body["apiVersion"] = json!("v1");
        json_response(StatusCode::OK, &body)
    }))
}

/// `GET /apis/metrics.k8s.io/v1beta1`: `nodes` (NodeMetrics, cluster-scoped) and `pods`
/// (PodMetrics, namespaced), verbs `get` and `list`, as metrics-server registers them.
async fn resources(State(store): State<Store>) -> Response {
    respond(sample_of(&store).map(|_| {
        json_response(
            StatusCode::OK,
            &json!({
                "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": API_VERSION,
                "resources": resource_entries(),
            }),
        )
    }))
}

/// The `APIResource` entries of `metrics.k8s.io/v1beta1` (see [`resources`]).
#[must_use]
pub fn resource_entries() -> Vec<Value> {
    let entry = |name: &str, namespaced: bool, kind: &str| {
        json!({"name": name, "singularName": "", "namespaced": namespaced, "kind": kind,
               "verbs": ["get", "list"]})
    };
    vec![
        entry("nodes", false, "NodeMetrics"),
        entry("pods", true, "PodMetrics"),
    ]
}

async fn list_all_pods(
    State(store): State<Store>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
) -> Response {
    respond(pod_list(&store, None, &Query::parse(q.as_deref()), &h))
}

async fn list_pods(
    State(store): State<Store>,
    Path(ns): Path<String>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
) -> Response {
    respond(pod_list(&store, Some(&ns), &Query::parse(q.as_deref()), &h))
}

/// LIST of PodMetrics: the selected pods with a sample, by namespace then name.
fn pod_list(
    store: &Store,
    ns: Option<&str>,
    q: &Query,
    h: &HeaderMap,
) -> Result<Response, ApiError> {
    let sample = sample_of(store)?;
    refuse_watch(q)?;
    let sel = selector(q)?;
    let now = store.now();
    let items: Vec<Metrics> = store
        .list(Resource::Pods, ns)
        .0
        .into_iter()
        .filter(|o| sel.matches(o))
        .filter_map(|o| pod_of(&o).and_then(|p| sample::pod_metrics(p, &sample, now)))
        .collect();
    Ok(list_response("PodMetricsList", &items, h))
}

async fn get_pod(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    h: HeaderMap,
) -> Response {
    respond((|| {
        let sample = sample_of(&store)?;
        let obj = store
            .object(Resource::Pods, &ns, &name)
            .ok_or_else(|| ApiError::not_found("pods", &name))?;
        let m = pod_of(&obj)
            .and_then(|p| sample::pod_metrics(p, &sample, store.now()))
            .ok_or_else(|| {
                ApiError::not_found("podmetrics.metrics.k8s.io", &format!("{ns}/{name}"))
            })?;
        Ok(one_response(m, &h))
    })())
}

async fn list_nodes(State(store): State<Store>, RawQuery(q): RawQuery, h: HeaderMap) -> Response {
    respond((|| {
        let sample = sample_of(&store)?;
        let q = Query::parse(q.as_deref());
        refuse_watch(&q)?;
        let sel = selector(&q)?;
        let pods = store.list(Resource::Pods, None).0;
        let pods: Vec<&Pod> = pods.iter().filter_map(pod_of).collect();
        let now = store.now();
        let items: Vec<Metrics> = store
            .list(Resource::Nodes, None)
            .0
            .into_iter()
            .filter(|o| sel.matches(o))
            .filter_map(|o| node_of(&o).map(|n| sample::node_metrics(n, &pods, &sample, now)))
            .collect();
        Ok(list_response("NodeMetricsList", &items, &h))
    })())
}

async fn get_node(State(store): State<Store>, Path(name): Path<String>, h: HeaderMap) -> Response {
    respond((|| {
        let sample = sample_of(&store)?;
        let obj = store
            .object(Resource::Nodes, "", &name)
            .ok_or_else(|| ApiError::not_found("nodes", &name))?;
        let pods = store.list(Resource::Pods, None).0;
        let pods: Vec<&Pod> = pods.iter().filter_map(pod_of).collect();
        let m = node_of(&obj)
            .map(|n| sample::node_metrics(n, &pods, &sample, store.now()))
            .ok_or_else(|| ApiError::not_found("nodemetrics.metrics.k8s.io", &name))?;
        Ok(one_response(m, &h))
    })())
}

/// `?watch=true`: metrics-server's storage has no watch, so the API server refuses the verb.
/// Errors: 405 MethodNotAllowed (`… (WATCH)`), 400 for a malformed flag.
fn refuse_watch(q: &Query) -> Result<(), ApiError> {
    if q.flag("watch")? {
        return Err(ApiError::method_not_allowed("WATCH"));
    }
    Ok(())
}

/// The request's selectors. Field selectors may name only `metadata.name` and
/// `metadata.namespace`, matched on the object's metadata (metrics-server's metadata-only
/// filter). Errors: 400 `"spec.nodeName" is not a known field selector: only
/// "metadata.name", "metadata.namespace"`, and the selectors' parse errors.
fn selector(q: &Query) -> Result<Selector, ApiError> {
    let sel = Selector::parse(
        Resource::Pods,
        q.get("fieldSelector"),
        q.get("labelSelector"),
    )?;
    if let Some(f) = sel
        .fields
        .iter()
        .find(|f| f.field != "metadata.name" && f.field != "metadata.namespace")
    {
        return Err(ApiError::bad_request(format!(
            "\"{}\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
            f.field
        )));
    }
    Ok(sel)
}

fn pod_of(o: &Object) -> Option<&Pod> {
    match o {
        Object::Pod(p) => Some(p),
        _ => None,
    }
}

fn node_of(o: &Object) -> Option<&Node> {
    match o {
        Object::Node(n) => Some(n),
        _ => None,
    }
}

/// A list body (metrics-server's lists carry an empty `metadata`) or its Table.
fn list_response(kind: &str, items: &[Metrics], h: &HeaderMap) -> Response {
    let body = if table::wants_table(h) {
        metrics_table(items)
    } else {
        let items: Vec<&Value> = items.iter().map(|m| &m.json).collect();
        json!({"kind": kind, "apiVersion": API_VERSION, "metadata": {}, "items": items})
    };
    json_response(StatusCode::OK, &body)
}

fn one_response(m: Metrics, h: &HeaderMap) -> Response {
    let body = if table::wants_table(h) {
        metrics_table(std::slice::from_ref(&m))
    } else {
        m.json
    };
    json_response(StatusCode::OK, &body)
}

/// metrics-server's Table: columns `Name`, `cpu`, `memory` (format `quantity`) and `Window`
/// (format `duration`) — none when there are no rows, as its converter leaves them unset; a
/// pod's cells are the sums over its containers. Each row's `object` is the metrics object's
/// `PartialObjectMetadata`.
fn metrics_table(items: &[Metrics]) -> Value {
    let column = |name: &str, format: &str, description: &str| {
        json!({"name": name, "type": "string", "format": format, "description": description,
               "priority": 0})
    };
    let columns = if items.is_empty() {
        Value::Null
    } else {
        json!([
            column("Name", "name", "Name of the resource"),
            column("cpu", "quantity", ""),
            column("memory", "quantity", ""),
            column("Window", "duration", ""),
        ])
    };
    let rows: Vec<Value> = items
        .iter()
        .map(|m| {
            let usage = sample::usage_json(&m.total);
            json!({
                "cells": [m.json["metadata"]["name"], usage["cpu"], usage["memory"], m.json["window"]],
                "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                           "metadata": m.json["metadata"]},
            })
        })
        .collect();
    json!({
        "kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {},
        "columnDefinitions": columns, "rows": rows,
    })
}
