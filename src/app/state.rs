//! `State`: everything the view needs, owned by the loop and changed only by `update`: the
//! [`Config`] chosen at start, the [`Target`] (the pod shown and all derived from it), the
//! [`Overlay`] the UI is in, the clock and the terminal's size.

use jiff::Timestamp;

pub use super::config::Config;
use super::generation::Generations;
pub use super::overlay::{Extents, Overlay};
pub use super::target::{Connection, Target, initial_selection};
use crate::model::PodSummary;
use crate::theme::Theme;

/// The whole application state.
#[derive(Debug, Clone)]
pub struct State {
    /// The settings chosen at start; kept across switches and re-created pods.
    pub config: Config,
    /// The pod shown; replaced as a whole on a switch or a re-created pod.
    pub target: Target,
    /// The workload followed (`podscope deploy/web`, `-l`, a pod's controller): outlives the
    /// targets, which are its pods (`app::workload`).
    pub workload: Option<super::workload::WorkloadView>,
    /// What is over the pod view (help, a panel, the switcher, a prompt, the diagnosis).
    pub overlay: Overlay,
    /// What RBAC lets the person do to pods of a namespace (`e`, `d`, `f`), as last answered
    /// (`app::access`); `None` until the first answer. Outlives targets: it is about a
    /// namespace, not a pod.
    pub access: Option<super::access::Permissions>,
    /// The allocator the targets' generations come from (only grows).
    pub generations: Generations,
    /// The clock, set only by `Msg::Tick`.
    pub now: Timestamp,
    /// The terminal's size `(columns, rows)` from the last `Msg::Resize`, if any.
    pub screen: Option<(u16, u16)>,
    /// The view's scroll limits at the last draw (`Msg::Measured`).
    pub extents: Extents,
    /// Set by `update` when the screen must be redrawn; cleared by the loop after drawing.
    pub dirty: bool,
}

impl State {
    /// A fresh state for `namespace/name` at `now` with the default [`Config`] in `theme`.
    #[must_use]
    pub fn new(namespace: &str, name: &str, now: Timestamp, theme: Theme) -> Self {
        Self::with_config(Config::new(theme), namespace, name, now)
    }

    /// A fresh state for `namespace/name` at `now` with `config`: the first generation,
    /// connecting, no overlay, dirty (first frame).
    #[must_use]
    pub fn with_config(config: Config, namespace: &str, name: &str, now: Timestamp) -> Self {
        let target = Target::new(
            super::generation::Generation::FIRST,
            namespace,
            name,
            &config,
        );
        Self {
            config,
            target,
            workload: None,
            overlay: Overlay::None,
            access: None,
            generations: Generations::new(),
            now,
            screen: None,
            extents: Extents::default(),
            dirty: true,
        }
    }

    /// The selected container, if the pod is known and has one.
    #[must_use]
    pub fn selected_container(&self) -> Option<&crate::model::ContainerSummary> {
        self.target.selected_container()
    }

    /// The container to select when `pod` is first seen: the container kept from the pod this
    /// one replaced (`Target::preferred_container`), else the `-c` container, if it exists,
    /// else [`initial_selection`].
    #[must_use]
    pub fn first_selection(&self, pod: &PodSummary) -> usize {
        let kept = self
            .target
            .preferred_container
            .as_deref()
            .filter(|name| pod.containers.iter().any(|c| c.name == *name));
        let preferred = kept.or(self.config.preferred_container.as_deref());
        super::target::first_selection(preferred, pod)
    }

    /// The mode keys are resolved in (`keymap::action_in`) and the footer lists: log pane
    /// shown / focused, pod switching available, and the overlay (the port-forward panel counts
    /// only while no spec is typed: then the panel reads raw keys).
    #[must_use]
    pub fn key_mode(&self) -> crate::app::keymap::Mode {
        let logs = &self.target.logs;
        crate::app::keymap::Mode {
            log_pane: logs.shown,
            log_focus: logs.shown && logs.focused,
            can_switch: self.config.can_switch,
            help: self.overlay.help_scroll().is_some(),
            forward_panel: matches!(self.overlay, Overlay::Forwards { input: None }),
            switcher: self.overlay.switcher().is_some(),
            diagnosis: self.overlay.diagnosis_scroll().is_some(),
            events_focus: !logs.shown && self.target.focus.events,
            workload: self
                .workload
                .as_ref()
                .is_some_and(|w| w.mode == super::workload::FollowMode::Auto),
            offer: self.workload.as_ref().is_some_and(|w| w.offer.is_some()),
            view: matches!(self.overlay, Overlay::View(_)),
            yaml_view: matches!(&self.overlay, Overlay::View(v) if v.kind == crate::app::views::ViewKind::Yaml),
        }
    }

    /// Whether anything on screen depends on `now` (ages, "x ago", countdowns, how long a
    /// forward has been broken, the picker's AGE column), i.e. whether a `Tick` must redraw.
    #[must_use]
    pub fn shows_clock(&self) -> bool {
        self.target.shows_clock(self.overlay.forwards_shown()) || self.overlay.switcher().is_some()
    }
}
