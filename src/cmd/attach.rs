//! `podscope attach POD` (and the bare `podscope POD`): resolves the cluster, then prints one
//! snapshot (`--once`, [`super::once`]), or checks `-c`, looks for the closest names of a
//! missing pod, checks the terminal (`super::setup`) and runs the TUI on a [`Session`]. With no
//! target at all, the pod picker ([`super::pick`]).

use std::process::ExitCode;

use jiff::Timestamp;

use super::cli::AttachArgs;
use super::setup::{check_container, require_terminal};
use super::setup_error;
use crate::cluster::one_shot::{pod_names, preflight};
use crate::cluster::{Session, Target, connect};
use crate::model::pod_ref::{closest_names, validate_pod_name};
use crate::model::workload::TargetRef;

/// Capacity of the one channel that feeds the loop; a full channel slows producers, not the UI.
pub const CHANNEL_CAPACITY: usize = 1024;

/// Runs `podscope attach`: resolves the cluster, then prints one snapshot (`--once`) or runs the TUI.
///
/// # Errors
/// Only for failures inside the TUI loop (terminal IO); setup errors become exit code 2.
pub async fn attach(args: &AttachArgs) -> color_eyre::Result<ExitCode> {
    attach_with(args, args.all_namespaces).await
}

/// [`attach`], its pod picker (`P`, or the whole screen with no target) listing every
/// namespace's pods when `all_namespaces` (`-A`; the demo, whose cases have namespaces of
/// their own).
///
/// # Errors
/// As [`attach`].
pub async fn attach_with(args: &AttachArgs, all_namespaces: bool) -> color_eyre::Result<ExitCode> {
    if args.target.is_none() && args.selector.is_none() {
        return super::pick::run(args, all_namespaces).await;
    }
    let opts = args.connect_options();
    if args.once {
        // A workload or selector target: resolved, its pod chosen, printed (`once::workload`).
        // A pod, or no target, goes on below.
        match TargetRef::from_args(args.target.as_deref(), args.selector.as_deref()) {
            Ok(Some(t @ (TargetRef::Workload(_) | TargetRef::Selector(_)))) => {
                return Ok(
                    super::once::workload::print_target(&opts, &t, args.output, args.now).await,
                );
            }
            Err(msg) => return Ok(setup_error(&msg)),
            Ok(_) => {}
        }
    }
    // A workload or a selector: the TUI on its pods (`super::attach_workload`).
    if !args.once
        && let Some(target) = super::attach_workload::wanted(args)
    {
        return match target {
            Ok(target) => super::attach_workload::attach(args, &target, all_namespaces).await,
            Err(msg) => Ok(setup_error(&msg)),
        };
    }
    let pod = match pod_target(args) {
        Ok(pod) => pod,
        Err(msg) => return Ok(setup_error(&msg)),
    };
    if let Err(msg) = validate_pod_name(&pod) {
        return Ok(setup_error(&msg));
    }
    let target = match connect(&opts, &pod).await {
        Ok(t) => t,
        Err(e) => return Ok(setup_error(&e.to_string())),
    };
    if args.once {
        return Ok(super::once::print(&target, args.output, args.now).await);
    }
    let closest = match preflight(&target).await {
        Err(e) => return Ok(setup_error(&e.to_string())),
        Ok(Some(pod)) => {
            if let Some(c) = &args.container
                && let Err(msg) = check_container(&pod, c)
            {
                return Ok(setup_error(&msg));
            }
            None
        }
        // Said at once, with the likely meant names; the watch keeps waiting, as the pod may
        // yet appear.
        Ok(None) => Some(closest_pods(&target).await),
    };
    // Before anything is drawn: the TUI needs a terminal (`super::setup`). Checked after the
    // cluster's answers, so a broken kubeconfig or a wrong `-c` is named first wherever it runs.
    if let Err(msg) = require_terminal() {
        return Ok(setup_error(&msg));
    }
    run_tui_with(target, args, all_namespaces, closest).await
}

/// The pod `args` names (`NAME`, `pod/NAME`).
///
/// # Errors
/// No target, or a workload or selector target, with what to pass instead.
fn pod_target(args: &AttachArgs) -> Result<String, String> {
    match (&args.target, &args.selector) {
        (Some(t), None) => super::cli::parse_pod(t),
        (None, Some(_)) | (Some(_), Some(_)) => {
            Err("podscope: a label selector names no single pod; pass a POD".to_owned())
        }
        (None, None) => Err(super::pick::NO_TARGET.to_owned()),
    }
}

/// The names in `target`'s namespace closest to its missing pod (one LIST of the namespace's
/// pods, `model::pod_ref::closest_names`); none, and a log line, when the LIST fails (RBAC may
/// well refuse `list pods` to a user allowed to `get` one).
pub(crate) async fn closest_pods(target: &Target) -> Vec<String> {
    match pod_names(target).await {
        Ok(names) => closest_names(&target.pod, names.iter().map(String::as_str)),
        Err(e) => {
            tracing::warn!("no suggestions for the missing pod {}: {e}", target.pod);
            Vec::new()
        }
    }
}

/// The TUI's settings from `args` (`--shell`, `--log-lines`, `-c`), the environment
/// (`NO_COLOR`) and the picker's reach (`all_namespaces`); pod switching is on.
#[must_use]
pub fn tui_config(args: &AttachArgs, all_namespaces: bool) -> crate::app::Config {
    crate::app::Config {
        theme: crate::theme::Theme::from_env(),
        shells: crate::app::shell::shells(args.shell.as_deref()),
        log_lines: args.log_lines,
        preferred_container: args.container.clone(),
        can_switch: true,
        all_namespaces,
        save_dir: std::env::current_dir().ok(),
    }
}

/// Runs the TUI for `target` with `args`' options (`-c`, `--log-lines`, `--forward`); its
/// picker (`P`) lists every namespace when `all_namespaces`. `closest`: the pod was missing at
/// start-up (the waiting screen says so at once), with the names it suggests.
///
/// # Errors
/// Failures inside the TUI loop (terminal IO).
pub async fn run_tui_with(
    target: Target,
    args: &AttachArgs,
    all_namespaces: bool,
    closest: Option<Vec<String>>,
) -> color_eyre::Result<ExitCode> {
    run_tui_prepared(target, args, all_namespaces, |state| {
        if let Some(names) = closest {
            state.target.connection = crate::app::state::Connection::NotFound;
            state.target.closest_pods = names;
        }
        Vec::new()
    })
    .await
}

/// [`run_tui_with`] with the fresh state handed to `prepare` before the session starts: it may
/// aim the target at another pod (a workload's chosen pod, or none yet: an empty name) and
/// returns the commands the session carries out first (a workload's watches).
///
/// # Errors
/// Failures inside the TUI loop (terminal IO).
pub async fn run_tui_prepared(
    target: Target,
    args: &AttachArgs,
    all_namespaces: bool,
    prepare: impl FnOnce(&mut crate::app::State) -> Vec<crate::app::Cmd>,
) -> color_eyre::Result<ExitCode> {
    #[allow(clippy::disallowed_methods)] // the initial clock reading; the loop ticks afterwards
    let now = args.now.unwrap_or_else(Timestamp::now);
    let (tx, rx) = tokio::sync::mpsc::channel(CHANNEL_CAPACITY);
    let config = tui_config(args, all_namespaces);
    let mut state = crate::app::State::with_config(config, &target.namespace, &target.pod, now);
    let first = prepare(&mut state);
    let target = Target {
        pod: state.target.name.clone(),
        ..target
    };
    let mut session = Session::start(target, tx)
        .with_log_transport(args.log_transport)
        .with_access_check();
    for cmd in &first {
        session.execute(cmd);
    }
    for spec in &args.forward {
        for cmd in crate::app::forwards::add(&mut state, spec.clone()) {
            session.execute(&cmd);
        }
    }
    crate::tui::run(state, rx, session).await?;
    Ok(ExitCode::SUCCESS)
}
