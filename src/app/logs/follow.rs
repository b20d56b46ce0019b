//! One container's reader in the log pane: the model's state machine
//! ([`crate::model::log_follow`]) plus what the pane shows about it (lines kept, the server's
//! reason for an empty log). `update` carries out its [`Step`]s as `Cmd`s (`super::actions`).

use crate::model::log_follow::LogFollow;
pub use crate::model::log_follow::{Phase, Reopen, Role, Step};
use crate::model::{ContainerSummary, LogLine, PodSummary};

/// One container's reading state.
#[derive(Debug, Clone)]
pub struct Follow {
    machine: LogFollow,
    /// Lines kept from this container.
    pub lines: u64,
    /// Why there is nothing to show (the server's message, sanitised), until a line arrives.
    pub note: Option<String>,
}

impl Follow {
    /// Starts reading `container` (`c` its status, if known); `previous` for the `p` view.
    #[must_use]
    pub fn start(container: &str, c: Option<&ContainerSummary>, previous: bool) -> (Follow, Step) {
        let (machine, step) = LogFollow::start(container, c, previous);
        let f = Follow {
            machine,
            lines: 0,
            note: None,
        };
        (f, step)
    }

    /// The container's `name`.
    #[must_use]
    pub fn container(&self) -> &str {
        self.machine.container()
    }

    /// The current phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.machine.phase()
    }

    /// The instance being read (its `restartCount`); `None` before any instance was served.
    #[must_use]
    pub fn instance(&self) -> Option<i32> {
        self.machine.instance()
    }

    /// The stream `stream` was opened for `role`.
    pub fn opened(&mut self, stream: u64, role: Role) {
        self.machine.opened(stream, role);
    }

    /// The open stream's id, if any.
    #[must_use]
    pub fn stream(&self) -> Option<u64> {
        self.machine.stream()
    }

    /// Keeps the lines not read before, tagged with the instance, and moves the resume point.
    pub fn accept(&mut self, lines: Vec<LogLine>) -> Vec<LogLine> {
        let instance = self.machine.instance();
        let mut kept = Vec::with_capacity(lines.len());
        for mut l in lines {
            if !self.machine.keep(l.ts) {
                continue;
            }
            if let Some(i) = instance {
                l.instance = i;
            }
            kept.push(l);
        }
        if !kept.is_empty() {
            self.note = None;
        }
        self.lines += kept.len() as u64;
        kept
    }

    /// The open stream ended (`reason` as in `Msg::LogStreamEnded`: `None` for a clean close).
    pub fn ended(&mut self, reason: Option<&str>) {
        self.machine.ended(reason.is_some());
        if let Some(r) = reason
            && self.lines == 0
        {
            self.note = Some(crate::model::sanitize::sanitize(r).into_owned());
        }
    }

    /// The driver stopped the open stream (to show something else for a while): the reader
    /// stands as after a stream that broke off, so [`Follow::advance`] with [`Reopen::OnError`]
    /// resumes it from where it left off (or moves on to the instances that ran since).
    pub fn stopped(&mut self) {
        self.machine.ended(true);
    }

    /// What to do now that the pod watch shows `pod` (see [`LogFollow::advance`]).
    pub fn advance(&mut self, pod: &PodSummary, reopen: Reopen) -> Vec<Step> {
        self.machine.advance(pod, reopen)
    }
}
