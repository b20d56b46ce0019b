//! The `SIM_*` program: a container whose env sets `SIM_*` knobs (or whose image is
//! `…/exit:N`) runs what the knobs say (the rules are in [`super::programs`]' module docs).

use jiff::SignedDuration;

use super::loops::{Loop, Until};
use super::programs::{ExitPlan, MIN_RUN, Plan, exit, line, secs};

/// The knobs of one `SIM_*` container.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SimSpec {
    pub(crate) exit_code: i32,
    pub(crate) exit_after: Vec<f64>,
    pub(crate) oom_after: Option<f64>,
    pub(crate) ignore_term: bool,
    pub(crate) live_for: Option<f64>,
    pub(crate) start_after: Option<f64>,
    pub(crate) ready_after: Option<f64>,
    pub(crate) not_ready: bool,
    pub(crate) log: Vec<String>,
    /// `SIM_DEPENDS_ON=host:port`: the dependency it dials at start and every `retry_every`.
    pub(crate) depends_on: Option<(String, u16)>,
    /// `SIM_RETRY_EVERY` seconds (default 5).
    pub(crate) retry_every: f64,
    /// The `containerPort`s the spec declares (what the process binds).
    pub(crate) declared: Vec<u16>,
}

fn flag(v: Option<String>) -> bool {
    v.is_some_and(|v| v == "1" || v == "true")
}

impl SimSpec {
    /// The knobs from the container's env (`env(NAME)` its value), with the exit code of an
    /// `…/exit:N` image when `SIM_EXIT_CODE` does not say another.
    pub(crate) fn from_env(env: &dyn Fn(&str) -> Option<String>, image_code: Option<i32>) -> Self {
        let num = |name: &str| env(name).and_then(|v| v.trim().parse::<f64>().ok());
        let exit_code = env("SIM_EXIT_CODE")
            .and_then(|v| v.trim().parse().ok())
            .or(image_code);
        let mut exit_after: Vec<f64> = env("SIM_EXIT_AFTER")
            .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
            .unwrap_or_default();
        if exit_after.is_empty() && exit_code.is_some() {
            exit_after.push(MIN_RUN.as_secs_f64());
        }
        let depends_on = env("SIM_DEPENDS_ON").and_then(|v| {
            let (host, port) = v.trim().rsplit_once(':')?;
            Some((host.to_string(), port.parse().ok()?))
        });
        SimSpec {
            exit_code: exit_code.unwrap_or(0),
            exit_after,
            oom_after: num("SIM_OOM_AFTER"),
            ignore_term: flag(env("SIM_IGNORE_SIGTERM")),
            live_for: num("SIM_LIVE_FOR"),
            start_after: num("SIM_START_AFTER"),
            ready_after: num("SIM_READY_AFTER"),
            not_ready: flag(env("SIM_NOT_READY")),
            log: env("SIM_LOG")
                .map(|v| v.lines().map(str::to_string).collect())
                .unwrap_or_default(),
            depends_on,
            retry_every: num("SIM_RETRY_EVERY").unwrap_or(5.0),
            declared: Vec::new(),
        }
    }

    /// What the instance with `restart_count` does from its start.
    pub(crate) fn start(&self, restart_count: i32) -> Plan {
        let logs = self
            .log
            .iter()
            .map(|l| line(SignedDuration::ZERO, l, false));
        let idx = usize::try_from(restart_count).unwrap_or(0);
        let after = self
            .exit_after
            .get(idx)
            .or_else(|| self.exit_after.last())
            .copied();
        let exit = match (self.oom_after, after) {
            (Some(oom), a) if a.is_none_or(|a| oom <= a) => Some(ExitPlan {
                after: secs(oom),
                code: 137,
                reason: "OOMKilled",
            }),
            (_, Some(a)) => exit(secs(a), self.exit_code),
            _ => None,
        };
        let looping = self.depends_on.as_ref().map(|(host, port)| Loop {
            at: SignedDuration::ZERO,
            every: secs(self.retry_every),
            until: Until::Connects {
                host: host.clone(),
                port: *port,
            },
            body: vec![],
            stamped: true,
            gates_readiness: true,
            then: Box::default(),
        });
        Plan {
            logs: logs.collect(),
            exit,
            looping,
        }
    }

    /// Its answer to a stop signal: exit 143 at once, or nothing when it ignores SIGTERM.
    pub(crate) fn on_signal(&self) -> Option<Plan> {
        (!self.ignore_term).then(|| Plan {
            logs: vec![],
            exit: exit(SignedDuration::ZERO, 143),
            looping: None,
        })
    }
}
