//! `podscope attach POD` (and the bare `podscope POD`): resolves the cluster, then prints one
//! snapshot (`--once`, [`super::once`]) or runs the TUI on a [`Session`].

use std::process::ExitCode;

use jiff::Timestamp;

use super::cli::AttachArgs;
use super::setup_error;
use crate::cluster::on_demand::PodLister;
use crate::cluster::one_shot::preflight;
use crate::cluster::{Session, Target, connect};
use crate::model::pod_ref::validate_pod_name;

/// Capacity of the one channel that feeds the loop; a full channel slows producers, not the UI.
pub const CHANNEL_CAPACITY: usize = 1024;

/// Runs `podscope attach`: resolves the cluster, then prints one snapshot (`--once`) or runs the TUI.
///
/// # Errors
/// Only for failures inside the TUI loop (terminal IO); setup errors become exit code 2.
pub async fn attach(args: &AttachArgs) -> color_eyre::Result<ExitCode> {
    attach_with(args, None).await
}

/// [`attach`] with an optional pod lister for the switcher (`podscope demo`).
///
/// # Errors
/// As [`attach`].
pub async fn attach_with(
    args: &AttachArgs,
    lister: Option<PodLister>,
) -> color_eyre::Result<ExitCode> {
    let opts = args.connect_options();
    if let Err(msg) = validate_pod_name(&args.pod) {
        return Ok(setup_error(&msg));
    }
    let target = match connect(&opts, &args.pod).await {
        Ok(t) => t,
        Err(e) => return Ok(setup_error(&e.to_string())),
    };
    if args.once {
        return Ok(super::once::print(&target, args.output, args.now).await);
    }
    if let Err(e) = preflight(&target).await {
        return Ok(setup_error(&e.to_string()));
    }
    run_tui_with(target, args, lister).await
}

/// Runs the TUI for `target` with `args`' options (`-c`, `--log-lines`, `--forward`);
/// `lister` enables the pod switcher (the demo's in-process store only).
///
/// # Errors
/// Failures inside the TUI loop (terminal IO).
pub async fn run_tui_with(
    target: Target,
    args: &AttachArgs,
    lister: Option<PodLister>,
) -> color_eyre::Result<ExitCode> {
    #[allow(clippy::disallowed_methods)] // the initial clock reading; the loop ticks afterwards
    let now = args.now.unwrap_or_else(Timestamp::now);
    let (tx, rx) = tokio::sync::mpsc::channel(CHANNEL_CAPACITY);
    let config = crate::app::Config {
        theme: crate::theme::Theme::from_env(),
        shells: crate::app::shell::shells(args.shell.as_deref()),
        log_lines: args.log_lines,
        preferred_container: args.container.clone(),
        can_switch: lister.is_some(),
    };
    let mut state = crate::app::State::with_config(config, &target.namespace, &target.pod, now);
    let mut session = Session::start(target, tx).with_log_transport(args.log_transport);
    if let Some(l) = lister {
        session.set_pod_lister(l);
    }
    for spec in &args.forward {
        for cmd in crate::app::forwards::add(&mut state, spec.clone()) {
            session.execute(&cmd);
        }
    }
    crate::tui::run(state, rx, session).await?;
    Ok(ExitCode::SUCCESS)
}
