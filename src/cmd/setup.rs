//! Setup errors: what stops a subcommand before it does its work, and the one rule that maps
//! them to the exit code for every subcommand (README, "Exit codes"): one line `podscope: …` on
//! stderr and exit code 2 ([`setup_error`]).
//!
//! They are: a missing or broken kubeconfig, an unknown context (`cluster::ConnectError`);
//! credentials the API server rejects (401), a refused read of the pod (403) and a server that
//! cannot be reached, on a subcommand's first request ([`first_request_error`]); a pod name that
//! is no valid name; no terminal for the TUI ([`terminal_check`]); a container the pod does not
//! have (`podscope POD -c C`, [`check_container`]). What the pod's own subcommands answer after
//! that first request (a missing pod, a refused exec, a failed command) keeps kubectl's wording
//! and exit codes.

use std::ffi::OsStr;
use std::io::IsTerminal;
use std::process::ExitCode;

use k8s_openapi::api::core::v1::Pod;

use super::EXIT_SETUP_ERROR;
use crate::cluster::Target;
use crate::cluster::config::describe_error;
use crate::model::sanitize::sanitize;

/// The one rule: prints `podscope: MSG` on stderr (sanitised: it may quote the server or a
/// file) and returns [`EXIT_SETUP_ERROR`] (2).
pub(crate) fn setup_error(msg: &str) -> ExitCode {
    eprintln!("podscope: {}", sanitize(msg));
    ExitCode::from(EXIT_SETUP_ERROR)
}

/// The setup error in `e`, the answer to a subcommand's first request (`verb` on `pods` in
/// `target`'s namespace), as the one line to print: 401 and 403 (naming the verb, resource and
/// namespace, `cluster::config::describe_error`) and every failure without an answer from the
/// API server (connection refused, TLS, DNS), each with the server's URL. `None` for the other
/// answers of the server (404, 400, 5xx): the subcommand words those as kubectl does.
#[must_use]
pub fn first_request_error(e: &kube::Error, verb: &str, target: &Target) -> Option<String> {
    match e {
        kube::Error::Api(s) if s.code != 401 && s.code != 403 => None,
        _ => Some(format!(
            "{} (server {})",
            describe_error(e, verb, "pods", &target.namespace),
            target.server
        )),
    }
}

/// Whether the TUI can run, from whether stdin and stdout are terminals and the value of `TERM`.
///
/// The TUI reads keys from stdin and draws on stdout with an alternate screen and cursor
/// addressing, so both must be terminals: otherwise nothing could be typed, or escape codes
/// would land in a file or a pipe. `TERM=dumb` (Emacs' shell, some CI runners) is refused too,
/// and not drawn inline without the alternate screen: a dumb terminal cannot move the cursor at
/// all, and every frame ratatui draws, inline or not, is placed with cursor moves, so an inline
/// TUI would print garbage there as well. `--once` is the honest answer in both cases.
///
/// # Errors
/// The one line to print: `not a terminal; use --once for a snapshot`, or the same naming
/// `TERM=dumb`.
pub fn terminal_check(
    stdin_tty: bool,
    stdout_tty: bool,
    term: Option<&OsStr>,
) -> Result<(), String> {
    if !(stdin_tty && stdout_tty) {
        return Err("not a terminal; use --once for a snapshot".to_owned());
    }
    if term == Some(OsStr::new("dumb")) {
        return Err(
            "TERM=dumb cannot show the TUI (it needs cursor movement); use --once for a snapshot"
                .to_owned(),
        );
    }
    Ok(())
}

/// [`terminal_check`] on this process's stdin, stdout and `TERM`; call before anything is
/// drawn (before the demo cluster starts, before connecting).
///
/// # Errors
/// As [`terminal_check`].
pub fn require_terminal() -> Result<(), String> {
    terminal_check(
        std::io::stdin().is_terminal(),
        std::io::stdout().is_terminal(),
        std::env::var_os("TERM").as_deref(),
    )
}

/// Checks that `pod` has a container (init, main or ephemeral) named `container`.
///
/// # Errors
/// kubectl's words (`container nope is not valid for pod crash`, as `kubectl logs -c` says),
/// then the containers to choose from in kubectl's `Defaulted container` notation
/// (`; choose one of: app, proxy (init)`), sanitised.
pub fn check_container(pod: &Pod, container: &str) -> Result<(), String> {
    let spec = pod.spec.clone().unwrap_or_default();
    let main = spec.containers.iter().map(|c| (c.name.clone(), ""));
    let eph = spec
        .ephemeral_containers
        .iter()
        .flatten()
        .map(|c| (c.name.clone(), " (ephem)"));
    let init = spec
        .init_containers
        .iter()
        .flatten()
        .map(|c| (c.name.clone(), " (init)"));
    let all: Vec<(String, &str)> = main.chain(eph).chain(init).collect();
    if all.iter().any(|(n, _)| n == container) {
        return Ok(());
    }
    let name = pod.metadata.name.as_deref().unwrap_or_default();
    let choose: Vec<String> = all.iter().map(|(n, k)| format!("{n}{k}")).collect();
    Err(sanitize(&format!(
        "container {container} is not valid for pod {name}; choose one of: {}",
        choose.join(", ")
    ))
    .into_owned())
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::terminal_check;

    #[test]
    fn the_tui_needs_two_terminals_and_a_term_that_moves_the_cursor() {
        let xterm = Some(OsStr::new("xterm-256color"));
        assert_eq!(terminal_check(true, true, xterm), Ok(()));
        assert_eq!(terminal_check(true, true, None), Ok(()));
        let not = Err("not a terminal; use --once for a snapshot".to_owned());
        assert_eq!(terminal_check(false, true, xterm), not);
        assert_eq!(terminal_check(true, false, xterm), not);
        let dumb = terminal_check(true, true, Some(OsStr::new("dumb"))).expect_err("refused");
        assert!(dumb.starts_with("TERM=dumb "), "{dumb}");
    }
}
