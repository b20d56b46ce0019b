//! `Target`: the pod being shown and everything derived from it — the pod, its events, the
//! watch's state, the diagnosis and its evidence, the log pane's contents, the port-forwards,
//! the owner and namespace checks. Replaced as a whole on a pod switch and when the pod is
//! re-created (another `uid`), each time under a new [`Generation`].

use jiff::Timestamp;

use super::config::Config;
use super::generation::Generation;
use crate::model::{ContainerState, EventSummary, PodSummary};

/// The state of the pod watch, as the header shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Connection {
    /// Started, no answer from the API server yet.
    Connecting,
    /// The watch is running and the pod exists.
    Live,
    /// The watch failed and is retrying with back-off; the text names the cause.
    Reconnecting(String),
    /// A full list did not contain the pod: waiting for it to appear.
    NotFound,
    /// The watch saw DELETED; the last state is kept.
    Deleted {
        /// When the deletion was requested (`PodSummary::deletion_requested_at`), else the
        /// `now` at which the watch saw DELETED.
        at: Timestamp,
    },
}

/// The pod shown and what was learnt about it.
#[derive(Debug, Clone)]
pub struct Target {
    /// Stamps the messages of the tasks started for this target (see [`super::generation`]).
    pub generation: Generation,
    /// The pod's namespace.
    pub namespace: String,
    /// The pod's name.
    pub name: String,
    /// The last pod seen (kept after deletion; dropped when the pod is absent).
    pub pod: Option<PodSummary>,
    /// The pod watch's state.
    pub connection: Connection,
    /// Events about the pod, newest first (by last timestamp).
    pub events: Vec<EventSummary>,
    /// The events watch's last error, cleared by the next events update.
    pub events_error: Option<String>,
    /// Bumped on every change of `events` (reset, applied, deleted, cleared), so the view can
    /// keep its formatted rows while it is unchanged (`ui::events`).
    pub events_revision: u64,
    /// Index of the selected container in `pod.containers` (kubelet order).
    pub selected: usize,
    /// A one-line notice, e.g. `pod recreated (new UID 1b2c…)`.
    pub notice: Option<String>,
    /// When `notice` was posted (`app::notice`: it fades after `NOTICE_FOR` of ticks).
    pub notice_at: Option<jiff::Timestamp>,
    /// The log pane: its lines, readers, search, filter and scroll position.
    pub logs: crate::app::logs::LogPane,
    /// The port-forwards: entries, selection, the panel's status line.
    pub forwards: crate::app::forwards::ForwardPanel,
    /// Whether the owner of a pod stuck on its finalizers still exists (`Cmd::CheckOwner`).
    pub owner: crate::model::deletion::OwnerStatus,
    /// The owner `uid` last asked about, so each owner is asked once.
    pub owner_asked: Option<String>,
    /// Whether the pod's namespace was asked about (once, when the pod is first not found).
    pub namespace_asked: bool,
    /// The namespace does not exist (`Cmd::CheckNamespace` answered 404): no pod can appear.
    pub namespace_missing: bool,
    /// The namespace's pod names closest to `name`, found at start-up when the pod was missing
    /// (`model::pod_ref::closest_names`); the waiting screen suggests them.
    pub closest_pods: Vec<String>,
    /// The diagnosis of the pod, most important first (`app::diagnosis::refresh`).
    pub diagnosis: Vec<crate::model::diagnosis::Finding>,
    /// Tails of the containers' logs read for the diagnosis (previous instance once per restart).
    pub log_tails: crate::model::diagnosis::LogTails,
    /// Answers of the one-GET checks of objects the findings rest on.
    pub related: crate::model::diagnosis::Related,
    /// Which pane of the pod view has focus and the selected event (`app::focus`).
    pub focus: crate::app::focus::Focus,
    /// The log tails and lookups asked for the pod, so each is asked once (`app::evidence`).
    pub evidence: crate::app::evidence::Asked,
    /// The container to select when the pod is first seen, kept by name from the pod this one
    /// replaced (`app::workload::follow`); `-c` applies when `None` or absent from the pod.
    pub preferred_container: Option<String>,
    /// The pod's node, from its watch (`app::node`).
    pub node: crate::app::node::NodeView,
    /// The last pod object the watch delivered, as k8s-openapi read it (fields its API version
    /// does not know are not kept); one copy, replaced on each event (`app::views`).
    pub object: Option<std::sync::Arc<k8s_openapi::api::core::v1::Pod>>,
    /// The pod's resource usage from the metrics API (`app::usage`).
    pub usage: crate::app::usage::UsageView,
    /// What the watch saw change since attach (`model::timeline::observe`, bounded); the
    /// time before is reconstructed from the pod and its events when shown (`docs/timeline.md`).
    pub history: crate::model::timeline::History,
}

impl Target {
    /// `namespace/name` under `generation`: connecting, nothing known, the log pane hidden with
    /// `config.log_lines` of capacity.
    #[must_use]
    pub fn new(generation: Generation, namespace: &str, name: &str, config: &Config) -> Target {
        Target::with_pane(
            generation,
            namespace,
            name,
            crate::app::logs::LogPane::new(config.log_lines),
        )
    }

    /// A target that knows nothing yet, with the log pane `logs`.
    fn with_pane(
        generation: Generation,
        namespace: &str,
        name: &str,
        logs: crate::app::logs::LogPane,
    ) -> Target {
        Target {
            generation,
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            pod: None,
            connection: Connection::Connecting,
            events: Vec::new(),
            events_error: None,
            events_revision: 0,
            selected: 0,
            notice: None,
            notice_at: None,
            logs,
            forwards: crate::app::forwards::ForwardPanel::default(),
            owner: crate::model::deletion::OwnerStatus::Unknown,
            owner_asked: None,
            namespace_asked: false,
            namespace_missing: false,
            closest_pods: Vec::new(),
            diagnosis: Vec::new(),
            log_tails: crate::model::diagnosis::LogTails::default(),
            related: crate::model::diagnosis::Related::new(),
            focus: crate::app::focus::Focus::default(),
            evidence: crate::app::evidence::Asked::default(),
            preferred_container: None,
            node: crate::app::node::NodeView::default(),
            object: None,
            usage: crate::app::usage::UsageView::default(),
            history: crate::model::timeline::History::default(),
        }
    }

    /// The target after the pod `old` showed was re-created under `generation`: same name,
    /// nothing of the old instance kept but what the person set up — the log pane's settings
    /// (not its lines), the port-forwards (they follow the pod's name, see
    /// `cluster::forward`) and the focus. The pod itself is applied by the caller.
    #[must_use]
    pub fn recreated(old: &Target, generation: Generation) -> Target {
        Target {
            forwards: old.forwards.clone(),
            focus: old.focus.clone(),
            ..Target::with_pane(
                generation,
                &old.namespace,
                &old.name,
                old.logs.settings_only(),
            )
        }
    }

    /// The target of pod `name` that takes over from `old` under `generation` (the replacement
    /// of a deleted pod of the workload, or a sibling): as [`Target::recreated`], another name —
    /// the port-forwards (the session re-aims them at `name`), the focus and the log pane's
    /// settings with its markers are kept.
    #[must_use]
    pub fn replacement(old: &Target, generation: Generation, name: &str) -> Target {
        Target {
            name: name.to_owned(),
            ..Target::recreated(old, generation)
        }
    }

    /// The selected container, if the pod is known and has one.
    #[must_use]
    pub fn selected_container(&self) -> Option<&crate::model::ContainerSummary> {
        self.pod.as_ref()?.containers.get(self.selected)
    }

    /// Whether anything of the target shown depends on `now` (ages, "x ago", countdowns, how
    /// long a forward has been broken, when `forwards_shown`), i.e. whether a `Tick` must redraw.
    #[must_use]
    pub fn shows_clock(&self, forwards_shown: bool) -> bool {
        self.pod.is_some()
            || !self.events.is_empty()
            || matches!(self.connection, Connection::Deleted { .. })
            || (forwards_shown
                && self.forwards.entries.iter().any(|e| {
                    e.status
                        .as_ref()
                        .is_some_and(|s| s.broken_since.is_some() || s.last_gap.is_some())
                }))
    }
}

/// The container to select when `pod` is first seen: `preferred` (`-c`) if the pod has it, else
/// [`initial_selection`].
#[must_use]
pub fn first_selection(preferred: Option<&str>, pod: &PodSummary) -> usize {
    preferred
        .and_then(|name| pod.containers.iter().position(|c| c.name == name))
        .unwrap_or_else(|| initial_selection(pod))
}

/// The container to select when a pod is first seen: the first one in a CrashLoopBackOff, else
/// the first waiting for a reason other than normal start-up, else the first container.
#[must_use]
pub fn initial_selection(pod: &PodSummary) -> usize {
    let in_backoff = pod.containers.iter().position(|c| c.backoff.is_some());
    let stuck = || {
        pod.containers.iter().position(|c| match &c.state {
            ContainerState::Waiting { reason, .. } => {
                !reason.is_empty() && reason != "PodInitializing" && reason != "ContainerCreating"
            }
            _ => false,
        })
    };
    in_backoff.or_else(stuck).unwrap_or(0)
}
