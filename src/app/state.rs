//! `State`: everything the view needs, owned by the loop and changed only by `update`.

use jiff::Timestamp;

use crate::model::{ContainerState, EventSummary, PodSummary};
use crate::ui::theme::Theme;

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
    /// The watch saw DELETED at `at` (the `now` of that moment); the last state is kept.
    Deleted {
        /// When podscope saw the deletion.
        at: Timestamp,
    },
}

/// The whole application state.
#[derive(Debug, Clone)]
pub struct State {
    /// The target pod's namespace.
    pub namespace: String,
    /// The target pod's name.
    pub name: String,
    /// The clock, set only by `Msg::Tick`.
    pub now: Timestamp,
    /// The last pod seen (kept after deletion; dropped when the pod is absent).
    pub pod: Option<PodSummary>,
    /// The pod watch's state.
    pub connection: Connection,
    /// Events about the pod, newest first (by last timestamp).
    pub events: Vec<EventSummary>,
    /// The events watch's last error, cleared by the next events update.
    pub events_error: Option<String>,
    /// Index of the selected container in `pod.containers` (kubelet order).
    pub selected: usize,
    /// Whether the help overlay is shown.
    pub show_help: bool,
    /// First line of the help overlay in view (scrolled with ↓/↑/PgDn/PgUp while it is open);
    /// clamped by `update` to what the last known terminal size leaves hidden.
    pub help_scroll: usize,
    /// The terminal's size `(columns, rows)` from the last `Msg::Resize`, if any.
    pub screen: Option<(u16, u16)>,
    /// A one-line notice, e.g. `pod recreated (new UID 1b2c…)`.
    pub notice: Option<String>,
    /// Styles chosen at start (colour or `NO_COLOR`).
    pub theme: Theme,
    /// Set by `update` when the screen must be redrawn; cleared by the loop after drawing.
    pub dirty: bool,
    /// The container named by `-c`: selected when the pod is first seen, if it exists.
    pub preferred_container: Option<String>,
    /// The log pane (issue #4): its lines, readers, search, filter and scroll position.
    pub logs: crate::app::logs::LogPane,
    /// The port-forward panel (issue #5): forwards, selection, typed spec.
    pub forwards: crate::app::forwards::ForwardPanel,
    /// The pod switcher overlay while open (demo only).
    pub switcher: Option<crate::app::switcher::Switcher>,
    /// Whether the session can switch pods (`P`/`o`): true only for the demo's in-process cluster.
    pub can_switch: bool,
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
    /// The shells `e` tries, in order, each a command line (`app::shell::shells`: `--shell`,
    /// else `bash` then `sh`).
    pub shells: Vec<String>,
    /// The diagnosis of the pod, most important first (`app::diagnosis::refresh`).
    pub diagnosis: Vec<crate::model::diagnosis::Finding>,
    /// Tails of the containers' logs read for the diagnosis (previous instance once per restart).
    pub log_tails: crate::model::diagnosis::LogTails,
    /// Answers of the one-GET checks of objects the findings rest on.
    pub related: crate::model::diagnosis::Related,
    /// Which pane of the pod view has focus, the selected event, the expanded diagnosis and
    /// its scroll (`app::focus`).
    pub focus: crate::app::focus::Focus,
    /// The log tails and lookups asked for the pod, so each is asked once (`app::evidence`).
    pub evidence: crate::app::evidence::Asked,
}

impl State {
    /// A fresh state for `namespace/name` at `now`, connecting, dirty (first frame).
    #[must_use]
    pub fn new(namespace: &str, name: &str, now: Timestamp, theme: Theme) -> Self {
        Self {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            now,
            pod: None,
            connection: Connection::Connecting,
            events: Vec::new(),
            events_error: None,
            selected: 0,
            show_help: false,
            help_scroll: 0,
            screen: None,
            notice: None,
            theme,
            dirty: true,
            preferred_container: None,
            logs: crate::app::logs::LogPane::new(crate::model::log::DEFAULT_LOG_LINES),
            forwards: crate::app::forwards::ForwardPanel::default(),
            switcher: None,
            can_switch: false,
            owner: crate::model::deletion::OwnerStatus::Unknown,
            owner_asked: None,
            namespace_asked: false,
            namespace_missing: false,
            closest_pods: Vec::new(),
            shells: crate::app::shell::shells(None),
            diagnosis: Vec::new(),
            log_tails: crate::model::diagnosis::LogTails::default(),
            related: crate::model::diagnosis::Related::new(),
            focus: crate::app::focus::Focus::default(),
            evidence: crate::app::evidence::Asked::default(),
        }
    }

    /// The selected container, if the pod is known and has one.
    #[must_use]
    pub fn selected_container(&self) -> Option<&crate::model::ContainerSummary> {
        self.pod.as_ref()?.containers.get(self.selected)
    }

    /// The container to select when `pod` is first seen: the `-c` container if it exists,
    /// else [`initial_selection`].
    #[must_use]
    pub fn first_selection(&self, pod: &PodSummary) -> usize {
        self.preferred_container
            .as_deref()
            .and_then(|name| pod.containers.iter().position(|c| c.name == name))
            .unwrap_or_else(|| initial_selection(pod))
    }

    /// The mode keys are resolved in (`keymap::action_in`) and the footer lists: log pane
    /// shown / focused, pod switching available, help, the port-forward panel (unless a spec is
    /// being typed: then the panel reads raw keys), the pod switcher, the expanded diagnosis, the
    /// focused events pane.
    #[must_use]
    pub fn key_mode(&self) -> crate::app::keymap::Mode {
        crate::app::keymap::Mode {
            log_pane: self.logs.shown,
            log_focus: self.logs.shown && self.logs.focused,
            can_switch: self.can_switch,
            help: self.show_help,
            forward_panel: self.forwards.shown && self.forwards.input.is_none(),
            switcher: self.switcher.is_some(),
            diagnosis: self.focus.expanded,
            events_focus: !self.logs.shown && self.focus.events,
        }
    }

    /// Whether anything on screen depends on `now` (ages, "x ago", countdowns, how long a
    /// forward has been broken), i.e. whether a `Tick` must redraw.
    #[must_use]
    pub fn shows_clock(&self) -> bool {
        self.pod.is_some()
            || !self.events.is_empty()
            || matches!(self.connection, Connection::Deleted { .. })
            || (self.forwards.shown
                && self.forwards.entries.iter().any(|e| {
                    e.status
                        .as_ref()
                        .is_some_and(|s| s.broken_since.is_some() || s.last_gap.is_some())
                }))
    }
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
