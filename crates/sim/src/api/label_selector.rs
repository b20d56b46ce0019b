//! `metav1.LabelSelector` (the `spec.selector` of workloads) as apimachinery reads it: matching
//! a label set, and the selector's string form (`app=web,tier in (a,b)`) that Tables and
//! `Scale.status.selector` print (`LabelSelectorAsSelector(…).String()`).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// One requirement of a selector, in the order the string form prints them (by key).
enum Req<'a> {
    In(&'a str, Vec<&'a str>),
    NotIn(&'a str, Vec<&'a str>),
    Exists(&'a str),
    DoesNotExist(&'a str),
    /// An operator apimachinery does not know: the selector is invalid.
    Invalid,
}

fn requirements(sel: &LabelSelector) -> Vec<Req<'_>> {
    let mut reqs: Vec<(String, Req<'_>)> = Vec::new();
    for (k, v) in sel.match_labels.iter().flatten() {
        reqs.push((k.clone(), Req::In(k, vec![v.as_str()])));
    }
    for e in sel.match_expressions.iter().flatten() {
        let mut values: Vec<&str> = e.values.iter().flatten().map(String::as_str).collect();
        values.sort_unstable();
        values.dedup();
        let key = e.key.as_str();
        let req = match e.operator.as_str() {
            "In" => Req::In(key, values),
            "NotIn" => Req::NotIn(key, values),
            "Exists" => Req::Exists(key),
            "DoesNotExist" => Req::DoesNotExist(key),
            _ => Req::Invalid,
        };
        reqs.push((e.key.clone(), req));
    }
    reqs.sort_by(|a, b| a.0.cmp(&b.0));
    reqs.into_iter().map(|(_, r)| r).collect()
}

/// Whether `labels` satisfy `sel`: every `matchLabels` pair and every `matchExpressions`
/// requirement (AND). An empty selector matches everything; an invalid operator matches
/// nothing (as `LabelSelectorAsSelector` fails). A missing selector (`None` at the caller)
/// selects nothing.
pub fn matches(sel: &LabelSelector, labels: &BTreeMap<String, String>) -> bool {
    requirements(sel).iter().all(|r| match r {
        Req::In(k, vs) => labels.get(*k).is_some_and(|v| vs.contains(&v.as_str())),
        Req::NotIn(k, vs) => labels.get(*k).is_none_or(|v| !vs.contains(&v.as_str())),
        Req::Exists(k) => labels.contains_key(*k),
        Req::DoesNotExist(k) => !labels.contains_key(*k),
        Req::Invalid => false,
    })
}

/// The string form of `sel`: requirements sorted by key, `k=v` for a single-valued `In` from
/// `matchLabels`/`In`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, joined by `,`; empty for
/// an empty or missing selector; `None` when an operator is invalid.
pub fn to_string(sel: Option<&LabelSelector>) -> Option<String> {
    let Some(sel) = sel else {
        return Some(String::new());
    };
    let mut parts = Vec::new();
    for r in requirements(sel) {
        parts.push(match r {
            Req::In(k, vs) if vs.len() == 1 => format!("{k}={}", vs[0]),
            Req::In(k, vs) => format!("{k} in ({})", vs.join(",")),
            Req::NotIn(k, vs) => format!("{k} notin ({})", vs.join(",")),
            Req::Exists(k) => k.to_string(),
            Req::DoesNotExist(k) => format!("!{k}"),
            Req::Invalid => return None,
        });
    }
    Some(parts.join(","))
}

/// The Table cell of a selector (`metav1.FormatLabelSelector`): its string form, `<none>`
/// when empty, `<error>` when invalid.
pub fn format(sel: Option<&LabelSelector>) -> String {
    match to_string(sel) {
        None => "<error>".to_string(),
        Some(s) if s.is_empty() => "<none>".to_string(),
        Some(s) => s,
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;

    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    #[test]
    fn match_labels_and_expressions() {
        let sel = LabelSelector {
            match_labels: Some(labels(&[("app", "web")])),
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "tier".into(),
                operator: "In".into(),
                values: Some(vec!["b".into(), "a".into()]),
            }]),
        };
        assert!(matches(&sel, &labels(&[("app", "web"), ("tier", "a")])));
        assert!(!matches(&sel, &labels(&[("app", "web")])));
        assert!(!matches(&sel, &labels(&[("app", "db"), ("tier", "a")])));
        assert_eq!(format(Some(&sel)), "app=web,tier in (a,b)");
        assert!(matches(&LabelSelector::default(), &labels(&[])));
        assert_eq!(format(Some(&LabelSelector::default())), "<none>");
        assert_eq!(format(None), "<none>");
    }
}
