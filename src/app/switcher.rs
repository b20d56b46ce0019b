//! The pod picker: `P`/`o` over a pod (the switcher), and the whole screen of a bare
//! `podscope` with no target. It lists the namespace's pods (every namespace's with `-A` and in
//! the demo) from one list+watch the session runs only while it is open (`Cmd::WatchPodList`,
//! stopped by `Cmd::StopPodList` when it closes), with kubectl's NAME READY STATUS RESTARTS AGE
//! columns, most trouble first; typing narrows the list, Enter aims podscope at the chosen pod
//! (the moving keys are rows of [`super::keymap::KEYMAP`]). A workload's pods are offered the
//! same way from rows already known ([`open_rows`]: no request). Pure: every effect is a
//! returned [`Cmd`]. `docs/picker.md` describes it.

mod choice;
mod live;
mod picker;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub use self::choice::{PodChoice, Trouble, column};
pub use self::live::{pod_applied, pod_deleted, pod_list, pod_list_failed};
pub use self::picker::{Picker, PickerRow};
use super::Cmd;
use super::keymap::Action;
use super::overlay::Overlay;
use super::state::State;
use super::target::Target;
use crate::model::sanitize::sanitize;

/// Where the open picker's rows come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rows {
    /// The session's list+watch of the pods of `namespace` (`None`: every namespace).
    Watched {
        /// The namespace listed, `None` for all of them.
        namespace: Option<String>,
    },
    /// Given when it opened ([`open_rows`]): nothing is asked of the cluster.
    Given,
}

/// The pod picker overlay: the rows, where they come from, and whether it is the whole screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switcher {
    /// The rows, the filter and the highlight.
    pub picker: Picker<PodChoice>,
    /// Where the rows come from.
    pub rows: Rows,
    /// Opened with no pod to show (a bare `podscope`): it is the whole screen, closing it quits
    /// and Enter attaches.
    pub standalone: bool,
    /// The list+watch's last error (`Msg::PodListFailed`), cleared by the next answer; it
    /// retries with back-off.
    pub error: Option<String>,
}

impl Switcher {
    /// The title's words: `pods in shop`, `pods in all namespaces`.
    #[must_use]
    pub fn scope(&self) -> String {
        let namespace = match &self.rows {
            Rows::Watched { namespace } => namespace.clone(),
            Rows::Given => self.picker.rows.first().map(|p| p.namespace.clone()),
        };
        match namespace {
            Some(ns) => format!("pods in {}", sanitize(&ns)),
            None => "pods in all namespaces".to_owned(),
        }
    }
}

/// Opens a picker of `rows` (in place of any other overlay: it takes the keys).
fn open_with(state: &mut State, switcher: Switcher) {
    state.overlay = Overlay::Switcher(switcher);
    state.dirty = true;
}

/// The switcher of the namespace's pods (every namespace's with `-A`), loading.
fn watched(state: &State, standalone: bool) -> (Switcher, Cmd) {
    let namespace = (!state.config.all_namespaces).then(|| state.target.namespace.clone());
    let columns = if namespace.is_some() {
        column::IN_NAMESPACE.to_vec()
    } else {
        column::ALL_NAMESPACES.to_vec()
    };
    let switcher = Switcher {
        picker: Picker {
            columns,
            loading: true,
            ..Picker::default()
        },
        rows: Rows::Watched {
            namespace: namespace.clone(),
        },
        standalone,
        error: None,
    };
    (switcher, Cmd::WatchPodList { namespace })
}

/// `P`/`o`: open the switcher over the pod (loading) and start the list+watch of the pods.
pub fn open(state: &mut State) -> Vec<Cmd> {
    if !state.config.can_switch {
        return Vec::new();
    }
    let (switcher, cmd) = watched(state, false);
    open_with(state, switcher);
    vec![cmd]
}

/// A bare `podscope`: the picker as the whole screen (no pod yet: `state.target` names only
/// the namespace), loading, and the list+watch of the pods started.
pub fn open_standalone(state: &mut State) -> Vec<Cmd> {
    let (switcher, cmd) = watched(state, true);
    open_with(state, switcher);
    vec![cmd]
}

/// Opens the switcher already filled with `rows` (a workload's pods), in the order given (a
/// workload's pods come sorted by `model::workload::choice::sort_by_trouble`, as its glyph
/// row), with a NODE column and the current pod highlighted; no list is asked for.
pub fn open_rows(state: &mut State, rows: Vec<PodChoice>) {
    let mut picker = Picker {
        rows,
        columns: column::WITH_NODE.to_vec(),
        ..Picker::default()
    };
    let (ns, name) = (&state.target.namespace, &state.target.name);
    picker.select_where(|p| p.is(ns, name));
    open_with(
        state,
        Switcher {
            picker,
            rows: Rows::Given,
            standalone: false,
            error: None,
        },
    );
}

/// Closes the switcher: stops its list+watch, if any; the standalone picker quits instead
/// (nothing was chosen).
pub fn close(state: &mut State) -> Vec<Cmd> {
    let Overlay::Switcher(sw) = std::mem::take(&mut state.overlay) else {
        return Vec::new();
    };
    state.dirty = true;
    let mut cmds = Vec::new();
    if matches!(sw.rows, Rows::Watched { .. }) {
        cmds.push(Cmd::StopPodList);
    }
    if sw.standalone {
        cmds.push(Cmd::Quit);
    }
    cmds
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
/// clears a filter or, with none, closes the switcher. In the standalone picker, `q` with no
/// filter quits as well (there is no pod view to go back to).
pub fn filter_key(state: &mut State, key: &KeyEvent) -> Vec<Cmd> {
    let Overlay::Switcher(sw) = &mut state.overlay else {
        return Vec::new();
    };
    state.dirty = true;
    let mut filter = sw.picker.filter.clone();
    match key.code {
        KeyCode::Char('q') if sw.standalone && filter.is_empty() => return close(state),
        KeyCode::Char(c) => filter.push(c),
        KeyCode::Backspace => {
            filter.pop();
        }
        KeyCode::Esc if filter.is_empty() => return close(state),
        KeyCode::Esc => filter.clear(),
        _ => return Vec::new(),
    }
    sw.picker.set_filter(filter);
    Vec::new()
}

/// A switcher action from the keymap (`↓` `↑` move, PageDown/PageUp by a screen, Enter
/// switches, Esc closes).
pub fn apply(state: &mut State, action: Action) -> Vec<Cmd> {
    let page = state
        .screen
        .map_or(10, |(_, rows)| usize::from(rows.saturating_sub(8)).max(1));
    let Overlay::Switcher(sw) = &mut state.overlay else {
        return Vec::new();
    };
    state.dirty = true;
    match action {
        Action::CloseSwitcher => return close(state),
        Action::SwitcherNext => sw.picker.next(),
        Action::SwitcherPrev => sw.picker.prev(),
        Action::SwitcherPageDown => sw.picker.down(page),
        Action::SwitcherPageUp => sw.picker.up(page),
        Action::SwitchToSelected => {
            let Some(p) = sw.picker.selected_row() else {
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
/// pod, no events, no forwards), no overlay (an open picker's list+watch is stopped); the
/// config (shells, theme, log capacity, `-c`, switching), the clock and the terminal's size
/// stay.
///
/// The port-forwards are closed, and the status line says so (`closed 2 port-forwards of
/// crash`): a forward targets a pod by name (kubectl's `port-forward pod/NAME`), so after the
/// switch it could only keep forwarding the old pod's ports, which the screen no longer shows;
/// re-pointing it at the new pod silently would send a local port's traffic to a pod that may
/// not listen there. The person re-adds what they need in the panel (`f`).
pub fn switch(state: &mut State, namespace: &str, name: &str) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    if let Overlay::Switcher(Switcher {
        rows: Rows::Watched { .. },
        ..
    }) = &state.overlay
    {
        cmds.push(Cmd::StopPodList);
    }
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
    cmds.push(Cmd::SwitchPod {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        generation,
    });
    cmds
}
