//! `pods/{name}/ephemeralcontainers`: GET (the Pod), PATCH and PUT that add entries to
//! `spec.ephemeralContainers` (what `kubectl debug` and kube-rs' `patch_ephemeral_containers`
//! send).
//!
//! PATCH content types: `application/strategic-merge-patch+json` and
//! `application/merge-patch+json` (`spec.ephemeralContainers` entries merged by `name`, the
//! list's patch strategy) and `application/json-patch+json` (`add`/`replace` on paths below
//! `/spec/ephemeralContainers`). Existing ephemeral containers cannot be changed or removed
//! (422, as the apiserver's validation). Other spec/metadata changes in the patch are ignored.
//!
//! Starting the container is the kubelet's: the accepted change is handed to the kubelet
//! driver (`Intent::Update`), which runs the new entries as any container
//! (`crate::kubelet`, `docs/simulator-kubelet.md` §2) and writes their
//! `ephemeralContainerStatuses` and events.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use k8s_openapi::api::core::v1::{EphemeralContainer, Pod};
use serde_json::Value;

use super::find_pod;
use crate::api::status::{ApiError, json_response};
use crate::api::store::{Intent, Store};

fn pod_json(pod: &Pod) -> Response {
    let mut v = serde_json::to_value(pod).unwrap_or(Value::Null);
    v["kind"] = "Pod".into();
    v["apiVersion"] = "v1".into();
    json_response(StatusCode::OK, &v)
}

/// `GET`: the pod.
pub(crate) async fn get(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
) -> Response {
    match find_pod(&store, &ns, &name) {
        Ok(p) => pod_json(&p),
        Err(e) => e.into_response(),
    }
}

fn invalid(name: &str, msg: String) -> ApiError {
    ApiError {
        code: 422,
        reason: "Invalid",
        message: format!("Pod \"{name}\" is invalid: {msg}"),
    }
}

/// `PATCH`: see the module docs.
pub(crate) async fn patch(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let ctype = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    respond(apply(&store, &ns, &name, |current| {
        let patch: Value = serde_json::from_slice(&body)
            .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))?;
        if ctype.starts_with("application/json-patch+json") {
            json_patch(current, &patch)
        } else if ctype.starts_with("application/strategic-merge-patch+json")
            || ctype.starts_with("application/merge-patch+json")
            || ctype.starts_with("application/apply-patch")
        {
            let mut list = current.to_vec();
            for c in patch["spec"]["ephemeralContainers"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let c: EphemeralContainer = serde_json::from_value(c.clone())
                    .map_err(|e| ApiError::bad_request(e.to_string()))?;
                match list.iter_mut().find(|e| e.name == c.name) {
                    Some(_) => {}
                    None => list.push(c),
                }
            }
            Ok(list)
        } else {
            Err(ApiError {
                code: 415,
                reason: "UnsupportedMediaType",
                message: format!(
                    "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got {ctype:?})"
                ),
            })
        }
    }))
}

/// `PUT`: the body's `spec.ephemeralContainers` replace the list (additions only).
pub(crate) async fn put(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    respond(apply(&store, &ns, &name, |_| {
        let pod: Pod = serde_json::from_slice(&body)
            .map_err(|e| ApiError::bad_request(format!("error decoding body: {e}")))?;
        Ok(pod
            .spec
            .and_then(|s| s.ephemeral_containers)
            .unwrap_or_default())
    }))
}

fn respond(r: Result<Pod, ApiError>) -> Response {
    match r {
        Ok(p) => pod_json(&p),
        Err(e) => e.into_response(),
    }
}

/// `add`/`replace` operations whose path starts with `/spec/ephemeralContainers`.
fn json_patch(
    current: &[EphemeralContainer],
    patch: &Value,
) -> Result<Vec<EphemeralContainer>, ApiError> {
    let mut list = serde_json::to_value(current).unwrap_or(Value::Array(Vec::new()));
    for op in patch.as_array().into_iter().flatten() {
        let path = op["path"].as_str().unwrap_or("");
        let Some(rest) = path.strip_prefix("/spec/ephemeralContainers") else {
            continue;
        };
        let value = op["value"].clone();
        let arr = list
            .as_array_mut()
            .ok_or_else(|| ApiError::bad_request("bad list"))?;
        match (op["op"].as_str(), rest) {
            (Some("add" | "replace"), "") => list = value,
            (Some("add"), "/-") => arr.push(value),
            (Some("add"), idx) => {
                let i: usize = idx
                    .trim_start_matches('/')
                    .parse()
                    .map_err(|_| ApiError::bad_request(format!("invalid path {path:?}")))?;
                if i > arr.len() {
                    return Err(ApiError::bad_request(format!(
                        "add operation does not apply: doc is missing path: {path:?}"
                    )));
                }
                arr.insert(i, value);
            }
            (op, _) => {
                return Err(ApiError::bad_request(format!(
                    "unsupported json patch operation {op:?} on {path:?}"
                )));
            }
        }
    }
    serde_json::from_value(list).map_err(|e| ApiError::bad_request(e.to_string()))
}

/// Validates and stores the new list, then hands new entries to the kubelet.
fn apply(
    store: &Store,
    ns: &str,
    name: &str,
    f: impl FnOnce(&[EphemeralContainer]) -> Result<Vec<EphemeralContainer>, ApiError>,
) -> Result<Pod, ApiError> {
    let pod = find_pod(store, ns, name)?;
    let spec = pod.spec.clone().unwrap_or_default();
    let current = spec.ephemeral_containers.clone().unwrap_or_default();
    let next = f(&current)?;
    for (i, old) in current.iter().enumerate() {
        if next.get(i) != Some(old) {
            return Err(invalid(
                name,
                format!(
                    "spec.ephemeralContainers: Forbidden: existing ephemeral containers \"{}\" may not be changed",
                    old.name
                ),
            ));
        }
    }
    let mut names: Vec<&str> = spec
        .init_containers
        .iter()
        .flatten()
        .chain(spec.containers.iter())
        .map(|c| c.name.as_str())
        .collect();
    for (i, c) in next.iter().enumerate().skip(current.len()) {
        if c.name.is_empty() {
            return Err(invalid(
                name,
                format!("spec.ephemeralContainers[{i}].name: Required value"),
            ));
        }
        if names.contains(&c.name.as_str()) {
            return Err(invalid(
                name,
                format!(
                    "spec.ephemeralContainers[{i}].name: Duplicate value: {:?}",
                    c.name
                ),
            ));
        }
        if c.image.as_deref().unwrap_or("").is_empty() {
            return Err(invalid(
                name,
                format!("spec.ephemeralContainers[{i}].image: Required value"),
            ));
        }
        if let Some(t) = &c.target_container_name
            && !names.contains(&t.as_str())
        {
            return Err(invalid(
                name,
                format!("spec.ephemeralContainers[{i}].targetContainerName: Not found: {t:?}"),
            ));
        }
        names.push(&c.name);
    }
    let added = next.len() > current.len();
    let updated = store.update_pod(ns, name, |p| {
        if let Some(s) = p.spec.as_mut() {
            s.ephemeral_containers = Some(next.clone());
        }
    })?;
    if added {
        store.submit(Intent::Update {
            namespace: ns.to_string(),
            name: name.to_string(),
        });
    }
    Ok(updated)
}
