//! Simulated container programs, chosen by image (the app column of [`super::image`]'s table),
//! command and env.
//!
//! Selection rules (first match wins):
//! 1. **Sim program** — any `SIM_*` env var, or an image `…/exit:CODE` (exits with CODE after
//!    0.5 s). Env: `SIM_EXIT_CODE` (default 0), `SIM_EXIT_AFTER` (seconds; a comma list is indexed
//!    by `restartCount`, the last value repeating; default 0.5 s when `SIM_EXIT_CODE` is set, else
//!    never), `SIM_OOM_AFTER` (seconds: exceeds its memory limit → `OOMKilled`, exit 137),
//!    `SIM_IGNORE_SIGTERM=1` (only SIGKILL at the end of the grace period stops it → 137),
//!    `SIM_LIVE_FOR` (seconds: afterwards it hangs, every probe times out),
//!    `SIM_START_AFTER` (seconds: probes get "connection refused" before that),
//!    `SIM_READY_AFTER` (seconds) / `SIM_NOT_READY=1` (readiness answers 503),
//!    `SIM_LOG` (lines printed at start, separated by `\n`), `SIM_DEPENDS_ON=host:port` (a
//!    dependency it dials every `SIM_RETRY_EVERY` seconds, default 5, logging why it failed,
//!    readiness 503 until it connects: [`super::loops`]); `SIM_CPU`/`SIM_MEMORY` only set the
//!    usage ([`super::usage`]) and pick no program. Listens on its declared ports (else
//!    8080); SIGTERM kills it (exit 143) unless ignored ([`super::sim_program`]).
//! 2. **hello** (image name `…/hello`) — the seed's distroless Go app: `PORT` env (default 8080),
//!    `/healthz` and `/` answer 200, `/readyz` 200 (503 once shutting down), other paths 404; logs
//!    `hello <tag> listening on [::]:<port>`; on SIGTERM `signal received, shutting down`, `bye`,
//!    exit 0; a non-numeric PORT logs `listen: listen tcp: lookup tcp/<PORT>: unknown port` and
//!    exits 1; no shell (exec probes and exec preStop hooks fail).
//! 3. **nginx** (image `nginx…`/`…/nginx…`) — the seed's proxy sidecar: answers 200 on its
//!    declared ports (else 80); STOPSIGNAL SIGQUIT: `[notice] 1#1: signal 3 (SIGQUIT) received,
//!    shutting down`, `[notice] 1#1: exit` 10 ms later, exit 0.
//! 4. **sh script** — command `sh|bash -c SCRIPT` (any image), see [`super::container_script`]; as PID 1 it
//!    ignores SIGTERM (→ 137 at the grace deadline). busybox/alpine without command: `sh` with no
//!    stdin exits 0.
//! 5. **server** — anything else: runs until stopped, answers 200 on its declared ports, exits 0
//!    on SIGTERM.
//!
//! A process that exits "immediately" does so 100 ms after start ([`MIN_RUN`]), so the kubelet
//! reports it Running first, as the seed's `crash` pod shows. What the runtime does instead of
//! the entrypoint when the container cannot run as its spec asks (another architecture, a
//! read-only root, a port taken) is [`super::start_checks`]'.

use jiff::SignedDuration;
use k8s_openapi::api::core::v1::Container;

use super::container_script;
use super::image::{App, SimImage};
use super::loops::Loop;
pub(crate) use super::sim_program::SimSpec;

/// How long an immediately-exiting process stays up.
pub const MIN_RUN: SignedDuration = SignedDuration::from_millis(100);

/// One log line to emit `offset` after an instant; `stamped` lines get the Go/nginx
/// `YYYY/MM/DD HH:MM:SS ` prefix (UTC) of their emission time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LogLine {
    pub offset: SignedDuration,
    pub text: String,
    pub stamped: bool,
}

/// How a run ends on its own.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExitPlan {
    pub after: SignedDuration,
    pub code: i32,
    /// `Completed`, `Error` or `OOMKilled`.
    pub reason: &'static str,
}

/// What a program does after an instant (start or a signal).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Plan {
    pub logs: Vec<LogLine>,
    pub exit: Option<ExitPlan>,
    /// A loop that waits for something in the cluster ([`super::loops`]); the kubelet model
    /// runs its iterations. `exit` is then `None`: the loop's `then` says how it ends.
    pub looping: Option<Loop>,
}

/// Stop signals the kubelet sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sig {
    Term,
    Quit,
}

/// Which probe is asking (programs may answer differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProbeKind {
    Startup,
    Liveness,
    Readiness,
}

/// What a probe checks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Check {
    Http { port: u16, path: String },
    Tcp { port: u16 },
    Exec { command: Vec<String> },
    Grpc { port: u16 },
}

/// A probe's answer: `Err(output)` is the text after `… probe failed: `.
pub(crate) type Outcome = Result<(), String>;

/// A simulated program (see the module docs for the selection rules).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Program {
    Sim(Box<SimSpec>, Vec<u16>),
    Hello {
        version: String,
        port: Result<u16, String>,
    },
    Nginx(Vec<u16>),
    Script(String),
    Server(Vec<u16>),
}

/// Seconds as a duration (negative as zero).
pub(crate) fn secs(v: f64) -> SignedDuration {
    SignedDuration::try_from_secs_f64(v.max(0.0)).unwrap_or(SignedDuration::ZERO)
}

pub(crate) fn line(offset: SignedDuration, text: impl Into<String>, stamped: bool) -> LogLine {
    LogLine {
        offset,
        text: text.into(),
        stamped,
    }
}

pub(crate) fn exit(after: SignedDuration, code: i32) -> Option<ExitPlan> {
    let reason = if code == 0 { "Completed" } else { "Error" };
    Some(ExitPlan {
        after,
        code,
        reason,
    })
}

impl Program {
    /// Picks the program for a container spec.
    pub(crate) fn for_container(c: &Container) -> Self {
        let env = |name: &str| -> Option<String> {
            c.env
                .iter()
                .flatten()
                .find(|e| e.name == name)
                .map(|e| e.value.clone().unwrap_or_default())
        };
        let image = SimImage::of(c.image.as_deref().unwrap_or_default());
        let declared: Vec<u16> = c
            .ports
            .iter()
            .flatten()
            .filter_map(|p| u16::try_from(p.container_port).ok())
            .collect();
        let has_sim_env =
            c.env.iter().flatten().any(|e| {
                e.name.starts_with("SIM_") && !super::usage::KNOBS.contains(&e.name.as_str())
            });
        let exit_image_code = match image.app {
            App::Exit(code) => Some(code),
            _ => None,
        };
        if has_sim_env || exit_image_code.is_some() {
            let mut spec = SimSpec::from_env(&env, exit_image_code);
            spec.declared.clone_from(&declared);
            let ports = if declared.is_empty() {
                vec![8080]
            } else {
                declared
            };
            return Self::Sim(Box::new(spec), ports);
        }
        let argv: Vec<String> = c
            .command
            .iter()
            .flatten()
            .chain(c.args.iter().flatten())
            .cloned()
            .collect();
        if image.app == App::Hello {
            let raw = env("PORT").unwrap_or_else(|| "8080".into());
            let port = raw.parse::<u16>().map_err(|_| raw);
            return Self::Hello {
                version: image.tag.clone(),
                port,
            };
        }
        if image.app == App::Nginx {
            let ports = if declared.is_empty() {
                vec![80]
            } else {
                declared
            };
            return Self::Nginx(ports);
        }
        let shells = ["sh", "/bin/sh", "bash", "/bin/bash", "ash", "/bin/ash"];
        if argv.len() >= 3 && shells.contains(&argv[0].as_str()) && argv[1] == "-c" {
            return Self::Script(argv[2..].join(" "));
        }
        let shell_image = image.app == App::Shell;
        if shell_image && argv.is_empty() {
            return Self::Script(String::new());
        }
        if shell_image && !argv.is_empty() {
            return Self::Script(argv.join(" "));
        }
        Self::Server(declared)
    }

    /// Whether `sh`, `sleep` … exist in the image (exec probes and exec hooks can run).
    pub(crate) fn has_shell(&self) -> bool {
        !matches!(self, Self::Hello { .. })
    }

    /// The image's STOPSIGNAL.
    pub(crate) fn stop_signal(&self) -> Sig {
        match self {
            Self::Nginx(_) => Sig::Quit,
            _ => Sig::Term,
        }
    }

    /// What the instance with `restart_count` of an `image` does from its start (the image
    /// decides the busybox version of a script's `nslookup`).
    pub(crate) fn start(&self, restart_count: i32, image: &str) -> Plan {
        match self {
            Self::Sim(spec, _) => spec.start(restart_count),
            Self::Hello { version, port } => match port {
                Ok(p) => Plan {
                    logs: vec![line(
                        SignedDuration::ZERO,
                        format!("hello {version} listening on [::]:{p}"),
                        true,
                    )],
                    exit: None,
                    looping: None,
                },
                Err(raw) => Plan {
                    logs: vec![line(
                        SignedDuration::ZERO,
                        format!("listen: listen tcp: lookup tcp/{raw}: unknown port"),
                        true,
                    )],
                    exit: exit(MIN_RUN, 1),
                    looping: None,
                },
            },
            Self::Nginx(_) => Plan {
                logs: vec![
                    line(
                        SignedDuration::ZERO,
                        "/docker-entrypoint.sh: Configuration complete; ready for start up",
                        false,
                    ),
                    line(
                        SignedDuration::ZERO,
                        "[notice] 1#1: start worker processes",
                        true,
                    ),
                ],
                exit: None,
                looping: None,
            },
            Self::Script(text) => {
                let mut plan = container_script::run_in(text, image).plan();
                if let Some(e) = &mut plan.exit
                    && e.after.is_zero()
                {
                    e.after = MIN_RUN;
                }
                plan
            }
            Self::Server(_) => Plan::default(),
        }
    }

    /// The reaction to a stop signal; `None` means the signal is ignored (SIGKILL will come).
    pub(crate) fn on_signal(&self, sig: Sig) -> Option<Plan> {
        let ms = SignedDuration::from_millis;
        match (self, sig) {
            (Self::Hello { .. }, _) => Some(Plan {
                logs: vec![
                    line(ms(0), "signal received, shutting down", true),
                    line(ms(1), "bye", true),
                ],
                exit: exit(ms(2), 0),
                looping: None,
            }),
            (Self::Nginx(_), Sig::Quit) => Some(Plan {
                logs: vec![
                    line(
                        ms(0),
                        "[notice] 1#1: signal 3 (SIGQUIT) received, shutting down",
                        true,
                    ),
                    line(ms(10), "[notice] 1#1: exit", true),
                ],
                exit: exit(ms(10), 0),
                looping: None,
            }),
            (Self::Nginx(_), Sig::Term) => Some(Plan {
                logs: vec![
                    line(
                        ms(0),
                        "[notice] 1#1: signal 15 (SIGTERM) received, exiting",
                        true,
                    ),
                    line(ms(5), "[notice] 1#1: exit", true),
                ],
                exit: exit(ms(5), 0),
                looping: None,
            }),
            (Self::Sim(spec, _), _) => spec.on_signal(),
            (Self::Script(_), _) => None,
            (Self::Server(_), _) => Some(Plan {
                logs: vec![],
                exit: exit(ms(1), 0),
                looping: None,
            }),
        }
    }
}
