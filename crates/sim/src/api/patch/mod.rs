//! PATCH bodies: JSON merge patch (RFC 7386) and JSON patch (RFC 6902), both applied by the
//! `json-patch` crate with the API server's error answers ([`json_patch_error`]), and strategic
//! merge patch ([`strategic`]).

mod strategic;

use json_patch::{PatchErrorKind, PatchOperation};
use serde_json::Value;

use super::object::Resource;
use super::status::ApiError;

/// Which patch format a `Content-Type` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchKind {
    /// `application/merge-patch+json`.
    Merge,
    /// `application/strategic-merge-patch+json`.
    Strategic,
    /// `application/json-patch+json`.
    Json,
}

impl PatchKind {
    /// From a `Content-Type` header value. Errors: 415 UnsupportedMediaType (also for
    /// `application/apply-patch+yaml`: server-side apply is not a patch of these kinds; the
    /// write handlers send it to `apply` before asking here).
    pub fn from_content_type(ct: &str) -> Result<Self, ApiError> {
        match ct.split(';').next().unwrap_or("").trim() {
            "application/merge-patch+json" => Ok(Self::Merge),
            "application/strategic-merge-patch+json" => Ok(Self::Strategic),
            "application/json-patch+json" => Ok(Self::Json),
            other => Err(ApiError::unsupported_media_type(other)),
        }
    }
}

/// Applies `patch` to `doc`, a Pod as JSON (the strategic merge patch follows the Pod schema
/// the simulator serves at `/openapi/v3`). Errors: 400 naming the problem (bad JSON patch
/// operation, path not found, non-object merge patch root, bad `$patch` directive), 422 for a
/// failed JSON patch `test`.
pub fn apply(kind: PatchKind, doc: &mut Value, patch: &Value) -> Result<(), ApiError> {
    apply_with_schema(kind, doc, patch, strategic::POD)
}

/// The OpenAPI schema name of an object of `resource` (`io.k8s.api.apps.v1.Deployment`), the
/// root a strategic merge patch of it follows.
pub fn schema_name(resource: Resource) -> String {
    // The schemas name a group by its first label: `discovery.k8s.io` → `discovery`
    // (`io.k8s.api.discovery.v1.EndpointSlice`), as the API's Go packages do.
    let group = match resource.group() {
        "" => "core",
        g => g.split('.').next().unwrap_or(g),
    };
    format!("io.k8s.api.{group}.v1.{}", resource.kind())
}

/// [`apply`] for an object of schema `root` (e.g. [`schema_name`] of a Deployment, or
/// `io.k8s.api.autoscaling.v1.Scale`): a strategic merge patch follows that schema's patch
/// strategies and merge keys down to the pod template's containers. Errors: as [`apply`].
pub fn apply_with_schema(
    kind: PatchKind,
    doc: &mut Value,
    patch: &Value,
    root: &str,
) -> Result<(), ApiError> {
    match kind {
        PatchKind::Merge => {
            if !patch.is_object() {
                return Err(ApiError::bad_request("a merge patch must be a JSON object"));
            }
            json_patch::merge(doc, patch);
            Ok(())
        }
        PatchKind::Strategic => strategic::apply(doc, patch, root),
        PatchKind::Json => apply_json_patch(doc, patch),
    }
}

/// RFC 6902: `patch` must be an array of operations (`add`, `remove`, `replace`, `move`,
/// `copy`, `test`); they apply all or none. Errors: 400 for a malformed patch or a path that is
/// not in the document, 422 for a failed `test`.
fn apply_json_patch(doc: &mut Value, patch: &Value) -> Result<(), ApiError> {
    if !patch.is_array() {
        return Err(ApiError::bad_request(
            "a JSON patch must be a JSON array of operations",
        ));
    }
    let ops: Vec<PatchOperation> = serde_json::from_value(patch.clone())
        .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))?;
    json_patch::patch(doc, &ops).map_err(|e| json_patch_error(&e))
}

/// The API server's answer to a JSON patch that does not apply: 422 `testing value PATH failed`
/// for a failed `test`, else 400 `… doc is missing path: "PATH"`.
fn json_patch_error(e: &json_patch::PatchError) -> ApiError {
    let path = e.path.as_str();
    match e.kind {
        PatchErrorKind::TestFailed => ApiError {
            code: 422,
            reason: "Invalid",
            message: format!("testing value {path} failed"),
        },
        PatchErrorKind::CannotMoveInsideItself => {
            ApiError::bad_request(format!("cannot move the value at {path:?} inside itself"))
        }
        _ => ApiError::bad_request(format!(
            "the server rejected our request due to an error in our request: doc is missing path: {path:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn merge_patch_sets_and_removes_labels() {
        let mut d = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
        apply(
            PatchKind::Merge,
            &mut d,
            &json!({"metadata": {"labels": {"a": null, "c": "3"}}}),
        )
        .expect("applies");
        assert_eq!(d, json!({"metadata": {"labels": {"b": "2", "c": "3"}}}));
    }

    #[test]
    fn merge_patch_replaces_lists_and_drops_nulls_in_new_objects() {
        let mut d = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        apply(
            PatchKind::Merge,
            &mut d,
            &json!({"spec": {"containers": [{"name": "b"}]}, "status": {"x": null, "y": 1}}),
        )
        .expect("applies");
        assert_eq!(
            d,
            json!({"spec": {"containers": [{"name": "b"}]}, "status": {"y": 1}})
        );
    }

    #[test]
    fn json_patch_ops_and_errors() {
        let mut d = json!({"metadata": {"labels": {"a": "1"}}, "list": [1, 2]});
        let p = json!([
            {"op": "add", "path": "/metadata/labels/b~1c", "value": "2"},
            {"op": "replace", "path": "/list/0", "value": 9},
            {"op": "add", "path": "/list/-", "value": 3},
            {"op": "remove", "path": "/metadata/labels/a"},
            {"op": "test", "path": "/list/1", "value": 2}
        ]);
        apply(PatchKind::Json, &mut d, &p).expect("applies");
        assert_eq!(
            d,
            json!({"metadata": {"labels": {"b/c": "2"}}, "list": [9, 2, 3]})
        );
        let err = apply(
            PatchKind::Json,
            &mut d,
            &json!([{"op": "remove", "path": "/nope"}]),
        )
        .expect_err("missing path");
        assert_eq!(err.code, 400);
        assert!(err.message.contains("/nope"), "{}", err.message);
        let err = apply(
            PatchKind::Json,
            &mut d,
            &json!([{"op": "test", "path": "/list/0", "value": 1}]),
        )
        .expect_err("test fails");
        assert_eq!(
            (err.code, err.message.as_str()),
            (422, "testing value /list/0 failed")
        );
        apply(
            PatchKind::Json,
            &mut d,
            &json!([
                {"op": "copy", "from": "/list/0", "path": "/first"},
                {"op": "move", "from": "/metadata/labels/b~1c", "path": "/moved"}
            ]),
        )
        .expect("copy and move apply");
        assert_eq!(
            d,
            json!({"metadata": {"labels": {}}, "list": [9, 2, 3], "first": 9, "moved": "2"})
        );
    }
}
