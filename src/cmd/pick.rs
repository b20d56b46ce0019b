//! A bare `podscope` (also `-n NS`, `-A`): no target, so in a terminal the TUI opens on the pod
//! picker of the namespace (`-n`, else the context's, else `default`, as `cluster::connect`
//! resolves it; every namespace with `-A`), fed by one list+watch of its pods while it is open;
//! Enter attaches to the chosen pod as `podscope POD` would, Esc or `q` leaves. Without a
//! terminal (`--once`, a pipe) there is nothing to pick with: a setup error naming what to pass
//! (`super::setup`, exit 2). `docs/picker.md` describes the picker.

use std::process::ExitCode;

use jiff::Timestamp;
use kube::api::ListParams;

use super::attach::{CHANNEL_CAPACITY, tui_config};
use super::cli::AttachArgs;
use super::setup::{first_request_error, require_terminal};
use super::setup_error;
use crate::cluster::pod_list_watch::pods_api;
use crate::cluster::{Session, Target, connect};

/// What a bare `podscope` without a terminal says (after `podscope: `): what to pass instead.
pub const NO_TARGET: &str =
    "no target; pass a POD, a workload (deploy/NAME, sts/NAME, job/NAME, …) or -l SELECTOR";

/// Runs the bare `podscope`: the setup checks, then the TUI on the picker.
///
/// # Errors
/// Only for failures inside the TUI loop (terminal IO); setup errors become exit code 2.
pub async fn run(args: &AttachArgs, all_namespaces: bool) -> color_eyre::Result<ExitCode> {
    if args.once {
        return Ok(setup_error(NO_TARGET));
    }
    if require_terminal().is_err() {
        return Ok(setup_error(&format!(
            "{NO_TARGET} (the pod picker needs a terminal)"
        )));
    }
    if !args.forward.is_empty() {
        return Ok(setup_error(
            "--forward needs a target: a forward goes to one pod; pass a POD",
        ));
    }
    let target = match connect(&args.connect_options(), "").await {
        Ok(t) => t,
        Err(e) => return Ok(setup_error(&e.to_string())),
    };
    if let Err(msg) = can_list(&target, all_namespaces).await {
        return Ok(setup_error(&msg));
    }
    run_picker(target, args, all_namespaces).await
}

/// The picker's first request, made once before anything is drawn: a LIST of one pod, so a
/// wrong token (401), a refused `list pods` (403) or an unreachable server is a setup error as
/// for every subcommand (`super::setup::first_request_error`).
///
/// # Errors
/// The one line to print.
async fn can_list(target: &Target, all_namespaces: bool) -> Result<(), String> {
    let namespace = (!all_namespaces).then_some(target.namespace.as_str());
    let api = pods_api(target.client.clone(), namespace);
    match api.list(&ListParams::default().limit(1)).await {
        Ok(_) => Ok(()),
        Err(e) => match first_request_error(&e, "list", target) {
            Some(msg) if all_namespaces => Err(msg.replace(
                &format!(" in namespace \"{}\"", target.namespace),
                " in all namespaces",
            )),
            Some(msg) => Err(msg),
            // Another answer (a 5xx): the picker shows the watch's own error and retries.
            None => Ok(()),
        },
    }
}

/// The TUI on the picker: no pod watched until one is chosen (`Session::without_pod`); the
/// picker's list+watch is its first command.
async fn run_picker(
    target: Target,
    args: &AttachArgs,
    all_namespaces: bool,
) -> color_eyre::Result<ExitCode> {
    #[allow(clippy::disallowed_methods)] // the initial clock reading; the loop ticks afterwards
    let now = args.now.unwrap_or_else(Timestamp::now);
    let (tx, rx) = tokio::sync::mpsc::channel(CHANNEL_CAPACITY);
    let config = tui_config(args, all_namespaces);
    let mut state = crate::app::State::with_config(config, &target.namespace, "", now);
    let cmds = crate::app::switcher::open_standalone(&mut state);
    let mut session = Session::without_pod(target, tx)
        .with_log_transport(args.log_transport)
        .with_access_check();
    for cmd in &cmds {
        session.execute(cmd);
    }
    crate::tui::run(state, rx, session).await?;
    Ok(ExitCode::SUCCESS)
}

/// The arguments of a bare `podscope` with no argument at all: every default of
/// [`AttachArgs`] (and `PODSCOPE_SHELL`), as clap would fill them.
///
/// # Errors
/// clap's error, should a default not parse.
pub fn bare_args() -> Result<AttachArgs, clap::Error> {
    use clap::{Args, FromArgMatches};
    let command = AttachArgs::augment_args(clap::Command::new("podscope"));
    let matches = command.try_get_matches_from(["podscope"])?;
    AttachArgs::from_arg_matches(&matches)
}
