//! PATCH bodies: JSON merge patch (RFC 7386), a strategic merge patch subset, JSON patch
//! (RFC 6902).
//!
//! Strategic merge patch: like a merge patch, except lists of objects with a known merge key are
//! merged element by element (`containers`, `initContainers`, `ephemeralContainers`, `env`,
//! `volumes`, `volumeMounts`, `imagePullSecrets` by `name`; `ports` by `containerPort`;
//! `conditions` by `type`; `tolerations` replaced), an element `{"$patch": "delete", <key>: …}`
//! removes it, and `$setElementOrder/…`, `$retainKeys` and `$deleteFromPrimitiveList/…`
//! directives are accepted and ignored (order and retention are not enforced).

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

/// Applies `patch` to `doc`. Errors: 400 naming the problem (bad JSON patch operation, path not
/// found, failed `test`, non-object merge patch root).
pub fn apply(kind: PatchKind, doc: &mut Value, patch: &Value) -> Result<(), ApiError> {
    match kind {
        PatchKind::Merge => {
            if !patch.is_object() {
                return Err(ApiError::bad_request("a merge patch must be a JSON object"));
            }
            merge(doc, patch, false);
            Ok(())
        }
        PatchKind::Strategic => {
            if !patch.is_object() {
                return Err(ApiError::bad_request(
                    "a strategic merge patch must be a JSON object",
                ));
            }
            merge(doc, patch, true);
            Ok(())
        }
        PatchKind::Json => json_patch(doc, patch),
    }
}

fn merge_key(field: &str) -> Option<&'static str> {
    match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "volumeMounts"
        | "imagePullSecrets"
        | "resourceClaims" => Some("name"),
        "ports" => Some("containerPort"),
        "conditions" => Some("type"),
        _ => None,
    }
}

fn merge(doc: &mut Value, patch: &Value, strategic: bool) {
    let Value::Object(p) = patch else {
        *doc = patch.clone();
        return;
    };
    if !doc.is_object() {
        *doc = Value::Object(Map::new());
    }
    let Value::Object(d) = doc else { return };
    for (k, v) in p {
        if strategic && k.starts_with('$') {
            continue;
        }
        if v.is_null() {
            d.remove(k);
            continue;
        }
        let key = strategic.then(|| merge_key(k)).flatten();
        match (key, d.get_mut(k), v) {
            (Some(key), Some(Value::Array(existing)), Value::Array(items)) => {
                merge_list(existing, items, key);
            }
            (_, Some(target), Value::Object(_)) if target.is_object() => {
                merge(target, v, strategic)
            }
            _ => {
                let mut fresh = Value::Null;
                merge(&mut fresh, v, strategic);
                if !v.is_object() {
                    fresh = strip_directives(v, strategic);
                }
                d.insert(k.clone(), fresh);
            }
        }
    }
}

fn strip_directives(v: &Value, strategic: bool) -> Value {
    match v {
        Value::Object(m) if strategic => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.starts_with('$'))
                .map(|(k, v)| (k.clone(), strip_directives(v, strategic)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| strip_directives(x, strategic)).collect()),
        other => other.clone(),
    }
}

fn merge_list(existing: &mut Vec<Value>, items: &[Value], key: &str) {
    for item in items {
        let id = item.get(key).cloned();
        let delete = item.get("$patch").and_then(Value::as_str) == Some("delete");
        let pos = id
            .as_ref()
            .and_then(|id| existing.iter().position(|e| e.get(key) == Some(id)));
        match (pos, delete) {
            (Some(i), true) => {
                existing.remove(i);
            }
            (None, true) => {}
            (Some(i), false) => merge(&mut existing[i], item, true),
            (None, false) => existing.push(strip_directives(item, true)),
        }
    }
}

/// Splits a JSON pointer (`/a/b~1c`) into unescaped tokens.
fn pointer(path: &str) -> Result<Vec<String>, ApiError> {
    if path.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(ApiError::bad_request(format!(
            "invalid JSON pointer {path:?}"
        )));
    };
    Ok(rest
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect())
}

fn parent<'a>(
    doc: &'a mut Value,
    tokens: &[String],
    path: &str,
) -> Result<&'a mut Value, ApiError> {
    let mut cur = doc;
    for t in tokens {
        cur = match cur {
            Value::Object(m) => m.get_mut(t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(move |i| a.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| missing(path))?;
    }
    Ok(cur)
}

fn missing(path: &str) -> ApiError {
    ApiError::bad_request(format!(
        "the server rejected our request due to an error in our request: doc is missing path: {path:?}"
    ))
}

fn remove(doc: &mut Value, path: &str) -> Result<Value, ApiError> {
    let tokens = pointer(path)?;
    let (last, init) = tokens.split_last().ok_or_else(|| missing(path))?;
    match parent(doc, init, path)? {
        Value::Object(m) => m.remove(last).ok_or_else(|| missing(path)),
        Value::Array(a) => match last.parse::<usize>() {
            Ok(i) if i < a.len() => Ok(a.remove(i)),
            _ => Err(missing(path)),
        },
        _ => Err(missing(path)),
    }
}

fn add(doc: &mut Value, path: &str, value: Value, replace: bool) -> Result<(), ApiError> {
    let tokens = pointer(path)?;
    let Some((last, init)) = tokens.split_last() else {
        *doc = value;
        return Ok(());
    };
    match parent(doc, init, path)? {
        Value::Object(m) => {
            if replace && !m.contains_key(last) {
                return Err(missing(path));
            }
            m.insert(last.clone(), value);
            Ok(())
        }
        Value::Array(a) => {
            let i = if last == "-" {
                a.len()
            } else {
                last.parse::<usize>().map_err(|_| missing(path))?
            };
            match (replace, i < a.len(), i == a.len()) {
                (true, true, _) => a[i] = value,
                (false, _, true) => a.push(value),
                (false, true, _) => a.insert(i, value),
                _ => return Err(missing(path)),
            }
            Ok(())
        }
        _ => Err(missing(path)),
    }
}

fn get(doc: &mut Value, path: &str) -> Result<Value, ApiError> {
    let tokens = pointer(path)?;
    parent(doc, &tokens, path).map(|v| v.clone())
}

fn json_patch(doc: &mut Value, patch: &Value) -> Result<(), ApiError> {
    let Value::Array(ops) = patch else {
        return Err(ApiError::bad_request(
            "a JSON patch must be a JSON array of operations",
        ));
    };
    for op in ops {
        let name = op.get("op").and_then(Value::as_str).unwrap_or("");
        let path = op.get("path").and_then(Value::as_str).ok_or_else(|| {
            ApiError::bad_request(format!("JSON patch operation {op} has no path"))
        })?;
        let value = || {
            op.get("value").cloned().ok_or_else(|| {
                ApiError::bad_request(format!("JSON patch {name} at {path:?} has no value"))
            })
        };
        let from = || {
            op.get("from").and_then(Value::as_str).ok_or_else(|| {
                ApiError::bad_request(format!("JSON patch {name} at {path:?} has no from"))
            })
        };
        match name {
            "add" => add(doc, path, value()?, false)?,
            "replace" => add(doc, path, value()?, true)?,
            "remove" => {
                remove(doc, path)?;
            }
            "test" => {
                if get(doc, path)? != value()? {
                    return Err(ApiError {
                        code: 422,
                        reason: "Invalid",
                        message: format!("testing value {path} failed"),
                    });
                }
            }
            "move" => {
                let v = remove(doc, from()?)?;
                add(doc, path, v, false)?;
            }
            "copy" => {
                let v = get(doc, from()?)?;
                add(doc, path, v, false)?;
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "Unexpected kind: {other:?} (JSON patch operations are add, remove, replace, move, copy, test)"
                )));
            }
        }
    }
    Ok(())
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
    fn strategic_merges_containers_by_name_and_ignores_directives() {
        let mut d = json!({"spec": {"containers": [{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:1"}]}});
        let p = json!({"spec": {"$setElementOrder/containers": [{"name": "a"}, {"name": "b"}],
            "containers": [{"name": "b", "image": "y:2"}]}});
        apply(PatchKind::Strategic, &mut d, &p).expect("applies");
        assert_eq!(
            d,
            json!({"spec": {"containers": [{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:2"}]}})
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
