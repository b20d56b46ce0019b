//! `podscope exec POD [-c C] [-i] [-t] -- CMD…` with kubectl's output: `Defaulted container …`,
//! `command terminated with exit code N` on stderr and process exit code N, `error: <message>`
//! (or `Error from server (Reason): …`) and exit 1 for other failures, raw mode for `-t`.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;

use crate::cluster::exec::{
    ExecError, ExecRequest, api_error, default_container, pump, run_on_terminal, start,
};
use crate::cluster::tty::{StdWriter, piped_stdin};
use crate::cluster::{ConnectOptions, Target};
use crate::model::sanitize::sanitize;

/// `podscope exec POD [-c C] [-i] [-t] -- CMD…`.
#[derive(Debug, Clone, Args)]
pub struct ExecArgs {
    /// The pod's name (`pod/NAME` accepted, as kubectl).
    #[arg(value_name = "POD", value_parser = super::cli::parse_pod)]
    pub pod: String,
    /// Container; default: the `kubectl.kubernetes.io/default-container` annotation, else the first.
    #[arg(short, long)]
    pub container: Option<String>,
    /// Pass stdin to the container.
    #[arg(short = 'i', long)]
    pub stdin: bool,
    /// Allocate a TTY (raw mode, resize).
    #[arg(short = 't', long)]
    pub tty: bool,
    /// Which cluster and namespace (`--kubeconfig`, `--context`, `-n`).
    #[command(flatten)]
    pub cluster: ConnectOptions,
    /// The command and its arguments (after `--`).
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Prints an error the way kubectl does and returns its exit code.
pub fn report(e: &ExecError) -> ExitCode {
    match e {
        ExecError::Api { .. } => eprintln!("{}", sanitize(&e.to_string())),
        _ => eprintln!("error: {}", sanitize(&e.to_string())),
    }
    ExitCode::FAILURE
}

/// Maps an exit code to the process exit code, printing kubectl's notice for non-zero codes.
pub fn finish(code: i32) -> ExitCode {
    if code != 0 {
        eprintln!("command terminated with exit code {code}");
    }
    ExitCode::from(u8::try_from(code & 0xff).unwrap_or(1))
}

/// The hand-off every pod subcommand starts with: [`super::connect_or_exit`], then GET the pod.
///
/// # Errors
/// The exit code to return, the message printed: 2 for setup errors (the connection, and a GET
/// refused with 401/403 or never answered: [`super::setup::first_request_error`]), 1 (kubectl's
/// wording, see [`report`]) when the server answers the GET otherwise (404 …).
pub async fn connect_and_get_pod(
    opts: &ConnectOptions,
    pod: &str,
) -> Result<(Target, Api<Pod>, Pod), ExitCode> {
    let target = super::connect_or_exit(opts, pod).await?;
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
    match api.get(pod).await {
        Ok(p) => Ok((target, api, p)),
        Err(e) => Err(
            match super::setup::first_request_error(&e, "get", &target) {
                Some(line) => super::setup_error(&line),
                None => report(&api_error(e)),
            },
        ),
    }
}

/// Runs `podscope exec`. Setup errors print one line and exit 2 (as every subcommand,
/// [`super::setup`]).
pub async fn run(args: &ExecArgs) -> ExitCode {
    let (_, api, pod) = match connect_and_get_pod(&args.cluster, &args.pod).await {
        Ok(found) => found,
        Err(code) => return code,
    };
    let phase = pod
        .status
        .as_ref()
        .and_then(|s| s.phase.clone())
        .unwrap_or_default();
    if phase == "Succeeded" || phase == "Failed" {
        return report(&ExecError::CompletedPod(phase));
    }
    let (container, notice) = default_container(&pod, args.container.as_deref());
    if let Some(n) = notice {
        eprintln!("{}", sanitize(&n));
    }
    let mut tty = args.tty;
    if tty && !(std::io::stdin().is_terminal() && args.stdin) {
        eprintln!("Unable to use a TTY - input is not a terminal or the right kind of file");
        tty = false;
    }
    let req = ExecRequest {
        container,
        command: args.command.clone(),
        stdin: args.stdin,
        tty,
    };
    run_and_finish(&api, &args.pod, &req).await
}

/// Runs `req` in `pod`: on this terminal when `req.tty`, else with stdout/stderr (and stdin
/// when `req.stdin`) piped; then [`finish`] with its exit code, or [`report`] the error.
pub async fn run_and_finish(api: &Api<Pod>, pod: &str, req: &ExecRequest) -> ExitCode {
    match run_session(api, pod, req).await {
        Ok(code) => finish(code),
        Err(e) => report(&e),
    }
}

/// The session of [`run_and_finish`] (on the terminal with `req.tty`, else piped), without
/// mapping its end to an exit code: the remote exit code, or the error.
pub async fn run_session(api: &Api<Pod>, pod: &str, req: &ExecRequest) -> Result<i32, ExecError> {
    if req.tty {
        run_on_terminal(api, pod, req).await
    } else {
        let p = start(api, pod, req).await?;
        let stdin = req.stdin.then(piped_stdin);
        pump(p, stdin, StdWriter::Stdout, StdWriter::Stderr, None).await
    }
}
