//! Label selectors in kubectl's syntax: parsing `-l` as the API server does (so a typo is named
//! before any request, in the server's words) and rendering a `spec.selector` back to text
//! (`docs/workloads.md` "Selectors"; source: `staging/src/k8s.io/apimachinery/pkg/labels/
//! selector.go` and `metav1.LabelSelectorAsSelector` in `.../apis/meta/v1/helpers.go`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// One requirement of a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    /// `key` (the label is set, any value).
    Exists(String),
    /// `!key`.
    DoesNotExist(String),
    /// `key=value`, `key==value`, `key in (a,b)`: the label is one of the values.
    In(String, Vec<String>),
    /// `key!=value`, `key notin (a,b)`: the label is absent or none of the values.
    NotIn(String, Vec<String>),
    /// `key>N` (an integer label greater than N).
    Gt(String, i64),
    /// `key<N`.
    Lt(String, i64),
}

/// A parsed selector: every requirement must hold (an empty one selects everything).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selector(pub Vec<Requirement>);

impl Selector {
    /// Whether it has no requirement (it would select every object).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `labels` satisfy every requirement.
    #[must_use]
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.0.iter().all(|r| match r {
            Requirement::Exists(k) => labels.contains_key(k),
            Requirement::DoesNotExist(k) => !labels.contains_key(k),
            Requirement::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
            Requirement::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
            Requirement::Gt(k, n) => int(labels, k).is_some_and(|v| v > *n),
            Requirement::Lt(k, n) => int(labels, k).is_some_and(|v| v < *n),
        })
    }
}

fn int(labels: &BTreeMap<String, String>, key: &str) -> Option<i64> {
    labels.get(key)?.parse().ok()
}

/// A token of the selector grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    /// One of `!`, `!=`, `=`, `==`, `>`, `<`, `(`, `)`, `,`.
    Sym(&'static str),
    End,
}

impl Token {
    /// The literal the parser's messages quote (`''` at the end).
    fn literal(&self) -> &str {
        match self {
            Token::Word(w) => w,
            Token::Sym(s) => s,
            Token::End => "",
        }
    }

    fn is_start(&self) -> bool {
        matches!(self, Token::Word(_) | Token::Sym("!"))
    }
}

/// Characters that end a word: whitespace and the grammar's symbols.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, '!' | '=' | '>' | '<' | '(' | ')' | ',')
}

fn lex(text: &str) -> Vec<Token> {
    const SYMBOLS: [&str; 9] = ["!=", "==", "!", "=", ">", "<", "(", ")", ","];
    let mut tokens = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(sym) = SYMBOLS.into_iter().find(|s| rest.starts_with(s)) {
            tokens.push(Token::Sym(sym));
            rest = &rest[sym.len()..];
        } else {
            let end = rest.find(ends_word).unwrap_or(rest.len());
            tokens.push(Token::Word(rest[..end].to_owned()));
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    tokens.push(Token::End);
    tokens
}

/// A cursor over the tokens; the last token is always [`Token::End`].
struct Cursor {
    tokens: Vec<Token>,
    at: usize,
}

impl Cursor {
    fn peek(&self) -> &Token {
        self.tokens.get(self.at).unwrap_or(&Token::End)
    }

    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        self.at = (self.at + 1).min(self.tokens.len());
        t
    }
}

/// Parses `text` as the API server parses `labelSelector` (empty text: no requirement).
///
/// # Errors
/// The server's wording: `found ',', expected: !, identifier, or 'end of string'`, `found 'b',
/// expected: ',' or 'end of string'`, and for a bad requirement `unable to parse requirement:
/// found 'x' expected: '('`, `… found '', expected: in, notin, =, ==, !=, gt, lt`, an invalid
/// label key or value.
pub fn parse(text: &str) -> Result<Selector, String> {
    let mut c = Cursor {
        tokens: lex(text),
        at: 0,
    };
    let mut out = Vec::new();
    loop {
        if *c.peek() == Token::End {
            return Ok(Selector(out));
        }
        if !c.peek().is_start() {
            return Err(format!(
                "found '{}', expected: !, identifier, or 'end of string'",
                c.peek().literal()
            ));
        }
        out.push(requirement(&mut c).map_err(|e| format!("unable to parse requirement: {e}"))?);
        match c.next() {
            Token::End => return Ok(Selector(out)),
            Token::Sym(",") if c.peek().is_start() => {}
            Token::Sym(",") => {
                return Err(format!(
                    "found '{}', expected: identifier after ','",
                    c.peek().literal()
                ));
            }
            t => {
                return Err(format!(
                    "found '{}', expected: ',' or 'end of string'",
                    t.literal()
                ));
            }
        }
    }
}

fn requirement(c: &mut Cursor) -> Result<Requirement, String> {
    let negated = *c.peek() == Token::Sym("!");
    if negated {
        c.next();
    }
    let key = match c.next() {
        Token::Word(k) => k,
        t => return Err(format!("found '{}', expected: identifier", t.literal())),
    };
    check_key(&key)?;
    if negated {
        return Ok(Requirement::DoesNotExist(key));
    }
    if matches!(c.peek(), Token::End | Token::Sym(",")) {
        return Ok(Requirement::Exists(key));
    }
    let op = c.next();
    match op.literal() {
        "in" | "notin" => {
            let values = values(c)?;
            for v in &values {
                check_value(&key, v)?;
            }
            Ok(if op.literal() == "in" {
                Requirement::In(key, values)
            } else {
                Requirement::NotIn(key, values)
            })
        }
        "=" | "==" | "!=" | ">" | "<" if matches!(op, Token::Sym(_)) => {
            let value = match c.peek() {
                Token::End | Token::Sym(",") => String::new(),
                Token::Word(w) => {
                    let w = w.clone();
                    c.next();
                    w
                }
                t => return Err(format!("found '{}', expected: identifier", t.literal())),
            };
            let number = || {
                value.parse::<i64>().map_err(|_| {
                    format!("for 'Gt', 'Lt' operators, the value must be an integer: {value:?}")
                })
            };
            match op.literal() {
                ">" => Ok(Requirement::Gt(key, number()?)),
                "<" => Ok(Requirement::Lt(key, number()?)),
                sym => {
                    check_value(&key, &value)?;
                    Ok(if sym == "!=" {
                        Requirement::NotIn(key, vec![value])
                    } else {
                        Requirement::In(key, vec![value])
                    })
                }
            }
        }
        lit => Err(format!(
            "found '{lit}', expected: in, notin, =, ==, !=, gt, lt"
        )),
    }
}

/// `( a, b )` after `in`/`notin`; `()` and empty places (`(a,)`) are the empty value, as the
/// API server's parser has it.
fn values(c: &mut Cursor) -> Result<Vec<String>, String> {
    let open = c.next();
    if open != Token::Sym("(") {
        return Err(format!("found '{}' expected: '('", open.literal()));
    }
    let mut out: Vec<String> = Vec::new();
    match c.peek() {
        Token::Sym(")") => {
            c.next();
            return Ok(vec![String::new()]);
        }
        Token::Word(_) | Token::Sym(",") => {}
        t => {
            return Err(format!(
                "found '{}', expected: ',', ')' or identifier",
                t.literal()
            ));
        }
    }
    loop {
        match c.next() {
            Token::Word(w) => {
                out.push(w);
                match c.peek() {
                    Token::Sym(",") => {}
                    Token::Sym(")") => {
                        c.next();
                        break;
                    }
                    t => return Err(format!("found '{}', expected: ',' or ')'", t.literal())),
                }
            }
            Token::Sym(",") => {
                if out.is_empty() {
                    out.push(String::new());
                }
                match c.peek() {
                    Token::Sym(")") => {
                        c.next();
                        out.push(String::new());
                        break;
                    }
                    Token::Sym(",") => {
                        c.next();
                        out.push(String::new());
                    }
                    _ => {}
                }
            }
            t => {
                return Err(format!(
                    "found '{}', expected: ',', or identifier",
                    t.literal()
                ));
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// A label key: an optional DNS-subdomain prefix and `/`, then a name of at most 63
/// alphanumerics, `-`, `_`, `.`, starting and ending alphanumeric.
fn check_key(key: &str) -> Result<(), String> {
    let (prefix, name) = key.rsplit_once('/').unwrap_or(("", key));
    let prefix_ok = key.rsplit_once('/').is_none()
        || (!prefix.is_empty()
            && prefix.len() <= 253
            && prefix.split('.').all(|p| {
                !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && !p.starts_with('-')
                    && !p.ends_with('-')
            }));
    if prefix_ok && !name.is_empty() && name_ok(name) {
        return Ok(());
    }
    Err(format!(
        "invalid label key {key:?}: name part must consist of alphanumeric characters, '-', \
         '_' or '.', and must start and end with an alphanumeric character"
    ))
}

/// A label value: empty, or at most 63 alphanumerics, `-`, `_`, `.`, starting and ending
/// alphanumeric.
fn check_value(key: &str, value: &str) -> Result<(), String> {
    if value.is_empty() || name_ok(value) {
        return Ok(());
    }
    Err(format!(
        "invalid label value: {value:?}: at key: {key:?}: a valid label must be an empty string \
         or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an \
         alphanumeric character"
    ))
}

fn name_ok(s: &str) -> bool {
    s.len() <= 63
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// `spec.selector` in kubectl's syntax, requirements sorted by key as the API machinery sorts
/// them: `matchLabels` as `k=v`, `matchExpressions` as `k in (a,b)`, `k notin (a)`, `k`, `!k`.
/// Empty when the selector has no requirement (it selects everything; callers must not list
/// with it). An operator the API does not define is skipped.
#[must_use]
pub fn render(selector: &LabelSelector) -> String {
    let mut parts: Vec<(String, String)> = Vec::new();
    for (k, v) in selector.match_labels.iter().flatten() {
        parts.push((k.clone(), format!("{k}={v}")));
    }
    for e in selector.match_expressions.iter().flatten() {
        let mut values = e.values.clone().unwrap_or_default();
        values.sort();
        let k = &e.key;
        let text = match e.operator.as_str() {
            "In" => format!("{k} in ({})", values.join(",")),
            "NotIn" => format!("{k} notin ({})", values.join(",")),
            "Exists" => k.clone(),
            "DoesNotExist" => format!("!{k}"),
            _ => continue,
        };
        parts.push((k.clone(), text));
    }
    parts.sort();
    parts
        .into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join(",")
}

/// `labels` as an equality selector (`app=web,tier=front`), leaving out `skip` keys (e.g.
/// `pod-template-hash` when a pod's labels stand in for its owner's selector).
#[must_use]
pub fn from_labels(labels: &BTreeMap<String, String>, skip: &[&str]) -> String {
    let mut out = String::new();
    for (k, v) in labels.iter().filter(|(k, _)| !skip.contains(&k.as_str())) {
        if !out.is_empty() {
            out.push(',');
        }
        let _ = write!(out, "{k}={v}");
    }
    out
}
