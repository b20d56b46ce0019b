//! Fixture folders in the format of `assets/cases/*/`: `pod.json`, `events.json` (a v1 `List` of
//! core/v1 Events), optional `logs-current.txt` / `logs-previous.txt`, optional `expected.md`
//! with a backticked "Snapshot time".

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{ContainerStatus, Event, Pod};
use regex::Regex;
use serde_json::Value;

use super::SimError;
use super::api::store::{LogLine, Store};

/// One loaded fixture folder.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The folder it came from.
    pub dir: PathBuf,
    /// `pod.json`.
    pub pod: Pod,
    /// `events.json` items, in file order.
    pub events: Vec<Event>,
    /// `logs-current.txt`, if present.
    pub logs_current: Option<String>,
    /// `logs-previous.txt`, if present.
    pub logs_previous: Option<String>,
    /// `logs/<container>.previous.txt` and `logs/<container>.current.txt`: `(container,
    /// previous, text)`, for the container they name (`docs/corpus.md`).
    pub named_logs: Vec<(String, bool, String)>,
    /// The backticked RFC 3339 instant on expected.md's "Snapshot time" line, if present.
    pub snapshot_time: Option<Timestamp>,
}

/// Loads a fixture folder. Errors: `SimError::Fixture` naming the file for unreadable or invalid
/// `pod.json`/`events.json` (a missing `events.json` is an empty list).
pub fn load_fixture(dir: &Path) -> Result<Fixture, SimError> {
    let pod_text =
        read(&dir.join("pod.json"))?.ok_or_else(|| fixture_err(dir, "pod.json is missing"))?;
    let pod: Pod =
        serde_json::from_str(&pod_text).map_err(|e| fixture_err(dir, &format!("pod.json: {e}")))?;
    let events = match read(&dir.join("events.json"))? {
        None => Vec::new(),
        Some(text) => {
            parse_event_list(&text).map_err(|e| fixture_err(dir, &format!("events.json: {e}")))?
        }
    };
    let snapshot_time = read(&dir.join("expected.md"))?
        .as_deref()
        .and_then(snapshot_time);
    Ok(Fixture {
        dir: dir.to_path_buf(),
        pod,
        events,
        logs_current: read(&dir.join("logs-current.txt"))?,
        logs_previous: read(&dir.join("logs-previous.txt"))?,
        named_logs: named_logs(&dir.join("logs"))?,
        snapshot_time,
    })
}

/// The `logs/<container>.{previous,current}.txt` files of a fixture, sorted by file name; none
/// without the folder.
fn named_logs(dir: &Path) -> Result<Vec<(String, bool, String)>, SimError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (container, previous) = if let Some(c) = name.strip_suffix(".previous.txt") {
            (c.to_owned(), true)
        } else if let Some(c) = name.strip_suffix(".current.txt") {
            (c.to_owned(), false)
        } else {
            continue;
        };
        if let Some(text) = read(&path)? {
            out.push((container, previous, text));
        }
    }
    Ok(out)
}

fn fixture_err(dir: &Path, msg: &str) -> SimError {
    SimError::Fixture(format!("{}: {msg}", dir.display()))
}

fn read(path: &Path) -> Result<Option<String>, SimError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(SimError::Fixture(format!("{}: {e}", path.display()))),
    }
}

fn parse_event_list(text: &str) -> Result<Vec<Event>, serde_json::Error> {
    let list: Value = serde_json::from_str(text)?;
    let items = list
        .get("items")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    serde_json::from_value(items)
}

/// Finds the backticked instant on the line containing "Snapshot time".
pub fn snapshot_time(expected_md: &str) -> Option<Timestamp> {
    let line = expected_md.lines().find(|l| l.contains("Snapshot time"))?;
    let start = line.find('`')? + 1;
    let len = line[start..].find('`')?;
    line[start..start + len].parse().ok()
}

static RFC3339: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.(\d+))?Z$").ok());

impl Fixture {
    /// Shifts every RFC 3339 timestamp string in the pod and the events by `delta`, keeping each
    /// value's fractional-digit count. The Unix epoch (`1970-01-01T00:00:00Z`, the runtime's
    /// "never started") is left alone. Embedded timestamps inside messages are not touched.
    pub fn shift(&mut self, delta: SignedDuration) {
        self.pod = shift_typed(&self.pod, delta);
        self.events = self.events.iter().map(|e| shift_typed(e, delta)).collect();
    }
}

fn shift_typed<T: serde::Serialize + serde::de::DeserializeOwned + Clone>(
    obj: &T,
    delta: SignedDuration,
) -> T {
    let Ok(mut v) = serde_json::to_value(obj) else {
        return obj.clone();
    };
    shift_value(&mut v, delta);
    serde_json::from_value(v).unwrap_or_else(|_| obj.clone())
}

fn shift_value(v: &mut Value, delta: SignedDuration) {
    match v {
        Value::String(s) => {
            if let Some(shifted) = shift_str(s, delta) {
                *s = shifted;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| shift_value(i, delta)),
        Value::Object(map) => map.values_mut().for_each(|i| shift_value(i, delta)),
        _ => {}
    }
}

fn shift_str(s: &str, delta: SignedDuration) -> Option<String> {
    let caps = RFC3339.as_ref()?.captures(s)?;
    let ts: Timestamp = s.parse().ok()?;
    if ts == Timestamp::UNIX_EPOCH {
        return None;
    }
    let shifted = ts.checked_add(delta).ok()?;
    let digits = caps.get(2).map_or(0, |m| m.len()).min(9);
    let base = shifted.strftime("%Y-%m-%dT%H:%M:%S").to_string();
    if digits == 0 {
        return Some(format!("{base}Z"));
    }
    let nanos = format!("{:09}", shifted.subsec_nanosecond());
    Some(format!("{base}.{}Z", &nanos[..digits]))
}

/// Statuses of every container in kubelet order (init, then main, then ephemeral) with a flag
/// telling whether it is a non-sidecar init container.
fn all_statuses(pod: &Pod) -> Vec<(ContainerStatus, bool)> {
    let sidecars: Vec<String> = pod
        .spec
        .iter()
        .flat_map(|s| s.init_containers.iter().flatten())
        .filter(|c| c.restart_policy.as_deref() == Some("Always"))
        .map(|c| c.name.clone())
        .collect();
    let Some(status) = pod.status.as_ref() else {
        return Vec::new();
    };
    let init = status
        .init_container_statuses
        .iter()
        .flatten()
        .map(|s| (s.clone(), !sidecars.contains(&s.name)));
    let main = status
        .container_statuses
        .iter()
        .flatten()
        .map(|s| (s.clone(), false));
    let eph = status
        .ephemeral_container_statuses
        .iter()
        .flatten()
        .map(|s| (s.clone(), false));
    init.chain(main).chain(eph).collect()
}

/// Which container a fixture's logs belong to (fixtures hold logs of one container):
/// previous logs → the container with `lastState.terminated` and the most restarts; current logs →
/// that same container if it has previous logs, else the first plain init container that failed
/// or runs, else the first not-ready main container, else the first main container.
pub fn log_owner(pod: &Pod, previous: bool) -> Option<ContainerStatus> {
    let statuses = all_statuses(pod);
    let with_last = statuses
        .iter()
        .filter(|(s, _)| {
            s.last_state
                .as_ref()
                .and_then(|l| l.terminated.as_ref())
                .is_some()
        })
        .max_by_key(|(s, _)| s.restart_count)
        .map(|(s, _)| s.clone());
    if previous || with_last.is_some() {
        return with_last;
    }
    let init_active = statuses.iter().find(|(s, plain_init)| {
        let st = s.state.as_ref();
        *plain_init
            && (st.and_then(|x| x.running.as_ref()).is_some()
                || st
                    .and_then(|x| x.terminated.as_ref())
                    .is_some_and(|t| t.exit_code != 0))
    });
    let mains = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .unwrap_or_default();
    init_active
        .map(|(s, _)| s.clone())
        .or_else(|| mains.iter().find(|s| !s.ready).cloned())
        .or_else(|| mains.first().cloned())
}

/// Writes the fixture's log files into `store`, keyed by the owning container instance's
/// `containerID`. Lines get times spread evenly over the instance's run
/// (`startedAt`..`finishedAt`, or ..`now` while running).
pub fn seed_logs(store: &Store, fx: &Fixture, now: Timestamp) {
    let ns = fx
        .pod
        .metadata
        .namespace
        .clone()
        .unwrap_or_else(|| "default".to_string());
    let pod = fx.pod.metadata.name.clone().unwrap_or_default();
    let put = |text: &str, id: Option<String>, start: Option<Timestamp>, end: Option<Timestamp>| {
        let Some(id) = id.filter(|i| !i.is_empty()) else {
            return;
        };
        let lines: Vec<&str> = text.lines().collect();
        let start = start.unwrap_or(now);
        let end = end.unwrap_or(now).max(start);
        let span = end.duration_since(start);
        let n = i32::try_from(lines.len()).unwrap_or(i32::MAX).max(1);
        for (i, line) in lines.iter().enumerate() {
            let i = i32::try_from(i).unwrap_or(i32::MAX);
            let time = start.checked_add(span / n * i).unwrap_or(start);
            store.append_log(
                &ns,
                &pod,
                &id,
                LogLine {
                    time,
                    text: (*line).to_string(),
                },
            );
        }
    };
    for (name, previous, text) in &fx.named_logs {
        let Some((status, _)) = all_statuses(&fx.pod)
            .into_iter()
            .find(|(s, _)| &s.name == name)
        else {
            continue;
        };
        if *previous {
            if let Some(t) = status
                .last_state
                .as_ref()
                .and_then(|l| l.terminated.as_ref())
            {
                let (s, e) = (t.started_at.as_ref(), t.finished_at.as_ref());
                put(text, t.container_id.clone(), s.map(|x| x.0), e.map(|x| x.0));
            }
        } else {
            let (start, end) = instance_span(&status);
            put(text, status.container_id.clone(), start, end);
        }
    }
    let named = |name: &str, previous: bool| {
        fx.named_logs
            .iter()
            .any(|(n, p, _)| n == name && *p == previous)
    };
    let previous_owner = log_owner(&fx.pod, true).filter(|o| !named(&o.name, true));
    let last = previous_owner
        .as_ref()
        .and_then(|o| o.last_state.as_ref())
        .and_then(|l| l.terminated.as_ref());
    if let (Some(text), Some(t)) = (&fx.logs_previous, last) {
        put(
            text,
            t.container_id.clone(),
            t.started_at.as_ref().map(|x| x.0),
            t.finished_at.as_ref().map(|x| x.0),
        );
    }
    let current_owner = log_owner(&fx.pod, false).filter(|o| !named(&o.name, false));
    if let (Some(text), Some(owner)) = (&fx.logs_current, current_owner) {
        let (start, end) = instance_span(&owner);
        put(text, owner.container_id.clone(), start, end);
    }
}

/// The current instance's `startedAt` and, when it ended, `finishedAt`.
fn instance_span(status: &ContainerStatus) -> (Option<Timestamp>, Option<Timestamp>) {
    let state = status.state.as_ref();
    if let Some(t) = state.and_then(|s| s.terminated.as_ref()) {
        (
            t.started_at.as_ref().map(|x| x.0),
            t.finished_at.as_ref().map(|x| x.0),
        )
    } else {
        (
            state
                .and_then(|s| s.running.as_ref())
                .and_then(|r| r.started_at.as_ref())
                .map(|x| x.0),
            None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_keeps_precision_and_epoch() {
        let d = SignedDuration::from_secs(3600);
        assert_eq!(
            shift_str("2024-03-12T09:41:06Z", d).as_deref(),
            Some("2024-03-12T10:41:06Z")
        );
        assert_eq!(
            shift_str("2024-03-12T09:41:06.123456Z", d).as_deref(),
            Some("2024-03-12T10:41:06.123456Z")
        );
        assert_eq!(shift_str("1970-01-01T00:00:00Z", d), None);
        assert_eq!(shift_str("back-off 20s", d), None);
    }

    #[test]
    fn snapshot_line() {
        let md = "- Snapshot time (treat as \"now\"): `2024-03-12T09:41:06Z`\n";
        assert_eq!(snapshot_time(md), "2024-03-12T09:41:06Z".parse().ok());
    }
}
