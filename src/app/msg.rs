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
    /// The view's scroll limits, measured by the loop after a draw (`ui::extents`).
    Measured(crate::app::overlay::Extents),
    /// A message from a cluster task started for the target of this generation; `update`
    /// applies the inner message only while that target is shown (see [`crate::app::generation`]).
    ForTarget(crate::app::generation::Generation, Box<Msg>),
    /// A message from a watch of the followed workload of this generation
    /// (`app::workload::WorkloadView::stamp`); applied only while that workload is followed.
    ForWorkload(crate::app::generation::Generation, Box<Msg>),
    /// The workload's watch saw it (with a Deployment's ReplicaSets folded in).
    WorkloadApplied(Box<crate::model::workload::WorkloadSummary>),
    /// The workload's pod watch (label-selected) finished a (re)list: every pod it matches.
    WorkloadPodsListed(Vec<crate::model::workload::WorkloadPod>),
    /// The workload's pod watch saw a pod added or changed.
    WorkloadPodApplied(Box<crate::model::workload::WorkloadPod>),
    /// The workload's pod watch saw the pod of this `metadata.name` deleted.
    WorkloadPodDeleted(String),
    /// One of the workload's watches failed (it retries with back-off) or was refused (RBAC:
    /// the text names what was refused; the other watches keep going).
    WorkloadWatchFailed(String),
    /// The workload's watch saw the workload object DELETED (`kubectl delete deploy web`).
    WorkloadDeleted,
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
    /// The answer to `Cmd::CheckOwner` for the owner with this `uid`.
    NamespaceChecked {
        /// The namespace asked about.
        namespace: String,
        /// `Some(false)` on 404, `Some(true)` when it exists, `None` when the GET failed (RBAC
        /// commonly forbids reading namespaces).
        exists: Option<bool>,
    },
    /// The answer to `Cmd::CheckOwner`.
    OwnerChecked {
        /// The owner's `uid` as the pod references it.
        uid: String,
        /// Exists / gone / the GET failed.
        status: crate::model::deletion::OwnerStatus,
    },
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
    /// The interactive shell (`Cmd::OpenShell`) or debug attach (`Cmd::AttachDebug`) ended and
    /// the TUI has the terminal back.
    ShellExited {
        /// The container the shell ran in.
        container: String,
        /// How it ended.
        result: ShellEnd,
    },
    /// `Cmd::AddDebugContainer` finished: the ephemeral container `name` is running.
    DebugReady {
        /// The ephemeral container's `name` (`debugger-xxxxx`).
        name: String,
    },
    /// `Cmd::AddDebugContainer` failed (patch refused, image error, time-out); the text says why.
    DebugFailed(String),
    /// Progress of a port-forward started by `Cmd::AddForward`.
    Forward(ForwardMsg),
    /// The picker's list+watch (`Cmd::WatchPodList`) (re)listed: every pod, with its kubectl
    /// columns.
    PodList(Vec<crate::app::switcher::PodChoice>),
    /// The picker's list+watch saw a pod added or changed.
    PodListApplied(crate::app::switcher::PodChoice),
    /// The picker's list+watch saw a pod deleted.
    PodListDeleted {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
    },
    /// The picker's list+watch failed (verb, resource and cause); it retries with back-off.
    PodListFailed(String),
    /// The answer to `Cmd::ReadLogTail`: the tail's lines (sanitised, oldest first) or the
    /// server's refusal (e.g. `previous terminated container "x" in pod "y" not found`).
    LogTailRead {
        /// The container's `name`.
        container: String,
        /// Whether it is the previous instance's tail.
        previous: bool,
        /// The tail, with the `restartCount` it was asked for.
        tail: crate::model::diagnosis::LogTail,
    },
    /// The answer to `Cmd::Lookup`: found (keys, phase, conditions), absent (404), forbidden
    /// (403, the server's reason) or failed.
    LookedUp {
        /// The object asked about.
        object: crate::model::diagnosis::ObjectRef,
        /// What the GET said.
        lookup: crate::model::diagnosis::Lookup,
    },
    /// The access reviews of one namespace were answered (`cluster::access`): whether `e`, `d`
    /// and `f` are allowed there. Not stamped with a generation: it is about the namespace, and
    /// `update` applies it to whichever target is in that namespace (`app::access`).
    AccessChecked(crate::app::access::Permissions),
    /// The node watch (`Cmd::WatchNode`) saw the pod's node (listed, added or changed).
    NodeApplied(Box<crate::model::node::NodeSummary>),
    /// The node watch found no node of this `metadata.name` (a list without it, or DELETED).
    NodeGone(String),
    /// The node watch was refused (403 Forbidden); `reason` is the server's message, for the
    /// log file only.
    NodeRefused {
        /// The node asked for.
        name: String,
        /// The server's reason.
        reason: String,
    },
    /// The pod watch's object as the server sent it, just before the `PodApplied` or
    /// `PodDeleted` built from it (the YAML and describe views read it, `app::views`).
    PodObject(std::sync::Arc<k8s_openapi::api::core::v1::Pod>),
    /// The metrics poll (`Cmd::PollMetrics`) found whether `metrics.k8s.io/v1beta1` is served
    /// (`app::usage`).
    MetricsStatus(crate::model::usage::MetricsApi),
    /// The metrics poll read the pod's PodMetrics (one window).
    PodMetricsRead(Box<crate::model::usage::PodMetrics>),
    /// SIGTERM / SIGHUP: leave cleanly.
    Quit,
}

impl Msg {
    /// `msg` stamped for the target of `generation` (what the cluster tasks send).
    #[must_use]
    pub fn for_target(generation: crate::app::generation::Generation, msg: Msg) -> Msg {
        Msg::ForTarget(generation, Box::new(msg))
    }

    /// The message without its generation stamp, if any (for readers of the channel that do
    /// not care which target it is for).
    #[must_use]
    pub fn untagged(self) -> Msg {
        match self {
            Msg::ForTarget(_, msg) | Msg::ForWorkload(_, msg) => msg.untagged(),
            other => other,
        }
    }
}

/// How an interactive shell or attach ended (from `cluster::exec::ShellOutcome`/`ExecError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellEnd {
    /// The process exited with `exit_code` (kubectl: non-zero → `command terminated with exit
    /// code N`).
    Exited {
        /// The shell that ran (`bash`, `sh`), empty for an attach.
        shell: String,
        /// Its exit status.
        exit_code: i32,
    },
    /// None of the shells exists in the image (`ExecError::NoShell`).
    NoShell {
        /// The shells tried, in order.
        tried: Vec<String>,
    },
    /// Any other failure, as one line.
    Failed(String),
}

/// A port-forward's progress, keyed by the id `update` gave it in `Cmd::AddForward`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // a status is moved once through the channel, never stored
pub enum ForwardMsg {
    /// The forward's status changed (bound, connection opened/closed, bytes, error).
    Status {
        /// The forward's id.
        id: u64,
        /// Its status (`model::forward_status::ForwardStatus`).
        status: crate::model::forward_status::ForwardStatus,
    },
    /// The forward could not start (typically `unable to listen on …: address already in use`).
    Failed {
        /// The forward's id.
        id: u64,
        /// Why, one line.
        error: String,
    },
}
