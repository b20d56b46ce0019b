//! `podscope sim`: the simulated API server on loopback until Ctrl-C or SIGTERM. Its flags and
//! its loop are the simulator's own ([`crate::sim::SimArgs`], [`crate::sim::run_cli`]).

use std::process::ExitCode;

use crate::sim::SimArgs;

/// Runs `podscope sim`; exit 0 once it has been stopped.
///
/// # Errors
/// The simulator could not start (address in use, unreadable fixture or scenario, kubeconfig
/// not writable).
pub async fn run(args: SimArgs) -> color_eyre::Result<ExitCode> {
    crate::sim::run_cli(args).await.map(|()| ExitCode::SUCCESS)
}
