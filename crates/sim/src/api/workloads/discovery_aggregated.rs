//! Aggregated discovery (`docs/workloads-api.md` §1): `GET /api` and `GET /apis` with
//! `Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList` (kubectl
//! 1.30+; 1.27–1.29 ask for `v=v2beta1`) answer one `APIGroupDiscoveryList` holding every
//! group-version with its resources, so the client needs no request per group-version
//! (`staging/src/k8s.io/api/apidiscovery/v2/types.go`). Built from the same entries as the
//! legacy documents: each resource with `responseKind`, `scope` (`Namespaced`/`Cluster`),
//! `singularResource`, `verbs`, `shortNames`, `categories` and its `subresources`; each
//! version `freshness: Current`. The response's `Content-Type` names the form served, which
//! is how the client knows it need not fall back.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// The aggregated-discovery version the request's `Accept` asks for (`v2` preferred over
/// `v2beta1`), `None` for the legacy form.
#[must_use]
pub fn wanted(h: &HeaderMap) -> Option<&'static str> {
    let accept: Vec<&str> = h
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    let asks = |v: &str| {
        accept.iter().any(|a| {
            let params: Vec<&str> = a.split(';').map(str::trim).collect();
            params.contains(&"g=apidiscovery.k8s.io")
                && params.contains(&format!("v={v}").as_str())
                && params.contains(&"as=APIGroupDiscoveryList")
        })
    };
    ["v2", "v2beta1"].into_iter().find(|v| asks(v))
}

/// One `APIVersionDiscovery` of `group`/`version` from its legacy `APIResource` entries
/// (subresources are the entries named `resource/sub`).
#[must_use]
pub fn version_entry(group: &str, version: &str, entries: &[Value]) -> Value {
    let kind_of = |e: &Value| {
        json!({
            "group": e.get("group").and_then(Value::as_str).unwrap_or(group),
            "version": e.get("version").and_then(Value::as_str).unwrap_or(version),
            "kind": e["kind"],
        })
    };
    let mut resources: Vec<Value> = Vec::new();
    for e in entries {
        let name = e["name"].as_str().unwrap_or("");
        if let Some((parent, sub)) = name.split_once('/') {
            if let Some(r) = resources.iter_mut().find(|r| r["resource"] == parent) {
                let s =
                    json!({"subresource": sub, "responseKind": kind_of(e), "verbs": e["verbs"]});
                match r["subresources"].as_array_mut() {
                    Some(list) => list.push(s),
                    None => r["subresources"] = json!([s]),
                }
            }
            continue;
        }
        let scope = if e["namespaced"].as_bool() == Some(true) {
            "Namespaced"
        } else {
            "Cluster"
        };
        let mut r = json!({
            "resource": name, "responseKind": kind_of(e), "scope": scope,
            "singularResource": e["singularName"], "verbs": e["verbs"],
        });
        for key in ["shortNames", "categories"] {
            if let Some(v) = e.get(key) {
                r[key] = v.clone();
            }
        }
        resources.push(r);
    }
    json!({"version": version, "resources": resources, "freshness": "Current"})
}

/// The `APIGroupDiscoveryList` response of `groups` (name, versions) in aggregated-discovery
/// version `v`.
#[must_use]
pub fn response(v: &str, groups: Vec<(String, Vec<Value>)>) -> Response {
    let items: Vec<Value> = groups
        .into_iter()
        .map(|(name, versions)| {
            let metadata = if name.is_empty() {
                json!({"creationTimestamp": null})
            } else {
                json!({"name": name, "creationTimestamp": null})
            };
            json!({"metadata": metadata, "versions": versions})
        })
        .collect();
    let body = json!({
        "kind": "APIGroupDiscoveryList", "apiVersion": format!("apidiscovery.k8s.io/{v}"),
        "metadata": {}, "items": items,
    });
    let content_type =
        format!("application/json;g=apidiscovery.k8s.io;v={v};as=APIGroupDiscoveryList");
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type),
            (header::VARY, "Accept".to_string()),
        ],
        body.to_string(),
    )
        .into_response()
}
