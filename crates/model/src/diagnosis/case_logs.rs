//! Which container a saved log belongs to, for a pod saved as files (`docs/corpus.md`: a case
//! folder, or what a user saved with `kubectl get pod -o json` and `kubectl logs`): the files
//! `logs-previous.txt` and `logs-current.txt` name no container, so they go to the container
//! the pod's status points at; `logs/<container>.previous.txt` and `.current.txt` name theirs.

use super::{LogTail, LogTails};
use crate::pod::{ContainerKind, ContainerState, ContainerSummary, PodSummary};

/// The container an unnamed previous log belongs to: the one with a `lastState.terminated` and
/// the most restarts, else the first that terminated.
#[must_use]
pub fn previous_subject(pod: &PodSummary) -> Option<&ContainerSummary> {
    pod.containers
        .iter()
        .filter(|c| c.last_state.is_some())
        .max_by_key(|c| c.restart_count)
        .or_else(|| {
            pod.containers
                .iter()
                .find(|c| matches!(c.state, ContainerState::Terminated(_)))
        })
}

/// The container an unnamed current log belongs to (the simulator's `--fixture` serves it to
/// the same one): the restarted one, else the first init container (not a sidecar) that runs
/// or failed, else the first main container that is not ready, else the first main container.
#[must_use]
pub fn current_subject(pod: &PodSummary) -> Option<&ContainerSummary> {
    let cs = &pod.containers;
    let mains = || cs.iter().filter(|c| c.kind == ContainerKind::Main);
    cs.iter()
        .filter(|c| c.last_state.is_some())
        .max_by_key(|c| c.restart_count)
        .or_else(|| {
            cs.iter().find(|c| {
                c.kind == ContainerKind::Init
                    && match &c.state {
                        ContainerState::Running { .. } => true,
                        ContainerState::Terminated(t) => t.exit_code != 0,
                        _ => false,
                    }
            })
        })
        .or_else(|| mains().find(|c| !c.ready))
        .or_else(|| mains().next())
}

/// One saved log: the container it names (`None`: unnamed), whether it is the previous
/// instance's, and its text.
#[derive(Debug, Clone, Copy)]
pub struct SavedLog<'a> {
    /// `Some(name)` for `logs/<name>.*.txt`, `None` for `logs-*.txt`.
    pub container: Option<&'a str>,
    /// `true` for a previous instance's log.
    pub previous: bool,
    /// The log text.
    pub text: &'a str,
}

/// The tails the diagnosis reads, from saved logs: named ones for their container, unnamed
/// ones for [`previous_subject`] / [`current_subject`] unless a named log already gives that
/// container's. Each tail keeps its container's `restartCount`.
#[must_use]
pub fn tails(pod: &PodSummary, logs: &[SavedLog<'_>]) -> LogTails {
    let mut out = LogTails::default();
    // Each line as the application keeps a log line it reads (`log::split_sgr`: colour
    // removed, every control neutralised, TAB a space).
    let tail = |c: &ContainerSummary, text: &str| {
        let lines = text.lines().map(|l| crate::log::split_sgr(l).0).collect();
        LogTail::new(c.restart_count, Ok(lines))
    };
    for l in logs.iter().filter(|l| l.container.is_some()) {
        let Some(c) = l.container.and_then(|n| pod.container(n)) else {
            continue;
        };
        let map = if l.previous {
            &mut out.previous
        } else {
            &mut out.current
        };
        map.insert(c.name.clone(), tail(c, l.text));
    }
    for l in logs.iter().filter(|l| l.container.is_none()) {
        let subject = if l.previous {
            previous_subject(pod)
        } else {
            current_subject(pod)
        };
        let Some(c) = subject else { continue };
        let map = if l.previous {
            &mut out.previous
        } else {
            &mut out.current
        };
        map.entry(c.name.clone()).or_insert_with(|| tail(c, l.text));
    }
    out
}
