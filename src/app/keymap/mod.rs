//! Keys are data: one table of `(key, action, description)` rows drives `update`, the footer,
//! the help overlay and the hint lines of the port-forward panel and the pod switcher, so they
//! cannot drift apart.
//!
//! Rows can apply only in a mode ([`When`]): while the log pane is shown, or while it has focus.
//! The first applicable row for a key wins, so the log-focus rows (↑/↓/j/k scroll, g/G top and
//! bottom) come first and shadow the container rows only while the log pane has focus; so do
//! the rows of the expanded diagnosis ([`When::Diagnosis`]: ↑/↓ scroll, Enter/Esc close) and of
//! the focused events pane ([`When::EventsFocus`]: ↑/↓ select an event). The
//! port-forward panel and the pod switcher are modal: while one is open only its rows and the
//! [`When::Global`] rows (quit) apply.
//!
//! Files: [`action`] (the intents), [`key`] (a key and its label), [`table`] (the rows),
//! [`lookup`] (resolving a key, grouping rows for the footer and help).

mod action;
mod key;
mod lookup;
mod table;

pub use action::Action;
pub use key::Key;
pub use lookup::{action_for, action_in, grouped, grouped_actions, grouped_in, hint_text};
pub use table::KEYMAP;

/// When a row applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum When {
    /// In every mode, the port-forward panel and the pod switcher included (quit).
    Global,
    /// In every mode except while the port-forward panel or the pod switcher is open.
    Always,
    /// While the log pane is shown.
    LogPane,
    /// While the log pane is shown; listed in the footer only while it has focus (room).
    LogTools,
    /// While the log pane has focus.
    LogFocus,
    /// When the session can switch pods (the TUI: `P` opens the pod picker).
    CanSwitch,
    /// While the help overlay is open (its scroll keys shadow the others).
    Help,
    /// While the port-forward panel is shown (and no spec is being typed).
    ForwardPanel,
    /// While the pod switcher is open.
    Switcher,
    /// While the diagnosis is expanded over the pod view.
    Diagnosis,
    /// While the events pane has focus (the log pane hidden).
    EventsFocus,
    /// While a workload is followed (`podscope deploy/web`, `-l`, a pod's controller).
    Workload,
    /// While the replacement of a deleted pod is offered (`R` follows it).
    Offer,
    /// While a text view (YAML, describe) is open: it takes the keys.
    View,
    /// While the YAML view is open (`m` managedFields).
    YamlView,
}

/// The mode keys are resolved in, derived from the state by `update`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mode {
    /// The log pane is shown.
    pub log_pane: bool,
    /// The log pane has focus (implies `log_pane`).
    pub log_focus: bool,
    /// The pod switcher is available.
    pub can_switch: bool,
    /// The help overlay is open.
    pub help: bool,
    /// The port-forward panel is shown: it takes the keys.
    pub forward_panel: bool,
    /// The pod switcher is open: it takes the keys (before the panel).
    pub switcher: bool,
    /// The diagnosis is expanded over the pod view.
    pub diagnosis: bool,
    /// The events pane has focus (never with the log pane shown).
    pub events_focus: bool,
    /// A workload is followed: its pods are the siblings.
    pub workload: bool,
    /// A deleted pod's replacement is offered.
    pub offer: bool,
    /// A text view is open: it takes the keys (modal, as the switcher).
    pub view: bool,
    /// The open text view is the YAML view.
    pub yaml_view: bool,
}

impl When {
    /// Whether a row with this condition applies in `mode`.
    #[must_use]
    pub fn applies(self, mode: Mode) -> bool {
        let modal = mode.switcher || mode.forward_panel || mode.view;
        match self {
            When::Global => true,
            When::View => mode.view,
            When::YamlView => mode.view && mode.yaml_view,
            When::Switcher => mode.switcher,
            When::ForwardPanel => mode.forward_panel && !mode.switcher,
            _ if modal => false,
            When::Always => true,
            When::LogPane | When::LogTools => mode.log_pane,
            When::LogFocus => mode.log_focus,
            When::CanSwitch => mode.can_switch,
            When::Help => mode.help,
            When::Diagnosis => mode.diagnosis,
            When::EventsFocus => mode.events_focus,
            When::Workload => mode.workload,
            When::Offer => mode.offer,
        }
    }
}

/// One row of the keymap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    /// The key.
    pub key: Key,
    /// What it does.
    pub action: Action,
    /// Short description for the footer and help (lower case, no full stop).
    pub description: &'static str,
    /// Whether the footer shows this row (help shows every row).
    pub in_footer: bool,
    /// The mode the row applies in.
    pub when: When,
}
