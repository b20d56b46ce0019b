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
    /// Put `text` on the clipboard of the terminal podscope runs in, through OSC 52 (the loop
    /// writes it: `tui::clipboard`). At most `app::views::keys::COPY_MAX` bytes.
    Copy {
        /// Sanitised text (no control characters but newlines).
        text: String,
    },
    /// Hand the terminal to an interactive shell in `container`: the first of `shells` that
    /// exists in the image; the loop restores the terminal, runs it in raw mode, takes the
    /// terminal back and sends `Msg::ShellExited`.
    OpenShell {
        /// The container's `name`.
        container: String,
        /// Command lines to try in order (split at spaces), e.g. `["bash", "sh"]`.
        shells: Vec<String>,
    },
    /// Add an ephemeral debug container (busybox:1.37, `targetContainerName: target`); answers
    /// `Msg::DebugReady` once it runs, or `Msg::DebugFailed`.
    AddDebugContainer {
        /// The container whose process namespace the debugger joins.
        target: String,
    },
    /// Hand the terminal to an attach to the (debug) container `container`, as `OpenShell`.
    AttachDebug {
        /// The ephemeral container's `name`.
        container: String,
    },
    /// Start forwarding `spec` to the pod; progress arrives as `Msg::Forward`.
    AddForward {
        /// The forward's id (unique; chosen by `update`).
        id: u64,
        /// What to forward.
        spec: crate::model::forward::PortSpec,
    },
    /// Stop forward `id` (closes its listener and connections).
    StopForward {
        /// The forward's id.
        id: u64,
    },
    /// Start the pod picker's list+watch of the pods of `namespace` (`None`: every namespace),
    /// replacing any running one: a (re)list arrives as `Msg::PodList`, then each change as
    /// `Msg::PodListApplied` / `Msg::PodListDeleted`, a failure as `Msg::PodListFailed`.
    WatchPodList {
        /// The namespace to list, `None` for all of them (`-A`).
        namespace: Option<String>,
    },
    /// Stop the pod picker's list+watch (the picker closed).
    StopPodList,
    /// Aim the session at another pod: abort the pod/events/log watches and forwards and start
    /// the pod watch for `namespace/name`, its messages stamped with `generation`.
    SwitchPod {
        /// The new pod's namespace.
        namespace: String,
        /// The new pod's name.
        name: String,
        /// The new target's generation.
        generation: crate::app::generation::Generation,
    },
    /// The pod was re-created (another `uid`): abort the old instance's events watch, log
    /// streams and one-shot reads, restart the pod watch (it relists) and keep the forwards
    /// (they follow the name), stamping everything from now on with `generation`.
    PodRecreated {
        /// The new target's generation.
        generation: crate::app::generation::Generation,
    },
    /// Aim the session at `namespace/name`, another pod of the followed workload (its
    /// replacement, a sibling): like `SwitchPod`, but the port-forwards stay and connect to the
    /// new pod from now on (their statuses re-stamped with `generation`).
    FollowPod {
        /// The pod's namespace.
        namespace: String,
        /// The pod's name.
        name: String,
        /// The new target's generation.
        generation: crate::app::generation::Generation,
    },
    /// Start the watches of a workload (`cluster::workload_watch`), aborting any earlier ones:
    /// its pods by `selector` (one label-selected watch), the workload object by
    /// `metadata.name` when `workload` is named (and a Deployment's ReplicaSets by `selector`);
    /// their messages are stamped `Msg::ForWorkload(stamp, …)`.
    WatchWorkload {
        /// The workload view's stamp.
        stamp: crate::app::generation::Generation,
        /// The namespace of the workload.
        namespace: String,
        /// The workload object to watch, if any.
        workload: Option<crate::model::workload::WorkloadRef>,
        /// The pods' label selector, kubectl's syntax.
        selector: String,
    },
    /// Stop the workload's watches (no workload is followed any more).
    StopWorkload,
    /// GET the pod's owner once (a pod whose deletion waits on finalizers); answered by
    /// `Msg::OwnerChecked`.
    CheckOwner {
        /// The pod's namespace (owners of pods are namespaced).
        namespace: String,
        /// The `ownerReferences` entry to look up.
        owner: crate::model::OwnerRef,
    },
    /// GET the namespace once (the pod was not found: a typo in `-n` should say so); answered
    /// by `Msg::NamespaceChecked`.
    CheckNamespace {
        /// The namespace to look up.
        namespace: String,
    },
    /// Read the tail of one container's log once, for the diagnosis: one GET
    /// `pods/log?container=…&previous=…&tailLines=20&limitBytes=65536` (no follow, no
    /// timestamps), answered by `Msg::LogTailRead`. Issued once per restart of a container
    /// with a `lastState.terminated` (`app::evidence`).
    ReadLogTail {
        /// The container's `name`.
        container: String,
        /// `previous=true`: the dead instance.
        previous: bool,
        /// The container's `restartCount` when asked, carried into the answer's `LogTail`.
        restart_count: i32,
    },
    /// GET one object a finding rests on, once (Secret/ConfigMap: data keys only; PVC: phase;
    /// Node: unhealthy conditions); in the pod's namespace unless cluster-scoped (Node).
    /// Answered by `Msg::LookedUp`; a 403 or 404 is an answer, not an error.
    Lookup(crate::model::diagnosis::ObjectRef),
    /// Watch the pod's node by name (one watch, field selector `metadata.name=<name>`),
    /// replacing any earlier node watch; answered by `Msg::NodeApplied` / `Msg::NodeGone` /
    /// `Msg::NodeRefused`, stamped with the target's generation (`app::node`).
    WatchNode {
        /// The node's `metadata.name` (the pod's `spec.nodeName`).
        name: String,
    },
    /// Poll the pod's usage (`cluster::metrics`): one probe of `/apis/metrics.k8s.io/v1beta1`,
    /// then one GET of the pod's PodMetrics per window until the target changes; answered by
    /// `Msg::MetricsStatus` / `Msg::PodMetricsRead`, stamped with the target's generation
    /// (`app::usage`).
    PollMetrics,
    /// Leave the loop and restore the terminal.
    Quit,
}
