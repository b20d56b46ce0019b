//! `podscope debug POD`: adds an ephemeral debug container targeting a container
//! ([`crate::cluster::debug`]), waits until it runs, then attaches to it as `podscope exec -it`
//! would (kubectl debug's lines on stderr); one that already ended is shown by its log, as
//! kubectl debug does.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args;

use super::exec::{connect_and_get_pod, finish, report, run_session};
use crate::cluster::ConnectOptions;
use crate::cluster::debug::{
    Profile, add_ephemeral_container, debug_container, debugger_name, logs_if_terminated,
    wait_running,
};
use crate::cluster::exec::{ExecError, ExecRequest, default_container};

/// `podscope debug POD [-c TARGET] [--image busybox:1.37] [--profile …] [-- CMD…]`.
#[derive(Debug, Clone, Args)]
pub struct DebugArgs {
    /// The pod's name (`pod/NAME` accepted, as kubectl).
    #[arg(value_name = "POD", value_parser = super::cli::parse_pod)]
    pub pod: String,
    /// Target container whose process namespace to join (default: the default container).
    #[arg(short = 'c', long = "target")]
    pub target: Option<String>,
    /// Debugger image.
    #[arg(long, default_value = "busybox:1.37")]
    pub image: String,
    /// Security profile of the debug container.
    #[arg(long, value_enum, default_value_t = Profile::General)]
    pub profile: Profile,
    /// Which cluster and namespace (`--kubeconfig`, `--context`, `-n`).
    #[command(flatten)]
    pub cluster: ConnectOptions,
    /// Command to run instead of the image's default (after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Runs `podscope debug`: exit 2 for setup errors, 1 with kubectl's wording when the pod, the
/// patch or the wait fails, else the debug container's exit code.
pub async fn run(args: &DebugArgs) -> ExitCode {
    let (_, api, pod) = match connect_and_get_pod(&args.cluster, &args.pod).await {
        Ok(found) => found,
        Err(code) => return code,
    };
    let (container, _) = default_container(&pod, args.target.as_deref());
    let Some(target_name) = container else {
        return report(&ExecError::Failed(format!(
            "pod {} has no containers",
            args.pod
        )));
    };
    let tty = std::io::stdin().is_terminal();
    let name = debugger_name(&mut rand::rng());
    let ec = debug_container(
        &name,
        &args.image,
        &target_name,
        args.profile,
        &args.command,
        tty,
    );
    if let Err(e) = add_ephemeral_container(&api, &args.pod, &ec).await {
        return report(&e);
    }
    // After the patch (kubectl says it before): a refusal is then the only line on stderr.
    eprintln!("Defaulting debug container name to {name}.");
    if let Err(e) = wait_running(&api, &args.pod, &name).await {
        // As kubectl debug: a container that ended before the attach is shown by its log.
        if let Some(text) = logs_if_terminated(&api, &args.pod, &name).await {
            print!("{text}");
            return ExitCode::SUCCESS;
        }
        return report(&e);
    }
    let req = ExecRequest {
        container: Some(name.clone()),
        command: Vec::new(),
        stdin: true,
        tty,
    };
    if tty {
        eprintln!("If you don't see a command prompt, try pressing enter.");
    }
    match run_session(&api, &args.pod, &req).await {
        Ok(code) => finish(code),
        Err(e) => match logs_if_terminated(&api, &args.pod, &name).await {
            // As kubectl debug: the container ended before the attach reached it.
            Some(text) => {
                eprintln!(
                    "warning: couldn't attach to pod/{}, falling back to streaming logs: {e}",
                    args.pod
                );
                print!("{text}");
                ExitCode::SUCCESS
            }
            None => report(&e),
        },
    }
}
