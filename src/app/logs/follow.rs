//! Following one container's log across restarts, as a pure state machine (issue #4).
//!
//! The kubelet ends a follow stream when the container stops (`docs/protocols.md` §2.4). Then:
//! once the pod watch shows the instance dead, fetch its tail (`previous` as the kubelet needs it,
//! `sinceTime` = the resume point, duplicates dropped by [`ResumeFilter`]); once the tail is in and
//! the pod watch shows the next instance (restartCount grew, running), insert the restart marker
//! built from `lastState` and follow the new instance from the resume point. The same ideas as
//! `podscope logs -f` (`logs_cmd::follow`), driven by `Msg`s instead of awaiting.

use std::time::Duration;

use jiff::Timestamp;

use crate::model::log_resume::{lost_instances_marker, restart_marker};
use crate::model::{
    ContainerState, ContainerSummary, LineKind, LogLine, PodSummary, ResumeFilter, ResumePoint,
};

/// What a stream reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The current instance, followed.
    Live,
    /// The rest of an instance that just ended (one request).
    Tail,
    /// `p`: the previous instance only (one request, nothing followed).
    Previous,
}

/// Where a container's log reading stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Stream `stream` is open.
    Reading {
        /// Its id.
        stream: u64,
        /// What it reads.
        role: Role,
    },
    /// The last stream ended; waiting for the pod watch to say what comes next.
    Ended {
        /// What the stream read.
        role: Role,
        /// It ended with an error (server message or transport), not a clean close.
        error: bool,
    },
}

/// A step `update` must carry out for a [`Follow`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Open a stream (then call [`Follow::opened`] with its id).
    Open {
        /// What it reads.
        role: Role,
        /// `previous=true`.
        previous: bool,
        /// `sinceTime`, floored to the second ([`ResumePoint::since_time`]).
        since: Option<Timestamp>,
    },
    /// Insert this marker line.
    Marker(LogLine),
}

/// One container's reading state.
#[derive(Debug, Clone)]
pub struct Follow {
    /// The container's `name`.
    pub container: String,
    /// The instance being read (its `restartCount`); `None` before any instance was served.
    pub instance: Option<i32>,
    /// The current phase.
    pub phase: Phase,
    /// Where reading left off (last timestamp and how many lines carried it).
    pub resume: Option<ResumePoint>,
    /// Whether the tail of `instance` was requested after it ended.
    pub tail_fetched: bool,
    /// The last CrashLoopBackOff delay the pod watch showed (for the restart marker).
    pub backoff: Option<Duration>,
    /// Lines kept from this container.
    pub lines: u64,
    /// Why there is nothing to show (the server's message, sanitised), until a line arrives.
    pub note: Option<String>,
    filter: ResumeFilter,
}

/// The instance the kubelet serves for `previous=false`: the running or terminated one, or in a
/// back-off the one that just ended (`lastState`); `None` while it never ran.
#[must_use]
pub fn served_instance(c: &ContainerSummary) -> Option<i32> {
    match &c.state {
        ContainerState::Running { .. } | ContainerState::Terminated(_) => Some(c.restart_count),
        ContainerState::Waiting { .. } => c.last_state.as_ref().map(|_| c.restart_count),
        ContainerState::Unknown => None,
    }
}

impl Follow {
    /// Starts reading `container` (`c` its status, if known); `previous` for the `p` view.
    #[must_use]
    pub fn start(container: &str, c: Option<&ContainerSummary>, previous: bool) -> (Follow, Step) {
        let role = if previous { Role::Previous } else { Role::Live };
        let f = Follow {
            container: container.to_owned(),
            instance: c.and_then(served_instance),
            phase: Phase::Ended { role, error: false },
            resume: None,
            tail_fetched: false,
            backoff: None,
            lines: 0,
            note: None,
            filter: ResumeFilter::new(None),
        };
        let step = Step::Open {
            role,
            previous,
            since: None,
        };
        (f, step)
    }

    /// The stream `stream` was opened for `role`: lines at or before the resume point are dropped.
    pub fn opened(&mut self, stream: u64, role: Role) {
        self.phase = Phase::Reading { stream, role };
        self.filter = ResumeFilter::new(self.resume);
    }

    /// The open stream's id, if any.
    #[must_use]
    pub fn stream(&self) -> Option<u64> {
        match self.phase {
            Phase::Reading { stream, .. } => Some(stream),
            Phase::Ended { .. } => None,
        }
    }

    /// Keeps the lines not read before, tagged with the instance, and moves the resume point.
    pub fn accept(&mut self, lines: Vec<LogLine>) -> Vec<LogLine> {
        let instance = self.instance;
        let mut kept = Vec::with_capacity(lines.len());
        for mut l in lines {
            if self.filter.active() && !self.filter.keep(l.ts) {
                continue;
            }
            if let Some(ts) = l.ts {
                ResumePoint::observe(&mut self.resume, ts);
            }
            if let Some(i) = instance
                && l.instance != i
            {
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

    /// The open stream ended (`reason` as in `Msg::LogStreamEnded`).
    pub fn ended(&mut self, reason: Option<&str>) {
        if let Phase::Reading { role, .. } = self.phase {
            self.phase = Phase::Ended {
                role,
                error: reason.is_some(),
            };
        }
        if let Some(r) = reason
            && self.lines == 0
        {
            self.note = Some(crate::model::sanitize::sanitize(r).into_owned());
        }
    }

    /// Remembers what the pod watch shows that the marker needs later (the back-off delay).
    pub fn observe(&mut self, c: &ContainerSummary) {
        if let Some(b) = &c.backoff {
            self.backoff = Some(b.delay);
        }
    }

    /// What to do now that the pod watch shows this container in `pod` (and the last stream has
    /// ended): fetch the tail of the dead instance, or start following the next one with its
    /// markers, or reopen a stream that broke off (only when `reopen`: on a pod update, never
    /// right at the stream's end, so a persistent error cannot loop), or wait. Nothing while a
    /// stream is open, in the `p` view, or when `pod` no longer has the container.
    pub fn advance(&mut self, pod: &PodSummary, reopen: bool) -> Vec<Step> {
        let Phase::Ended { role, error } = self.phase else {
            return Vec::new();
        };
        if role == Role::Previous {
            return Vec::new();
        }
        let Some(c) = pod.container(&self.container) else {
            return Vec::new();
        };
        let since = self.resume.map(|p| p.since_time());
        let live = |since| Step::Open {
            role: Role::Live,
            previous: false,
            since,
        };
        let rc = c.restart_count;
        let running = matches!(c.state, ContainerState::Running { .. });
        let terminated = matches!(c.state, ContainerState::Terminated(_));
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
            // The same instance still runs: the stream broke off. A clean close means the status
            // lags behind the exit; wait for it.
            return if error && reopen {
                vec![live(since)]
            } else {
                Vec::new()
            };
        }
        if !self.tail_fetched {
            if let ContainerState::Terminated(t) = &c.state
                && rc == inst
                && pod.will_restart(c, t.exit_code)
            {
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
                    previous: !(rc == inst && terminated),
                    since,
                }];
            }
        }
        if rc > inst && (running || terminated) {
            let mut steps = Vec::new();
            let at = c
                .last_state
                .as_ref()
                .and_then(|t| t.finished_at)
                .or(self.resume.map(|p| p.last_ts));
            if let Ok(lost) = u32::try_from(rc - inst - 1)
                && lost > 0
            {
                steps.push(Step::Marker(self.marker(at, &lost_instances_marker(lost))));
            }
            if let Some(last) = &c.last_state {
                steps.push(Step::Marker(
                    self.marker(at, &restart_marker(last, self.backoff)),
                ));
            }
            self.instance = Some(rc);
            self.tail_fetched = false;
            self.backoff = None;
            steps.push(live(since));
            return steps;
        }
        Vec::new()
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
