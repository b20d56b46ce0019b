//! Schema-driven walks over JSON objects for server-side apply (`docs/server-side-apply.md`
//! §2–3): the field set of an object, the paths two objects differ in, the merge of an applied
//! configuration into a live object, and the removal of paths.
//!
//! How a list is keyed comes from the OpenAPI schema the simulator serves
//! ([`crate::api::openapi::patch_meta`]): `x-kubernetes-list-type: map` with
//! `x-kubernetes-list-map-keys` (elements `k:{…}`), `set` (elements `v:…`), `atomic` (the list is
//! one value); a list without `x-kubernetes-list-type` is keyed by its
//! `x-kubernetes-patch-merge-key` when its strategy is `merge`, a set when it merges without a
//! key, else atomic, as structured-merge-diff converts kube-apiserver's OpenAPI. An object with
//! `x-kubernetes-map-type: atomic` is one value. Values without a schema (free-form maps such as
//! `labels`) are granular maps.

use serde_json::{Map, Value};

use super::fieldset::{FieldSet, Path, Step};
use crate::api::openapi;

/// Where a value sits in the schema: the property entry that holds it (with the list and map
/// extensions) and the resolved schema of the value (or of a list's elements).
#[derive(Clone, Copy, Default)]
pub(crate) struct At {
    prop: Option<&'static Value>,
    schema: Option<&'static Value>,
}

enum ListType {
    Atomic,
    Set,
    Map(Vec<String>),
}

impl At {
    /// The root of an object of the named schema (`io.k8s.api.core.v1.Pod`). A kind without a
    /// served schema gets [`fallback_root`]: its top-level keys are fields and its `metadata` an
    /// ObjectMeta.
    pub(crate) fn root(name: &str) -> At {
        At {
            prop: None,
            schema: openapi::schemas()
                .get(name)
                .or_else(|| Some(fallback_root())),
        }
    }

    /// The field `key` of an object here.
    pub(crate) fn field(self, key: &str) -> At {
        let prop = self.schema.and_then(|s| {
            openapi::property(s, key)
                .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
        });
        At {
            prop,
            schema: prop.and_then(openapi::resolve),
        }
    }

    /// Whether `key` is a declared field of the struct here (not a map entry).
    fn declares(self, key: &str) -> bool {
        self.schema.is_some_and(|s| {
            std::ptr::eq(s, fallback_root()) || openapi::property(s, key).is_some()
        })
    }

    fn ext(self, name: &str) -> Option<&'static str> {
        self.prop.and_then(|p| p.get(name)).and_then(Value::as_str)
    }

    /// Maps marked `+mapType=atomic` and structs marked `+structType=atomic` (the meta/v1
    /// `LabelSelector` of `k8s.io/apimachinery/pkg/apis/meta/v1/types.go`).
    fn atomic_map(self) -> bool {
        let selector = openapi::schemas().get("io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector");
        self.ext("x-kubernetes-map-type") == Some("atomic")
            || self
                .schema
                .is_some_and(|s| selector.is_some_and(|l| std::ptr::eq(s, l)))
    }

    fn list_type(self) -> ListType {
        let keys = || -> Vec<String> {
            self.prop
                .and_then(|p| p.get("x-kubernetes-list-map-keys"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|k| k.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        match self.ext("x-kubernetes-list-type") {
            Some("atomic") => ListType::Atomic,
            Some("set") => ListType::Set,
            Some("map") => ListType::Map(keys()),
            _ => {
                let merge = self
                    .ext("x-kubernetes-patch-strategy")
                    .is_some_and(|s| s.split(',').any(|p| p == "merge"));
                match self.ext("x-kubernetes-patch-merge-key") {
                    Some(k) if merge => ListType::Map(vec![k.to_string()]),
                    None if merge => ListType::Set,
                    _ => ListType::Atomic,
                }
            }
        }
    }

    /// The elements' schema of a list here.
    fn item(self) -> At {
        At {
            prop: None,
            schema: self.schema,
        }
    }
}

/// The root schema of a kind the simulator serves no schema for: every top-level key is a
/// declared field (`data`, `spec`, …), `metadata` is an ObjectMeta.
fn fallback_root() -> &'static Value {
    static ROOT: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        serde_json::json!({"properties": {"metadata": {"allOf": [
            {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}
        ]}}})
    })
}

/// The step naming `item` in a list of type `lt`.
fn item_step(lt: &ListType, item: &Value) -> Step {
    match lt {
        ListType::Map(keys) => {
            let mut item = item.clone();
            // `protocol` is part of the ports' key and defaults to TCP before the merge.
            if keys.iter().any(|k| k == "protocol") && item.get("protocol").is_none() {
                item["protocol"] = Value::from("TCP");
            }
            Step::key_of(&item, keys)
        }
        _ => Step::Value(item.to_string()),
    }
}

fn granular_list(at: At, v: &Value) -> Option<ListType> {
    match at.list_type() {
        ListType::Atomic => None,
        lt => v.as_array().map(|_| lt),
    }
}

/// Every path `v` (at `path`, of schema `at`) sets, as structured-merge-diff's `ToFieldSet`:
/// scalars, atomic values and list elements are members; object fields are members only when
/// empty or null, or when they are map entries rather than declared struct fields.
pub(crate) fn field_set(v: &Value, at: At, path: &mut Path, out: &mut FieldSet) {
    match v {
        Value::Object(m) if !at.atomic_map() => {
            for (k, child) in m {
                path.push(Step::Field(k.clone()));
                field_set(child, at.field(k), path, out);
                let empty = child.is_null() || child.as_object().is_some_and(Map::is_empty);
                if empty || !at.declares(k) {
                    out.insert(path.clone());
                }
                path.pop();
            }
        }
        Value::Array(items) => match granular_list(at, v) {
            Some(lt) => {
                for item in items {
                    path.push(item_step(&lt, item));
                    field_set(item, at.item(), path, out);
                    out.insert(path.clone());
                    path.pop();
                }
            }
            None => out.insert(path.clone()),
        },
        _ => out.insert(path.clone()),
    }
}

/// What changed from `old` to `new` (either may be absent): `changed` gets the paths added or
/// modified (an added object or list is itself a member, as are added list elements), `removed`
/// the paths of `old` that are gone. Mirrors structured-merge-diff's `Compare`.
pub(crate) fn compare(
    old: Option<&Value>,
    new: Option<&Value>,
    at: At,
    path: &mut Path,
    changed: &mut FieldSet,
    removed: &mut FieldSet,
) {
    let (o, n) = match (old, new) {
        (None, None) => return,
        (Some(o), None) => {
            field_set(o, at, path, removed);
            if !path.is_empty() {
                removed.insert(path.clone());
            }
            return;
        }
        (o, Some(n)) => (o, n),
    };
    if o.is_none() && !path.is_empty() {
        changed.insert(path.clone());
    }
    let empty = |v: Option<&Value>| {
        v.is_none_or(|v| {
            v.is_null()
                || v.as_object().is_some_and(Map::is_empty)
                || v.as_array().is_some_and(Vec::is_empty)
        })
    };
    let leaf = |changed: &mut FieldSet| {
        if o != Some(n) {
            changed.insert(path.clone());
        }
    };
    if empty(o) && empty(Some(n)) {
        return leaf(changed);
    }
    // A null is no value to descend into (but, unlike an absent field, not an addition).
    match (o.filter(|v| !v.is_null()), n) {
        (o, Value::Object(nm)) if !at.atomic_map() && o.is_none_or(Value::is_object) => {
            let om = o.and_then(Value::as_object);
            for (k, nv) in nm {
                path.push(Step::Field(k.clone()));
                compare(
                    om.and_then(|m| m.get(k)),
                    Some(nv),
                    at.field(k),
                    path,
                    changed,
                    removed,
                );
                path.pop();
            }
            for (k, ov) in om.into_iter().flatten() {
                if !nm.contains_key(k) {
                    path.push(Step::Field(k.clone()));
                    compare(Some(ov), None, at.field(k), path, changed, removed);
                    path.pop();
                }
            }
        }
        (o, Value::Array(ni))
            if o.is_none_or(Value::is_array) && granular_list(at, n).is_some() =>
        {
            let Some(lt) = granular_list(at, n) else {
                return;
            };
            let old_items: Vec<(Step, &Value)> = o
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|i| (item_step(&lt, i), i))
                .collect();
            let new_steps: Vec<Step> = ni.iter().map(|i| item_step(&lt, i)).collect();
            for (step, item) in new_steps.iter().zip(ni) {
                let before = old_items.iter().find(|(s, _)| s == step).map(|(_, v)| *v);
                path.push(step.clone());
                compare(before, Some(item), at.item(), path, changed, removed);
                path.pop();
            }
            for (step, item) in &old_items {
                if !new_steps.contains(step) {
                    path.push(step.clone());
                    compare(Some(item), None, at.item(), path, changed, removed);
                    path.pop();
                }
            }
        }
        _ => leaf(changed),
    }
}

/// `applied` merged into `live`: objects merge field by field, granular lists element by
/// element (live order kept, new elements appended in applied order), everything else is
/// replaced by the applied value; a `null` in `applied` removes the field.
pub(crate) fn merge(live: &mut Value, applied: &Value, at: At) {
    match (live, applied) {
        (Value::Object(lm), Value::Object(am)) if !at.atomic_map() => {
            for (k, av) in am {
                if av.is_null() {
                    lm.remove(k);
                    continue;
                }
                match lm.get_mut(k) {
                    Some(lv) => merge(lv, av, at.field(k)),
                    None => {
                        lm.insert(k.clone(), av.clone());
                    }
                }
            }
        }
        (Value::Array(li), Value::Array(ai)) if granular_list(at, applied).is_some() => {
            let Some(lt) = granular_list(at, applied) else {
                return;
            };
            for item in ai {
                let step = item_step(&lt, item);
                match li.iter_mut().find(|l| item_step(&lt, l) == step) {
                    Some(l) => merge(l, item, at.item()),
                    None => li.push(item.clone()),
                }
            }
        }
        (live, applied) => *live = applied.clone(),
    }
}

/// Removes the value at `path` from `v` (a field, or a list element by its step).
pub(crate) fn remove(v: &mut Value, path: &[Step], at: At) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    match (v, first) {
        (Value::Object(m), Step::Field(f)) => {
            if rest.is_empty() {
                m.remove(f);
            } else if let Some(child) = m.get_mut(f) {
                remove(child, rest, at.field(f));
            }
        }
        (Value::Array(items), step) => {
            let Some(lt) = granular_list(at, &Value::Array(Vec::new())) else {
                return;
            };
            let Some(i) = items.iter().position(|x| &item_step(&lt, x) == step) else {
                return;
            };
            if rest.is_empty() {
                items.remove(i);
            } else if let Some(item) = items.get_mut(i) {
                remove(item, rest, at.item());
            }
        }
        _ => {}
    }
}
