//! JSON patch (RFC 6902): `add`, `remove`, `replace`, `move`, `copy`, `test` with JSON pointers.

use serde_json::Value;

use crate::sim::api::status::ApiError;

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

pub(super) fn apply(doc: &mut Value, patch: &Value) -> Result<(), ApiError> {
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
