//! Container logs in the store: lines per container instance (bounded by [`LogBuf`]), and the
//! activity signal that wakes log followers.

use jiff::Timestamp;
use tokio::sync::watch;

use super::Store;
use super::logbuf::LogBuf;

/// One line of container output with the time the runtime recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// CRI timestamp of the line.
    pub time: Timestamp,
    /// The line's text without the trailing newline.
    pub text: String,
}

impl Store {
    /// Appends one line to a container instance's log (`container_id` is the status'
    /// `containerID`, e.g. `containerd://…`).
    /// Each instance keeps at most [`super::logbuf::LOG_MAX_LINES`] lines and [`super::logbuf::LOG_MAX_BYTES`]
    /// bytes; the oldest lines are dropped beyond that.
    pub fn append_log(&self, ns: &str, pod: &str, container_id: &str, line: LogLine) {
        let key = (ns.to_string(), pod.to_string(), container_id.to_string());
        self.lock().logs.entry(key).or_default().push(line);
        self.inner.activity.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// The log lines of one container instance (empty when nothing was written).
    pub fn logs(&self, ns: &str, pod: &str, container_id: &str) -> Vec<LogLine> {
        let key = (ns.to_string(), pod.to_string(), container_id.to_string());
        self.lock()
            .logs
            .get(&key)
            .map(LogBuf::all)
            .unwrap_or_default()
    }

    /// Lines of one container instance numbered `from` onwards (numbering counts every line
    /// ever appended, so dropped lines are skipped) and the cursor after them.
    pub(crate) fn logs_since(
        &self,
        ns: &str,
        pod: &str,
        container_id: &str,
        from: u64,
    ) -> (Vec<LogLine>, u64) {
        let key = (ns.to_string(), pod.to_string(), container_id.to_string());
        self.lock()
            .logs
            .get(&key)
            .map_or((Vec::new(), from), |b| b.since(from))
    }

    /// How many `pods/log?follow=true` streams are open right now (HTTP or WebSocket): each
    /// follower holds one [`Store::activity`] receiver from before it reads the instance's lines
    /// until its response ends. Tests wait on it instead of sleeping until `logs -f` is attached.
    pub fn log_followers(&self) -> usize {
        self.inner.activity.receiver_count()
    }

    /// A receiver that changes whenever a change is committed or a log line appended.
    pub(crate) fn activity(&self) -> watch::Receiver<u64> {
        self.inner.activity.subscribe()
    }
}
