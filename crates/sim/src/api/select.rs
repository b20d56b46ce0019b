//! Field and label selectors as the API server parses them (the subset a pod debugger meets).
//!
//! Field selector: `a=b`, `a==b`, `a!=b`, comma = AND. Label selector (the grammar of
//! apimachinery's `labels.Parse`): `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`,
//! `!k`, `k>1`, `k<1`, comma = AND; anything else (`===`, `a in b`, `a,`) is a 400 BadRequest
//! worded like the API server's parser errors.

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
    /// `k>n`: the label is an integer greater than `n`.
    Gt(String, i64),
    /// `k<n`: the label is an integer less than `n`.
    Lt(String, i64),
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
        sel.labels = parse_labels(labels.unwrap_or("")).map_err(ApiError::bad_request)?;
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
    Object::empty(resource).field(field).is_some()
}

fn labels_match(reqs: &[LabelReq], labels: &BTreeMap<String, String>) -> bool {
    reqs.iter().all(|r| match r {
        LabelReq::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
        LabelReq::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
        LabelReq::Exists(k) => labels.contains_key(k),
        LabelReq::DoesNotExist(k) => !labels.contains_key(k),
        LabelReq::Gt(k, n) => int_label(labels, k).is_some_and(|v| v > *n),
        LabelReq::Lt(k, n) => int_label(labels, k).is_some_and(|v| v < *n),
    })
}

fn int_label(labels: &BTreeMap<String, String>, key: &str) -> Option<i64> {
    labels.get(key).and_then(|v| v.parse().ok())
}

/// A token of the label selector language.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `!`, `!=`, `=`, `==`, `>`, `<`, `(`, `)`, `,`.
    Symbol(&'static str),
    In,
    NotIn,
    End,
}

impl Tok {
    fn text(&self) -> &str {
        match self {
            Tok::Ident(s) => s,
            Tok::Symbol(s) => s,
            Tok::In => "in",
            Tok::NotIn => "notin",
            Tok::End => "",
        }
    }
}

/// Splits a label selector into tokens: the longest symbol at each place, identifiers run to
/// whitespace or a symbol (`in`/`notin` are keywords).
fn tokens(text: &str) -> Vec<Tok> {
    const SYMBOLS: [&str; 9] = ["!=", "==", "!", "=", ">", "<", "(", ")", ","];
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            out.push(Tok::End);
            return out;
        }
        if let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            out.push(Tok::Symbol(sym));
            rest = &rest[sym.len()..];
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || "!=><(),".contains(c))
            .unwrap_or(rest.len());
        out.push(match &rest[..end] {
            "in" => Tok::In,
            "notin" => Tok::NotIn,
            word => Tok::Ident(word.to_string()),
        });
        rest = &rest[end..];
    }
}

/// Parses a label selector into requirements (empty text: none). Errors: the parser's message,
/// e.g. `found '==', expected: !, identifier, or 'end of string'`.
fn parse_labels(text: &str) -> Result<Vec<LabelReq>, String> {
    let toks = tokens(text);
    let mut pos = 0;
    let mut reqs = Vec::new();
    loop {
        match &toks[pos] {
            Tok::End => return Ok(reqs),
            Tok::Ident(_) | Tok::Symbol("!") => {}
            t => {
                return Err(format!(
                    "found '{}', expected: !, identifier, or 'end of string'",
                    t.text()
                ));
            }
        }
        let req = requirement(&toks, &mut pos)
            .map_err(|e| format!("unable to parse requirement: {e}"))?;
        reqs.push(req);
        match &toks[pos] {
            Tok::End => return Ok(reqs),
            Tok::Symbol(",") => {
                pos += 1;
                if !matches!(toks[pos], Tok::Ident(_) | Tok::Symbol("!")) {
                    return Err(format!(
                        "found '{}', expected: identifier after ','",
                        toks[pos].text()
                    ));
                }
            }
            t => {
                return Err(format!(
                    "found '{}', expected: ',' or 'end of string'",
                    t.text()
                ));
            }
        }
    }
}

/// One requirement starting at `toks[*pos]`; leaves `pos` after it.
fn requirement(toks: &[Tok], pos: &mut usize) -> Result<LabelReq, String> {
    let not = toks[*pos] == Tok::Symbol("!");
    if not {
        *pos += 1;
    }
    let key = match &toks[*pos] {
        Tok::Ident(k) => k.clone(),
        t => return Err(format!("found '{}', expected: identifier", t.text())),
    };
    *pos += 1;
    if not {
        return Ok(LabelReq::DoesNotExist(key));
    }
    let op = toks[*pos].clone();
    if matches!(op, Tok::End | Tok::Symbol(",")) {
        return Ok(LabelReq::Exists(key));
    }
    *pos += 1;
    match op {
        Tok::In | Tok::NotIn => {
            let values = value_set(toks, pos)?;
            if values.is_empty() {
                return Err("for 'in', 'notin' operators, values set can't be empty".into());
            }
            Ok(if op == Tok::In {
                LabelReq::In(key, values)
            } else {
                LabelReq::NotIn(key, values)
            })
        }
        Tok::Symbol(sym @ ("=" | "==" | "!=" | ">" | "<")) => {
            let value = match &toks[*pos] {
                Tok::Ident(v) => {
                    *pos += 1;
                    v.clone()
                }
                Tok::End | Tok::Symbol(",") => String::new(),
                t => return Err(format!("found '{}', expected: identifier", t.text())),
            };
            let number = || {
                value.parse::<i64>().map_err(|_| {
                    format!("for 'Gt', 'Lt' operators, the value must be an integer: {value:?}")
                })
            };
            Ok(match sym {
                "!=" => LabelReq::NotIn(key, vec![value]),
                ">" => LabelReq::Gt(key, number()?),
                "<" => LabelReq::Lt(key, number()?),
                _ => LabelReq::In(key, vec![value]),
            })
        }
        t => Err(format!(
            "found '{}', expected: in, notin, =, ==, !=, gt, lt",
            t.text()
        )),
    }
}

/// `( v1, v2, … )` starting at `toks[*pos]`.
fn value_set(toks: &[Tok], pos: &mut usize) -> Result<Vec<String>, String> {
    if toks[*pos] != Tok::Symbol("(") {
        return Err(format!("found '{}', expected: '('", toks[*pos].text()));
    }
    *pos += 1;
    let mut values = Vec::new();
    loop {
        match &toks[*pos] {
            Tok::Symbol(")") if values.is_empty() => {
                *pos += 1;
                return Ok(values);
            }
            Tok::Ident(v) => {
                values.push(v.clone());
                *pos += 1;
            }
            Tok::Symbol(",") | Tok::Symbol(")") => values.push(String::new()),
            t => {
                return Err(format!(
                    "found '{}', expected: ',', ')' or identifier",
                    t.text()
                ));
            }
        }
        match &toks[*pos] {
            Tok::Symbol(",") => *pos += 1,
            Tok::Symbol(")") => {
                *pos += 1;
                return Ok(values);
            }
            t => return Err(format!("found '{}', expected: ',' or ')'", t.text())),
        }
    }
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
    fn malformed_label_selectors_are_400_and_valid_ones_parse() {
        for bad in [
            "===", "=", "a in b", "a in ()", "a,", ",a", "a b", "!", "a>x", "a in (b", "(a)",
        ] {
            let err = Selector::parse(Resource::Pods, None, Some(bad)).expect_err(bad);
            assert_eq!((err.code, err.reason), (400, "BadRequest"), "{bad}");
        }
        let err = Selector::parse(Resource::Pods, None, Some("===")).expect_err("===");
        assert_eq!(
            err.message,
            "found '==', expected: !, identifier, or 'end of string'"
        );
        let sel = Selector::parse(
            Resource::Pods,
            None,
            Some(" a = b ,c==,!d, e notin (x,y), f, g>2"),
        )
        .expect("parses");
        assert_eq!(
            sel.labels,
            vec![
                LabelReq::In("a".into(), vec!["b".into()]),
                LabelReq::In("c".into(), vec![String::new()]),
                LabelReq::DoesNotExist("d".into()),
                LabelReq::NotIn("e".into(), vec!["x".into(), "y".into()]),
                LabelReq::Exists("f".into()),
                LabelReq::Gt("g".into(), 2),
            ]
        );
        let mut labels = BTreeMap::new();
        labels.insert("g".to_string(), "3".to_string());
        assert!(labels_match(&[LabelReq::Gt("g".into(), 2)], &labels));
        assert!(!labels_match(&[LabelReq::Lt("g".into(), 2)], &labels));
    }

    #[test]
    fn unknown_field_is_400() {
        let err = Selector::parse(Resource::Pods, Some("spec.bogus=1"), None).expect_err("rejects");
        assert_eq!(err.message, "field label not supported: spec.bogus");
        assert_eq!(err.code, 400);
    }
}
