//! The multi-line map and list fields: Labels, Annotations, Node-Selectors, Tolerations and
//! Topology Spread Constraints (`printLabelsMultiline`, `printAnnotationsMultiline`,
//! `printPodTolerationsMultiline`, `describeTopologySpreadConstraints` in kubectl's
//! `describe.go`).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Toleration, TopologySpreadConstraint};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

use super::out::{Out, clean};

/// kubectl drops this annotation from describe output.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Above this many bytes (`key: value`) an annotation is printed on its own lines, each line
/// cut to 138 bytes with `...` (kubectl's `maxAnnotationLen`).
const MAX_ANNOTATION_LEN: usize = 140;

/// `title:\tk=v` for the first key (sorted), `\tk=v` for the rest; `<none>` when empty.
pub(super) fn labels(o: &mut Out, title: &str, map: Option<&BTreeMap<String, String>>) {
    o.w(0, &format!("{title}:\t"));
    let Some(map) = map.filter(|m| !m.is_empty()) else {
        o.w(0, "<none>\n");
        return;
    };
    for (i, (k, v)) in map.iter().enumerate() {
        if i != 0 {
            o.w(0, "\t");
        }
        o.w(0, &format!("{}={}\n", clean(k), clean(v)));
    }
}

/// Like [`labels`] with `key: value`, skipping `last-applied-configuration`; a value with a
/// newline, or one making `key: value` longer than 140 bytes, goes below its `key:` line by
/// line, each indented two spaces and cut to 138 bytes + `...`.
pub(super) fn annotations(o: &mut Out, title: &str, map: Option<&BTreeMap<String, String>>) {
    o.w(0, &format!("{title}:\t"));
    let keys: Vec<(&String, &String)> = map
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.as_str() != LAST_APPLIED)
        .collect();
    if keys.is_empty() {
        o.w(0, "<none>\n");
        return;
    }
    for (i, (k, v)) in keys.into_iter().enumerate() {
        if i != 0 {
            o.w(0, "\t");
        }
        let value = v.strip_suffix('\n').unwrap_or(v);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            o.w(0, &format!("{}:\n", clean(k)));
            for line in value.split('\n') {
                o.w(
                    0,
                    &format!("\t  {}\n", clean(&shorten(line, MAX_ANNOTATION_LEN - 2))),
                );
            }
        } else {
            o.w(0, &format!("{}: {}\n", clean(k), clean(value)));
        }
    }
}

/// kubectl's `shorten`: the first `max` bytes + `...` when longer (cut back to a character
/// boundary here, where Go would cut inside a multi-byte character).
fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// `key[=value][:effect][ op=Exists][ for Ns]`, sorted by key; `op=Exists` alone for the
/// toleration that tolerates everything.
pub(super) fn tolerations(o: &mut Out, title: &str, list: &[Toleration]) {
    o.w(0, &format!("{title}:\t"));
    if list.is_empty() {
        o.w(0, "<none>\n");
        return;
    }
    let mut list = list.to_vec();
    list.sort_by(|a, b| a.key.cmp(&b.key));
    for (i, t) in list.iter().enumerate() {
        if i != 0 {
            o.w(0, "\t");
        }
        let key = t.key.as_deref().unwrap_or("");
        let value = t.value.as_deref().unwrap_or("");
        let effect = t.effect.as_deref().unwrap_or("");
        let mut s = clean(key).into_owned();
        if !value.is_empty() {
            s.push('=');
            s.push_str(&clean(value));
        }
        if !effect.is_empty() {
            s.push(':');
            s.push_str(&clean(effect));
        }
        if t.operator.as_deref() == Some("Exists") && value.is_empty() {
            if !key.is_empty() || !effect.is_empty() {
                s.push_str(" op=Exists");
            } else {
                s.push_str("op=Exists");
            }
        }
        if let Some(secs) = t.toleration_seconds {
            s.push_str(&format!(" for {secs}s"));
        }
        o.w(0, &format!("{s}\n"));
    }
}

/// `Topology Spread Constraints:\tkey:whenUnsatisfiable when max skew N is exceeded[ for
/// selector S]`, sorted by topology key; nothing when there are none.
pub(super) fn topology_spread(o: &mut Out, list: &[TopologySpreadConstraint]) {
    if list.is_empty() {
        return;
    }
    let mut list = list.to_vec();
    list.sort_by(|a, b| a.topology_key.cmp(&b.topology_key));
    o.w(0, "Topology Spread Constraints:\t");
    for (i, t) in list.iter().enumerate() {
        if i != 0 {
            o.w(0, "\t");
        }
        let mut s = format!(
            "{}:{} when max skew {} is exceeded",
            clean(&t.topology_key),
            clean(&t.when_unsatisfiable),
            t.max_skew
        );
        if let Some(sel) = &t.label_selector {
            s.push_str(&format!(" for selector {}", clean(&format_selector(sel))));
        }
        o.w(0, &format!("{s}\n"));
    }
}

/// apimachinery's `FormatLabelSelector`: `k=v` for match labels, then `k in (a,b)`,
/// `k notin (a)`, `k`, `!k` for expressions, comma-separated; `<none>` when empty.
fn format_selector(sel: &LabelSelector) -> String {
    let mut parts: Vec<String> = sel
        .match_labels
        .iter()
        .flatten()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    for e in sel.match_expressions.iter().flatten() {
        let mut values = e.values.clone().unwrap_or_default();
        values.sort();
        let vals = values.join(",");
        parts.push(match e.operator.as_str() {
            "In" => format!("{} in ({vals})", e.key),
            "NotIn" => format!("{} notin ({vals})", e.key),
            "Exists" => e.key.clone(),
            "DoesNotExist" => format!("!{}", e.key),
            op => format!("{} {op} ({vals})", e.key),
        });
    }
    if parts.is_empty() {
        "<none>".to_string()
    } else {
        parts.join(",")
    }
}
