//! `p`: the previous instance and back. The current view (every line read so far, earlier
//! instances and their restart markers included, the scroll position and the current match) is
//! kept aside while the previous instance is shown, and put back when `p` is pressed again: the
//! kubelet serves only the current and the previous instance (`docs/protocols.md` §2.3), so
//! what was read of older ones could not be read again. Its readers resume from where they
//! stopped, reading the instances that ran in between as a pod update would.

use super::LogPane;
use super::actions::{restart, run_steps};
use super::follow::{Follow, Reopen};
use crate::app::Cmd;
use crate::app::state::State;
use crate::model::LogBuffer;

/// The current view while the previous instance is shown.
#[derive(Debug, Clone)]
pub struct Stash {
    buffer: LogBuffer,
    follows: Vec<Follow>,
    top: Option<u64>,
    search_at: Option<u64>,
}

/// `p`: shows the previous instance, keeping the current view; or shows the current view again
/// as it was, its streams resumed.
pub fn toggle(state: &mut State) -> Vec<Cmd> {
    let pane = &mut state.target.logs;
    pane.previous = !pane.previous;
    if pane.previous {
        let cmds = stop(pane);
        let capacity = pane.buffer.capacity();
        pane.stash = Some(Stash {
            buffer: std::mem::replace(&mut pane.buffer, LogBuffer::new(capacity)),
            follows: std::mem::take(&mut pane.follows),
            top: pane.top,
            search_at: pane.search_at,
        });
        let mut cmds = cmds;
        cmds.extend(restart(state));
        return cmds;
    }
    let Some(stash) = pane.stash.take().filter(|s| same_containers(state, s)) else {
        return super::actions::reload(state);
    };
    let pane = &mut state.target.logs;
    let mut cmds = stop(pane);
    pane.buffer = stash.buffer;
    pane.follows = stash.follows;
    pane.top = stash.top;
    pane.search_at = stash.search_at;
    pane.reindex();
    let events = state.target.events.clone();
    state.target.logs.weave_events(&events);
    state.dirty = true;
    for idx in 0..state.target.logs.follows.len() {
        let Some(pod) = state.target.pod.as_ref() else {
            break;
        };
        let steps = state.target.logs.follows[idx].advance(pod, Reopen::OnError);
        cmds.extend(run_steps(&mut state.target.logs, idx, steps));
    }
    cmds
}

/// Stops the open streams; the readers remember where they stood.
fn stop(pane: &mut LogPane) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    for f in &mut pane.follows {
        if let Some(stream) = f.stream() {
            cmds.push(Cmd::StopLogs { stream });
            f.stopped();
        }
    }
    cmds
}

/// Whether the kept view reads the containers the pane shows now (the selection or `a` may
/// have changed while the previous instance was shown; then the view is read anew).
fn same_containers(state: &State, stash: &Stash) -> bool {
    let Some(wanted) = super::actions::wanted_containers(state) else {
        return false;
    };
    let have: Vec<&str> = stash.follows.iter().map(Follow::container).collect();
    wanted == have
}
