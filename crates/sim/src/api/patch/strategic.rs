//! Strategic merge patch (`application/strategic-merge-patch+json`), driven by the schemas the
//! simulator serves at `/openapi/v3` (the same `x-kubernetes-patch-strategy` /
//! `x-kubernetes-patch-merge-key` kubectl reads to build its patch).
//!
//! Semantics (after `k8s.io/apimachinery/pkg/util/strategicpatch`, server side):
//! - objects merge recursively; `null` removes a field;
//! - a list whose strategy includes `merge` and that has a merge key (e.g. `containers` by
//!   `name`, `ports` by `containerPort`, `conditions` by `type`) merges element by element:
//!   matching elements merge, new ones are appended, `{"$patch": "delete", <key>: …}` removes
//!   one, an element `{"$patch": "replace"}` makes the rest of the patch list the whole list;
//! - a `merge` list of scalars (e.g. `finalizers`) is a union; every other list is replaced;
//! - `$setElementOrder/<list>` orders the patched elements (elements only on the server keep
//!   their places), `$deleteFromPrimitiveList/<list>` removes scalars, `$retainKeys` drops the
//!   object's other fields (volumes: switching `emptyDir` to `configMap`), `$patch: replace`
//!   replaces an object, `$patch: delete` removes it.

use serde_json::{Map, Value};

use crate::api::openapi;
use crate::api::status::ApiError;

/// The schema name of a Pod.
pub(super) const POD: &str = "io.k8s.api.core.v1.Pod";

const ORDER: &str = "$setElementOrder/";
const DELETE_PRIMITIVE: &str = "$deleteFromPrimitiveList/";

/// Applies a strategic merge `patch` to `doc`, an object of schema `root`. Errors: 400 for a
/// patch that is not an object, an unknown `$patch`, a malformed `$retainKeys` or a list
/// element without its merge key.
pub(super) fn apply(doc: &mut Value, patch: &Value, root: &str) -> Result<(), ApiError> {
    let Value::Object(p) = patch else {
        return Err(ApiError::bad_request(
            "a strategic merge patch must be a JSON object",
        ));
    };
    let schema = openapi::schemas().get(root);
    if !doc.is_object() {
        *doc = Value::Object(Map::new());
    }
    if let Value::Object(d) = doc {
        merge_map(d, p, schema)?;
    }
    Ok(())
}

fn bad(message: String) -> ApiError {
    ApiError::bad_request(message)
}

/// The patch strategy and merge key of `field` in `schema`, and the schema of its value (or of
/// its elements for a list).
fn field_meta(
    schema: Option<&'static Value>,
    field: &str,
) -> (bool, Option<&'static str>, Option<&'static Value>) {
    let Some(prop) = schema.and_then(|s| openapi::property(s, field)) else {
        return (false, None, None);
    };
    let merge = prop
        .get("x-kubernetes-patch-strategy")
        .and_then(Value::as_str)
        .is_some_and(|s| s.split(',').any(|p| p == "merge"));
    let key = prop
        .get("x-kubernetes-patch-merge-key")
        .and_then(Value::as_str);
    (merge, key, openapi::resolve(prop))
}

fn patch_directive(m: &Map<String, Value>) -> Result<Option<&str>, ApiError> {
    match m.get("$patch") {
        None => Ok(None),
        Some(Value::String(s)) if matches!(s.as_str(), "replace" | "delete" | "merge") => {
            Ok(Some(s.as_str()))
        }
        Some(other) => Err(bad(format!(
            "unknown patch type: {other} in map: {}",
            Value::Object(m.clone())
        ))),
    }
}

/// A copy of `v` without directives (`$…` keys, `$patch: delete` list elements), nulls dropped:
/// what a patch value becomes where the server has nothing to merge it with.
fn clean(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, v)| !k.starts_with('$') && !v.is_null())
                .map(|(k, v)| (k.clone(), clean(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(
            a.iter()
                .filter(|x| {
                    x.get("$patch").and_then(Value::as_str) != Some("delete")
                        && !(x.get("$patch").is_some()
                            && x.as_object().is_some_and(|m| m.len() == 1))
                })
                .map(clean)
                .collect(),
        ),
        other => other.clone(),
    }
}

fn merge_map(
    doc: &mut Map<String, Value>,
    patch: &Map<String, Value>,
    schema: Option<&'static Value>,
) -> Result<(), ApiError> {
    match patch_directive(patch)? {
        Some("replace") => {
            if let Value::Object(m) = clean(&Value::Object(patch.clone())) {
                *doc = m;
            }
            return Ok(());
        }
        Some("delete") => {
            doc.clear();
            return Ok(());
        }
        _ => {}
    }
    if let Some(retain) = patch.get("$retainKeys") {
        let keys: Vec<&str> = retain
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .ok_or_else(|| {
                bad(format!(
                    "$retainKeys must be a list of strings, got {retain}"
                ))
            })?;
        doc.retain(|k, _| keys.contains(&k.as_str()));
    }
    for (k, v) in patch {
        if let Some(field) = k.strip_prefix(DELETE_PRIMITIVE) {
            let gone = v.as_array().cloned().unwrap_or_default();
            if let Some(Value::Array(list)) = doc.get_mut(field) {
                list.retain(|x| !gone.contains(x));
            }
            continue;
        }
        if k.starts_with('$') {
            continue;
        }
        if v.is_null() {
            doc.remove(k);
            continue;
        }
        let (merge, key, sub) = field_meta(schema, k);
        match v {
            Value::Object(pm) => {
                if patch_directive(pm)? == Some("delete") {
                    doc.remove(k);
                    continue;
                }
                let target = doc.entry(k.clone()).or_insert(Value::Null);
                if !target.is_object() {
                    *target = Value::Object(Map::new());
                }
                if let Value::Object(t) = target {
                    merge_map(t, pm, sub)?;
                }
            }
            Value::Array(items) if merge => {
                let mut list = match doc.remove(k) {
                    Some(Value::Array(a)) => a,
                    _ => Vec::new(),
                };
                match key {
                    Some(key) => merge_keyed(&mut list, items, key, sub)?,
                    None => {
                        for item in items {
                            if !list.contains(item) {
                                list.push(item.clone());
                            }
                        }
                    }
                }
                if let Some(order) = patch.get(&format!("{ORDER}{k}")).and_then(Value::as_array) {
                    reorder(&mut list, order, key);
                }
                doc.insert(k.clone(), Value::Array(list));
            }
            other => {
                doc.insert(k.clone(), clean(other));
            }
        }
    }
    Ok(())
}

/// Merges patch elements into `list` by `key` (see the module docs).
fn merge_keyed(
    list: &mut Vec<Value>,
    items: &[Value],
    key: &str,
    schema: Option<&'static Value>,
) -> Result<(), ApiError> {
    if items
        .iter()
        .any(|i| i.get("$patch").and_then(Value::as_str) == Some("replace"))
    {
        *list = items
            .iter()
            .filter(|i| i.get("$patch").is_none())
            .map(clean)
            .collect();
        return Ok(());
    }
    for item in items {
        let Value::Object(pm) = item else {
            return Err(bad(format!(
                "unable to merge {item} into a list merged by key {key:?}: not an object"
            )));
        };
        let id = pm.get(key).ok_or_else(|| {
            bad(format!(
                "map: {item} does not contain declared merge key: {key}"
            ))
        })?;
        let pos = list.iter().position(|e| e.get(key) == Some(id));
        match (pos, patch_directive(pm)?) {
            (Some(i), Some("delete")) => {
                list.remove(i);
            }
            (None, Some("delete")) => {}
            (Some(i), _) => {
                if let Value::Object(existing) = &mut list[i] {
                    merge_map(existing, pm, schema)?;
                }
            }
            (None, _) => {
                let mut fresh = Map::new();
                merge_map(&mut fresh, pm, schema)?;
                list.push(Value::Object(fresh));
            }
        }
    }
    Ok(())
}

/// Orders `list` by `$setElementOrder`: the elements named in `order` take the places of the
/// named elements in `order`'s sequence; elements not named (server-only) keep their places.
fn reorder(list: &mut [Value], order: &[Value], key: Option<&str>) {
    let id = |v: &Value| -> Value {
        match key {
            Some(k) => v.get(k).cloned().unwrap_or(Value::Null),
            None => v.clone(),
        }
    };
    let wanted: Vec<Value> = order.iter().map(&id).collect();
    let rank = |v: &Value| wanted.iter().position(|w| *w == id(v));
    let mut named: Vec<Value> = list.iter().filter(|v| rank(v).is_some()).cloned().collect();
    named.sort_by_key(|v| rank(v));
    let mut named = named.into_iter();
    for slot in list.iter_mut() {
        if rank(slot).is_some()
            && let Some(next) = named.next()
        {
            *slot = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn patched(doc: Value, patch: Value) -> Value {
        let mut d = doc;
        apply(&mut d, &patch, POD).expect("applies");
        d
    }

    #[test]
    fn containers_merge_by_name_and_follow_set_element_order() {
        let d = json!({"spec": {"containers": [{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:1"}]}});
        let p = json!({"spec": {"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}],
            "containers": [{"name": "b", "image": "y:2"}]}});
        assert_eq!(
            patched(d, p),
            json!({"spec": {"containers": [{"name": "b", "image": "y:2"}, {"name": "a", "image": "x:1"}]}})
        );
    }

    #[test]
    fn env_delete_ports_by_container_port_and_atomic_tolerations() {
        let d = json!({"spec": {"tolerations": [{"key": "t1"}, {"key": "t2"}], "containers": [{"name": "a",
            "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
            "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}});
        let p = json!({"spec": {"tolerations": [{"key": "t3"}], "containers": [{"name": "a",
            "env": [{"$patch": "delete", "name": "A"}],
            "ports": [{"containerPort": 80, "name": "http"}, {"containerPort": 81}]}]}});
        assert_eq!(
            patched(d, p),
            json!({"spec": {"tolerations": [{"key": "t3"}], "containers": [{"name": "a",
                "env": [{"name": "B", "value": "2"}],
                "ports": [{"containerPort": 80, "protocol": "TCP", "name": "http"}, {"containerPort": 81}]}]}})
        );
    }

    #[test]
    fn retain_keys_switches_a_volume_source_and_nulls_remove() {
        let d = json!({"metadata": {"labels": {"a": "1"}, "finalizers": ["x"]},
            "spec": {"volumes": [{"name": "v", "emptyDir": {}}]}});
        let p = json!({"metadata": {"labels": {"a": null, "b": "2"}, "finalizers": ["y"]},
            "spec": {"volumes": [{"$retainKeys": ["configMap", "name"], "name": "v", "configMap": {"name": "cm"}}]}});
        assert_eq!(
            patched(d, p),
            json!({"metadata": {"labels": {"b": "2"}, "finalizers": ["x", "y"]},
                "spec": {"volumes": [{"name": "v", "configMap": {"name": "cm"}}]}})
        );
    }

    #[test]
    fn replace_directives_and_bad_input() {
        let d = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}], "securityContext": {"runAsUser": 1}}});
        let p = json!({"spec": {"containers": [{"$patch": "replace"}, {"name": "c"}],
            "securityContext": {"$patch": "replace", "fsGroup": 2}}});
        assert_eq!(
            patched(d.clone(), p),
            json!({"spec": {"containers": [{"name": "c"}], "securityContext": {"fsGroup": 2}}})
        );
        let mut doc = d;
        let no_key = apply(
            &mut doc,
            &json!({"spec": {"containers": [{"image": "x"}]}}),
            POD,
        )
        .expect_err("no merge key");
        assert_eq!(no_key.code, 400);
        assert!(
            no_key.message.contains("merge key: name"),
            "{}",
            no_key.message
        );
        let unknown = apply(&mut doc, &json!({"spec": {"$patch": "frobnicate"}}), POD)
            .expect_err("unknown directive");
        assert_eq!(unknown.code, 400);
    }
}
