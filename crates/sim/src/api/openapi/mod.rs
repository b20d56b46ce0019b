//! `/openapi/v3` (and `/openapi/v2`): the OpenAPI v3 discovery index and the `api/v1`,
//! `apis/apps/v1`, `apis/batch/v1`, `apis/discovery.k8s.io/v1`, `apis/coordination.k8s.io/v1`
//! and `apis/events.k8s.io/v1` documents, enough for kubectl to validate Pod, workload and
//! core-object manifests (`kubectl create -f`, `kubectl apply -f` without `--validate=false`) and
//! for `kubectl explain pod.spec.containers`.
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
//! reference; `apps-v1-schemas.json`: Deployment, ReplicaSet, StatefulSet, DaemonSet, their
//! lists and autoscaling/v1 Scale; `batch-v1-schemas.json`: Job, CronJob and their lists; each
//! with upstream descriptions and the core types it references; `core-v1-objects-schemas.json`,
//! `discovery-v1-schemas.json`, `coordination-v1-schemas.json`, `events-v1-schemas.json`: the
//! core objects of [`core_kinds`]) are generated from
//! k8s-openapi's `schemars` implementations by `assets/openapi/generate`; at load
//! [`patch_meta`] adds the list/patch extensions kube-apiserver has (kubectl apply's strategic
//! merge patch depends on them); the paths are written here (pods) and in [`workloads`] after
//! the shape of kube-apiserver's documents.

use std::sync::OnceLock;

use axum::Router;
use axum::extract::RawQuery;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::status::ApiError;

mod core_kinds;
mod patch_meta;
pub mod v2;
mod workloads;

/// One served OpenAPI v3 document (an entry of the `/openapi/v3` index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Doc {
    /// `api/v1` (pods).
    Core,
    /// `apis/apps/v1`.
    Apps,
    /// `apis/batch/v1`.
    Batch,
    /// `apis/discovery.k8s.io/v1`.
    Discovery,
    /// `apis/coordination.k8s.io/v1`.
    Coordination,
    /// `apis/events.k8s.io/v1`.
    Events,
}

impl Doc {
    const ALL: [Doc; 6] = [
        Doc::Core,
        Doc::Apps,
        Doc::Batch,
        Doc::Discovery,
        Doc::Coordination,
        Doc::Events,
    ];

    /// The index key (`api/v1`, `apis/apps/v1`, `apis/batch/v1`, `apis/discovery.k8s.io/v1`…).
    fn path(self) -> &'static str {
        match self {
            Doc::Core => "api/v1",
            Doc::Apps => "apis/apps/v1",
            Doc::Batch => "apis/batch/v1",
            Doc::Discovery => "apis/discovery.k8s.io/v1",
            Doc::Coordination => "apis/coordination.k8s.io/v1",
            Doc::Events => "apis/events.k8s.io/v1",
        }
    }

    /// The group of an `apis/{group}/v1` document (`""` for `api/v1`).
    fn group(self) -> &'static str {
        self.path()
            .strip_prefix("apis/")
            .and_then(|p| p.strip_suffix("/v1"))
            .unwrap_or("")
    }

    /// The generated `components.schemas` texts (see the module docs), merged in order.
    fn texts(self) -> &'static [&'static str] {
        match self {
            Doc::Core => &[
                include_str!("../../../../../assets/openapi/core-v1-pod-schemas.json"),
                include_str!("../../../../../assets/openapi/core-v1-objects-schemas.json"),
            ],
            Doc::Apps => &[include_str!(
                "../../../../../assets/openapi/apps-v1-schemas.json"
            )],
            Doc::Batch => &[include_str!(
                "../../../../../assets/openapi/batch-v1-schemas.json"
            )],
            Doc::Discovery => &[include_str!(
                "../../../../../assets/openapi/discovery-v1-schemas.json"
            )],
            Doc::Coordination => &[include_str!(
                "../../../../../assets/openapi/coordination-v1-schemas.json"
            )],
            Doc::Events => &[include_str!(
                "../../../../../assets/openapi/events-v1-schemas.json"
            )],
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The routes `/openapi/v3`, `/openapi/v3/api/v1`, `/openapi/v3/apis/{group}/v1` and
/// `/openapi/v2`; merge into the main router.
pub fn router() -> Router {
    Router::new()
        .route("/openapi/v3", get(index))
        .route("/openapi/v3/api/v1", get(api_v1))
        .route("/openapi/v3/apis/{group}/{version}", get(api_group))
        .route("/openapi/v2", get(v2::serve))
}

/// One document's `components.schemas`: the generated schemas with the list/patch extensions
/// of [`patch_meta`] (an empty object if the embedded file were invalid JSON).
fn doc_schemas(doc: Doc) -> &'static Value {
    static DOCS: [OnceLock<Value>; 6] = [const { OnceLock::new() }; 6];
    DOCS[doc.index()].get_or_init(|| {
        let mut merged = serde_json::Map::new();
        for text in doc.texts() {
            let part: Value = serde_json::from_str(text).unwrap_or_else(|e| {
                tracing::error!(
                    "embedded OpenAPI schemas of {} are invalid: {e}",
                    doc.path()
                );
                json!({})
            });
            if let Value::Object(m) = part {
                for (k, v) in m {
                    merged.entry(k).or_insert(v);
                }
            }
        }
        let mut schemas = Value::Object(merged);
        patch_meta::annotate(&mut schemas);
        schemas
    })
}

/// Every served schema (the union of the documents' `components.schemas`; the core types
/// they share are the same): what strategic merge patches and `/openapi/v2` read.
pub(crate) fn schemas() -> &'static Value {
    static ALL: OnceLock<Value> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = serde_json::Map::new();
        for doc in Doc::ALL {
            if let Some(m) = doc_schemas(doc).as_object() {
                for (k, v) in m {
                    all.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        Value::Object(all)
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

/// A document (JSON text) and its hash (16 uppercase hex digits, FNV-1a 64).
fn document(which: Doc) -> &'static (String, String) {
    static DOCS: [OnceLock<(String, String)>; 6] = [const { OnceLock::new() }; 6];
    DOCS[which.index()].get_or_init(|| {
        let paths = match which {
            Doc::Core => {
                let mut p = paths();
                if let Value::Object(m) = &mut p {
                    m.extend(core_kinds::paths(&core_kinds::kinds("")));
                }
                p
            }
            Doc::Apps => workloads::paths("apps"),
            Doc::Batch => workloads::paths("batch"),
            other => Value::Object(core_kinds::paths(&core_kinds::kinds(other.group()))),
        };
        let doc = json!({
            "openapi": "3.0.0",
            "info": {"title": "Kubernetes", "version": crate::KUBERNETES_VERSION},
            "paths": paths,
            "components": {"schemas": doc_schemas(which)},
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
    let mut paths = serde_json::Map::new();
    for doc in Doc::ALL {
        let (_, hash) = document(doc);
        let url = format!("/openapi/v3/{}?hash={hash}", doc.path());
        paths.insert(doc.path().into(), json!({"serverRelativeURL": url}));
    }
    super::status::json_response(StatusCode::OK, &json!({"paths": paths}))
}

async fn api_v1(RawQuery(q): RawQuery) -> Response {
    serve_doc(Doc::Core, q.as_deref())
}

/// `/openapi/v3/apis/{group}/v1` of a served document; other groups are a 404.
async fn api_group(
    axum::extract::Path((group, version)): axum::extract::Path<(String, String)>,
    RawQuery(q): RawQuery,
) -> Response {
    match Doc::ALL
        .into_iter()
        .find(|d| d.group() == group && !group.is_empty() && version == "v1")
    {
        Some(doc) => serve_doc(doc, q.as_deref()),
        None => ApiError::no_route().into_response(),
    }
}

/// The document; with a matching `hash` it is immutable (as kube-apiserver marks it).
fn serve_doc(which: Doc, q: Option<&str>) -> Response {
    let (text, hash) = document(which);
    let q = super::query::Query::parse(q);
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

pub(super) fn schema_ref(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

pub(super) fn query_param(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "query", "description": description, "schema": {"type": "string", "uniqueItems": true}})
}

pub(super) fn path_param(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "path", "description": description, "required": true, "schema": {"type": "string", "uniqueItems": true}})
}

fn pod_gvk() -> Value {
    json!({"group": "", "version": "v1", "kind": "Pod"})
}

pub(super) fn ok(schema: &str, codes: &[&str]) -> Value {
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
    op_for("core_v1", pod_gvk(), id, action, params, body, resp)
}

/// [`op`] with its tag (`apps_v1`) and `x-kubernetes-group-version-kind`.
pub(super) fn op_for(
    tag: &str,
    gvk: Value,
    id: &str,
    action: &str,
    params: Vec<Value>,
    body: Option<Value>,
    resp: Value,
) -> Value {
    let mut o = json!({
        "tags": [tag], "operationId": id, "parameters": params, "responses": resp,
        "x-kubernetes-action": action, "x-kubernetes-group-version-kind": gvk,
    });
    if let Some(b) = body {
        o["requestBody"] = b;
    }
    o
}

pub(super) fn write_params() -> Vec<Value> {
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

/// The request body of a PATCH: the four patch media types.
pub(super) fn patch_body() -> Value {
    json!({"content": {
        "application/json-patch+json": {"schema": {"type": "object"}},
        "application/merge-patch+json": {"schema": {"type": "object"}},
        "application/strategic-merge-patch+json": {"schema": {"type": "object"}},
        "application/apply-patch+yaml": {"schema": {"type": "object"}},
    }, "required": true})
}

/// The query parameters of a PATCH: [`write_params`] and `force`.
pub(super) fn patch_params() -> Vec<Value> {
    let mut params = write_params();
    params.push(query_param(
        "force",
        "Force is going to \"force\" Apply requests.",
    ));
    params
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
    let patch_body = patch_body();
    let patch_params = patch_params();
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
mod tests;
