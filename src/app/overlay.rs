//! `Overlay`: the one mode the UI is in over the pod view — nothing, the expanded diagnosis,
//! help, the port-forward panel (maybe typing a spec), the pod switcher, or the log pane's
//! search/filter prompt. One value, so which takes the keys is the variant, not the order of
//! match guards; opening one replaces the other, except help, which remembers the expanded
//! diagnosis under it and goes back to it when closed.
//!
//! Scroll limits are the view's business (they depend on its layout), so the core receives them
//! as data: the loop measures them after each draw (`ui::extents`) and reports them as
//! `Msg::Measured(Extents)`; until the first report nothing is clamped here (the view clamps
//! what it shows).

use super::logs::Input;
use super::switcher::Switcher;

/// What is over the pod view.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Overlay {
    /// Nothing: the pod view takes the keys.
    #[default]
    None,
    /// The diagnosis expanded over the pod view (every finding, evidence and hint), its first
    /// line in view at `scroll`.
    Diagnosis {
        /// First line in view.
        scroll: usize,
    },
    /// The help overlay (`?`).
    Help {
        /// First line of the help in view.
        scroll: usize,
        /// The expanded diagnosis' scroll when help was opened over it (closing help returns
        /// to it).
        over_diagnosis: Option<usize>,
    },
    /// The port-forward panel (`f`); it takes the keys.
    Forwards {
        /// The spec being typed after `a`; it reads raw keys while `Some`.
        input: Option<crate::app::prompt::Prompt>,
    },
    /// The pod picker: `P`/`o` over the pod, or the whole screen of a bare `podscope`.
    Switcher(Switcher),
    /// The log pane's search (`/`) or filter (`&`) prompt; it reads raw keys.
    Prompt(Input),
    /// A full-screen text view of the pod: YAML (`y`) or describe (`D`) (`app::views`).
    View(Box<crate::app::views::TextView>),
}

/// The view's scroll limits at the last draw (`ui::extents`), in lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extents {
    /// How far help can scroll (content lines that do not fit).
    pub help_max_scroll: usize,
    /// How far the expanded diagnosis can scroll.
    pub diagnosis_max_scroll: usize,
    /// Lines a page of the expanded diagnosis moves (at least 1).
    pub diagnosis_page: usize,
}

impl Default for Extents {
    /// Before the first draw: nothing clamped, pages of 10 lines.
    fn default() -> Self {
        Extents {
            help_max_scroll: usize::MAX,
            diagnosis_max_scroll: usize::MAX,
            diagnosis_page: 10,
        }
    }
}

impl Overlay {
    /// Help's scroll while help is open.
    #[must_use]
    pub fn help_scroll(&self) -> Option<usize> {
        match self {
            Overlay::Help { scroll, .. } => Some(*scroll),
            _ => None,
        }
    }

    /// The expanded diagnosis' scroll while it is shown (under help too).
    #[must_use]
    pub fn diagnosis_scroll(&self) -> Option<usize> {
        match self {
            Overlay::Diagnosis { scroll }
            | Overlay::Help {
                over_diagnosis: Some(scroll),
                ..
            } => Some(*scroll),
            _ => None,
        }
    }

    /// Whether the port-forward panel is shown.
    #[must_use]
    pub fn forwards_shown(&self) -> bool {
        matches!(self, Overlay::Forwards { .. })
    }

    /// The forward spec being typed in the panel.
    #[must_use]
    pub fn forward_input(&self) -> Option<&crate::app::prompt::Prompt> {
        match self {
            Overlay::Forwards { input } => input.as_ref(),
            _ => None,
        }
    }

    /// The pod switcher while open.
    #[must_use]
    pub fn switcher(&self) -> Option<&Switcher> {
        match self {
            Overlay::Switcher(sw) => Some(sw),
            _ => None,
        }
    }

    /// The log pane's prompt while typing.
    #[must_use]
    pub fn prompt(&self) -> Option<&Input> {
        match self {
            Overlay::Prompt(input) => Some(input),
            _ => None,
        }
    }

    /// The search being typed in the open text view (it reads raw keys).
    #[must_use]
    pub fn view_input(&self) -> Option<&crate::app::prompt::Prompt> {
        match self {
            Overlay::View(view) => view.input.as_ref(),
            _ => None,
        }
    }

    /// Clamps the scrolls to `extents` (after a new measure).
    pub fn clamp(&mut self, extents: Extents) {
        match self {
            Overlay::Diagnosis { scroll } => *scroll = (*scroll).min(extents.diagnosis_max_scroll),
            Overlay::Help {
                scroll,
                over_diagnosis,
            } => {
                *scroll = (*scroll).min(extents.help_max_scroll);
                if let Some(d) = over_diagnosis {
                    *d = (*d).min(extents.diagnosis_max_scroll);
                }
            }
            _ => {}
        }
    }
}
