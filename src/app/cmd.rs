//! `Cmd`: effects returned by `update`, executed by the loop.

/// An effect for the loop to carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    /// (Re)start the events watch for the pod with this `metadata.uid`, aborting the previous one.
    WatchEvents {
        /// `involvedObject.uid` to select on.
        uid: String,
    },
    /// Open a `pods/log` stream (`timestamps=true`; `follow` unless `previous`) whose lines
    /// arrive as `Msg::LogLines{stream}` and whose end as `Msg::LogStreamEnded{stream}`.
    FollowLogs {
        /// The new stream's id (unique; lines from other ids are stale).
        stream: u64,
        /// The container's `name`.
        container: String,
        /// `previous=true`: the instance before the current one (one request, no follow).
        previous: bool,
        /// `sinceTime`: a resume point floored to the second (see `model::log_resume`).
        since: Option<jiff::Timestamp>,
        /// `tailLines`: at most this many of the newest lines (the pane's capacity).
        tail_lines: Option<i64>,
    },
    /// Abort log stream `stream` (no-op if it already ended).
    StopLogs {
        /// The stream's id.
        stream: u64,
    },
    /// Write `contents` to `path` (created or truncated); the result comes back as
    /// `Msg::LogsSaved`.
    SaveLogs {
        /// File name, relative to the current directory.
        path: String,
        /// The text to write.
        contents: String,
    },
    /// Leave the loop and restore the terminal.
    Quit,
}
