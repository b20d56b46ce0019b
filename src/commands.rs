//! The subcommands' drivers: `attach` (TUI or `--once`), `demo`. `sim` lives in [`crate::sim`].

use std::process::ExitCode;

use jiff::Timestamp;

use crate::cli::{AttachArgs, OutputFormat};
use crate::cluster::once::{ReadError, confirm, preflight, read_snapshot};
use crate::cluster::{Session, Target, connect};

/// Exit code for bad input detected before the TUI starts (kubeconfig, context, RBAC, network).
pub const EXIT_SETUP_ERROR: u8 = 2;

/// Capacity of the one channel that feeds the loop; a full channel slows producers, not the UI.
pub const CHANNEL_CAPACITY: usize = 1024;

fn setup_error(msg: &str) -> ExitCode {
    eprintln!("podscope: {msg}");
    ExitCode::from(EXIT_SETUP_ERROR)
}

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
    lister: Option<crate::cluster::session_tools::PodLister>,
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
        return Ok(once(&target, args.output, args.now).await);
    }
    if let Err(e) = preflight(&target).await {
        return Ok(setup_error(&e.to_string()));
    }
    run_tui_with(target, args, lister).await
}

async fn once(target: &Target, format: OutputFormat, now: Option<Timestamp>) -> ExitCode {
    #[allow(clippy::disallowed_methods)] // the one clock read of --once
    let now = now.unwrap_or_else(Timestamp::now);
    match read_snapshot(target).await {
        Ok(mut snap) => {
            let diagnosis = confirm(target, &mut snap, now).await;
            let (pod, events, owner) = (&snap.pod, &snap.events, &snap.owner);
            let out = match format {
                OutputFormat::Json => {
                    let doc = crate::snapshot::to_json(pod, events, owner, &diagnosis, now);
                    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
                }
                OutputFormat::Text => crate::snapshot::to_text(pod, events, owner, &diagnosis, now),
            };
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e @ ReadError::NotFound { .. }) => {
            eprintln!("Error from server (NotFound): {e}");
            ExitCode::FAILURE
        }
        Err(e) => setup_error(&e.to_string()),
    }
}

/// Runs the TUI for `target` with `args`' options (`-c`, `--log-lines`, `--forward`);
/// `lister` enables the pod switcher (the demo's in-process store only).
///
/// # Errors
/// Failures inside the TUI loop (terminal IO).
pub async fn run_tui_with(
    target: Target,
    args: &AttachArgs,
    lister: Option<crate::cluster::session_tools::PodLister>,
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
    let mut session = match Session::start(target, tx).with_log_transport(args.log_transport) {
        Ok(s) => s,
        Err(e) => return Ok(setup_error(&e.to_string())),
    };
    if let Some(l) = lister {
        session.set_pod_lister(l);
    }
    for spec in &args.forward {
        for cmd in crate::app::forwards::add(&mut state, spec.clone()) {
            session.execute(&cmd);
        }
    }
    crate::app::run::run(state, rx, session).await?;
    Ok(ExitCode::SUCCESS)
}

/// Checks `name` is a valid pod name (an RFC 1123 subdomain, as the API server requires) so a
/// typo or pasted escape sequence gets a clear message instead of a transport error.
///
/// # Errors
/// The API server's wording, with the name sanitised.
pub fn validate_pod_name(name: &str) -> Result<(), String> {
    let ok_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.';
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if !name.is_empty()
        && name.len() <= 253
        && name.chars().all(ok_char)
        && alnum(name.chars().next())
        && alnum(name.chars().last())
    {
        return Ok(());
    }
    Err(format!(
        "invalid pod name \"{}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        crate::model::sanitize::sanitize(name)
    ))
}

#[cfg(test)]
mod tests {
    use super::validate_pod_name;

    #[test]
    fn pod_names_follow_rfc_1123() {
        assert!(validate_pod_name("cache-master-0").is_ok());
        assert!(validate_pod_name("nightly-export-28731540-7xq2m").is_ok());
        assert!(validate_pod_name("Web").is_err());
        assert!(validate_pod_name("-web").is_err());
        let err = validate_pod_name("bad\u{1b}[31mred").expect_err("escape rejected");
        assert!(err.contains("bad\u{241b}[31mred"), "{err}");
        assert!(!err.contains('\u{1b}'));
    }
}
