//! Field and label selectors as the API server parses them (the subset a pod debugger meets).
//!
//! Field selector: `a=b`, `a==b`, `a!=b`, comma = AND. Label selector: `k=v`, `k==v`, `k!=v`,
//! `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, comma = AND outside parentheses.

use std::collections::BTreeMap;

use super::object::{Object, Resource};
use super::status::ApiError;

/// One field requirement: `field == value` or `field != value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldReq {
    /// The field label, e.g. `metadata.name`.
    pub field: String,
    /// The compared value.
    pub value: String,
    /// `true` for `!=`.
    pub negate: bool,
}

/// One label requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabelReq {
    /// `k=v`/`k==v`/`k in (..)`: the label exists with one of the values.
    In(String, Vec<String>),
    /// `k!=v`/`k notin (..)`: the label is absent or has none of the values.
    NotIn(String, Vec<String>),
    /// `k`: the label exists.
    Exists(String),
    /// `!k`: the label is absent.
    DoesNotExist(String),
}

/// A parsed pair of selectors; the empty selector matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    /// Field requirements (AND).
    pub fields: Vec<FieldReq>,
    /// Label requirements (AND).
    pub labels: Vec<LabelReq>,
}

impl Selector {
    /// Parses `fieldSelector` and `labelSelector` for `resource`.
    ///
    /// Errors: 400 BadRequest `field label not supported: <label>` for unknown field labels and
    /// `unable to parse requirement: <text>` for malformed parts.
    pub fn parse(
        resource: Resource,
        fields: Option<&str>,
        labels: Option<&str>,
    ) -> Result<Self, ApiError> {
        let mut sel = Selector::default();
        for part in fields
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (field, value, negate) = if let Some((a, b)) = part.split_once("!=") {
                (a, b, true)
            } else if let Some((a, b)) = part.split_once("==") {
                (a, b, false)
            } else if let Some((a, b)) = part.split_once('=') {
                (a, b, false)
            } else {
                return Err(ApiError::bad_request(format!(
                    "invalid selector: '{part}'; can't understand '{part}'"
                )));
            };
            let field = field.trim().to_string();
            if !field_supported(resource, &field) {
                return Err(ApiError::bad_request(format!(
                    "field label not supported: {field}"
                )));
            }
            sel.fields.push(FieldReq {
                field,
                value: value.trim().to_string(),
                negate,
            });
        }
        for part in split_top_level(labels.unwrap_or("")) {
            sel.labels.push(parse_label_req(&part)?);
        }
        Ok(sel)
    }

    /// Whether `obj` satisfies every requirement.
    pub fn matches(&self, obj: &Object) -> bool {
        let fields_ok = self.fields.iter().all(|r| {
            let v = obj.field(&r.field).unwrap_or_default();
            (v == r.value) != r.negate
        });
        fields_ok && labels_match(&self.labels, &obj.labels())
    }
}

fn field_supported(resource: Resource, field: &str) -> bool {
    let probe = match resource {
        Resource::Pods => Object::Pod(Default::default()),
        Resource::Events => Object::Event(Default::default()),
    };
    probe.field(field).is_some()
}

fn labels_match(reqs: &[LabelReq], labels: &BTreeMap<String, String>) -> bool {
    reqs.iter().all(|r| match r {
        LabelReq::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
        LabelReq::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
        LabelReq::Exists(k) => labels.contains_key(k),
        LabelReq::DoesNotExist(k) => !labels.contains_key(k),
    })
}

/// Splits on commas that are not inside parentheses; trims and drops empty parts.
fn split_top_level(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in text.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    parts.push(cur);
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn parse_label_req(part: &str) -> Result<LabelReq, ApiError> {
    let bad = || ApiError::bad_request(format!("unable to parse requirement: {part}"));
    let set = |rest: &str| -> Result<Vec<String>, ApiError> {
        let inner = rest
            .trim()
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(bad)?;
        Ok(inner.split(',').map(|v| v.trim().to_string()).collect())
    };
    if let Some(k) = part.strip_prefix('!') {
        return Ok(LabelReq::DoesNotExist(k.trim().to_string()));
    }
    if let Some((k, v)) = part.split_once("!=") {
        return Ok(LabelReq::NotIn(
            k.trim().to_string(),
            vec![v.trim().to_string()],
        ));
    }
    if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
        return Ok(LabelReq::In(
            k.trim().to_string(),
            vec![v.trim().to_string()],
        ));
    }
    if let Some((k, rest)) = part.split_once(" notin ") {
        return Ok(LabelReq::NotIn(k.trim().to_string(), set(rest)?));
    }
    if let Some((k, rest)) = part.split_once(" in ") {
        return Ok(LabelReq::In(k.trim().to_string(), set(rest)?));
    }
    if part.contains(char::is_whitespace) || part.contains('(') {
        return Err(bad());
    }
    Ok(LabelReq::Exists(part.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_in_and_notin() {
        let sel = Selector::parse(Resource::Pods, None, Some("app in (a, b),tier!=db,!gone"))
            .expect("parses");
        let mut labels = BTreeMap::new();
        labels.insert("app".to_string(), "b".to_string());
        assert!(labels_match(&sel.labels, &labels));
        labels.insert("tier".to_string(), "db".to_string());
        assert!(!labels_match(&sel.labels, &labels));
    }

    #[test]
    fn unknown_field_is_400() {
        let err = Selector::parse(Resource::Pods, Some("spec.bogus=1"), None).expect_err("rejects");
        assert_eq!(err.message, "field label not supported: spec.bogus");
        assert_eq!(err.code, 400);
    }
}
