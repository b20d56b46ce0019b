//! `/openapi/v3` (and `/openapi/v2`): the OpenAPI v3 discovery index and the `api/v1` document, enough for kubectl
//! to validate Pod manifests (`kubectl create -f`, `kubectl apply -f` without
//! `--validate=false`) and for `kubectl explain pod.spec.containers`.
//!
//! How kubectl (1.27+) uses it [cap, kubectl 1.32]: `create`/`apply` first `GET /openapi/v3`,
//! then the `api/v1` document at its `serverRelativeURL`, and look for a PATCH operation tagged
//! with `x-kubernetes-group-version-kind` = the manifest's kind that lists the `fieldValidation`
//! query parameter. Found → validation is left to the server and kubectl sends the object with
//! `?fieldValidation=Strict`; not found → kubectl validates locally against the schemas. Without
//! `/openapi/v3` kubectl falls back to `/openapi/v2`, which it only reads as protobuf.
//! kubectl 1.27 and 1.28 read only `/openapi/v2` for validation: [`v2`] serves the same schemas
//! in that form.
//!
//! The schemas (`assets/openapi/core-v1-pod-schemas.json`: Pod, PodList, Status and all they
//! reference, with upstream descriptions) are generated from k8s-openapi's `schemars`
//! implementations by `assets/openapi/generate`; at load [`patch_meta`] adds the list/patch
//! extensions kube-apiserver has (kubectl apply's strategic merge patch depends on them); the
//! paths below are written here after the shape of kube-apiserver's `api/v1` document.

use std::sync::OnceLock;

use axum::Router;
use axum::extract::RawQuery;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::status::ApiError;

mod patch_meta;
pub mod v2;

/// The generated `components.schemas` (see the module docs).
const SCHEMAS: &str = include_str!("../../../../assets/openapi/core-v1-pod-schemas.json");

/// The routes `/openapi/v3`, `/openapi/v3/api/v1` and `/openapi/v2`; merge into the main router.
pub fn router() -> Router {
    Router::new()
        .route("/openapi/v3", get(index))
        .route("/openapi/v3/api/v1", get(api_v1))
        .route("/openapi/v2", get(v2::serve))
}

/// The served `components.schemas`: the generated schemas with the list/patch extensions of
/// [`patch_meta`] (an empty object if the embedded file were invalid JSON).
pub(crate) fn schemas() -> &'static Value {
    static SCHEMAS_DOC: OnceLock<Value> = OnceLock::new();
    SCHEMAS_DOC.get_or_init(|| {
        let mut schemas: Value = serde_json::from_str(SCHEMAS).unwrap_or_else(|e| {
            tracing::error!("embedded OpenAPI schemas are invalid: {e}");
            json!({})
        });
        patch_meta::annotate(&mut schemas);
        schemas
    })
}

/// The schema of a property: `schema.properties[name]` as written (with its extensions).
pub(crate) fn property<'a>(schema: &'a Value, name: &str) -> Option<&'a Value> {
    schema.get("properties")?.get(name)
}

/// Follows `allOf: [{$ref}]`, `$ref` and array `items` to the schema of an object (or of a
/// list's elements); `None` when it does not resolve (free-form values).
pub(crate) fn resolve(schema: &Value) -> Option<&'static Value> {
    let mut s = schema;
    if let Some(items) = s.get("items") {
        s = items;
    }
    if let Some(first) = s.get("allOf").and_then(|a| a.get(0)) {
        s = first;
    }
    let name = s
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/components/schemas/")?;
    schemas().get(name)
}

/// The `api/v1` document (JSON text) and its hash (16 uppercase hex digits, FNV-1a 64).
fn document() -> &'static (String, String) {
    static DOC: OnceLock<(String, String)> = OnceLock::new();
    DOC.get_or_init(|| {
        let doc = json!({
            "openapi": "3.0.0",
            "info": {"title": "Kubernetes", "version": "v1.33.0"},
            "paths": paths(),
            "components": {"schemas": schemas()},
        });
        let text = serde_json::to_string(&doc).unwrap_or_else(|_| "{}".to_string());
        let hash = format!("{:016X}", fnv1a(text.as_bytes()));
        (text, hash)
    })
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

async fn index() -> Response {
    let (_, hash) = document();
    let body = json!({"paths": {"api/v1": {"serverRelativeURL": format!("/openapi/v3/api/v1?hash={hash}")}}});
    super::status::json_response(StatusCode::OK, &body)
}

/// The document; with a matching `hash` it is immutable (as kube-apiserver marks it).
async fn api_v1(RawQuery(q): RawQuery) -> Response {
    let (text, hash) = document();
    let q = super::query::Query::parse(q.as_deref());
    let cache = match q.get("hash") {
        Some(h) if h == hash => "public, immutable",
        Some(_) => return ApiError::no_route().into_response(),
        None => "no-cache, private",
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, cache),
        ],
        text.clone(),
    )
        .into_response()
}

fn schema_ref(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn query_param(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "query", "description": description, "schema": {"type": "string", "uniqueItems": true}})
}

fn path_param(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "path", "description": description, "required": true, "schema": {"type": "string", "uniqueItems": true}})
}

fn pod_gvk() -> Value {
    json!({"group": "", "version": "v1", "kind": "Pod"})
}

fn ok(schema: &str, codes: &[&str]) -> Value {
    let mut r = serde_json::Map::new();
    for c in codes {
        r.insert(
            (*c).to_string(),
            json!({"description": "OK", "content": {"application/json": {"schema": schema_ref(schema)}}}),
        );
    }
    r.insert("401".into(), json!({"description": "Unauthorized"}));
    Value::Object(r)
}

/// One operation: `action` is the `x-kubernetes-action` (`get`, `list`, `post`, `put`, `patch`,
/// `delete`), `body` the request body schema if any.
fn op(id: &str, action: &str, params: Vec<Value>, body: Option<Value>, resp: Value) -> Value {
    let mut o = json!({
        "tags": ["core_v1"], "operationId": id, "parameters": params, "responses": resp,
        "x-kubernetes-action": action, "x-kubernetes-group-version-kind": pod_gvk(),
    });
    if let Some(b) = body {
        o["requestBody"] = b;
    }
    o
}

fn write_params() -> Vec<Value> {
    vec![
        query_param(
            "dryRun",
            "When present, indicates that modifications should not be persisted.",
        ),
        query_param(
            "fieldManager",
            "fieldManager is a name associated with the actor or entity that is making these changes.",
        ),
        query_param(
            "fieldValidation",
            "fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn, Strict.",
        ),
    ]
}

/// The Pod paths of kube-apiserver's `api/v1` document (collection and item), each operation
/// tagged with its kind and action; the write operations list `fieldValidation`.
fn paths() -> Value {
    let ns = path_param(
        "namespace",
        "object name and auth scope, such as for teams and projects",
    );
    let name = path_param("name", "name of the Pod");
    let pretty = query_param("pretty", "If 'true', then the output is pretty printed.");
    let pod_body = json!({"content": {"*/*": {"schema": schema_ref("io.k8s.api.core.v1.Pod")}}, "required": true});
    let patch_body = json!({"content": {
        "application/json-patch+json": {"schema": {"type": "object"}},
        "application/merge-patch+json": {"schema": {"type": "object"}},
        "application/strategic-merge-patch+json": {"schema": {"type": "object"}},
        "application/apply-patch+yaml": {"schema": {"type": "object"}},
    }, "required": true});
    let mut patch_params = write_params();
    patch_params.push(query_param(
        "force",
        "Force is going to \"force\" Apply requests.",
    ));
    json!({
        "/api/v1/namespaces/{namespace}/pods": {
            "parameters": [ns, pretty],
            "get": op("listCoreV1NamespacedPod", "list",
                vec![query_param("fieldSelector", "A selector to restrict the list of returned objects by their fields."),
                     query_param("labelSelector", "A selector to restrict the list of returned objects by their labels."),
                     query_param("watch", "Watch for changes to the described resources.")],
                None, ok("io.k8s.api.core.v1.PodList", &["200"])),
            "post": op("createCoreV1NamespacedPod", "post", write_params(), Some(pod_body.clone()),
                ok("io.k8s.api.core.v1.Pod", &["200", "201", "202"])),
        },
        "/api/v1/namespaces/{namespace}/pods/{name}": {
            "parameters": [name, ns, pretty],
            "get": op("readCoreV1NamespacedPod", "get", vec![], None, ok("io.k8s.api.core.v1.Pod", &["200"])),
            "put": op("replaceCoreV1NamespacedPod", "put", write_params(), Some(pod_body),
                ok("io.k8s.api.core.v1.Pod", &["200", "201"])),
            "patch": op("patchCoreV1NamespacedPod", "patch", patch_params, Some(patch_body),
                ok("io.k8s.api.core.v1.Pod", &["200", "201"])),
            "delete": op("deleteCoreV1NamespacedPod", "delete",
                vec![query_param("gracePeriodSeconds", "The duration in seconds before the object should be deleted.")],
                None, ok("io.k8s.api.core.v1.Pod", &["200", "202"])),
        },
        "/api/v1/pods": {
            "parameters": [pretty_all()],
            "get": op("listCoreV1PodForAllNamespaces", "list", vec![], None, ok("io.k8s.api.core.v1.PodList", &["200"])),
        },
    })
}

fn pretty_all() -> Value {
    query_param("pretty", "If 'true', then the output is pretty printed.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_has_pod_schema_and_a_validating_patch() {
        let (text, hash) = document();
        let doc: Value = serde_json::from_str(text).expect("json");
        let pod = &doc["components"]["schemas"]["io.k8s.api.core.v1.Pod"];
        assert_eq!(pod["x-kubernetes-group-version-kind"][0]["kind"], "Pod");
        let patch = &doc["paths"]["/api/v1/namespaces/{namespace}/pods/{name}"]["patch"];
        assert_eq!(patch["x-kubernetes-group-version-kind"]["kind"], "Pod");
        assert!(
            patch["parameters"]
                .as_array()
                .expect("params")
                .iter()
                .any(|p| p["name"] == "fieldValidation")
        );
        // Every $ref resolves inside the document.
        let refs = regex::Regex::new(r##""\$ref":"#/components/schemas/([^"]+)""##).expect("re");
        for c in refs.captures_iter(text) {
            let name = &c[1];
            assert!(
                doc["components"]["schemas"].get(name).is_some(),
                "dangling $ref {name}"
            );
        }
        assert_eq!(hash.len(), 16);
    }

    #[test]
    fn lists_carry_kube_apiserver_patch_metadata() {
        let (text, _) = document();
        let doc: Value = serde_json::from_str(text).expect("json");
        let schemas = &doc["components"]["schemas"];
        let spec = &schemas["io.k8s.api.core.v1.PodSpec"]["properties"];
        for list in [
            "containers",
            "initContainers",
            "ephemeralContainers",
            "volumes",
        ] {
            assert_eq!(spec[list]["x-kubernetes-patch-merge-key"], "name", "{list}");
            assert_eq!(
                spec[list]["x-kubernetes-list-map-keys"],
                json!(["name"]),
                "{list}"
            );
        }
        assert_eq!(
            spec["volumes"]["x-kubernetes-patch-strategy"],
            "merge,retainKeys"
        );
        assert_eq!(spec["tolerations"]["x-kubernetes-list-type"], "atomic");
        assert!(
            spec["tolerations"]
                .get("x-kubernetes-patch-strategy")
                .is_none()
        );
        let container = &schemas["io.k8s.api.core.v1.Container"]["properties"];
        assert_eq!(
            container["ports"]["x-kubernetes-patch-merge-key"],
            "containerPort"
        );
        assert_eq!(
            container["ports"]["x-kubernetes-list-map-keys"],
            json!(["containerPort", "protocol"])
        );
        assert_eq!(
            container["volumeMounts"]["x-kubernetes-patch-merge-key"],
            "mountPath"
        );
        let status = &schemas["io.k8s.api.core.v1.PodStatus"]["properties"];
        assert_eq!(status["conditions"]["x-kubernetes-patch-merge-key"], "type");
        assert_eq!(
            status["containerStatuses"]["x-kubernetes-list-type"],
            "atomic"
        );
        let meta = &schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]["properties"];
        assert_eq!(
            meta["ownerReferences"]["x-kubernetes-patch-merge-key"],
            "uid"
        );
        assert_eq!(meta["finalizers"]["x-kubernetes-list-type"], "set");
    }
}
