//! The demo's pod switcher: `P`/`o` lists the demo cluster's pods (from the simulator's store,
//! in-process — never a namespace-wide list against a real cluster) with kubectl's READY,
//! STATUS, RESTARTS and AGE columns; typing narrows the list, Enter aims podscope at the chosen
//! one (the moving keys are rows of [`super::keymap::KEYMAP`]). Pure: every effect is a
//! returned [`Cmd`].
//!
//! The list itself is a [`Picker`] over any [`PickerRow`] (the switcher's rows are
//! [`PodChoice`]s), so another overlay can offer other rows — e.g. the pods of a workload —
//! with the same filter and keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;

use super::Cmd;
use super::keymap::Action;
use super::overlay::Overlay;
use super::state::State;
use super::target::Target;
use crate::model::PodPrint;
use crate::model::printer::{age, print_pod};
use crate::model::sanitize::sanitize;

/// A row a [`Picker`] offers: its cells under [`PickerRow::COLUMNS`] and the text the filter
/// searches.
pub trait PickerRow {
    /// The column headers, e.g. `["NAMESPACE", "NAME", "READY", …]`.
    const COLUMNS: &'static [&'static str];
    /// The column narrowed last when the rows are too wide (the one people read the rows by).
    const KEEP: usize;
    /// The row's cells at `now`, one per column, raw (the view sanitises them).
    fn cells(&self, now: Timestamp) -> Vec<String>;
    /// The text typed characters are matched against (case-insensitive substring).
    fn haystack(&self) -> String;
}

/// A filterable list of rows with one highlighted: the state of a picker overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker<R> {
    /// The rows offered, in display order; empty while loading.
    pub rows: Vec<R>,
    /// What was typed: only rows whose haystack contains it (ignoring case) are shown.
    pub filter: String,
    /// Index of the highlighted row among the shown ones ([`Picker::shown`]).
    pub selected: usize,
    /// Waiting for the rows.
    pub loading: bool,
}

impl<R> Default for Picker<R> {
    fn default() -> Self {
        Picker {
            rows: Vec::new(),
            filter: String::new(),
            selected: 0,
            loading: false,
        }
    }
}

impl<R: PickerRow> Picker<R> {
    /// The rows the filter lets through, in order.
    #[must_use]
    pub fn shown(&self) -> Vec<&R> {
        let needle = self.filter.to_lowercase();
        self.rows
            .iter()
            .filter(|r| r.haystack().to_lowercase().contains(&needle))
            .collect()
    }

    /// The highlighted row, if any is shown.
    #[must_use]
    pub fn selected_row(&self) -> Option<&R> {
        self.shown().get(self.selected).copied()
    }

    /// Highlights the next shown row (stops at the last).
    pub fn next(&mut self) {
        self.selected = (self.selected + 1).min(self.shown().len().saturating_sub(1));
    }

    /// Highlights the previous shown row (stops at the first).
    pub fn prev(&mut self) {
        self.selected = self.selected.saturating_sub(1);
    }

    /// Sets the filter, keeping the highlighted row when it is still shown, else the first.
    pub fn set_filter(&mut self, filter: String) {
        let before = self.selected_row().map(|r| r.haystack());
        self.filter = filter;
        let shown = self.shown();
        self.selected = before
            .and_then(|h| shown.iter().position(|r| r.haystack() == h))
            .unwrap_or(0);
    }
}

/// One pod the switcher offers, with what `kubectl get pods -A` prints of it (`model::printer`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodChoice {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// READY, STATUS and RESTARTS as the printer computes them.
    pub print: PodPrint,
    /// `metadata.creationTimestamp`, for AGE.
    pub created: Option<Timestamp>,
}

impl PodChoice {
    /// The choice for `pod` (raw API strings, as the printer reads them).
    #[must_use]
    pub fn from_pod(pod: &Pod) -> PodChoice {
        PodChoice {
            namespace: pod.metadata.namespace.clone().unwrap_or_default(),
            name: pod.metadata.name.clone().unwrap_or_default(),
            print: print_pod(pod),
            created: pod.metadata.creation_timestamp.as_ref().map(|t| t.0),
        }
    }

    /// A choice known only by name (empty columns; for tests and listers without objects).
    #[must_use]
    pub fn named(namespace: &str, name: &str) -> PodChoice {
        PodChoice {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            print: PodPrint::default(),
            created: None,
        }
    }
}

impl PickerRow for PodChoice {
    const COLUMNS: &'static [&'static str] =
        &["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"];
    const KEEP: usize = 1;

    fn cells(&self, now: Timestamp) -> Vec<String> {
        vec![
            self.namespace.clone(),
            self.name.clone(),
            self.print.ready_text(),
            self.print.status.clone(),
            self.print.restarts_text(now),
            age(self.created, now),
        ]
    }

    fn haystack(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

/// The switcher overlay: a picker over the demo cluster's pods.
pub type Switcher = Picker<PodChoice>;

/// `P`/`o`: open the switcher (loading; in place of any other overlay: the switcher takes the
/// keys) and ask for the list.
pub fn open(state: &mut State) -> Vec<Cmd> {
    if !state.config.can_switch {
        return Vec::new();
    }
    state.overlay = Overlay::Switcher(Switcher {
        loading: true,
        ..Switcher::default()
    });
    state.dirty = true;
    vec![Cmd::ListPods]
}

/// `Msg::PodList`: fill the open switcher, sorted by namespace and name, highlighting the
/// current pod.
pub fn pod_list(state: &mut State, mut pods: Vec<PodChoice>) {
    let (namespace, name) = (&state.target.namespace, &state.target.name);
    if let Overlay::Switcher(sw) = &mut state.overlay {
        pods.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        sw.rows = pods;
        sw.selected = sw
            .shown()
            .iter()
            .position(|p| p.namespace == *namespace && p.name == *name)
            .unwrap_or(0);
        sw.loading = false;
        state.dirty = true;
    }
}

/// Whether the open switcher reads `key` itself rather than through the keymap: a typed
/// character (no Ctrl/Alt), Backspace, Esc.
#[must_use]
pub fn reads_key(key: &KeyEvent) -> bool {
    let plain = !key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    matches!(key.code, KeyCode::Char(_) if plain)
        || matches!(key.code, KeyCode::Backspace | KeyCode::Esc)
}

/// A key [`reads_key`] accepts: a character narrows the list, Backspace widens it again, Esc
/// clears a filter or, with none, closes the switcher.
pub fn filter_key(state: &mut State, key: &KeyEvent) -> Vec<Cmd> {
    let Overlay::Switcher(sw) = &mut state.overlay else {
        return Vec::new();
    };
    state.dirty = true;
    let mut filter = sw.filter.clone();
    match key.code {
        KeyCode::Char(c) => filter.push(c),
        KeyCode::Backspace => {
            filter.pop();
        }
        KeyCode::Esc if filter.is_empty() => {
            state.overlay = Overlay::None;
            return Vec::new();
        }
        KeyCode::Esc => filter.clear(),
        _ => return Vec::new(),
    }
    sw.set_filter(filter);
    Vec::new()
}

/// A switcher action from the keymap (`↓` `↑` move, Enter switches, Esc closes).
pub fn apply(state: &mut State, action: Action) -> Vec<Cmd> {
    let Overlay::Switcher(sw) = &mut state.overlay else {
        return Vec::new();
    };
    state.dirty = true;
    match action {
        Action::CloseSwitcher => state.overlay = Overlay::None,
        Action::SwitcherNext => sw.next(),
        Action::SwitcherPrev => sw.prev(),
        Action::SwitchToSelected => {
            let Some(p) = sw.selected_row() else {
                return Vec::new();
            };
            let (namespace, name) = (p.namespace.clone(), p.name.clone());
            return switch(state, &namespace, &name);
        }
        _ => {}
    }
    Vec::new()
}

/// Aims the state at `namespace/name`: a new target under the next generation (connecting, no
/// pod, no events, no forwards), no overlay; the config (shells, theme, log capacity, `-c`,
/// switching), the clock and the terminal's size stay.
///
/// The port-forwards are closed, and the status line says so (`closed 2 port-forwards of
/// crash`): a forward targets a pod by name (kubectl's `port-forward pod/NAME`), so after the
/// switch it could only keep forwarding the old pod's ports, which the screen no longer shows;
/// re-pointing it at the new pod silently would send a local port's traffic to a pod that may
/// not listen there. The person re-adds what they need in the panel (`f`).
pub fn switch(state: &mut State, namespace: &str, name: &str) -> Vec<Cmd> {
    let generation = state.generations.allocate();
    let page = state.target.logs.page;
    let closed = state.target.forwards.entries.len();
    let old_name = sanitize(&state.target.name).into_owned();
    state.target = Target::new(generation, namespace, name, &state.config);
    state.target.logs.page = page;
    if closed > 0 {
        let plural = if closed == 1 { "" } else { "s" };
        state.target.logs.status = Some(format!(
            "closed {closed} port-forward{plural} of {old_name}"
        ));
    }
    state.overlay = Overlay::None;
    state.dirty = true;
    vec![Cmd::SwitchPod {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        generation,
    }]
}
