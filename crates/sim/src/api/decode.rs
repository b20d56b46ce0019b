//! Decoding request bodies: the one path of every write (POST, PUT, PATCH and their `/status`
//! forms, and scenario files); bad client input becomes a `metav1.Status` error, never a panic
//! or a bare text body.
//!
//! - [`parse_body`] / [`decode_patch`]: the JSON (or YAML) text of a body or a patch;
//! - [`decode_pod`]: a Pod from that value with kube-apiserver's checks: `kind`/`apiVersion`,
//!   the failing field's path in the 400 message, unknown fields per `?fieldValidation=`
//!   ([`FieldValidation`]); [`decode_object`] the same for any stored resource.
//!
//! The framework's own rejections become Status bodies in [`super::rejection`].

use std::sync::Arc;

use k8s_openapi::api::core::v1::Pod;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::object::{Object, Resource};
use super::status::ApiError;

/// How strictly unknown fields are treated (`?fieldValidation=`; kubectl sends `Strict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValidation {
    /// Unknown or duplicate fields are a 400 `strict decoding error`.
    Strict,
    /// Unknown fields become `Warning` headers.
    Warn,
    /// Unknown fields are dropped silently.
    Ignore,
}

impl FieldValidation {
    /// Parses the query value (absent → `Warn`, the server default). Errors: 400 for others.
    pub fn parse(v: Option<&str>) -> Result<Self, ApiError> {
        match v.unwrap_or("") {
            "" | "Warn" => Ok(Self::Warn),
            "Strict" => Ok(Self::Strict),
            "Ignore" => Ok(Self::Ignore),
            other => Err(ApiError::bad_request(format!(
                "fieldValidation: Unsupported value: \"{other}\": supported values: \"Ignore\", \"Strict\", \"Warn\""
            ))),
        }
    }
}

fn cannot_handle(kind: &str, why: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!(
        "{kind} in version \"v1\" cannot be handled as a {kind}: {why}"
    ))
}

/// Parses a request body (JSON, or YAML when `yaml`) as a JSON value. Errors: 400 BadRequest
/// `couldn't get version/kind; json parse error: <serde message>` (kube-apiserver's wording for
/// bodies it cannot even read the kind of), `yaml: <message>` for YAML.
pub fn parse_body(body: &[u8], yaml: bool) -> Result<Value, ApiError> {
    if yaml {
        serde_yaml_ng::from_slice(body).map_err(|e| ApiError::bad_request(format!("yaml: {e}")))
    } else {
        serde_json::from_slice(body).map_err(|e| {
            ApiError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
        })
    }
}

/// Decodes a JSON (merge, strategic-merge or JSON-patch) patch body. Errors: 400 BadRequest
/// `error decoding patch: <serde message>` for malformed JSON [derived wording].
pub fn decode_patch(body: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))
}

/// Decodes a Pod from a JSON value: `kind` must be absent or `Pod`, `apiVersion` absent or
/// `v1`; unknown fields are reported per `fv` (returned as warning texts for `Warn`).
/// Errors: 400 BadRequest, e.g. `Pod in version "v1" cannot be handled as a Pod:
/// spec.containers: invalid type: string "x", expected a sequence` (the failing field's path),
/// or `…: strict decoding error: unknown field "spec.bogus"`.
pub fn decode_pod(value: Value, fv: FieldValidation) -> Result<(Pod, Vec<String>), ApiError> {
    decode_typed(value, fv, Resource::Pods)
}

/// Decodes an object of `resource` with the checks of [`decode_pod`] (`kind` absent or the
/// resource's, `apiVersion` absent or e.g. `apps/v1`). Errors: 400 BadRequest, e.g.
/// `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error:
/// unknown field "spec.replica"`.
pub fn decode_object(
    resource: Resource,
    value: Value,
    fv: FieldValidation,
) -> Result<(Object, Vec<String>), ApiError> {
    fn wrap<T: DeserializeOwned + Serialize>(
        value: Value,
        fv: FieldValidation,
        resource: Resource,
        make: fn(Arc<T>) -> Object,
    ) -> Result<(Object, Vec<String>), ApiError> {
        decode_typed::<T>(value, fv, resource).map(|(o, w)| (make(Arc::new(o)), w))
    }
    match resource {
        Resource::Pods => wrap(value, fv, resource, Object::Pod),
        Resource::Events => wrap(value, fv, resource, Object::Event),
        Resource::Deployments => wrap(value, fv, resource, Object::Deployment),
        Resource::ReplicaSets => wrap(value, fv, resource, Object::ReplicaSet),
        Resource::StatefulSets => wrap(value, fv, resource, Object::StatefulSet),
        Resource::DaemonSets => wrap(value, fv, resource, Object::DaemonSet),
        Resource::Jobs => wrap(value, fv, resource, Object::Job),
        Resource::CronJobs => wrap(value, fv, resource, Object::CronJob),
        Resource::Namespaces => wrap(value, fv, resource, Object::Namespace),
        Resource::Nodes => wrap(value, fv, resource, Object::Node),
        Resource::ConfigMaps => wrap(value, fv, resource, Object::ConfigMap),
        Resource::Secrets => wrap(value, fv, resource, Object::Secret),
        Resource::Services => wrap(value, fv, resource, Object::Service),
        Resource::Endpoints => wrap(value, fv, resource, Object::Endpoints),
        Resource::EndpointSlices => wrap(value, fv, resource, Object::EndpointSlice),
        Resource::ServiceAccounts => wrap(value, fv, resource, Object::ServiceAccount),
        Resource::PersistentVolumeClaims => {
            wrap(value, fv, resource, Object::PersistentVolumeClaim)
        }
        Resource::PersistentVolumes => wrap(value, fv, resource, Object::PersistentVolume),
        Resource::Leases => wrap(value, fv, resource, Object::Lease),
    }
}

/// The one decoding path of [`decode_pod`] and [`decode_object`].
pub(crate) fn decode_typed<T: DeserializeOwned + Serialize>(
    value: Value,
    fv: FieldValidation,
    resource: Resource,
) -> Result<(T, Vec<String>), ApiError> {
    let kind = resource.kind();
    let api_version = resource.api_version();
    if !value.is_object() {
        return Err(cannot_handle(kind, "the body is not a JSON object"));
    }
    match value.get("kind").and_then(Value::as_str) {
        None => {}
        Some(k) if k == kind => {}
        Some(k) => return Err(cannot_handle(kind, format!("kind {k:?} is not {kind}"))),
    }
    match value.get("apiVersion").and_then(Value::as_str) {
        None => {}
        Some(v) if v == api_version => {}
        Some(v) => {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({v}) does not match the expected API version ({api_version})"
            )));
        }
    }
    let obj: T = serde_path_to_error::deserialize(&value).map_err(|e| {
        let path = e.path().to_string();
        cannot_handle(kind, format!("{path}: {}", e.into_inner()))
    })?;
    let mut unknown = Vec::new();
    if fv != FieldValidation::Ignore
        && let Ok(back) = serde_json::to_value(&obj)
    {
        unknown_fields(&value, &back, "", &mut unknown);
        // By path, whatever order the document's keys came in.
        unknown.sort();
    }
    let texts: Vec<String> = unknown
        .iter()
        .map(|f| format!("unknown field \"{f}\""))
        .collect();
    if fv == FieldValidation::Strict && !texts.is_empty() {
        return Err(cannot_handle(
            kind,
            format!("strict decoding error: {}", texts.join(", ")),
        ));
    }
    Ok((obj, texts))
}

/// Paths present in `input` but lost when decoding (`back` is the decoded object re-encoded).
fn unknown_fields(input: &Value, back: &Value, path: &str, out: &mut Vec<String>) {
    match (input, back) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                if v.is_null() {
                    continue;
                }
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match b.get(k) {
                    Some(bv) => unknown_fields(v, bv, &p, out),
                    None => out.push(p),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                unknown_fields(x, y, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(body: &[u8]) -> Result<Pod, ApiError> {
        decode_pod(parse_body(body, false)?, FieldValidation::Strict).map(|(p, _)| p)
    }

    #[test]
    fn malformed_json_is_a_bad_request() {
        let e = decode(b"{\"kind\": ").expect_err("malformed");
        assert_eq!((e.code, e.reason), (400, "BadRequest"));
        assert!(
            e.message
                .starts_with("couldn't get version/kind; json parse error: EOF"),
            "{}",
            e.message
        );
    }

    #[test]
    fn wrong_shape_names_the_field_path() {
        let body = br#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":"nope"}}"#;
        let e = decode(body).expect_err("wrong shape");
        assert_eq!(e.code, 400);
        assert!(
            e.message
                .starts_with("Pod in version \"v1\" cannot be handled as a Pod: spec.containers: invalid type: string \"nope\""),
            "{}",
            e.message
        );
        let ok = decode(br#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}"#)
            .expect("valid pod");
        assert_eq!(ok.metadata.name.as_deref(), Some("x"));
    }

    #[test]
    fn strict_reports_unknown_fields_by_path() {
        let v: Value = serde_json::json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"},
            "spec": {"containers": [{"name": "a", "image": "i", "imagePullPolcy": "Always"}], "bogus": 1}
        });
        let err = decode_pod(v.clone(), FieldValidation::Strict).expect_err("unknown fields");
        assert_eq!(
            err.message,
            "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.bogus\", unknown field \"spec.containers[0].imagePullPolcy\""
        );
        let (_, warnings) = decode_pod(v.clone(), FieldValidation::Warn).expect("warn only");
        assert_eq!(warnings.len(), 2);
        let (_, none) = decode_pod(v, FieldValidation::Ignore).expect("ignored");
        assert!(none.is_empty());
    }

    #[test]
    fn wrong_kind_or_version_and_bad_patch() {
        let e = decode(br#"{"apiVersion":"v1","kind":"Event"}"#).expect_err("kind");
        assert!(
            e.message.ends_with("kind \"Event\" is not Pod"),
            "{}",
            e.message
        );
        let e = decode(br#"{"apiVersion":"apps/v1","kind":"Pod"}"#).expect_err("version");
        assert_eq!(
            e.message,
            "the API version in the data (apps/v1) does not match the expected API version (v1)"
        );
        let e = decode_patch(b"[{\"op\":").expect_err("malformed");
        assert_eq!(e.code, 400);
        assert!(e.message.starts_with("error decoding patch: "));
    }
}
