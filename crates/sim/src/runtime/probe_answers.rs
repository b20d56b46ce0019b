//! How simulated programs answer probes and exec hooks (see [`super::programs`] for the rules).

use jiff::SignedDuration;

use super::container_script::run_in;
use super::programs::{Check, Outcome, ProbeKind, Program, secs};

/// What an exec'd command did (an exec lifecycle hook: `ExecSync`'s answer).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExecResult {
    /// How long it ran; `None`: it never ends.
    pub took: Option<SignedDuration>,
    /// Its exit code.
    pub code: i32,
    /// What it wrote on stdout.
    pub stdout: String,
    /// What it wrote on stderr.
    pub stderr: String,
}

impl Program {
    /// TCP ports the program listens on (declared `containerPort`s, or its default).
    pub(crate) fn ports(&self) -> Vec<u16> {
        match self {
            Self::Sim(_, p) | Self::Nginx(p) | Self::Server(p) => p.clone(),
            Self::Hello { port, .. } => port.iter().copied().collect(),
            Self::Script(_) => vec![],
        }
    }

    /// The TCP ports the process binds at start, which another container of the pod then
    /// cannot bind ([`super::start_checks`]): hello's `PORT`, nginx's and a server's declared
    /// ports, a `SIM_*` program's declared ones (its 8080 default only answers probes).
    pub(crate) fn binds(&self) -> Vec<u16> {
        match self {
            Self::Sim(spec, _) => spec.declared.clone(),
            other => other.ports(),
        }
    }

    /// Answers a probe `since` after the instance started; `stopping` once a stop signal was sent.
    pub(crate) fn probe(
        &self,
        kind: ProbeKind,
        check: &Check,
        since: SignedDuration,
        stopping: bool,
        pod_ip: &str,
    ) -> Outcome {
        let since = since.as_secs_f64();
        let listening = |port: u16| self.ports().contains(&port);
        let refused_http = |port: u16, path: &str| {
            format!(
                "Get \"http://{pod_ip}:{port}{path}\": dial tcp {pod_ip}:{port}: connect: connection refused"
            )
        };
        if let Self::Sim(spec, _) = self {
            if spec.start_after.is_some_and(|s| since < s) {
                return Err(match check {
                    Check::Http { port, path } => refused_http(*port, path),
                    Check::Tcp { port } | Check::Grpc { port } => {
                        format!("dial tcp {pod_ip}:{port}: connect: connection refused")
                    }
                    Check::Exec { .. } => String::new(),
                });
            }
            if spec.live_for.is_some_and(|s| since >= s) {
                return Err(match check {
                    Check::Http { port, path } => format!(
                        "Get \"http://{pod_ip}:{port}{path}\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
                    ),
                    Check::Tcp { port } | Check::Grpc { port } => {
                        format!("dial tcp {pod_ip}:{port}: i/o timeout")
                    }
                    Check::Exec { command } => format!("command {:?} timed out", command.join(" ")),
                });
            }
            let unready = spec.not_ready || spec.ready_after.is_some_and(|s| since < s);
            if kind == ProbeKind::Readiness && unready {
                return match check {
                    Check::Http { .. } => Err("HTTP probe failed with statuscode: 503".into()),
                    _ => Err(String::new()),
                };
            }
        }
        match check {
            Check::Http { port, path } => {
                if !listening(*port) {
                    return Err(refused_http(*port, path));
                }
                if let Self::Hello { .. } = self {
                    let p = path.split('?').next().unwrap_or("");
                    return match p {
                        "/healthz" | "/" => Ok(()),
                        "/readyz" if !stopping => Ok(()),
                        "/readyz" => Err("HTTP probe failed with statuscode: 503".into()),
                        _ => Err("HTTP probe failed with statuscode: 404".into()),
                    };
                }
                Ok(())
            }
            Check::Tcp { port } | Check::Grpc { port } => {
                if listening(*port) {
                    Ok(())
                } else {
                    Err(format!(
                        "dial tcp {pod_ip}:{port}: connect: connection refused"
                    ))
                }
            }
            Check::Exec { command } => {
                if self.has_shell() {
                    Ok(())
                } else {
                    Err(no_exec(command))
                }
            }
        }
    }

    /// How long an exec hook (preStop) runs: `sleep N` takes N s, anything else 0; `Err` when
    /// the image cannot run it (distroless).
    pub(crate) fn exec_hook(&self, command: &[String]) -> Result<SignedDuration, String> {
        if !self.has_shell() {
            return Err(no_exec(command));
        }
        let words: Vec<&str> = command.iter().flat_map(|w| w.split_whitespace()).collect();
        let pos = words.iter().position(|w| *w == "sleep");
        let n = pos
            .and_then(|p| words.get(p + 1))
            .and_then(|w| w.parse::<f64>().ok())
            .unwrap_or(0.0);
        Ok(secs(n))
    }

    /// Runs `command` in the container (an exec lifecycle hook) of an image `image`: `sh -c
    /// SCRIPT` (or `bash`, `/bin/sh` …) through [`super::container_script`], `sleep N`, other
    /// commands as a one-line script. `Err`: the runtime could not start it (no shell in a
    /// distroless image), with the OCI runtime's text.
    pub(crate) fn exec_run(&self, command: &[String], image: &str) -> Result<ExecResult, String> {
        if !self.has_shell() {
            return Err(no_exec(command));
        }
        let shells = ["sh", "/bin/sh", "bash", "/bin/bash", "ash", "/bin/ash"];
        let script = match command {
            [sh, c, script, ..] if shells.contains(&sh.as_str()) && c == "-c" => script.clone(),
            _ => command.join(" "),
        };
        let run = run_in(&script, image);
        let (stdout, stderr) = run.streams();
        Ok(ExecResult {
            took: run.exit.map(|(t, _)| t),
            code: run.exit.map_or(0, |(_, c)| c),
            stdout,
            stderr,
        })
    }
}

fn no_exec(command: &[String]) -> String {
    let cmd = command.first().map_or("", String::as_str);
    format!(
        "OCI runtime exec failed: exec failed: unable to start container process: exec: \"{cmd}\": executable file not found in $PATH: unknown"
    )
}
