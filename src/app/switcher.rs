//! The demo's pod switcher (issue #3): `P`/`o` lists the demo cluster's pods (from the
//! simulator's store, in-process — never a namespace-wide list against a real cluster), Enter
//! aims podscope at the chosen one (the keys are rows of [`super::keymap::KEYMAP`]). Pure: every
//! effect is a returned [`Cmd`].

use super::Cmd;
use super::keymap::Action;
use super::overlay::Overlay;
use super::state::State;
use super::target::Target;

/// The switcher overlay.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Switcher {
    /// The pods offered, `(namespace, name)`, sorted; empty while loading.
    pub pods: Vec<(String, String)>,
    /// Index of the highlighted pod.
    pub selected: usize,
    /// Waiting for `Msg::PodList`.
    pub loading: bool,
}

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

/// `Msg::PodList`: fill the open switcher, highlighting the current pod.
pub fn pod_list(state: &mut State, mut pods: Vec<(String, String)>) {
    let current = (state.target.namespace.clone(), state.target.name.clone());
    if let Overlay::Switcher(sw) = &mut state.overlay {
        pods.sort();
        sw.selected = pods.iter().position(|p| *p == current).unwrap_or(0);
        sw.pods = pods;
        sw.loading = false;
        state.dirty = true;
    }
}

/// A switcher action from the keymap (`↓/j` `↑/k` move, Enter switches, Esc/q/P/o close).
pub fn apply(state: &mut State, action: Action) -> Vec<Cmd> {
    let Overlay::Switcher(sw) = &mut state.overlay else {
        return Vec::new();
    };
    state.dirty = true;
    let last = sw.pods.len().saturating_sub(1);
    match action {
        Action::CloseSwitcher => state.overlay = Overlay::None,
        Action::SwitcherNext => sw.selected = (sw.selected + 1).min(last),
        Action::SwitcherPrev => sw.selected = sw.selected.saturating_sub(1),
        Action::SwitchToSelected => {
            let Some((namespace, name)) = sw.pods.get(sw.selected).cloned() else {
                return Vec::new();
            };
            return switch(state, &namespace, &name);
        }
        _ => {}
    }
    Vec::new()
}

/// Aims the state at `namespace/name`: a new target under the next generation (connecting, no
/// pod, no events, no forwards), no overlay; the config (shells, theme, log capacity, `-c`,
/// switching), the clock and the terminal's size stay.
pub fn switch(state: &mut State, namespace: &str, name: &str) -> Vec<Cmd> {
    let generation = state.generations.allocate();
    let page = state.target.logs.page;
    state.target = Target::new(generation, namespace, name, &state.config);
    state.target.logs.page = page;
    state.overlay = Overlay::None;
    state.dirty = true;
    vec![Cmd::SwitchPod {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        generation,
    }]
}
