//! The one-shot reads that feed the diagnosis engine, shared by the TUI's session
//! (`Cmd::ReadLogTail`, `Cmd::Lookup`) and `--once`: the tail of a container's log, and one GET
//! of an object a finding rests on.
//!
//! RBAC-tolerant: a 403 or 404 is an answer ([`Lookup::Forbidden`], [`Lookup::Absent`], a
//! tail's `Err`), never an error of podscope's. Secrets and ConfigMaps are read for their data
//! keys only: values are skipped while the body is parsed (`serde::de::IgnoredAny`) and never
//! stored or shown.

use std::collections::BTreeMap;

use kube::api::{GetParams, LogParams};
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::logs::{BATCH_LINES, BATCH_WAIT, LineBatcher, LogError};
use super::logs_ws::LogSource;
use crate::model::diagnosis::{LogTail, Lookup, ObjectRef};
use crate::model::sanitize::sanitize;

/// `tailLines` of a tail read: the last words of an instance.
pub const TAIL_LINES: i64 = 20;
/// `limitBytes` of a tail read (64 KiB), so a log of huge lines stays bounded.
pub const TAIL_BYTES: i64 = 65_536;

/// Reads the last [`TAIL_LINES`] lines (at most [`TAIL_BYTES`] bytes) of `container`'s log in
/// pod `pod` (`previous`: the dead instance) through `source`, with one GET, no follow and no
/// timestamps. Lines come oldest first, colour codes removed and every control, escape and
/// bidirectional override neutralised ([`crate::model::log::split_sgr`], which uses
/// [`sanitize`]); a CR of a CRLF line end is dropped. Errors are the tail's `Err`: the server's
/// message verbatim, sanitised (`previous terminated container "app" in pod "web" not found`),
/// or the transport error in one line.
pub async fn read_log_tail(
    source: &LogSource,
    pod: &str,
    container: &str,
    previous: bool,
    restart_count: i32,
) -> LogTail {
    let params = LogParams {
        container: Some(container.to_owned()),
        previous,
        tail_lines: Some(TAIL_LINES),
        limit_bytes: Some(TAIL_BYTES),
        ..LogParams::default()
    };
    let lines = match source.open(pod, &params).await {
        Ok(body) => collect_lines(LineBatcher::new(body)).await,
        Err(e) => Err(error_text(&e)),
    };
    LogTail::new(restart_count, lines)
}

fn error_text(e: &LogError) -> String {
    sanitize(&e.to_string()).into_owned()
}

async fn collect_lines(mut batcher: LineBatcher) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    loop {
        match batcher.next_batch(BATCH_LINES, BATCH_WAIT).await {
            Ok(Some(batch)) => {
                for raw in batch.lines() {
                    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
                    let (text, _colour) =
                        crate::model::log::split_sgr(&String::from_utf8_lossy(raw));
                    out.push(text);
                }
                // `limitBytes` bounds the body; this bounds a server that ignores it.
                let keep = usize::try_from(TAIL_LINES).unwrap_or(usize::MAX);
                if out.len() > keep {
                    out.drain(..out.len() - keep);
                }
            }
            Ok(None) => return Ok(out),
            Err(e) => return Err(sanitize(&format!("log stream broke off: {e}")).into_owned()),
        }
    }
}

/// The parts of an object a lookup keeps; everything else (and every data value) is skipped
/// while parsing.
#[derive(Debug, Default, Deserialize)]
struct Peek {
    /// Secret / ConfigMap `data`: keys only.
    #[serde(default)]
    data: BTreeMap<String, IgnoredAny>,
    /// ConfigMap `binaryData`: keys only.
    #[serde(default, rename = "binaryData")]
    binary_data: BTreeMap<String, IgnoredAny>,
    #[serde(default)]
    status: PeekStatus,
}

#[derive(Debug, Default, Deserialize)]
struct PeekStatus {
    /// PVC `status.phase`.
    phase: Option<String>,
    /// Node `status.conditions` (a PVC's are not used).
    #[serde(default)]
    conditions: Vec<PeekCondition>,
}

#[derive(Debug, Default, Deserialize)]
struct PeekCondition {
    #[serde(rename = "type", default)]
    type_: String,
    #[serde(default)]
    status: String,
    reason: Option<String>,
}

/// `(path of the collection, name, plural)` of `object`, namespaced in `namespace` unless it
/// is a Node.
fn location<'a>(object: &'a ObjectRef, namespace: &str) -> (String, &'a str, &'static str) {
    let (plural, name, namespaced) = match object {
        ObjectRef::Secret(n) => ("secrets", n, true),
        ObjectRef::ConfigMap(n) => ("configmaps", n, true),
        ObjectRef::PersistentVolumeClaim(n) => ("persistentvolumeclaims", n, true),
        ObjectRef::Node(n) => ("nodes", n, false),
    };
    let path = if namespaced {
        format!("/api/v1/namespaces/{namespace}/{plural}")
    } else {
        format!("/api/v1/{plural}")
    };
    (path, name.as_str(), plural)
}

/// A Node condition in its healthy state: `Ready=True`, every other (`MemoryPressure`,
/// `DiskPressure`, `PIDPressure`, `NetworkUnavailable`, node-problem-detector's) `False`.
fn healthy(c: &PeekCondition) -> bool {
    if c.type_ == "Ready" {
        c.status == "True"
    } else {
        c.status == "False"
    }
}

fn found(object: &ObjectRef, peek: Peek) -> Lookup {
    let clean = |s: &str| sanitize(s).into_owned();
    let (mut keys, mut phase, mut conditions) = (Vec::new(), None, Vec::new());
    match object {
        ObjectRef::Secret(_) | ObjectRef::ConfigMap(_) => {
            keys = peek
                .data
                .keys()
                .chain(peek.binary_data.keys())
                .map(|k| clean(k))
                .collect();
            keys.sort();
            keys.dedup();
        }
        ObjectRef::PersistentVolumeClaim(_) => phase = peek.status.phase.as_deref().map(clean),
        ObjectRef::Node(_) => {
            conditions = peek
                .status
                .conditions
                .iter()
                .filter(|c| !healthy(c))
                .map(|c| match c.reason.as_deref().filter(|r| !r.is_empty()) {
                    Some(r) => clean(&format!("{}={} ({r})", c.type_, c.status)),
                    None => clean(&format!("{}={}", c.type_, c.status)),
                })
                .collect();
        }
    }
    Lookup::Found {
        keys,
        phase,
        conditions,
    }
}

/// GETs `object` once (in `namespace` unless it is a Node) and says what it found: data keys
/// (Secret, ConfigMap; values are never kept), `status.phase` (PVC), the conditions not in
/// their healthy state as `Type=Status (reason)` (Node). 404 → [`Lookup::Absent`], 403 →
/// [`Lookup::Forbidden`] with the server's message, anything else → [`Lookup::Failed`] in one
/// line. All text sanitised.
pub async fn look_up(client: kube::Client, namespace: &str, object: &ObjectRef) -> Lookup {
    let (path, name, plural) = location(object, namespace);
    let request = match kube::core::Request::new(path).get(name, &GetParams::default()) {
        Ok(r) => r,
        Err(e) => return Lookup::Failed(sanitize(&e.to_string()).into_owned()),
    };
    match client.request::<Peek>(request).await {
        Ok(peek) => found(object, peek),
        Err(kube::Error::Api(s)) if s.code == 404 => Lookup::Absent,
        Err(kube::Error::Api(s)) if s.code == 403 => {
            Lookup::Forbidden(sanitize(&s.message).into_owned())
        }
        Err(kube::Error::Api(s)) => Lookup::Failed(
            sanitize(&format!(
                "get {plural} \"{name}\" failed ({} {}): {}",
                s.code, s.reason, s.message
            ))
            .into_owned(),
        ),
        Err(e) => Lookup::Failed(
            sanitize(&format!(
                "cannot get {plural} \"{name}\": {}",
                super::config::one_line(&e)
            ))
            .into_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peek(json: &str) -> Peek {
        serde_json::from_str(json).expect("parses")
    }

    #[test]
    fn secret_keys_without_values() {
        let p = peek(
            r#"{"kind":"Secret","data":{"password":"c2VjcmV0","user":"YWRtaW4="},"type":"Opaque"}"#,
        );
        let got = found(&ObjectRef::Secret("db".into()), p);
        assert_eq!(
            got,
            Lookup::Found {
                keys: vec!["password".into(), "user".into()],
                phase: None,
                conditions: vec![],
            }
        );
        assert!(!format!("{got:?}").contains("c2VjcmV0"));
    }

    #[test]
    fn configmap_binary_keys_and_pvc_phase() {
        let p = peek(r#"{"data":{"b":"x"},"binaryData":{"a":"AA==","b":"AA=="}}"#);
        let Lookup::Found { keys, .. } = found(&ObjectRef::ConfigMap("c".into()), p) else {
            panic!("found");
        };
        assert_eq!(keys, vec!["a", "b"]);
        let p = peek(r#"{"status":{"phase":"Pending","conditions":[]}}"#);
        let Lookup::Found { phase, .. } = found(&ObjectRef::PersistentVolumeClaim("d".into()), p)
        else {
            panic!("found");
        };
        assert_eq!(phase.as_deref(), Some("Pending"));
    }

    #[test]
    fn node_conditions_not_healthy_only() {
        let p = peek(
            r#"{"status":{"conditions":[
                {"type":"MemoryPressure","status":"False","reason":"KubeletHasSufficientMemory"},
                {"type":"DiskPressure","status":"True","reason":"KubeletHasDiskPressure"},
                {"type":"PIDPressure","status":"Unknown","reason":"NodeStatusUnknown"},
                {"type":"Ready","status":"False","reason":"KubeletNotReady\u001b[2J"},
                {"type":"NetworkUnavailable","status":"True"}]}}"#,
        );
        let Lookup::Found { conditions, .. } = found(&ObjectRef::Node("n".into()), p) else {
            panic!("found");
        };
        assert_eq!(
            conditions,
            vec![
                "DiskPressure=True (KubeletHasDiskPressure)",
                "PIDPressure=Unknown (NodeStatusUnknown)",
                "Ready=False (KubeletNotReady␛[2J)",
                "NetworkUnavailable=True",
            ]
        );
    }

    #[test]
    fn locations() {
        assert_eq!(
            location(&ObjectRef::Secret("s".into()), "shop"),
            ("/api/v1/namespaces/shop/secrets".to_owned(), "s", "secrets")
        );
        assert_eq!(
            location(&ObjectRef::Node("n1".into()), "shop"),
            ("/api/v1/nodes".to_owned(), "n1", "nodes")
        );
    }
}
