//! `update`: the pure transition function. No IO, no clock: time arrives as `Msg::Tick(now)`.

use super::keymap::{Action, action_in};
use super::logs::actions as logs;
use super::state::{Connection, State};
use super::{Cmd, Msg};
use crate::model::PodSummary;
use crate::model::event::sort_newest_first;
use crate::model::sanitize::sanitize;

/// Applies one message to `state` and returns the effects for the loop to execute.
///
/// Sets `state.dirty` when the screen changes. Rules:
/// - first `PodApplied` → `Cmd::WatchEvents{uid}`; a different `uid` than the shown pod → notice
///   "pod recreated (new UID …)", events cleared, `Cmd::WatchEvents{uid}`;
/// - `PodAbsent` → not found, nothing stale kept (unless the pod was seen deleted: then the last
///   state stays, since absence is what deletion means);
/// - `PodDeleted` → last state kept, marked deleted at `state.now`;
/// - `PodWatchFailed(msg)` → reconnecting with `msg` (sanitised: it may quote the server), until
///   the next `PodApplied`/`PodAbsent`;
/// - `Tick(now)` → `now` set; dirty only if something time-dependent is displayed;
/// - keys are resolved through [`crate::app::keymap::KEYMAP`] in `state.key_mode()` (the
///   port-forward panel and the pod switcher take the keys while open); `Quit` → `Cmd::Quit`;
///   a spec typed in the panel or a log search/filter reads raw keys;
/// - after a message the diagnosis reads, it is refreshed and the log tails and lookups it
///   wants are asked once each (`Cmd::ReadLogTail`, `Cmd::Lookup`, see [`super::evidence`]).
pub fn update(state: &mut State, msg: Msg) -> Vec<Cmd> {
    let diagnosis_input = super::diagnosis::reads(&msg);
    let mut cmds = apply(state, msg);
    if diagnosis_input {
        super::evidence::forget_other_pod(state);
        super::diagnosis::refresh(state);
        cmds.extend(super::evidence::wanted(state));
    }
    cmds
}

fn apply(state: &mut State, msg: Msg) -> Vec<Cmd> {
    match msg {
        Msg::Tick(now) => {
            state.now = now;
            if state.shows_clock() {
                state.dirty = true;
            }
            Vec::new()
        }
        Msg::Key(key) if state.forwards.shown && state.forwards.input.is_some() => {
            super::forwards::input_key(state, &key)
        }
        Msg::Key(key) if state.logs.input.is_some() => logs::input_key(state, &key),
        Msg::Key(key) => {
            // A status line ("saved …", "no match …", "shell exited …") stays until the next
            // key, then the footer's key hints come back.
            if state.logs.status.take().is_some() {
                state.dirty = true;
            }
            match action_in(&key, state.key_mode()) {
                Some(action) => apply_action(state, action),
                None => Vec::new(),
            }
        }
        Msg::Resize(cols, rows) => {
            state.screen = Some((cols, rows));
            state.help_scroll = state.help_scroll.min(help_max_scroll(state));
            // A page of the log pane: about half the screen (the pane's exact height is the
            // view's business).
            state.logs.page = usize::from(rows / 2).max(1);
            state.dirty = true;
            Vec::new()
        }
        // After a pod switch, messages of the old pod's watch may still be queued: ignore them.
        Msg::PodApplied(pod) | Msg::PodDeleted(pod)
            if pod.namespace != state.namespace || pod.name != state.name =>
        {
            Vec::new()
        }
        Msg::PodApplied(pod) => pod_applied(state, *pod),
        Msg::PodAbsent => {
            let mut cmds = Vec::new();
            if !matches!(state.connection, Connection::Deleted { .. }) {
                state.pod = None;
                state.events.clear();
                state.events_error = None;
                state.selected = 0;
                state.connection = Connection::NotFound;
                state.dirty = true;
                if !state.namespace_asked {
                    state.namespace_asked = true;
                    cmds.push(Cmd::CheckNamespace {
                        namespace: state.namespace.clone(),
                    });
                }
            }
            cmds
        }
        Msg::NamespaceChecked { namespace, exists } => {
            if namespace == state.namespace {
                state.namespace_missing = exists == Some(false);
                state.dirty = true;
            }
            Vec::new()
        }
        Msg::PodDeleted(pod) => {
            keep_selection(state, &pod);
            state.pod = Some(*pod);
            state.connection = Connection::Deleted { at: state.now };
            state.dirty = true;
            Vec::new()
        }
        Msg::PodWatchRestarted => Vec::new(),
        Msg::PodWatchFailed(reason) => {
            state.connection = Connection::Reconnecting(sanitize(&reason).into_owned());
            state.dirty = true;
            Vec::new()
        }
        Msg::EventsReset(mut events) => {
            sort_newest_first(&mut events);
            state.events = events;
            state.events_error = None;
            state.dirty = true;
            logs::events_changed(state);
            Vec::new()
        }
        Msg::EventApplied(event) => {
            match state.events.iter_mut().find(|e| e.uid == event.uid) {
                Some(slot) => *slot = event,
                None => state.events.push(event),
            }
            sort_newest_first(&mut state.events);
            state.events_error = None;
            state.dirty = true;
            logs::events_changed(state);
            Vec::new()
        }
        Msg::EventDeleted(uid) => {
            let before = state.events.len();
            state.events.retain(|e| e.uid != uid);
            state.dirty |= state.events.len() != before;
            logs::events_changed(state);
            Vec::new()
        }
        Msg::EventsWatchFailed(reason) => {
            state.events_error = Some(sanitize(&reason).into_owned());
            state.dirty = true;
            Vec::new()
        }
        Msg::LogLines { stream, lines } => logs::lines(state, stream, lines),
        Msg::LogStreamEnded { stream, reason } => logs::ended(state, stream, reason.as_deref()),
        Msg::LogsSaved { path, result } => {
            logs::saved(state, &path, result);
            Vec::new()
        }
        Msg::ShellExited { container, result } => {
            super::shell::exited(state, &container, &result);
            Vec::new()
        }
        Msg::DebugReady { name } => super::shell::debug_ready(state, name),
        Msg::DebugFailed(reason) => {
            super::shell::debug_failed(state, &reason);
            Vec::new()
        }
        Msg::Forward(fmsg) => {
            super::forwards::on_msg(state, fmsg);
            Vec::new()
        }
        Msg::PodList(pods) => {
            super::switcher::pod_list(state, pods);
            Vec::new()
        }
        Msg::OwnerChecked { uid, status } => {
            if state.owner_asked.as_deref() == Some(uid.as_str()) {
                state.owner = status;
                state.dirty = true;
            }
            Vec::new()
        }
        Msg::LogTailRead {
            container,
            previous,
            tail,
        } => {
            super::evidence::log_tail_read(state, container, previous, tail);
            Vec::new()
        }
        Msg::LookedUp { object, lookup } => {
            super::evidence::looked_up(state, object, lookup);
            Vec::new()
        }
        Msg::Quit => vec![Cmd::Quit],
    }
}

fn pod_applied(state: &mut State, pod: PodSummary) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    let recreated = state.pod.as_ref().is_some_and(|old| old.uid != pod.uid);
    match &state.pod {
        None => {
            state.selected = state.first_selection(&pod);
            cmds.push(Cmd::WatchEvents {
                uid: pod.uid.clone(),
            });
        }
        Some(old) if old.uid != pod.uid => {
            state.notice = Some(format!("pod recreated (new UID {})", pod.uid));
            state.events.clear();
            state.events_error = None;
            // The person was looking at a container: keep it when the new pod has it.
            let kept = state
                .selected_container()
                .and_then(|c| pod.containers.iter().position(|n| n.name == c.name));
            state.selected = kept.unwrap_or_else(|| state.first_selection(&pod));
            cmds.push(Cmd::WatchEvents {
                uid: pod.uid.clone(),
            });
        }
        Some(_) => keep_selection(state, &pod),
    }
    if let Some(owner) = crate::model::deletion::owner_check_needed(&pod)
        && state.owner_asked.as_deref() != Some(owner.uid.as_str())
    {
        state.owner_asked = Some(owner.uid.clone());
        state.owner = crate::model::deletion::OwnerStatus::Unknown;
        cmds.push(Cmd::CheckOwner {
            namespace: pod.namespace.clone(),
            owner: owner.clone(),
        });
    }
    state.pod = Some(pod);
    state.namespace_missing = false;
    state.connection = Connection::Live;
    state.dirty = true;
    cmds.extend(logs::pod_changed(state, recreated));
    cmds
}

/// Keeps the same container (by name) selected when the pod's container list changes.
fn keep_selection(state: &mut State, new: &PodSummary) {
    let name = state.selected_container().map(|c| c.name.clone());
    let by_name = name.and_then(|n| new.containers.iter().position(|c| c.name == n));
    state.selected =
        by_name.unwrap_or_else(|| state.selected.min(new.containers.len().saturating_sub(1)));
}

fn apply_action(state: &mut State, action: Action) -> Vec<Cmd> {
    let count = state.pod.as_ref().map_or(0, |p| p.containers.len());
    let last = count.saturating_sub(1);
    let before = (state.selected, state.show_help);
    match action {
        Action::Quit => return vec![Cmd::Quit],
        Action::NextContainer => state.selected = (state.selected + 1).min(last),
        Action::PrevContainer => state.selected = state.selected.saturating_sub(1),
        Action::FirstContainer => state.selected = 0,
        Action::LastContainer => state.selected = last,
        Action::ToggleHelp => {
            state.show_help = !state.show_help;
            state.help_scroll = 0;
        }
        Action::CloseHelp => state.show_help = false,
        Action::HelpUp | Action::HelpDown | Action::HelpPageUp | Action::HelpPageDown => {
            scroll_help(state, action);
            return Vec::new();
        }
        Action::OpenShell => return super::shell::open_shell(state),
        Action::AddDebug => return super::shell::add_debug(state),
        Action::ToggleForwards => {
            super::forwards::toggle(state);
            return Vec::new();
        }
        Action::ForwardAdd
        | Action::ForwardRemove
        | Action::ForwardNext
        | Action::ForwardPrev
        | Action::CloseForwards => return super::forwards::apply(state, action),
        Action::OpenSwitcher => return super::switcher::open(state),
        Action::SwitcherNext
        | Action::SwitcherPrev
        | Action::SwitchToSelected
        | Action::CloseSwitcher => return super::switcher::apply(state, action),
        Action::ExpandDiagnosis
        | Action::CloseDiagnosis
        | Action::DiagnosisUp
        | Action::DiagnosisDown
        | Action::DiagnosisPageUp
        | Action::DiagnosisPageDown
        | Action::FocusEvents
        | Action::FocusContainers
        | Action::EventNext
        | Action::EventPrev => {
            super::focus::apply(state, action);
            return Vec::new();
        }
        log_action => return logs::apply(state, log_action),
    }
    state.dirty |= before != (state.selected, state.show_help);
    if before.0 != state.selected && state.logs.shown && !state.logs.all {
        return logs::reload(state);
    }
    Vec::new()
}

/// The help overlay's scroll limit at the last known terminal size (80×24 before any resize).
fn help_max_scroll(state: &State) -> usize {
    let (cols, rows) = state.screen.unwrap_or((80, 24));
    crate::ui::help::max_scroll(cols, rows)
}

/// Scrolls the help overlay by a line or a page, within what is hidden at the current size.
fn scroll_help(state: &mut State, action: Action) {
    let (_, rows) = state.screen.unwrap_or((80, 24));
    let page = usize::from(rows.saturating_sub(4)).max(1);
    let before = state.help_scroll;
    state.help_scroll = match action {
        Action::HelpUp => before.saturating_sub(1),
        Action::HelpPageUp => before.saturating_sub(page),
        Action::HelpDown => before + 1,
        _ => before + page,
    }
    .min(help_max_scroll(state));
    state.dirty |= before != state.help_scroll;
}
