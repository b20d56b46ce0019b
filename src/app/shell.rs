//! The shell and debug-container part of `update`: `e` asks the loop to hand the
//! terminal to a shell, `d` adds an ephemeral debug container and attaches to it once it runs,
//! and how they ended goes to the status line. Pure: every effect is a returned [`Cmd`].

use super::Cmd;
use super::msg::ShellEnd;
use super::state::State;
use crate::model::ContainerState;
use crate::model::sanitize::sanitize;

/// The image `d` adds (kubectl debug's usual choice; has `sh` and the usual tools).
pub const DEBUG_IMAGE: &str = "busybox:1.37";

/// The shells `e` tries by default, in order (as kubectl users type them).
pub const DEFAULT_SHELLS: [&str; 2] = ["bash", "sh"];

/// The shells `e` tries: the configured one alone (`--shell`/`PODSCOPE_SHELL`, a command line),
/// else [`DEFAULT_SHELLS`].
#[must_use]
pub fn shells(configured: Option<&str>) -> Vec<String> {
    match configured.map(str::trim).filter(|s| !s.is_empty()) {
        Some(cmd) => vec![cmd.to_owned()],
        None => DEFAULT_SHELLS.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// Why `e` does not try a container whose `state` is waiting or terminated (the kubelet refuses
/// an exec into it: `container not found`): its `reason`, or the state's name when the reason is
/// empty. `None` when it runs or its state is not known yet (then `e` tries).
#[must_use]
pub fn not_running_reason(state: &ContainerState) -> Option<&str> {
    let (reason, fallback) = match state {
        ContainerState::Waiting { reason, .. } => (reason, "Waiting"),
        ContainerState::Terminated(t) => (&t.reason, "Terminated"),
        ContainerState::Running { .. } | ContainerState::Unknown => return None,
    };
    Some(if reason.is_empty() { fallback } else { reason })
}

/// `e`: a shell (`state.config.shells`, first that exists) in the selected container
/// (`Cmd::OpenShell`); a status instead when there is no container, or when it is not running
/// (with the offer of a debug container, as for an image without a shell).
pub fn open_shell(state: &mut State) -> Vec<Cmd> {
    state.dirty = true;
    let Some(c) = state.selected_container() else {
        state.target.logs.status = Some("no container to open a shell in".to_owned());
        return Vec::new();
    };
    let container = c.name.clone();
    if let Some(reason) = not_running_reason(&c.state).map(str::to_owned) {
        state.target.logs.status = Some(format!(
            "container {} is not running ({}): press d for a debug container",
            sanitize(&container),
            sanitize(&reason)
        ));
        return Vec::new();
    }
    state.target.logs.status = Some(format!("opening a shell in {}…", sanitize(&container)));
    vec![Cmd::OpenShell {
        container,
        shells: state.config.shells.clone(),
    }]
}

/// `d`: an ephemeral debug container targeting the selected container (`Cmd::AddDebugContainer`).
pub fn add_debug(state: &mut State) -> Vec<Cmd> {
    state.dirty = true;
    match state.selected_container() {
        Some(c) => {
            let target = c.name.clone();
            state.target.logs.status = Some(format!(
                "adding an ephemeral debug container ({DEBUG_IMAGE}) targeting {}…",
                sanitize(&target)
            ));
            vec![Cmd::AddDebugContainer { target }]
        }
        None => {
            state.target.logs.status = Some("no container to debug".to_owned());
            Vec::new()
        }
    }
}

/// The line printed at the top of the terminal when it is handed to a shell (`attach` false) or
/// to the debug container's attach (`attach` true), so the person knows the way back. An attach
/// has no detach sequence here (podscope does not implement kubectl's Ctrl-P Ctrl-Q, which only
/// some runtimes honour): leaving the debug container's shell ends the container.
#[must_use]
pub fn handoff_banner(attach: bool) -> &'static str {
    if attach {
        "exit or Ctrl-D returns to podscope (this ends the debug container: there is no detach)"
    } else {
        "exit or Ctrl-D returns to podscope"
    }
}

/// The status line after a shell or attach in `container` ended, naming what ended: `shell bash
/// in proxy exited 0`, kubectl's `command terminated with exit code N` for a non-zero exit (after
/// the shell's name), `debug container debugger-x7k2 ended (exit 0)` for an attach (its `shell`
/// is empty), and for an image without a shell the offer of a debug container.
#[must_use]
pub fn end_text(state: &State, container: &str, result: &ShellEnd) -> String {
    let container_text = sanitize(container);
    match result {
        ShellEnd::Exited { shell, exit_code } if shell.is_empty() => {
            format!("debug container {container_text} ended (exit {exit_code})")
        }
        ShellEnd::Exited {
            shell,
            exit_code: 0,
        } => format!("shell {} in {container_text} exited 0", sanitize(shell)),
        ShellEnd::Exited { shell, exit_code } => format!(
            "shell {} in {container_text}: command terminated with exit code {exit_code}",
            sanitize(shell)
        ),
        ShellEnd::NoShell { tried } => {
            let image = state
                .target
                .pod
                .as_ref()
                .and_then(|p| p.containers.iter().find(|c| c.name == container))
                .map_or_else(|| container.to_owned(), |c| c.image.clone());
            format!(
                "no shell in image {} (tried {}): press d to add an ephemeral debug container",
                sanitize(&image),
                tried.join(", ")
            )
        }
        ShellEnd::Failed(text) => format!("shell failed: {}", sanitize(text)),
    }
}

/// `Msg::ShellExited`: the status line says how it ended.
pub fn exited(state: &mut State, container: &str, result: &ShellEnd) {
    state.target.logs.status = Some(end_text(state, container, result));
    state.dirty = true;
}

/// `Msg::DebugReady`: the debugger runs; attach to it through the same terminal handoff.
pub fn debug_ready(state: &mut State, name: String) -> Vec<Cmd> {
    state.target.logs.status = Some(format!("attaching to {}…", sanitize(&name)));
    state.dirty = true;
    vec![Cmd::AttachDebug { container: name }]
}

/// `Msg::DebugFailed`: the reason in the status line.
pub fn debug_failed(state: &mut State, reason: &str) {
    state.target.logs.status = Some(format!("debug container failed: {}", sanitize(reason)));
    state.dirty = true;
}
