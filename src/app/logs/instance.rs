//! Which container instance each log view reads, in words for the pane's title.
//!
//! Instances are counted from 1; the instance that ran with `restartCount` R is instance R + 1
//! ("restart R"). The kubelet's `validateContainerLogStatus` (`pkg/kubelet/kubelet_pods.go`,
//! `docs/protocols.md` §2.3) serves for `previous=false` the running or terminated instance, and
//! while the container waits (a back-off) the one in `lastState` — which is also what
//! `previous=true` serves: in a CrashLoopBackOff both views show the same instance, and the title
//! says so.

use jiff::Timestamp;

use crate::model::duration::human_duration;
use crate::model::{ContainerState, ContainerSummary, Terminated};

/// `instance 1`, or `instance 4 (restart 3)` for `restartCount` 3.
#[must_use]
pub fn instance(restart_count: i32) -> String {
    if restart_count <= 0 {
        "instance 1".to_owned()
    } else {
        format!("instance {} (restart {restart_count})", restart_count + 1)
    }
}

/// What `previous=false` shows of `c` at `now`, e.g.
/// `current: instance 4 (restart 3), exited 1 12s ago` or `current: instance 1, running 3m`.
#[must_use]
pub fn current(c: &ContainerSummary, now: Timestamp) -> String {
    let rc = c.restart_count;
    match &c.state {
        ContainerState::Running { started_at } => match started_at {
            Some(t) => format!(
                "current: {}, running {}",
                instance(rc),
                human_duration(now.duration_since(*t))
            ),
            None => format!("current: {}, running", instance(rc)),
        },
        ContainerState::Terminated(t) => format!("current: {}, {}", instance(rc), exited(t, now)),
        ContainerState::Waiting { .. } => match &c.last_state {
            Some(t) => format!("current: {}, {}", instance(rc), exited(t, now)),
            None => "current: not started yet".to_owned(),
        },
        ContainerState::Unknown => "current".to_owned(),
    }
}

/// What `previous=true` shows of `c` (its `lastState`), e.g. `previous: instance 3, ran 0s,
/// exit 1`; while `c` waits it is the current one too: `previous: instance 4 (same as current),
/// ran 0s, exit 1`. `previous: none` before any restart.
#[must_use]
pub fn previous(c: &ContainerSummary) -> String {
    let Some(t) = &c.last_state else {
        return "previous: none".to_owned();
    };
    let waiting = matches!(c.state, ContainerState::Waiting { .. });
    let number = if waiting {
        format!("instance {} (same as current)", c.restart_count + 1)
    } else {
        format!("instance {}", c.restart_count.max(1))
    };
    let ran = match (t.started_at, t.finished_at) {
        (Some(s), _) if s == Timestamp::UNIX_EPOCH => ", never ran".to_owned(),
        (Some(s), Some(f)) => format!(", ran {}", human_duration(f.duration_since(s))),
        _ => String::new(),
    };
    format!("previous: {number}{ran}, exit {}", t.exit_code)
}

/// The reading state of the current view: `following` while the instance runs, `waiting` while
/// the container waits (nothing to follow until the next instance starts); none once it ended.
#[must_use]
pub fn reading(c: &ContainerSummary) -> Option<&'static str> {
    match c.state {
        ContainerState::Running { .. } => Some("following"),
        ContainerState::Waiting { .. } => Some("waiting"),
        ContainerState::Terminated(_) | ContainerState::Unknown => None,
    }
}

/// `exited 1 12s ago` (the exit code, and how long ago when `finishedAt` is known).
fn exited(t: &Terminated, now: Timestamp) -> String {
    match t.finished_at {
        Some(f) => format!(
            "exited {} {} ago",
            t.exit_code,
            human_duration(now.duration_since(f))
        ),
        None => format!("exited {}", t.exit_code),
    }
}
