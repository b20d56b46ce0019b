//! The port-forward panel's part of `update`: `f` shows the forwards, `a` types a
//! `[ADDR:]LOCAL:REMOTE` spec, `x`/Delete removes the selected one (the keys are rows of
//! [`super::keymap::KEYMAP`]); statuses arrive as `Msg::Forward`. Pure: every effect is a
//! returned [`Cmd`].

use crossterm::event::{KeyEvent, KeyEventKind};

use super::Cmd;
use super::keymap::Action;
use super::msg::ForwardMsg;
use super::prompt::{Outcome, Prompt};
use super::state::State;
use crate::model::forward::PortSpec;
use crate::model::forward_status::{ForwardState, ForwardStatus};
use crate::model::sanitize::sanitize;

/// One forward as the panel lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForwardEntry {
    /// The id given in `Cmd::AddForward`.
    pub id: u64,
    /// What was asked.
    pub spec: PortSpec,
    /// The last status published by the forwarder (`None` until it bound).
    pub status: Option<ForwardStatus>,
    /// Why it could not start (bind failure); the entry stays listed until removed.
    pub failed: Option<String>,
}

impl ForwardEntry {
    /// The state word the panel shows: `starting`, `listening`, `active`, `broken`, `stopped`,
    /// or `failed`.
    #[must_use]
    pub fn state_word(&self) -> &'static str {
        if self.failed.is_some() {
            return "failed";
        }
        match self.status.as_ref().map(|s| s.state) {
            None => "starting",
            Some(ForwardState::Listening) => "listening",
            Some(ForwardState::Active) => "active",
            Some(ForwardState::Broken) => "broken",
            Some(ForwardState::Stopped) => "stopped",
        }
    }

    /// The last error: the start failure, else the status's `last_error`.
    #[must_use]
    pub fn last_error(&self) -> Option<&str> {
        self.failed
            .as_deref()
            .or_else(|| self.status.as_ref()?.last_error.as_deref())
    }
}

/// The panel: its entries, selection, and the spec being typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForwardPanel {
    /// Shown (`f`); it takes the keys while shown.
    pub shown: bool,
    /// The forwards, in the order they were added.
    pub entries: Vec<ForwardEntry>,
    /// Index of the selected entry.
    pub selected: usize,
    /// The spec being typed after `a` (`None`: not typing).
    pub input: Option<Prompt>,
    /// The id the next forward gets.
    pub next_id: u64,
    /// The panel's status line (parse error of a typed spec), cleared by the next panel action.
    pub status: Option<String>,
}

/// Adds a forward for `spec` (from `--forward` or the panel): a new entry and `Cmd::AddForward`.
pub fn add(state: &mut State, spec: PortSpec) -> Vec<Cmd> {
    let panel = &mut state.forwards;
    let id = panel.next_id;
    panel.next_id += 1;
    panel.entries.push(ForwardEntry {
        id,
        spec: spec.clone(),
        status: None,
        failed: None,
    });
    panel.selected = panel.entries.len() - 1;
    state.dirty = true;
    vec![Cmd::AddForward { id, spec }]
}

/// The remote port name of `spec` when the pod is known and none of its main containers or
/// native sidecars declares it (kubectl's rule for named ports; checked again per connection).
fn unknown_port_name(state: &State, spec: &PortSpec) -> Option<String> {
    let crate::model::forward::RemotePort::Name(name) = &spec.remote else {
        return None;
    };
    let pod = state.pod.as_ref()?;
    let declared = pod
        .containers
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                crate::model::ContainerKind::Main | crate::model::ContainerKind::Sidecar
            )
        })
        .flat_map(|c| c.ports.iter())
        .any(|(n, _, _)| n.as_deref() == Some(name.as_str()));
    (!declared).then(|| sanitize(name).into_owned())
}

/// `f`: show the panel (closing help: the panel takes the keys) or hide it.
pub fn toggle(state: &mut State) {
    state.forwards.shown = !state.forwards.shown;
    if state.forwards.shown {
        state.show_help = false;
    }
    state.forwards.input = None;
    state.forwards.status = None;
    state.dirty = true;
}

/// `Msg::Forward`: a status or a start failure for entry `id` (unknown ids are stale: ignored).
pub fn on_msg(state: &mut State, msg: ForwardMsg) {
    let id = match &msg {
        ForwardMsg::Status { id, .. } | ForwardMsg::Failed { id, .. } => *id,
    };
    if let Some(e) = state.forwards.entries.iter_mut().find(|e| e.id == id) {
        match msg {
            ForwardMsg::Status { status, .. } => e.status = Some(status),
            ForwardMsg::Failed { error, .. } => e.failed = Some(sanitize(&error).into_owned()),
        }
        state.dirty |= state.forwards.shown;
    }
}

/// A key while a spec is typed after `a`, edited by [`Prompt::key`]: Enter adds the forward (or
/// says why the spec is bad), Esc or Ctrl-C cancel.
pub fn input_key(state: &mut State, key: &KeyEvent) -> Vec<Cmd> {
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    let panel = &mut state.forwards;
    let Some(prompt) = panel.input.as_mut() else {
        return Vec::new();
    };
    state.dirty = true;
    let typed = match prompt.key(key) {
        Outcome::Editing => return Vec::new(),
        Outcome::Cancelled => {
            panel.input = None;
            return Vec::new();
        }
        Outcome::Accepted(text) => text.trim().to_owned(),
    };
    panel.input = None;
    if typed.is_empty() {
        return Vec::new();
    }
    match typed.parse::<PortSpec>() {
        Ok(spec) => match unknown_port_name(state, &spec) {
            Some(name) => {
                state.forwards.status = Some(format!(
                    "Pod '{}' does not have a named port '{name}'",
                    sanitize(&state.name)
                ));
                Vec::new()
            }
            None => add(state, spec),
        },
        Err(e) => {
            state.forwards.status = Some(format!("bad forward {typed:?}: {e}"));
            Vec::new()
        }
    }
}

/// A panel action from the keymap (`a` add, `x`/Delete remove, `↓/j` `↑/k` select, `f`/Esc
/// close); it clears the panel's status line. Removing returns `Cmd::StopForward`.
pub fn apply(state: &mut State, action: Action) -> Vec<Cmd> {
    state.dirty = true;
    let panel = &mut state.forwards;
    panel.status = None;
    let last = panel.entries.len().saturating_sub(1);
    match action {
        Action::CloseForwards => toggle(state),
        Action::ForwardAdd => panel.input = Some(Prompt::default()),
        Action::ForwardRemove if panel.selected < panel.entries.len() => {
            let removed = panel.entries.remove(panel.selected);
            panel.selected = panel.selected.min(panel.entries.len().saturating_sub(1));
            return vec![Cmd::StopForward { id: removed.id }];
        }
        Action::ForwardNext => panel.selected = (panel.selected + 1).min(last),
        Action::ForwardPrev => panel.selected = panel.selected.saturating_sub(1),
        _ => {}
    }
    Vec::new()
}
