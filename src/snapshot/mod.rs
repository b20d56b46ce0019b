//! `--once` output: one snapshot of the pod as text ([`to_text`]) or JSON ([`to_json`]), at a
//! given `now`, its diagnosis first.
//!
//! The JSON document uses Kubernetes field names where the concept is the same; `status`,
//! `ready`, `restarts` and `age` are exactly what `kubectl get pod` prints (issue #2). Its
//! `"diagnosis"` is the list of [`crate::model::diagnosis::Finding`]s, each `{"rule",
//! "severity", "container", "headline", "evidence", "hint"}`; the text starts with a
//! `Diagnosis:` section.

mod json;
mod text;

pub use json::to_json;
pub use text::to_text;
