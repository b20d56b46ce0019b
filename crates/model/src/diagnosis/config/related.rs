//! What a GET of an object the finding rests on said, as one line of evidence.

use super::super::{Inputs, Lookup, ObjectRef};

/// `Secret site-password: absent (GET returned 404)`, `ConfigMap app: exists, keys: a, b`,
/// `PersistentVolumeClaim data: exists, phase Pending`, `Node n1: exists, conditions:
/// Ready=Unknown (NodeStatusUnknown)`, `… could not be checked (403: …)`; `None` while
/// `inp.related` has no answer for `r`.
pub(crate) fn lookup_line(inp: &Inputs<'_>, r: &ObjectRef) -> Option<String> {
    let what = r.describe();
    Some(match inp.related.get(r)? {
        Lookup::Found {
            keys,
            phase,
            conditions,
        } => match r {
            ObjectRef::Secret(_) | ObjectRef::ConfigMap(_) if keys.is_empty() => {
                format!("{what}: exists, no keys")
            }
            ObjectRef::Secret(_) | ObjectRef::ConfigMap(_) => {
                format!("{what}: exists, keys: {}", keys.join(", "))
            }
            ObjectRef::PersistentVolumeClaim(_) => format!(
                "{what}: exists, phase {}",
                phase.as_deref().unwrap_or("<none>")
            ),
            ObjectRef::Node(_) if conditions.is_empty() => {
                format!("{what}: exists, conditions healthy")
            }
            ObjectRef::Node(_) => format!("{what}: exists, conditions: {}", conditions.join(", ")),
        },
        Lookup::Absent => format!("{what}: absent (GET returned 404)"),
        Lookup::Forbidden(why) => format!("{what}: could not be checked (403: {why})"),
        Lookup::Failed(why) => format!("{what}: could not be checked ({why})"),
    })
}

/// Whether the looked-up object has `key`: `Some(true/false)` for a Found answer, `None` when
/// absent, unknown or not checked.
pub(crate) fn has_key(inp: &Inputs<'_>, r: &ObjectRef, key: &str) -> Option<bool> {
    match inp.related.get(r)? {
        Lookup::Found { keys, .. } => Some(keys.iter().any(|k| k == key)),
        _ => None,
    }
}

/// Whether the answer for `r` is that it exists.
pub(crate) fn exists(inp: &Inputs<'_>, r: &ObjectRef) -> Option<bool> {
    match inp.related.get(r)? {
        Lookup::Found { .. } => Some(true),
        Lookup::Absent => Some(false),
        _ => None,
    }
}
