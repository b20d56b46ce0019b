//! The interactive side of exec: a tty-attached process on the real terminal (raw mode, resize)
//! and the TUI's shell, trying its shells (`bash` then `sh`, or the one `--shell` names) until
//! one exists (`ExecError::NoShell` when none does, so the UI can offer the ephemeral debug
//! container).

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use tokio::io::AsyncWrite;
use tokio::sync::mpsc;

use super::exec::{ExecError, ExecRequest, ShellOutcome, pump, start};
use super::tty::{RawMode, terminal_input};
use crate::app::msg::ShellEnd;

/// Runs an interactive, tty-attached process on the real terminal (raw mode while it runs).
///
/// # Errors
/// As [`pump`]; `Stream` when raw mode cannot be enabled.
pub async fn run_on_terminal(
    api: &Api<Pod>,
    pod: &str,
    req: &ExecRequest,
) -> Result<i32, ExecError> {
    let proc_ = start(api, pod, req).await?;
    let _raw =
        RawMode::enable().map_err(|e| ExecError::Stream(format!("cannot enable raw mode: {e}")))?;
    let (_input, keys, sizes) = terminal_input();
    pump(
        proc_,
        Some(keys),
        super::tty::StdWriter::Stdout,
        super::tty::StdWriter::Stderr,
        Some(sizes),
    )
    .await
}

/// The argv of a shell command line, split as a POSIX shell splits words (`shell-words`):
/// `"/bin/ash -l"` → `["/bin/ash", "-l"]`, `"sh -c 'exec bash'"` → `["sh", "-c", "exec bash"]`.
/// A line with an unmatched quote (which `--shell` rejects) is split at whitespace.
#[must_use]
pub fn shell_argv(shell: &str) -> Vec<String> {
    shell_words::split(shell)
        .unwrap_or_else(|_| shell.split_whitespace().map(str::to_owned).collect())
}

/// Tries `shells` (command lines) in order with `run` (one attempt per shell) until one starts.
async fn first_shell<S: AsRef<str>>(
    shells: &[S],
    mut run: impl AsyncFnMut(ExecRequest) -> Result<i32, ExecError>,
    container: &str,
) -> Result<ShellOutcome, ExecError> {
    let mut last = String::new();
    for shell in shells.iter().map(AsRef::as_ref) {
        let req = ExecRequest {
            container: Some(container.to_string()),
            command: shell_argv(shell),
            stdin: true,
            tty: true,
        };
        match run(req).await {
            Ok(exit_code) => {
                return Ok(ShellOutcome {
                    shell: shell.to_string(),
                    exit_code,
                });
            }
            Err(ExecError::ExecutableNotFound { message }) => last = message,
            Err(e) => return Err(e),
        }
    }
    Err(ExecError::NoShell {
        tried: shells.iter().map(|s| s.as_ref().to_string()).collect(),
        message: last,
    })
}

/// How a shell or attach ended, as the TUI's `Msg::ShellExited` carries it: the exit status,
/// [`ShellEnd::NoShell`] for an image without any of the shells, else the error as one line.
#[must_use]
pub fn shell_end(result: Result<ShellOutcome, ExecError>) -> ShellEnd {
    match result {
        Ok(ShellOutcome { shell, exit_code }) => ShellEnd::Exited { shell, exit_code },
        Err(ExecError::NoShell { tried, .. }) => ShellEnd::NoShell { tried },
        Err(e) => ShellEnd::Failed(e.to_string()),
    }
}

/// The TUI's shell: tries `shells` in order (command lines, e.g. `["bash", "sh"]`) on the real
/// terminal (raw mode, resize) and returns the first one's exit status.
///
/// # Errors
/// [`ExecError::NoShell`] when none exists in the image (offer `podscope debug`), otherwise
/// the first other error.
pub async fn run_shell(
    client: kube::Client,
    namespace: &str,
    pod: &str,
    container: &str,
    shells: &[impl AsRef<str>],
) -> Result<ShellOutcome, ExecError> {
    let api: Api<Pod> = Api::namespaced(client, namespace);
    first_shell(
        shells,
        async |req| run_on_terminal(&api, pod, &req).await,
        container,
    )
    .await
}

/// [`run_shell`] without a terminal: `input` chunks are the keystrokes (channel closed = EOF),
/// output (tty: stdout only) goes to `output`. For tests and scripted sessions.
///
/// # Errors
/// As [`run_shell`].
pub async fn run_shell_with_io<O>(
    api: &Api<Pod>,
    pod: &str,
    container: &str,
    shells: &[impl AsRef<str>],
    input: mpsc::Receiver<Vec<u8>>,
    output: O,
) -> Result<ShellOutcome, ExecError>
where
    O: AsyncWrite + Unpin + Send + Clone + 'static,
{
    let shared = std::sync::Arc::new(tokio::sync::Mutex::new(input));
    first_shell(
        shells,
        async |req| {
            let p = start(api, pod, &req).await?;
            // Each attempt gets its own channel fed from the shared input, so a shell that does
            // not exist leaves the keystrokes for the next one.
            let (tx, rx) = mpsc::channel(64);
            let src = shared.clone();
            let feeder = tokio::spawn(async move {
                let mut src = src.lock().await;
                while let Some(chunk) = src.recv().await {
                    if tx.send(chunk).await.is_err() {
                        return;
                    }
                }
            });
            let r = pump(p, Some(rx), output.clone(), tokio::io::sink(), None).await;
            feeder.abort();
            r
        },
        container,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::shell_argv;

    #[test]
    fn shell_lines_split_as_a_shell_splits_them() {
        assert_eq!(shell_argv("/bin/ash -l"), ["/bin/ash", "-l"]);
        assert_eq!(shell_argv("sh -c 'exec bash'"), ["sh", "-c", "exec bash"]);
        assert_eq!(
            shell_argv(r#"sh -c "echo \"hi\"; exec sh""#),
            ["sh", "-c", r#"echo "hi"; exec sh"#]
        );
        assert_eq!(shell_argv("  zsh  "), ["zsh"]);
    }
}
