//! How simulated programs answer probes and exec hooks (see [`super::programs`] for the rules).

use jiff::SignedDuration;

use super::programs::{Check, Outcome, ProbeKind, Program, secs};

impl Program {
    /// TCP ports the program listens on (declared `containerPort`s, or its default).
    pub(crate) fn ports(&self) -> Vec<u16> {
        match self {
            Self::Sim(_, p) | Self::Nginx(p) | Self::Server(p) => p.clone(),
            Self::Hello { port, .. } => port.iter().copied().collect(),
            Self::Script(_) => vec![],
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
}

fn no_exec(command: &[String]) -> String {
    let cmd = command.first().map_or("", String::as_str);
    format!(
        "OCI runtime exec failed: exec failed: unable to start container process: exec: \"{cmd}\": executable file not found in $PATH: unknown"
    )
}
