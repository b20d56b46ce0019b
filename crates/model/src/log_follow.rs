//! Following one container's log across restarts, as a pure state machine: no IO, no clock.
//!
//! The kubelet ends a follow stream when the container stops (`docs/protocols.md` §2.4). Then:
//! once the pod status shows the instance dead, fetch its tail (`previous` as the kubelet needs it,
//! `sinceTime` = the resume point, duplicates dropped by a [`ResumeFilter`]); once the tail is in
//! and the status shows the next instance (restartCount grew), emit the restart marker built from
//! `lastState` and follow the new instance from the resume point.
//!
//! Inputs: the container's status ([`LogFollow::advance`] with the pod), the stream's lines
//! ([`LogFollow::keep`] for parsed lines, [`LogFollow::reader`] for raw ones) and its end
//! ([`LogFollow::ended`]). Outputs: [`Step`]s the driver carries out — open a stream, insert a
//! marker, stop. The TUI drives it through `Cmd`/`Msg` (`app::logs`), `podscope logs -f` by
//! awaiting (`cmd::logs::follow`).

use std::time::Duration;

use jiff::Timestamp;

use super::log::{LineKind, LogLine};
use super::log_resume::{
    ResumeFilter, ResumePoint, ResumeTracker, lost_instances_marker, restart_marker,
};
use super::pod::{ContainerState, ContainerSummary, PodSummary};

/// What a stream reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The current instance, followed.
    Live,
    /// The rest of an instance that just ended (one request, not followed).
    Tail,
    /// The previous instance only (one request, nothing followed afterwards).
    Previous,
}

/// Where a container's log reading stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Stream `stream` is open.
    Reading {
        /// Its id (chosen by the driver).
        stream: u64,
        /// What it reads.
        role: Role,
    },
    /// The last stream ended; waiting for the pod status to say what comes next.
    Ended {
        /// What the stream read.
        role: Role,
        /// It ended with an error (server message or transport), not a clean close.
        error: bool,
    },
}

/// When [`LogFollow::advance`] reopens the stream of an instance that still runs (the stream
/// broke off, or the status lags behind the exit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reopen {
    /// Never (right at the stream's end, so a persistent error cannot loop).
    Never,
    /// Only when the stream ended with an error (the TUI, on a pod update).
    OnError,
    /// Whatever the close (`podscope logs -f`, which waits a second before reopening).
    Always,
}

/// A step the driver must carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Open a stream (then call [`LogFollow::opened`] with its id).
    Open {
        /// What it reads.
        role: Role,
        /// `previous=true`.
        previous: bool,
        /// `sinceTime`, floored to the second ([`ResumePoint::since_time`]).
        since: Option<Timestamp>,
    },
    /// Emit this marker line, after every line read so far: its timestamp is the later of the
    /// ended instance's `finishedAt` (whole seconds) and the last line read.
    Marker(LogLine),
    /// The container finished for good (it will not restart) and its last instance is read.
    Done,
}

/// One container's log-following state.
#[derive(Debug, Clone)]
pub struct LogFollow {
    container: String,
    instance: Option<i32>,
    phase: Phase,
    read: ResumeTracker,
    tail_fetched: bool,
    backoff: Option<Duration>,
    filter: ResumeFilter,
}

/// The instance the kubelet serves for `previous=false`: the running or terminated one, or in a
/// back-off the one that just ended (`lastState`); `None` while it never ran (kubelet
/// `validateContainerLogStatus`).
#[must_use]
pub fn served_instance(c: &ContainerSummary) -> Option<i32> {
    match &c.state {
        ContainerState::Running { .. } | ContainerState::Terminated(_) => Some(c.restart_count),
        ContainerState::Waiting { .. } => c.last_state.as_ref().map(|_| c.restart_count),
        ContainerState::Unknown => None,
    }
}

impl LogFollow {
    /// Starts reading `container` (`c` its status, if known); `previous` reads the previous
    /// instance once instead of following. Returns the first [`Step::Open`].
    #[must_use]
    pub fn start(
        container: &str,
        c: Option<&ContainerSummary>,
        previous: bool,
    ) -> (LogFollow, Step) {
        let role = if previous { Role::Previous } else { Role::Live };
        let f = LogFollow {
            container: container.to_owned(),
            instance: c.and_then(served_instance),
            phase: Phase::Ended { role, error: false },
            read: ResumeTracker::new(None),
            tail_fetched: false,
            backoff: None,
            filter: ResumeFilter::new(None),
        };
        let step = Step::Open {
            role,
            previous,
            since: None,
        };
        (f, step)
    }

    /// The container's `name`.
    #[must_use]
    pub fn container(&self) -> &str {
        &self.container
    }

    /// The instance being read (its `restartCount`); `None` before any instance was served.
    #[must_use]
    pub fn instance(&self) -> Option<i32> {
        self.instance
    }

    /// The current phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The open stream's id, if any.
    #[must_use]
    pub fn stream(&self) -> Option<u64> {
        match self.phase {
            Phase::Reading { stream, .. } => Some(stream),
            Phase::Ended { .. } => None,
        }
    }

    /// Where reading left off (last timestamp and how many lines carried it).
    #[must_use]
    pub fn resume(&self) -> Option<ResumePoint> {
        self.read.point()
    }

    /// The stream `stream` was opened for `role`: lines at or before the resume point are dropped.
    pub fn opened(&mut self, stream: u64, role: Role) {
        self.phase = Phase::Reading { stream, role };
        self.filter = ResumeFilter::new(self.read.point());
    }

    /// One parsed line of the open stream (`ts` its timestamp): `true` if it was not read before
    /// and must be kept; moves the resume point.
    pub fn keep(&mut self, ts: Option<Timestamp>) -> bool {
        if self.filter.active() && !self.filter.keep(ts) {
            return false;
        }
        if let Some(ts) = ts {
            self.read.observe_ts(ts);
        }
        true
    }

    /// For raw lines (bytes as served): the open stream's filter and the tracker that must see the
    /// timestamp token of every kept line ([`ResumeTracker::observe`]).
    pub fn reader(&mut self) -> (&mut ResumeFilter, &mut ResumeTracker) {
        (&mut self.filter, &mut self.read)
    }

    /// The open stream ended, with an error (server message or transport) or cleanly.
    pub fn ended(&mut self, error: bool) {
        if let Phase::Reading { role, .. } = self.phase {
            self.phase = Phase::Ended { role, error };
        }
    }

    /// What to do now that the pod status shows this container in `pod`: fetch the tail of the
    /// dead instance, or follow the next one after its markers, or reopen a stream that broke off
    /// (as `reopen` says), or stop, or wait. Nothing while a stream is open, after a
    /// [`Role::Previous`] read, or when `pod` no longer has the container. The back-off delay the
    /// status shows is remembered for the marker in any phase.
    pub fn advance(&mut self, pod: &PodSummary, reopen: Reopen) -> Vec<Step> {
        let Some(c) = pod.container(&self.container) else {
            return Vec::new();
        };
        if let Some(b) = &c.backoff {
            self.backoff = Some(b.delay);
        }
        let Phase::Ended { role, error } = self.phase else {
            return Vec::new();
        };
        if role == Role::Previous {
            return Vec::new();
        }
        let since = self.resume().map(|p| p.since_time());
        let live = |since| Step::Open {
            role: Role::Live,
            previous: false,
            since,
        };
        let rc = c.restart_count;
        let running = matches!(c.state, ContainerState::Running { .. });
        let terminated = match &c.state {
            ContainerState::Terminated(t) => Some(t),
            _ => None,
        };
        let Some(inst) = self.instance else {
            return match served_instance(c) {
                Some(i) => {
                    self.instance = Some(i);
                    vec![live(since)]
                }
                None => Vec::new(),
            };
        };
        if rc <= inst && running {
            // The same instance still runs: the stream broke off, or the status lags behind the
            // exit (a clean close); `reopen` says whether to wait for the status instead.
            let again = match reopen {
                Reopen::Never => false,
                Reopen::OnError => error,
                Reopen::Always => true,
            };
            return if again { vec![live(since)] } else { Vec::new() };
        }
        let restarts = terminated.is_some_and(|t| pod.will_restart(c, t.exit_code));
        if !self.tail_fetched {
            if rc == inst && restarts {
                // `previous=false` would race the restart (the first one is immediate) and could
                // read the next instance's lines as this one's: wait until the kubelet shows the
                // restart or the back-off, then read this instance as `previous`.
                return Vec::new();
            }
            self.tail_fetched = true;
            // Only the previous instance is kept by the kubelet; older ones are gone.
            if rc <= inst + 1 {
                return vec![Step::Open {
                    role: Role::Tail,
                    previous: !(rc == inst && terminated.is_some()),
                    since,
                }];
            }
        }
        if rc > inst && (running || terminated.is_some()) {
            return self.next_instance(c, since);
        }
        if rc == inst && terminated.is_some() && !restarts {
            return vec![Step::Done];
        }
        Vec::new()
    }

    /// The markers between the instance read so far and `c`'s current one, then its stream.
    fn next_instance(&mut self, c: &ContainerSummary, since: Option<Timestamp>) -> Vec<Step> {
        let inst = self.instance.unwrap_or(0);
        // `finishedAt` has whole seconds: what the instance wrote in its last second is later
        // (`docs/protocols.md` §2.4).
        let finished = c.last_state.as_ref().and_then(|t| t.finished_at);
        let at = finished.max(self.resume().map(|p| p.last_ts));
        let mut steps = Vec::new();
        if let Ok(lost) = u32::try_from(c.restart_count - inst - 1)
            && lost > 0
        {
            steps.push(Step::Marker(self.marker(at, &lost_instances_marker(lost))));
        }
        if let Some(last) = &c.last_state {
            steps.push(Step::Marker(
                self.marker(at, &restart_marker(last, self.backoff)),
            ));
        }
        self.instance = Some(c.restart_count);
        self.tail_fetched = false;
        self.backoff = None;
        steps.push(Step::Open {
            role: Role::Live,
            previous: false,
            since,
        });
        steps
    }

    fn marker(&self, at: Option<Timestamp>, text: &str) -> LogLine {
        LogLine::note(
            &self.container,
            self.instance.unwrap_or(0),
            at,
            LineKind::Marker,
            text,
        )
    }
}
