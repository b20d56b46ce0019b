//! LIST consistency and pages (`docs/protocols.md` §1.8): `resourceVersion` with
//! `resourceVersionMatch` (`NotOlderThan`, `Exact`), `limit` and `continue`.
//!
//! The store keeps the current objects and the last changes ([`Store::watch_start`]); the state
//! at an older resourceVersion still in that history is the current state with the later
//! changes undone, which is how an `Exact` list and every page after the first are served
//! consistently (etcd answers both from its MVCC history). A continue token is opaque to clients:
//! base64 of `{"v":"meta.k8s.io/v1","rv":<list RV>,"start":"<namespace>/<name>\u0000"}`, the
//! shape kube-apiserver's etcd3 store encodes (`storage/etcd3`'s `encodeContinue`).

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::object::{Object, Resource};
use super::query::Query;
use super::status::ApiError;
use super::store::{ChangeType, Store};

/// What a list asks to read: the state at `rv` (`None`: the current state) from after the
/// key `after`, at most `limit` items.
#[derive(Debug, Default)]
pub(crate) struct ListRequest {
    rv: Option<u64>,
    after: Option<String>,
    limit: Option<usize>,
}

/// One page: the objects, the resourceVersion they are at, the continue token when more
/// follow, and how many more (`metadata.remainingItemCount`).
#[derive(Debug)]
pub(crate) struct ListPage {
    pub(crate) objects: Vec<Object>,
    pub(crate) rv: u64,
    pub(crate) next: Option<String>,
    pub(crate) remaining: Option<usize>,
}

fn invalid_list_options(cause: &str) -> ApiError {
    ApiError {
        code: 422,
        reason: "Invalid",
        message: format!("ListOptions.meta.k8s.io \"\" is invalid: {cause}"),
    }
}

/// 410 Expired for a continue token whose resourceVersion left the history (the wording of
/// kube-apiserver's etcd3 store for a compacted continue).
fn continue_expired() -> ApiError {
    ApiError {
        code: 410,
        reason: "Expired",
        message: "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.".to_string(),
    }
}

fn bad_continue(why: &str) -> ApiError {
    ApiError::bad_request(format!("continue key is not valid: {why}"))
}

fn encode_continue(rv: u64, last: &str) -> String {
    let token = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": format!("{last}\u{0}")});
    STANDARD.encode(token.to_string())
}

fn decode_continue(token: &str) -> Result<(u64, String), ApiError> {
    let raw = STANDARD
        .decode(token)
        .map_err(|_| bad_continue("illegal base64 data"))?;
    let v: Value = serde_json::from_slice(&raw).map_err(|e| bad_continue(&e.to_string()))?;
    if v["v"] != "meta.k8s.io/v1" {
        return Err(bad_continue("server does not recognize this encoded key"));
    }
    let rv = v["rv"].as_u64().filter(|r| *r > 0).ok_or_else(|| {
        bad_continue("incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
    })?;
    let start = v["start"].as_str().unwrap_or("").trim_end_matches('\u{0}');
    Ok((rv, start.to_string()))
}

impl ListRequest {
    /// Reads `resourceVersion`, `resourceVersionMatch`, `limit` and `continue` as
    /// `ValidateListOptions` of `apimachinery/pkg/apis/meta/internalversion/validation` does.
    /// Errors: 422 `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden:
    /// resourceVersionMatch is forbidden unless resourceVersion is provided` (and the other
    /// checks there), 400 for a malformed value or continue token, 410 Expired for an `Exact`
    /// resourceVersion or a continue token older than the history, 504 for a resourceVersion
    /// newer than the store's.
    pub(crate) fn parse(store: &Store, q: &Query) -> Result<ListRequest, ApiError> {
        let rv = q.get("resourceVersion").unwrap_or("");
        let matching = q.get("resourceVersionMatch").unwrap_or("");
        let cont = q.get("continue").unwrap_or("");
        let forbidden =
            |why: &str| invalid_list_options(&format!("resourceVersionMatch: Forbidden: {why}"));
        if !matching.is_empty() {
            if rv.is_empty() {
                return Err(forbidden(
                    "resourceVersionMatch is forbidden unless resourceVersion is provided",
                ));
            }
            if !cont.is_empty() {
                return Err(forbidden(
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
            if matching != "Exact" && matching != "NotOlderThan" {
                return Err(invalid_list_options(&format!(
                    "resourceVersionMatch: Unsupported value: {matching:?}: supported values: \"Exact\", \"NotOlderThan\", \"\""
                )));
            }
            if matching == "Exact" && rv == "0" {
                return Err(forbidden(
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
                ));
            }
        }
        let limit = q.number("limit")?.filter(|l| *l > 0).map(|l| l as usize);
        let current = store.resource_version();
        if !cont.is_empty() {
            let (rv, after) = decode_continue(cont)?;
            return Ok(ListRequest {
                rv: Some(rv),
                after: Some(after),
                limit,
            });
        }
        let wanted = match rv {
            "" | "0" => None,
            v => Some(
                v.parse::<u64>()
                    .map_err(|_| ApiError::bad_request(format!("invalid resource version: {v}")))?,
            ),
        };
        if let Some(w) = wanted
            && w > current
        {
            return Err(ApiError {
                code: 504,
                reason: "Timeout",
                message: format!("Too large resource version: {w}, current: {current}"),
            });
        }
        Ok(ListRequest {
            rv: wanted.filter(|_| matching == "Exact"),
            after: None,
            limit,
        })
    }
}

/// The objects of `res` (in `ns`) at resourceVersion `rv` (namespace/name order), and `rv`; the
/// current ones for `None`. Errors: 410 `too old resource version: N (M)` when `rv` is older
/// than the history.
fn state_at(
    store: &Store,
    res: Resource,
    ns: Option<&str>,
    rv: Option<u64>,
) -> Result<(Vec<Object>, u64), ApiError> {
    let Some(rv) = rv else {
        return Ok(store.list(res, ns));
    };
    loop {
        let start = store.watch_start(res, ns, Some(rv));
        let later = start.initial?;
        let (objects, now) = store.list(res, ns);
        if now != start.current_rv {
            continue; // A write came in between: read both again.
        }
        let key = |o: &Object| (o.namespace().to_string(), o.name().to_string());
        let mut at: BTreeMap<(String, String), Object> =
            objects.into_iter().map(|o| (key(&o), o)).collect();
        let mine = |o: &Object| o.resource() == res && ns.is_none_or(|n| o.namespace() == n);
        for change in later.iter().rev().filter(|c| mine(&c.object)) {
            match (change.change_type, &change.previous) {
                (ChangeType::Added, _) => {
                    at.remove(&key(&change.object));
                }
                (ChangeType::Modified, Some(p)) | (ChangeType::Deleted, Some(p)) => {
                    at.insert(key(p), p.clone());
                }
                (ChangeType::Deleted, None) => {
                    at.insert(key(&change.object), change.object.clone());
                }
                (ChangeType::Modified, None) => {}
            }
        }
        return Ok((at.into_values().collect(), rv));
    }
}

/// One page of the objects of `res` (in `ns`) that `keep` selects, as `req` asks;
/// `remainingItemCount` only when `count_remaining` (the API server leaves it out under a
/// selector). Errors: 410 as [`ListRequest::parse`] describes.
pub(crate) fn list(
    store: &Store,
    res: Resource,
    ns: Option<&str>,
    req: &ListRequest,
    keep: impl Fn(&Object) -> bool,
    count_remaining: bool,
) -> Result<ListPage, ApiError> {
    let (objects, rv) = state_at(store, res, ns, req.rv).map_err(|e| {
        if req.after.is_some() {
            continue_expired()
        } else {
            e
        }
    })?;
    let key = |o: &Object| format!("{}/{}", o.namespace(), o.name());
    let mut selected: Vec<Object> = objects
        .into_iter()
        .filter(|o| req.after.as_ref().is_none_or(|a| key(o) > *a))
        .filter(|o| keep(o))
        .collect();
    let Some(limit) = req.limit.filter(|l| *l < selected.len()) else {
        return Ok(ListPage {
            objects: selected,
            rv,
            next: None,
            remaining: None,
        });
    };
    let rest = selected.split_off(limit);
    let next = selected.last().map(|o| encode_continue(rv, &key(o)));
    Ok(ListPage {
        objects: selected,
        rv,
        next,
        remaining: count_remaining.then_some(rest.len()),
    })
}
