//! Exec and attach for `podscope exec`/`debug` and the TUI's shell: kube-rs
//! `Api::<Pod>::exec`/`attach` (WebSocket v5 with v4 fallback, kube-rs' own negotiation) with
//! kubectl's behaviour (`docs/protocols.md` §3): container defaulting, the exit code from the
//! Status, stdin EOF passed on (`[255,0]` on v5), resize for tty sessions. The command line is
//! in the `cmd` layer (`podscope exec`).

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;
use kube::Api;
use kube::api::{AttachParams, AttachedProcess, TerminalSize};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

pub use super::shell::{run_on_terminal, run_shell, run_shell_with_io};

/// Why an exec did not yield an exit code.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The API server refused the request (pod/container not found, 400/404 …).
    #[error("Error from server ({reason}): {message}")]
    Api {
        /// `Status.reason`, e.g. `NotFound`, `BadRequest`.
        reason: String,
        /// `Status.message`.
        message: String,
    },
    /// The runtime has no such executable (`executable file not found in $PATH`, `stat …: no
    /// such file or directory`).
    #[error("{message}")]
    ExecutableNotFound {
        /// The Status message.
        message: String,
    },
    /// None of the shells exists in the image (distroless/scratch): offer a debug container.
    #[error("no shell in the container (tried {}): {message}", tried.join(", "))]
    NoShell {
        /// The shells tried, in order.
        tried: Vec<String>,
        /// The last runtime message.
        message: String,
    },
    /// Another failure Status (e.g. `Internal error occurred: …`).
    #[error("{0}")]
    Failed(String),
    /// kubectl's pre-check: `cannot exec into a container in a completed pod; current phase is …`.
    #[error("cannot exec into a container in a completed pod; current phase is {0}")]
    CompletedPod(String),
    /// The WebSocket failed before the exit Status arrived (cut by the server, a proxy or the
    /// network); the detail is kube-rs' error.
    #[error("lost connection to pod before the command finished: {0}")]
    ConnectionLost(String),
    /// Transport trouble (WebSocket, connection closed without a Status, terminal IO).
    #[error("{0}")]
    Stream(String),
}

/// The text of a transport error for one line: kube-rs' message without the documentation link
/// rustls appends (`…without sending TLS close_notify: https://docs.rs/rustls/…`).
pub fn transport_detail(e: &impl std::fmt::Display) -> String {
    let text = e.to_string();
    match text.find(": https://") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// How an interactive shell ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellOutcome {
    /// The shell that ran (`bash`, `sh`).
    pub shell: String,
    /// Its exit status.
    pub exit_code: i32,
}

/// What to run and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecRequest {
    /// Container name (`None`: the server's default, only valid for one-container pods).
    pub container: Option<String>,
    /// argv; empty for attach.
    pub command: Vec<String>,
    /// Attach stdin.
    pub stdin: bool,
    /// TTY (stderr is merged into stdout).
    pub tty: bool,
}

impl ExecRequest {
    fn params(&self) -> AttachParams {
        let mut ap = AttachParams::default()
            .stdin(self.stdin)
            .stdout(true)
            .stderr(!self.tty)
            .tty(self.tty)
            .max_stdout_buf_size(64 * 1024)
            .max_stdin_buf_size(64 * 1024)
            .max_stderr_buf_size(64 * 1024);
        if let Some(c) = &self.container {
            ap = ap.container(c.clone());
        }
        ap
    }
}

/// An API error as [`ExecError::Api`] (reason and message of the Status), anything else as
/// [`ExecError::Stream`].
pub fn api_error(e: kube::Error) -> ExecError {
    match e {
        kube::Error::Api(s) => ExecError::Api {
            reason: s.reason.clone(),
            message: s.message.clone(),
        },
        other => ExecError::Stream(super::config::one_line(&other)),
    }
}

/// The exit code a Status stands for (kubectl's rules): Success → 0, NonZeroExitCode with an
/// `ExitCode` cause → that code. Errors: other failures, with executable-not-found told apart.
pub fn exit_code(status: &Status) -> Result<i32, ExecError> {
    if status.status.as_deref() == Some("Success") {
        return Ok(0);
    }
    if status.reason.as_deref() == Some("NonZeroExitCode")
        && let Some(code) = status
            .details
            .iter()
            .flat_map(|d| d.causes.iter().flatten())
            .find(|c| c.reason.as_deref() == Some("ExitCode"))
            .and_then(|c| c.message.as_deref())
            .and_then(|m| m.parse::<i32>().ok())
    {
        return Ok(code);
    }
    let message = status.message.clone().unwrap_or_default();
    if message.contains("executable file not found in $PATH")
        || (message.contains("OCI runtime exec failed")
            && message.contains("no such file or directory"))
    {
        return Err(ExecError::ExecutableNotFound { message });
    }
    Err(ExecError::Failed(message))
}

/// Pumps an attached process: `stdin` chunks (channel closed = EOF), stdout/stderr to the
/// writers, sizes to the resize channel (tty only). Returns the exit code from the Status.
///
/// # Errors
/// [`ExecError`] from the Status; `ConnectionLost` when the WebSocket failed before it came,
/// `Stream` when the server closed it cleanly without one.
pub async fn pump<O, E>(
    mut proc_: AttachedProcess,
    stdin: Option<mpsc::Receiver<Vec<u8>>>,
    mut stdout: O,
    mut stderr: E,
    mut sizes: Option<mpsc::Receiver<TerminalSize>>,
) -> Result<i32, ExecError>
where
    O: AsyncWrite + Unpin + Send + 'static,
    E: AsyncWrite + Unpin + Send + 'static,
{
    let status = proc_.take_status();
    let out_task = proc_.stdout().map(|mut r| {
        tokio::spawn(async move {
            let _ = tokio::io::copy(&mut r, &mut stdout).await;
            let _ = stdout.flush().await;
        })
    });
    let err_task = proc_.stderr().map(|mut r| {
        tokio::spawn(async move {
            let _ = tokio::io::copy(&mut r, &mut stderr).await;
            let _ = stderr.flush().await;
        })
    });
    let stdin_task = match (proc_.stdin(), stdin) {
        (Some(mut w), Some(mut rx)) => Some(tokio::spawn(async move {
            while let Some(chunk) = rx.recv().await {
                if w.write_all(&chunk).await.is_err() {
                    return;
                }
            }
            // Dropping the writer after shutdown makes kube-rs send [255,0] (v5).
            let _ = w.shutdown().await;
        })),
        (Some(w), None) => {
            drop(w);
            None
        }
        _ => None,
    };
    let resize_task = match (proc_.terminal_size(), sizes.take()) {
        (Some(mut tx), Some(mut rx)) => Some(tokio::spawn(async move {
            use futures::SinkExt;
            while let Some(s) = rx.recv().await {
                if tx.send(s).await.is_err() {
                    return;
                }
            }
        })),
        _ => None,
    };
    let status = match status {
        Some(fut) => fut.await,
        None => None,
    };
    for t in [stdin_task, resize_task].into_iter().flatten() {
        t.abort();
    }
    let joined = proc_.join().await;
    // After an error kube-rs drops its pipe writers without shutting them down (no EOF for
    // split simplex halves): give the copies a moment to drain, then stop them.
    for mut t in [out_task, err_task].into_iter().flatten() {
        if tokio::time::timeout(Duration::from_millis(500), &mut t)
            .await
            .is_err()
        {
            t.abort();
        }
    }
    match (status, joined) {
        (Some(s), _) => exit_code(&s),
        (None, Err(e)) => Err(ExecError::ConnectionLost(transport_detail(&e))),
        (None, Ok(())) => Err(ExecError::Stream(
            "the connection closed without an exit status".into(),
        )),
    }
}

/// Starts `req` in `pod` (exec when it has a command, else attach).
///
/// # Errors
/// `Api` for refusals before the upgrade (a 403 always names verb, resource and namespace, see
/// [`super::forbidden`]), `Stream` for transport errors.
pub async fn start(
    api: &Api<Pod>,
    pod: &str,
    req: &ExecRequest,
) -> Result<AttachedProcess, ExecError> {
    let (subresource, result) = if req.command.is_empty() {
        ("attach", api.attach(pod, &req.params()).await)
    } else {
        let started = api.exec(pod, req.command.clone(), &req.params()).await;
        ("exec", started)
    };
    result.map_err(|e| match api_error(e) {
        ExecError::Api { reason, message } if reason == "Forbidden" => ExecError::Api {
            message: super::forbidden::explain_connect(&message, api, subresource),
            reason,
        },
        other => other,
    })
}

/// kubectl's container choice: `-c`, else the default-container annotation, else the first
/// container with a `Defaulted container "x" out of: …` notice (returned as the second value)
/// when the pod has more than one.
pub fn default_container(pod: &Pod, requested: Option<&str>) -> (Option<String>, Option<String>) {
    if let Some(c) = requested {
        return (Some(c.to_string()), None);
    }
    let Some(spec) = pod.spec.as_ref() else {
        return (None, None);
    };
    let annotated = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("kubectl.kubernetes.io/default-container"))
        .filter(|n| spec.containers.iter().any(|c| &c.name == *n));
    if let Some(a) = annotated {
        return (Some(a.clone()), None);
    }
    let first = spec.containers.first().map(|c| c.name.clone());
    let mut all: Vec<String> = spec.containers.iter().map(|c| c.name.clone()).collect();
    all.extend(
        spec.init_containers
            .iter()
            .flatten()
            .map(|c| format!("{} (init)", c.name)),
    );
    all.extend(
        spec.ephemeral_containers
            .iter()
            .flatten()
            .map(|c| format!("{} (ephem)", c.name)),
    );
    let notice = (all.len() > 1)
        .then(|| {
            first
                .as_ref()
                .map(|f| format!("Defaulted container {f:?} out of: {}", all.join(", ")))
        })
        .flatten();
    (first, notice)
}
