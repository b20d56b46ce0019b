//! A Kubernetes object as `kubectl get -o yaml` prints it (`docs/views.md` §1): the object's
//! JSON with every map's keys sorted (kubectl converts JSON to YAML through a map, so
//! `apiVersion`, `kind`, `metadata`, `spec`, `status` come in that order), `managedFields`
//! left out unless asked for (kubectl ≥ 1.21 hides them without `--show-managed-fields`).
//!
//! The text is the real one (what `s` saves and `--once -o yaml` prints); [`display_lines`]
//! is what may reach a terminal. [`syntax`] classifies a line's parts for colouring.

pub mod syntax;

use k8s_openapi::api::core::v1::Pod;
use serde_json::{Map, Value};

use crate::sanitize::sanitize;

/// The pod as its JSON object (`apiVersion: v1`, `kind: Pod` included). k8s-openapi's `Pod`
/// keeps only the fields it knows: a field newer than the crate's API version is not kept.
#[must_use]
pub fn pod_value(pod: &Pod) -> Value {
    serde_json::to_value(pod).unwrap_or(Value::Null)
}

/// `object` with every map's keys sorted bytewise, as kubectl prints them, and
/// `metadata.managedFields` removed unless `managed_fields`.
#[must_use]
pub fn normalised(object: &Value, managed_fields: bool) -> Value {
    let mut v = sorted(object);
    if !managed_fields && let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        // `shift_remove`: the keys after it keep their (sorted) order.
        meta.shift_remove("managedFields");
    }
    v
}

fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let mut out = Map::new();
            for (k, v) in entries {
                out.insert(k.clone(), sorted(v));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// `object` as YAML text (see the module docs), ending in a newline; empty if it cannot be
/// written (a `Value` always can).
#[must_use]
pub fn to_yaml(object: &Value, managed_fields: bool) -> String {
    let text = serde_yaml_ng::to_string(&normalised(object, managed_fields)).unwrap_or_default();
    quote_timestamps(&text)
}

/// A plain scalar that a YAML 1.1 reader (PyYAML, go-yaml v2) takes for a timestamp, not a
/// string: `2026-12-01`, `2026-12-01T23:10:01Z`, `2001-12-14 21:59:43.10 -5` (the 1.1
/// timestamp type's pattern).
fn timestamp_like(value: &str) -> bool {
    static PATTERN: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^\d{4}-\d{1,2}-\d{1,2}(([Tt]|[ \t]+)\d{1,2}:\d{2}:\d{2}(\.\d*)?([ \t]*(Z|[-+]\d{1,2}(:\d{2})?))?)?$",
        )
        .ok()
    });
    PATTERN.as_ref().is_some_and(|p| p.is_match(value))
}

/// `text` with every timestamp-like plain value double-quoted, as kubectl writes them
/// (`creationTimestamp: "2026-12-01T23:10:01Z"`), so a YAML 1.1 reader gets the same string
/// kubectl's output gives it. A value after `key: ` or a list's `- `; block scalars untouched.
fn quote_timestamps(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let value_at = body.find(": ").map(|i| i + 2).or_else(|| {
            body.trim_start()
                .starts_with("- ")
                .then(|| body.len() - body.trim_start().len() + 2)
        });
        match value_at {
            Some(at) if timestamp_like(&body[at..]) => {
                out.push_str(&body[..at]);
                out.push('"');
                out.push_str(&body[at..]);
                out.push('"');
                out.push_str(&line[body.len()..]);
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// The lines of `text` safe for a terminal: each one through [`sanitize`] (an escape
/// sequence in a value shows as `␛[…`, never as a command to the terminal).
#[must_use]
pub fn display_lines(text: &str) -> Vec<String> {
    text.lines().map(|l| sanitize(l).into_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_and_managed_fields_hidden() {
        let obj = json!({
            "status": {"phase": "Running"},
            "kind": "Pod",
            "metadata": {"name": "a", "managedFields": [{"manager": "kubectl"}], "labels": {"b": "1", "a": "2"}},
            "apiVersion": "v1",
        });
        let text = to_yaml(&obj, false);
        assert_eq!(
            text,
            "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    a: '2'\n    b: '1'\n  name: a\nstatus:\n  phase: Running\n"
        );
        assert!(to_yaml(&obj, true).contains("managedFields:\n  - manager: kubectl\n"));
    }

    #[test]
    fn an_escape_sequence_never_reaches_the_terminal() {
        let obj = json!({"metadata": {"annotations": {"x": "a\u{1b}[2Jb"}}});
        let text = to_yaml(&obj, false);
        for line in display_lines(&text) {
            assert!(!line.contains('\u{1b}'), "{line:?}");
        }
        let back: Value = serde_yaml_ng::from_str(&text).expect("parses");
        assert_eq!(back["metadata"]["annotations"]["x"], "a\u{1b}[2Jb");
    }

    #[test]
    fn hiding_managed_fields_keeps_the_order_of_the_keys_after_it() {
        let obj = json!({"metadata": {"uid": "u", "name": "a", "managedFields": [], "labels": {}}});
        assert_eq!(
            to_yaml(&obj, false),
            "metadata:\n  labels: {}\n  name: a\n  uid: u\n"
        );
    }

    #[test]
    fn timestamps_are_quoted_as_kubectl_writes_them() {
        let obj = json!({"metadata": {"creationTimestamp": "2026-12-01T23:10:01Z"},
            "status": {"startTime": "2026-12-01T23:10:02Z", "dates": ["2026-12-01"],
            "message": "started 2026-12-01T23:10:02Z"}});
        let text = to_yaml(&obj, false);
        assert!(
            text.contains("  creationTimestamp: \"2026-12-01T23:10:01Z\"\n"),
            "{text}"
        );
        assert!(text.contains("  - \"2026-12-01\"\n"), "{text}");
        assert!(
            text.contains("  message: started 2026-12-01T23:10:02Z\n"),
            "{text}"
        );
        let back: Value = serde_yaml_ng::from_str(&text).expect("parses");
        assert_eq!(back, normalised(&obj, false));
    }
}
