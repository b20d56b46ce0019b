//! The subcommands: each the thin command-line face of the layers below (`cluster` adapters,
//! `model`, `app`, `sim`). Parsing ([`cli`]) and [`run`] (the dispatch `main` calls) are here,
//! as are the exit codes; nothing below `cmd` prints to stderr for a subcommand or exits.
//!
//! - [`attach`]: `podscope [attach] POD`, the TUI, or [`once`] (`--once`, text or JSON);
//!   [`pick`]: a bare `podscope` (no target), the TUI on the pod picker.
//! - [`logs`], [`exec`], [`port_forward`], [`debug`]: kubectl's `logs`, `exec`,
//!   `port-forward`, `debug`, with kubectl's output and exit codes.
//! - [`demo`]: the embedded simulated cluster and the TUI on its crash-looping pod.
//! - [`sim`]: the simulated API server alone.
//!
//! [`setup`] holds the one rule for setup errors (exit code 2) all of them follow.

pub mod argv;
pub mod attach;
pub mod attach_workload;
pub mod cli;
pub mod debug;
pub mod demo;
pub mod exec;
pub mod logs;
pub mod once;
pub mod pick;
pub mod port_forward;
pub mod setup;
pub mod sim;

use std::process::ExitCode;

use crate::cluster::{ConnectOptions, Target, connect};
use cli::{AttachArgs, Command};

/// Exit code for bad input detected before a subcommand does its work (kubeconfig, context,
/// credentials, RBAC on the first read, network, no terminal): [`setup`].
pub const EXIT_SETUP_ERROR: u8 = 2;

pub(crate) use setup::setup_error;

/// For the one-shot subcommands (`exec`, `debug`, `port-forward`): [`connect`], or print the
/// one-line [`crate::cluster::ConnectError`] and return exit code 2 (as `podscope attach` does
/// before its TUI).
///
/// # Errors
/// The exit code to return, after the message was printed on stderr.
pub async fn connect_or_exit(opts: &ConnectOptions, pod: &str) -> Result<Target, ExitCode> {
    connect(opts, pod)
        .await
        .map_err(|e| setup_error(&e.to_string()))
}

/// Runs the subcommand `command`, or the bare `podscope POD` form (`attach`).
///
/// # Errors
/// Only for failures inside the TUI loop (terminal IO) or a simulator that cannot start; every
/// other failure is an exit code, its message already printed.
pub async fn run(
    command: Option<Command>,
    attach: Option<AttachArgs>,
) -> color_eyre::Result<ExitCode> {
    // The commands that show a diagnosis build the knowledge base's matcher on a thread of its
    // own while they read the kubeconfig and reach the API server, so the first screen does
    // not wait for it (`model::diagnosis::kb`; benches/first_screen.py).
    if matches!(
        (&command, &attach),
        (Some(Command::Attach(_) | Command::Demo(_)), _) | (None, _)
    ) {
        std::thread::spawn(crate::model::diagnosis::kb::warm);
    }
    match (command, attach) {
        (Some(Command::Attach(a)), _) | (None, Some(a)) => attach::attach(&a).await,
        (Some(Command::Sim(s)), _) => sim::run(s).await,
        (Some(Command::Logs(l)), _) => Ok(logs::run(&l).await),
        (Some(Command::Demo(d)), _) => demo::run(&d).await,
        (Some(Command::Exec(a)), _) => Ok(exec::run(&a).await),
        (Some(Command::PortForward(a)), _) => Ok(port_forward::run(&a).await),
        (Some(Command::Debug(a)), _) => Ok(debug::run(&a).await),
        // A bare `podscope`: the picker of the context's namespace.
        (None, None) => match pick::bare_args() {
            Ok(a) => attach::attach(&a).await,
            Err(e) => Ok(setup_error(&e.to_string())),
        },
    }
}
