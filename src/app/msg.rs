//! `Msg`: every input to `update`, as facts in the past tense.

use jiff::Timestamp;

use crate::model::{EventSummary, LogLine, PodSummary};

/// Every input to [`crate::app::update`].
#[derive(Debug, Clone)]
pub enum Msg {
    /// The 1 Hz clock (and the first clock reading at start).
    Tick(Timestamp),
    /// A key press from the terminal.
    Key(crossterm::event::KeyEvent),
    /// The terminal was resized to (columns, rows).
    Resize(u16, u16),
    /// The pod watch saw the pod (initial list or ADDED/MODIFIED).
    PodApplied(Box<PodSummary>),
    /// A full (re)list finished and the pod was not in it: it does not exist (yet).
    PodAbsent,
    /// The pod watch saw DELETED; carries the last state of the object.
    PodDeleted(Box<PodSummary>),
    /// The pod watch is relisting (start, after `410 Expired`, after an error).
    PodWatchRestarted,
    /// The pod watch failed; it retries with back-off. The text names verb, resource and cause.
    PodWatchFailed(String),
    /// The events watch relisted: the full set of events for the pod.
    EventsReset(Vec<EventSummary>),
    /// An event was added or changed (aggregated count bumped).
    EventApplied(EventSummary),
    /// An event was deleted (by `metadata.uid`).
    EventDeleted(String),
    /// The events watch failed; it retries with back-off.
    EventsWatchFailed(String),
    /// A batch of lines from log stream `stream` (up to 1000 lines or 50 ms worth), in order.
    LogLines {
        /// The stream's id (chosen by whoever started it, see `cluster::logs::StreamSpec`).
        stream: u64,
        /// The lines, sanitised, with their kubelet timestamps parsed.
        lines: Vec<LogLine>,
    },
    /// Log stream `stream` ended: `reason` is `None` when the server closed it (the container
    /// stopped, or a non-follow request finished), else the server's message verbatim (e.g.
    /// `previous terminated container "app" in pod "web" not found`) or the transport error.
    LogStreamEnded {
        /// The stream's id.
        stream: u64,
        /// Why, when it was an error.
        reason: Option<String>,
    },
    /// `Cmd::SaveLogs` finished: bytes written, or the error text.
    LogsSaved {
        /// The file written.
        path: String,
        /// Bytes written, or why it failed.
        result: Result<usize, String>,
    },
    /// SIGTERM / SIGHUP: leave cleanly.
    Quit,
}
