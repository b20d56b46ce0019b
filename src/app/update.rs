//! `update`: the pure transition function. No IO, no clock: time arrives as `Msg::Tick(now)`.

use super::keymap::{Action, action_in};
use super::logs::actions as logs;
use super::state::{Connection, State};
use super::{Cmd, Msg};
use crate::model::event::sort_newest_first;
use crate::model::sanitize::sanitize;

/// Applies one message to `state` and returns the effects for the loop to execute.
///
/// Sets `state.dirty` when the screen changes. Rules:
/// - `ForTarget(generation, msg)` → `msg` if `generation` is the shown target's, else nothing
///   (a message of a task started for a pod since switched away from or re-created);
/// - first `PodApplied` → `Cmd::WatchEvents{uid}`; a different `uid` than the shown pod → a new
///   target (next generation) with notice "pod recreated (new UID …)" (fading after
///   [`super::notice::NOTICE_FOR`] of ticks), `Cmd::PodRecreated`,
///   `Cmd::WatchEvents{uid}`;
/// - `PodAbsent` → not found, nothing stale kept (unless the pod was seen deleted: then the last
///   state stays, since absence is what deletion means);
/// - `PodDeleted` → last state kept, marked deleted at `state.now`;
/// - `PodWatchFailed(msg)` → reconnecting with `msg` (sanitised: it may quote the server), until
///   the next `PodApplied`/`PodAbsent`;
/// - `Tick(now)` → `now` set; dirty only if something time-dependent is displayed;
/// - keys are resolved through [`crate::app::keymap::KEYMAP`] in `state.key_mode()` (the
///   port-forward panel and the pod switcher take the keys while open); `Quit` → `Cmd::Quit`;
///   a spec typed in the panel or a log search/filter prompt ([`super::overlay::Overlay`]) reads
///   raw keys, and so does the open switcher for its filter (characters, Backspace, Esc:
///   [`super::switcher::reads_key`]);
/// - `AccessChecked` → kept in `state.access`; `e`/`d`/`f` refused there write why to the
///   status line and ask nothing ([`super::access`]);
/// - after a message the diagnosis reads, it is refreshed and the log tails and lookups it
///   wants are asked once each (`Cmd::ReadLogTail`, `Cmd::Lookup`, see [`super::evidence`]).
pub fn update(state: &mut State, msg: Msg) -> Vec<Cmd> {
    let msg = match msg {
        Msg::ForTarget(generation, msg) if generation == state.target.generation => *msg,
        Msg::ForTarget(..) => return Vec::new(),
        Msg::ForWorkload(stamp, msg)
            if state.workload.as_ref().is_some_and(|w| w.stamp == stamp) =>
        {
            *msg
        }
        // A workload no longer followed (or another one since).
        Msg::ForWorkload(..) => return Vec::new(),
        msg => msg,
    };
    let diagnosis_input = super::diagnosis::reads(&msg);
    // Describe reads the events; the timeline the events and the pod summary (its history).
    let events_input = matches!(
        msg,
        Msg::EventsReset(_) | Msg::EventApplied(_) | Msg::EventDeleted(_) | Msg::PodApplied(_)
    );
    let mut cmds = apply(state, msg);
    if events_input {
        super::views::refresh_derived(state);
    }
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
            super::notice::expire(state, now);
            if state.shows_clock() {
                state.dirty = true;
            }
            super::views::refresh_derived(state);
            Vec::new()
        }
        Msg::Key(key) if state.overlay.forward_input().is_some() => {
            super::forwards::input_key(state, &key)
        }
        Msg::Key(key) if state.overlay.prompt().is_some() => logs::input_key(state, &key),
        Msg::Key(key) if state.overlay.view_input().is_some() => {
            super::views::keys::input_key(state, &key)
        }
        Msg::Key(key) if state.overlay.switcher().is_some() && super::switcher::reads_key(&key) => {
            super::switcher::filter_key(state, &key)
        }
        Msg::Key(key) => {
            // A status line ("saved …", "no match …", "shell exited …") stays until the next
            // key, then the footer's key hints come back.
            if state.target.logs.status.take().is_some() {
                state.dirty = true;
            }
            match action_in(&key, state.key_mode()) {
                Some(action) => apply_action(state, action),
                None => Vec::new(),
            }
        }
        Msg::Resize(cols, rows) => {
            state.screen = Some((cols, rows));
            // A page of the log pane: about half the screen (the pane's exact height is the
            // view's business).
            state.target.logs.page = usize::from(rows / 2).max(1);
            // A taller screen shows more of an open YAML/describe view: no blank rows below its end.
            let page = super::views::page(state);
            if let super::overlay::Overlay::View(view) = &mut state.overlay {
                view.scroll = view.scroll.min(view.max_scroll(page));
            }
            state.dirty = true;
            Vec::new()
        }
        Msg::Measured(extents) => {
            state.extents = extents;
            let before = state.overlay.clone();
            state.overlay.clamp(extents);
            state.dirty |= before != state.overlay;
            Vec::new()
        }
        // Stamps are taken off above.
        Msg::ForTarget(..) | Msg::ForWorkload(..) => Vec::new(),
        m @ (Msg::WorkloadApplied(_)
        | Msg::WorkloadPodsListed(_)
        | Msg::WorkloadPodApplied(_)
        | Msg::WorkloadPodDeleted(_)
        | Msg::WorkloadWatchFailed(_)
        | Msg::WorkloadDeleted) => super::workload::on_msg(state, m),
        // After a pod switch, messages of the old pod's watch may still be queued: ignore them.
        Msg::PodApplied(pod) | Msg::PodDeleted(pod)
            if pod.namespace != state.target.namespace || pod.name != state.target.name =>
        {
            Vec::new()
        }
        Msg::PodApplied(pod) => super::pod_applied::pod_applied(state, *pod),
        Msg::PodAbsent => {
            let mut cmds = Vec::new();
            if !matches!(state.target.connection, Connection::Deleted { .. }) {
                state.target.pod = None;
                state.target.events.clear();
                state.target.events_revision += 1;
                state.target.events_error = None;
                state.target.selected = 0;
                state.target.connection = Connection::NotFound;
                state.dirty = true;
                if !state.target.namespace_asked {
                    state.target.namespace_asked = true;
                    cmds.push(Cmd::CheckNamespace {
                        namespace: state.target.namespace.clone(),
                    });
                }
            }
            cmds
        }
        Msg::NamespaceChecked { namespace, exists } => {
            if namespace == state.target.namespace {
                state.target.namespace_missing = exists == Some(false);
                state.dirty = true;
            }
            Vec::new()
        }
        Msg::PodDeleted(pod) => {
            super::pod_applied::keep_selection(state, &pod);
            // Dated by the deletion request, which is what the person did; the DELETED event
            // comes after the kubelet stopped the containers, seconds later.
            let at = pod
                .deletion_requested_at()
                .filter(|t| *t <= state.now)
                .unwrap_or(state.now);
            state.target.pod = Some(*pod);
            state.target.connection = Connection::Deleted { at };
            state.dirty = true;
            // A workload's pod: on to its replacement; a controller's pod attached by name:
            // look for the replacement to offer.
            let mut cmds = super::workload::offer::pod_deleted(state);
            cmds.extend(super::workload::follow::settle(state));
            cmds
        }
        Msg::PodWatchRestarted => Vec::new(),
        Msg::PodWatchFailed(reason) => {
            state.target.connection = Connection::Reconnecting(sanitize(&reason).into_owned());
            state.dirty = true;
            Vec::new()
        }
        Msg::EventsReset(mut events) => {
            sort_newest_first(&mut events);
            state.target.events = events;
            state.target.events_revision += 1;
            state.target.events_error = None;
            state.dirty = true;
            logs::events_changed(state);
            Vec::new()
        }
        Msg::EventApplied(event) => {
            match state.target.events.iter_mut().find(|e| e.uid == event.uid) {
                Some(slot) => *slot = event,
                None => state.target.events.push(event),
            }
            sort_newest_first(&mut state.target.events);
            state.target.events_revision += 1;
            state.target.events_error = None;
            state.dirty = true;
            logs::events_changed(state);
            Vec::new()
        }
        Msg::EventDeleted(uid) => {
            let before = state.target.events.len();
            state.target.events.retain(|e| e.uid != uid);
            state.target.events_revision += 1;
            state.dirty |= state.target.events.len() != before;
            logs::events_changed(state);
            Vec::new()
        }
        Msg::EventsWatchFailed(reason) => {
            state.target.events_error = Some(sanitize(&reason).into_owned());
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
        Msg::PodListApplied(pod) => {
            super::switcher::pod_applied(state, pod);
            Vec::new()
        }
        Msg::PodListDeleted { namespace, name } => {
            super::switcher::pod_deleted(state, &namespace, &name);
            Vec::new()
        }
        Msg::PodListFailed(error) => {
            super::switcher::pod_list_failed(state, error);
            Vec::new()
        }
        Msg::OwnerChecked { uid, status } => {
            if state.target.owner_asked.as_deref() == Some(uid.as_str()) {
                state.target.owner = status;
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
        Msg::AccessChecked(permissions) => {
            super::access::checked(state, permissions);
            Vec::new()
        }
        Msg::NodeApplied(node) => {
            super::node::applied(state, *node);
            Vec::new()
        }
        Msg::NodeGone(name) => {
            super::node::gone(state, &name);
            Vec::new()
        }
        Msg::NodeRefused { name, .. } => {
            super::node::refused(state, &name);
            Vec::new()
        }
        Msg::PodObject(pod) => {
            let ours = pod.metadata.namespace.as_deref() == Some(state.target.namespace.as_str())
                && pod.metadata.name.as_deref() == Some(state.target.name.as_str());
            if ours {
                state.target.object = Some(pod);
                super::views::refresh(state);
            }
            Vec::new()
        }
        Msg::MetricsStatus(api) => {
            super::usage::status(state, api);
            Vec::new()
        }
        Msg::PodMetricsRead(metrics) => {
            super::usage::read(state, &metrics);
            Vec::new()
        }
        Msg::Quit => vec![Cmd::Quit],
    }
}

fn apply_action(state: &mut State, action: Action) -> Vec<Cmd> {
    let count = state.target.pod.as_ref().map_or(0, |p| p.containers.len());
    let last = count.saturating_sub(1);
    let before = (state.target.selected, state.overlay.clone());
    match action {
        Action::Quit => return vec![Cmd::Quit],
        Action::NextContainer => state.target.selected = (state.target.selected + 1).min(last),
        Action::PrevContainer => state.target.selected = state.target.selected.saturating_sub(1),
        Action::FirstContainer => state.target.selected = 0,
        Action::LastContainer => state.target.selected = last,
        Action::ToggleHelp => super::help::toggle(state),
        Action::CloseHelp => super::help::close(state),
        Action::HelpUp | Action::HelpDown | Action::HelpPageUp | Action::HelpPageDown => {
            super::help::scroll(state, action);
            return Vec::new();
        }
        // A key RBAC refuses (asked in advance): the reason, and no request.
        Action::OpenShell | Action::AddDebug | Action::ToggleForwards
            if super::access::refuse_key(state, action) =>
        {
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
        Action::WorkloadPods => return super::workload::siblings::open(state),
        Action::OpenSwitcher => return super::switcher::open(state),
        Action::SwitchToSelected if super::workload::siblings::picks_sibling(state) => {
            return super::workload::siblings::pick_selected(state);
        }
        Action::SwitchToSelected => {
            let mut cmds = super::switcher::apply(state, action);
            // Another pod than the workload's: the workload is no longer followed.
            if cmds.iter().any(|c| matches!(c, Cmd::SwitchPod { .. }))
                && state.workload.take().is_some()
            {
                cmds.push(Cmd::StopWorkload);
            }
            return cmds;
        }
        Action::SwitcherNext
        | Action::SwitcherPrev
        | Action::SwitcherPageDown
        | Action::SwitcherPageUp
        | Action::CloseSwitcher => {
            return super::switcher::apply(state, action);
        }
        Action::NextSibling => return super::workload::siblings::step(state, true),
        Action::PrevSibling => return super::workload::siblings::step(state, false),
        Action::FollowReplacement => return super::workload::follow::take_offer(state),
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
        Action::OpenYaml
        | Action::OpenDescribe
        | Action::OpenTimeline
        | Action::CloseView
        | Action::ViewDown
        | Action::ViewUp
        | Action::ViewPageDown
        | Action::ViewPageUp
        | Action::ViewTop
        | Action::ViewBottom
        | Action::ViewSearch
        | Action::ViewNextMatch
        | Action::ViewPrevMatch
        | Action::ViewManagedFields
        | Action::ViewSave
        | Action::ViewCopy => return super::views::keys::apply(state, action),
        log_action => return logs::apply(state, log_action),
    }
    state.dirty |= before != (state.target.selected, state.overlay.clone());
    if before.0 != state.target.selected && state.target.logs.shown && !state.target.logs.all {
        return logs::reload(state);
    }
    Vec::new()
}
