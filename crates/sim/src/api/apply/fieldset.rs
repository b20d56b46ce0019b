//! Field sets: the paths a field manager owns, and their `FieldsV1` encoding
//! (`docs/server-side-apply.md` §2).
//!
//! A path is a list of steps from the object's root: `f:<name>` (a field of an object),
//! `k:{"name":"hello"}` (the element of an associative list with those key values),
//! `v:<json>` (the element of a set-like list with that value), `i:<n>` (a list index). In
//! `FieldsV1` the set is a tree of these steps; `{}` marks a path that is itself in the set, and
//! `".": {}` marks a path that is in the set and also has members below it (source: the field
//! path encoding of structured-merge-diff's `fieldpath` package, as kube-apiserver stores it).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

/// One step of a field path. The variant order is the order of `FieldsV1` keys.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step {
    /// `f:<name>`: a field of an object (or a key of a map).
    Field(String),
    /// `k:<json>`: an associative list element, by its key fields (compact JSON, keys sorted).
    Key(String),
    /// `v:<json>`: a set-like list element, by its value (compact JSON).
    Value(String),
    /// `i:<n>`: a list element by position.
    Index(usize),
}

impl Step {
    /// The key of an associative list element: its `keys` fields as compact JSON with the
    /// keys sorted (`{"containerPort":80,"protocol":"TCP"}`).
    pub(crate) fn key_of(item: &Value, keys: &[String]) -> Step {
        let mut sorted: Vec<&String> = keys.iter().collect();
        sorted.sort();
        let mut m = Map::new();
        for k in sorted {
            if let Some(v) = item.get(k.as_str()) {
                m.insert(k.clone(), v.clone());
            }
        }
        Step::Key(Value::Object(m).to_string())
    }

    fn encode(&self) -> String {
        match self {
            Step::Field(f) => format!("f:{f}"),
            Step::Key(k) => format!("k:{k}"),
            Step::Value(v) => format!("v:{v}"),
            Step::Index(i) => format!("i:{i}"),
        }
    }

    fn decode(s: &str) -> Option<Step> {
        let (kind, rest) = s.split_at_checked(2)?;
        Some(match kind {
            "f:" => Step::Field(rest.to_string()),
            "k:" => {
                let v: Value = serde_json::from_str(rest).ok()?;
                let keys: Vec<String> = v.as_object()?.keys().cloned().collect();
                Step::key_of(&v, &keys)
            }
            "v:" => Step::Value(serde_json::from_str::<Value>(rest).ok()?.to_string()),
            "i:" => Step::Index(rest.parse().ok()?),
            _ => return None,
        })
    }

    /// The step as the API server prints it in a conflict: `.image`,
    /// `[name="hello"]`, `[containerPort=80,protocol="TCP"]`, `[=value]`, `[0]`.
    fn display(&self) -> String {
        match self {
            Step::Field(f) => format!(".{f}"),
            Step::Key(k) => {
                let v: Value = serde_json::from_str(k).unwrap_or(Value::Null);
                let parts: Vec<String> = v
                    .as_object()
                    .map(|m| m.iter().map(|(k, v)| format!("{k}={v}")).collect())
                    .unwrap_or_default();
                format!("[{}]", parts.join(","))
            }
            Step::Value(v) => format!("[={v}]"),
            Step::Index(i) => format!("[{i}]"),
        }
    }
}

/// A path from the object's root.
pub(crate) type Path = Vec<Step>;

/// A path as the API server prints it: `.spec.containers[name="hello"].image`.
pub(crate) fn display(path: &[Step]) -> String {
    path.iter().map(Step::display).collect()
}

/// A set of paths (what one manager owns, or what a write changed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FieldSet(pub(crate) BTreeSet<Path>);

#[derive(Default)]
struct Tree {
    member: bool,
    children: BTreeMap<Step, Tree>,
}

impl Tree {
    fn to_json(&self) -> Value {
        let mut m = Map::new();
        if self.member && !self.children.is_empty() {
            m.insert(".".into(), Value::Object(Map::new()));
        }
        for (step, child) in &self.children {
            m.insert(step.encode(), child.to_json());
        }
        Value::Object(m)
    }
}

impl FieldSet {
    /// Whether nothing is in the set.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds `path`.
    pub(crate) fn insert(&mut self, path: Path) {
        self.0.insert(path);
    }

    /// The paths of `self` that are also in `other`.
    pub(crate) fn intersection(&self, other: &FieldSet) -> FieldSet {
        FieldSet(self.0.intersection(&other.0).cloned().collect())
    }

    /// The paths of `self` that are not in `other`.
    pub(crate) fn difference(&self, other: &FieldSet) -> FieldSet {
        FieldSet(self.0.difference(&other.0).cloned().collect())
    }

    /// The paths of either set.
    pub(crate) fn union(&self, other: &FieldSet) -> FieldSet {
        FieldSet(self.0.union(&other.0).cloned().collect())
    }

    /// Whether `path` or a path below it is in the set.
    pub(crate) fn covers(&self, path: &[Step]) -> bool {
        self.0
            .range(path.to_vec()..)
            .next()
            .is_some_and(|p| p.starts_with(path))
    }

    /// The `FieldsV1` JSON tree of the set.
    pub(crate) fn to_fields_v1(&self) -> Value {
        let mut root = Tree::default();
        for path in &self.0 {
            let mut node = &mut root;
            for step in path {
                node = node.children.entry(step.clone()).or_default();
            }
            node.member = true;
        }
        root.to_json()
    }

    /// Reads a `FieldsV1` tree; keys it cannot parse are skipped.
    pub(crate) fn from_fields_v1(v: &Value) -> FieldSet {
        fn walk(v: &Value, path: &mut Path, out: &mut FieldSet) {
            let Some(m) = v.as_object() else { return };
            for (k, child) in m {
                if k == "." {
                    out.insert(path.clone());
                    continue;
                }
                let Some(step) = Step::decode(k) else {
                    continue;
                };
                path.push(step);
                if child.as_object().is_none_or(Map::is_empty) {
                    out.insert(path.clone());
                } else {
                    walk(child, path, out);
                }
                path.pop();
            }
        }
        let mut out = FieldSet::default();
        walk(v, &mut Vec::new(), &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn fields_v1_round_trip_and_display() {
        let v = json!({
            "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:containers": {"k:{\"name\":\"hello\"}": {".": {}, "f:image": {}, "f:name": {}}}}
        });
        let set = FieldSet::from_fields_v1(&v);
        assert_eq!(set.0.len(), 5);
        assert_eq!(set.to_fields_v1(), v);
        let image = set
            .0
            .iter()
            .find(|p| p.last() == Some(&Step::Field("image".into())))
            .expect("image path");
        assert_eq!(display(image), ".spec.containers[name=\"hello\"].image");
        let port = Step::key_of(
            &json!({"protocol": "TCP", "containerPort": 80, "name": "http"}),
            &["containerPort".into(), "protocol".into()],
        );
        assert_eq!(
            port.encode(),
            "k:{\"containerPort\":80,\"protocol\":\"TCP\"}"
        );
        assert_eq!(port.display(), "[containerPort=80,protocol=\"TCP\"]");
        assert!(set.covers(&[Step::Field("spec".into())]));
        assert!(!set.covers(&[Step::Field("status".into())]));
    }
}
