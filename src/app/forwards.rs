//! The port-forward panel's part of `update`: `f` shows the forwards, `a` types a
//! `[ADDR:]LOCAL:REMOTE` spec, `x`/Delete removes the selected one (the keys are rows of
//! [`super::keymap::KEYMAP`]); statuses arrive as `Msg::Forward`. Pure: every effect is a
//! returned [`Cmd`].

use crossterm::event::{KeyEvent, KeyEventKind};

use super::Cmd;
use super::keymap::Action;
use super::msg::ForwardMsg;
use super::overlay::Overlay;
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
}

impl ForwardEntry {
    /// The state word the panel shows: `starting`, `listening`, `active`, `broken` or
    /// `stopped` (a forward that could not start is not listed, see [`on_msg`]).
    #[must_use]
    pub fn state_word(&self) -> &'static str {
        match self.status.as_ref().map(|s| s.state) {
            None => "starting",
            Some(ForwardState::Listening) => "listening",
            Some(ForwardState::Active) => "active",
            Some(ForwardState::Broken) => "broken",
            Some(ForwardState::Stopped) => "stopped",
        }
    }

    /// The status's `last_error` (a failed connection's text).
    #[must_use]
    pub fn last_error(&self) -> Option<&str> {
        self.status.as_ref()?.last_error.as_deref()
    }
}

/// The forwards and the panel's selection and status line (whether the panel is shown and the
/// spec being typed are [`Overlay::Forwards`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForwardPanel {
    /// The forwards, in the order they were added.
    pub entries: Vec<ForwardEntry>,
    /// Index of the selected entry.
    pub selected: usize,
    /// The id the next forward gets.
    pub next_id: u64,
    /// The panel's status line (parse error of a typed spec, a forward that could not start),
    /// cleared by the next panel action.
    pub status: Option<String>,
}

/// Adds a forward for `spec` (from `--forward` or the panel): a new entry and `Cmd::AddForward`.
pub fn add(state: &mut State, spec: PortSpec) -> Vec<Cmd> {
    let panel = &mut state.target.forwards;
    let id = panel.next_id;
    panel.next_id += 1;
    panel.entries.push(ForwardEntry {
        id,
        spec: spec.clone(),
        status: None,
    });
    panel.selected = panel.entries.len() - 1;
    state.dirty = true;
    vec![Cmd::AddForward { id, spec }]
}

/// The number of the `containerPort` named `name` in the shown pod's main containers or
/// native sidecars (kubectl's rule for named ports); `None` without a pod or such a port.
#[must_use]
pub fn declared_port(state: &State, name: &str) -> Option<u16> {
    state
        .target
        .pod
        .as_ref()?
        .containers
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                crate::model::ContainerKind::Main | crate::model::ContainerKind::Sidecar
            )
        })
        .flat_map(|c| c.ports.iter())
        .find(|(n, _, _)| n.as_deref() == Some(name))
        .and_then(|(_, port, _)| u16::try_from(*port).ok())
}

/// The remote port name of `spec` when the pod is known and does not declare it
/// ([`declared_port`]; checked again per connection).
fn unknown_port_name(state: &State, spec: &PortSpec) -> Option<String> {
    let crate::model::forward::RemotePort::Name(name) = &spec.remote else {
        return None;
    };
    state.target.pod.as_ref()?;
    declared_port(state, name)
        .is_none()
        .then(|| sanitize(name).into_owned())
}

/// `f`: show the panel (in place of any other overlay: the panel takes the keys) or hide it.
pub fn toggle(state: &mut State) {
    state.overlay = if state.overlay.forwards_shown() {
        Overlay::None
    } else {
        Overlay::Forwards { input: None }
    };
    state.target.forwards.status = None;
    state.dirty = true;
}

/// `Msg::Forward`: a status or a start failure for entry `id` (unknown ids are stale: ignored).
///
/// A forward that could not start (no local address could be bound, RBAC refused it) is dropped
/// from the list and its error goes to the status line, `forward 8080:80 failed: unable to listen
/// on 127.0.0.1:8080 and [::1]:8080: address already in use`: the panel's while it is shown,
/// else the footer's. That is what a k9s user expects: k9s tries the local port before it adds a
/// port-forward, and when it cannot listen it flashes the error and lists nothing; a row that
/// forwards nothing would only have to be removed by hand.
pub fn on_msg(state: &mut State, msg: ForwardMsg) {
    let id = match &msg {
        ForwardMsg::Status { id, .. } | ForwardMsg::Failed { id, .. } => *id,
    };
    let shown = state.overlay.forwards_shown();
    let panel = &mut state.target.forwards;
    let Some(i) = panel.entries.iter().position(|e| e.id == id) else {
        return;
    };
    match msg {
        ForwardMsg::Status { status, .. } => {
            panel.entries[i].status = Some(status);
            state.dirty |= shown;
        }
        ForwardMsg::Failed { error, .. } => {
            let failed = panel.entries.remove(i);
            panel.selected = panel.selected.min(panel.entries.len().saturating_sub(1));
            let text = format!("forward {} failed: {}", failed.spec, sanitize(&error));
            if shown {
                panel.status = Some(text);
            } else {
                state.target.logs.status = Some(text);
            }
            state.dirty = true;
        }
    }
}

/// A key while a spec is typed after `a`, edited by [`Prompt::key`]: Enter adds the forward (or
/// says why the spec is bad), Esc or Ctrl-C cancel.
pub fn input_key(state: &mut State, key: &KeyEvent) -> Vec<Cmd> {
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    state.dirty = true;
    let Overlay::Forwards { input } = &mut state.overlay else {
        return Vec::new();
    };
    let Some(prompt) = input.as_mut() else {
        return Vec::new();
    };
    let typed = match prompt.key(key) {
        Outcome::Editing => return Vec::new(),
        Outcome::Cancelled => {
            *input = None;
            return Vec::new();
        }
        Outcome::Accepted(text) => text.trim().to_owned(),
    };
    *input = None;
    if typed.is_empty() {
        return Vec::new();
    }
    match typed.parse::<PortSpec>() {
        Ok(spec) => match unknown_port_name(state, &spec) {
            Some(name) => {
                state.target.forwards.status = Some(format!(
                    "Pod '{}' does not have a named port '{name}'",
                    sanitize(&state.target.name)
                ));
                Vec::new()
            }
            None => add(state, spec),
        },
        Err(e) => {
            state.target.forwards.status = Some(format!("bad forward {typed:?}: {e}"));
            Vec::new()
        }
    }
}

/// A panel action from the keymap (`a` add, `x`/Delete remove, `↓/j` `↑/k` select, `f`/Esc
/// close); it clears the panel's status line. Removing returns `Cmd::StopForward`.
pub fn apply(state: &mut State, action: Action) -> Vec<Cmd> {
    state.dirty = true;
    let panel = &mut state.target.forwards;
    panel.status = None;
    let last = panel.entries.len().saturating_sub(1);
    match action {
        Action::CloseForwards => toggle(state),
        Action::ForwardAdd => {
            state.overlay = Overlay::Forwards {
                input: Some(Prompt::default()),
            }
        }
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
