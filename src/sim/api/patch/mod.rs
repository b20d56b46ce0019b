//! PATCH bodies: JSON merge patch (RFC 7386), strategic merge patch ([`strategic`]), JSON patch
//! (RFC 6902, [`json`]).

mod json;
mod strategic;

use serde_json::{Map, Value};

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
    /// `application/apply-patch+yaml`, server-side apply, which is not simulated).
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
    match kind {
        PatchKind::Merge => {
            let Value::Object(p) = patch else {
                return Err(ApiError::bad_request("a merge patch must be a JSON object"));
            };
            merge(doc, p);
            Ok(())
        }
        PatchKind::Strategic => strategic::apply(doc, patch, strategic::POD),
        PatchKind::Json => json::apply(doc, patch),
    }
}

/// RFC 7386: objects merge recursively, `null` removes, anything else replaces.
fn merge(doc: &mut Value, patch: &Map<String, Value>) {
    if !doc.is_object() {
        *doc = Value::Object(Map::new());
    }
    let Value::Object(d) = doc else { return };
    for (k, v) in patch {
        match v {
            Value::Null => {
                d.remove(k);
            }
            Value::Object(p) => merge(d.entry(k.clone()).or_insert(Value::Null), p),
            other => {
                d.insert(k.clone(), other.clone());
            }
        }
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
    }
}
