//! A pod the watch delivered (`Msg::PodApplied`): the first sight starts the events watch; a
//! new `uid` is a re-created pod (a new target under the next generation, the selected
//! container and the raw object carried over); the same pod keeps the selection by name. Then
//! the owner check when finalizers hold it, and the log pane, node watch and metrics poll
//! follow the pod.

use super::Cmd;
use super::logs::actions as logs;
use super::state::{Connection, State};
use super::target::Target;
use crate::model::PodSummary;

/// Applies `pod` to the shown target; returns the effects (see the module docs).
pub(super) fn pod_applied(state: &mut State, pod: PodSummary) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    let recreated = state
        .target
        .pod
        .as_ref()
        .is_some_and(|old| old.uid != pod.uid);
    match &state.target.pod {
        None => {
            state.target.history = crate::model::timeline::History::since(state.now);
            state.target.selected = state.first_selection(&pod);
            cmds.push(Cmd::WatchEvents {
                uid: pod.uid.clone(),
            });
        }
        Some(old) if old.uid != pod.uid => {
            // The person was looking at a container: keep it when the new pod has it.
            let kept = state
                .selected_container()
                .and_then(|c| pod.containers.iter().position(|n| n.name == c.name));
            let generation = state.generations.allocate();
            // The new instance's object arrived just before (`Msg::PodObject`).
            let object = state.target.object.take();
            state.target = Target::recreated(&state.target, generation);
            state.target.history = crate::model::timeline::History::since(state.now);
            state.target.object = object;
            super::notice::post(state, format!("pod recreated (new UID {})", pod.uid));
            state.target.selected = kept.unwrap_or_else(|| state.first_selection(&pod));
            cmds.push(Cmd::PodRecreated { generation });
            cmds.push(Cmd::WatchEvents {
                uid: pod.uid.clone(),
            });
        }
        Some(old) => {
            let changes = crate::model::timeline::observe(old, &pod, state.now);
            state.target.history.record(changes);
            keep_selection(state, &pod);
        }
    }
    if let Some(owner) = crate::model::deletion::owner_check_needed(&pod)
        && state.target.owner_asked.as_deref() != Some(owner.uid.as_str())
    {
        state.target.owner_asked = Some(owner.uid.clone());
        state.target.owner = crate::model::deletion::OwnerStatus::Unknown;
        cmds.push(Cmd::CheckOwner {
            namespace: pod.namespace.clone(),
            owner: owner.clone(),
        });
    }
    state.target.pod = Some(pod);
    state.target.namespace_missing = false;
    state.target.connection = Connection::Live;
    state.dirty = true;
    cmds.extend(logs::pod_changed(state, recreated));
    cmds.extend(super::node::pod_changed(state));
    cmds.extend(super::usage::pod_changed(state));
    cmds
}

/// Keeps the same container (by name) selected when the pod's container list changes.
pub(super) fn keep_selection(state: &mut State, new: &PodSummary) {
    let name = state.selected_container().map(|c| c.name.clone());
    let by_name = name.and_then(|n| new.containers.iter().position(|c| c.name == n));
    state.target.selected = by_name.unwrap_or_else(|| {
        state
            .target
            .selected
            .min(new.containers.len().saturating_sub(1))
    });
}
