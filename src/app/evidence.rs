//! Feeding the diagnosis engine: which log tails and objects to ask for, once each, and storing
//! the answers (`Msg::LogTailRead`, `Msg::LookedUp`) in `State::log_tails` / `State::related`.
//!
//! - A container with a `lastState.terminated` gets one `Cmd::ReadLogTail{previous: true}` per
//!   dead instance: keyed by `restartCount` and the instance's `containerID` (or `finishedAt`),
//!   since an instance that dies leaves `restartCount` as it was (it counts the starts) and
//!   only `lastState` tells the new dead instance from the old one. What was asked is
//!   remembered, so nothing is re-asked while in flight.
//! - A container that terminated without restarting (no `lastState`: a Job's pod with
//!   `restartPolicy: Never`) gets one `Cmd::ReadLogTail{previous: false}`: its dead instance
//!   is the current one.
//! - A container that runs while it or the pod is not well (not ready, an init container still
//!   running, the pod not Ready) gets one `Cmd::ReadLogTail{previous: false}` per instance
//!   (keyed by `startedAt`): what it says now may name why it is not ready, or why another
//!   container of the pod fails (`docs/diagnosis.md` "Read the whole pod").
//! - Every object [`wanted_lookups`] names after a refresh gets one `Cmd::Lookup`.
//! - A new pod (another `uid`: re-created, or switched to) starts over: its tails and the
//!   answers about its objects are dropped.
//!
//! Pure, like `update`.

use std::collections::{BTreeMap, BTreeSet};

use super::Cmd;
use super::state::{Connection, State};
use crate::model::diagnosis::{LogTail, Lookup, ObjectRef, wanted_lookups};

/// What was asked for the pod `uid`, so each read and lookup is issued once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Asked {
    /// The pod (`metadata.uid`) the tails and answers in `State` belong to.
    pub uid: Option<String>,
    /// Previous-instance tails asked, by container name: the `restartCount` and the dead
    /// instance (`lastState.terminated.containerID`, else its `finishedAt`) asked for.
    pub previous: BTreeMap<String, (i32, String)>,
    /// Current-instance tails asked, by container name, of containers that terminated without
    /// restarting (a Job's pod): their dead instance is the current one.
    pub ended: BTreeSet<String>,
    /// Current-instance tails asked, by container name, of running containers: the instance's
    /// `startedAt` asked for.
    pub running: BTreeMap<String, String>,
    /// Objects asked about (answered or in flight).
    pub lookups: BTreeSet<ObjectRef>,
}

/// Drops the tails, answers and asks of another pod than `state.target.pod` (by `uid`), before the
/// diagnosis reads them. Nothing happens without a pod (the last one's stay until a new one).
pub fn forget_other_pod(state: &mut State) {
    let Some(uid) = state.target.pod.as_ref().map(|p| p.uid.as_str()) else {
        return;
    };
    if state.target.evidence.uid.as_deref() != Some(uid) {
        state.target.evidence = Asked {
            uid: Some(uid.to_owned()),
            ..Asked::default()
        };
        state.target.log_tails = crate::model::diagnosis::LogTails::default();
        state.target.related.clear();
    }
}

/// The reads and lookups the current pod and diagnosis call for that were not asked yet; marks
/// them asked. None for a pod seen deleted (its logs and objects are not there to read).
pub fn wanted(state: &mut State) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    if matches!(state.target.connection, Connection::Deleted { .. }) {
        return cmds;
    }
    let Some(pod) = &state.target.pod else {
        return cmds;
    };
    let pod_unwell = pod
        .conditions
        .iter()
        .any(|c| c.type_ == "Ready" && c.status != "True");
    for c in &pod.containers {
        if let crate::model::ContainerState::Running {
            started_at: Some(started),
        } = &c.state
            && (pod_unwell || !c.ready || c.kind == crate::model::ContainerKind::Init)
        {
            let key = started.to_string();
            if state.target.evidence.running.get(&c.name) != Some(&key) {
                state.target.evidence.running.insert(c.name.clone(), key);
                cmds.push(Cmd::ReadLogTail {
                    container: c.name.clone(),
                    previous: false,
                    restart_count: c.restart_count,
                });
            }
        }
        let Some(last) = &c.last_state else {
            if crate::model::diagnosis::facts::ended_without_restart(pod, c)
                && state.target.evidence.ended.insert(c.name.clone())
            {
                cmds.push(Cmd::ReadLogTail {
                    container: c.name.clone(),
                    previous: false,
                    restart_count: c.restart_count,
                });
            }
            continue;
        };
        let instance = if last.container_id.is_empty() {
            last.finished_at.map(|t| t.to_string()).unwrap_or_default()
        } else {
            last.container_id.clone()
        };
        let key = (c.restart_count, instance);
        if state.target.evidence.previous.get(&c.name) != Some(&key) {
            state.target.evidence.previous.insert(c.name.clone(), key);
            cmds.push(Cmd::ReadLogTail {
                container: c.name.clone(),
                previous: true,
                restart_count: c.restart_count,
            });
        }
    }
    for object in wanted_lookups(&state.target.diagnosis, &state.target.related) {
        if state.target.evidence.lookups.insert(object.clone()) {
            cmds.push(Cmd::Lookup(object));
        }
    }
    cmds
}

/// Stores the answer to `Cmd::ReadLogTail`, if it is the one asked for this pod (an answer for
/// an older restart or another pod is dropped). Marks the screen dirty when stored.
pub fn log_tail_read(state: &mut State, container: String, previous: bool, tail: LogTail) {
    if previous {
        if state
            .target
            .evidence
            .previous
            .get(&container)
            .map(|(n, _)| *n)
            != Some(tail.restart_count)
        {
            return;
        }
        state.target.log_tails.previous.insert(container, tail);
    } else {
        state.target.log_tails.current.insert(container, tail);
    }
    state.dirty = true;
}

/// Stores the answer to `Cmd::Lookup`, if that object was asked about for this pod.
pub fn looked_up(state: &mut State, object: ObjectRef, lookup: Lookup) {
    if state.target.evidence.lookups.contains(&object) {
        state.target.related.insert(object, lookup);
        state.dirty = true;
    }
}
