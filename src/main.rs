//! `podscope` binary: parse, install error and log handling, hand over to the library.

#![warn(clippy::disallowed_methods)]

use std::process::ExitCode;

use clap::Parser;
use podscope::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = color_eyre::install() {
        eprintln!("podscope: {e}");
    }
    let _log_guard = match podscope::logging::init(cli.log_file.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("podscope: cannot open log file: {e}");
            return ExitCode::from(podscope::commands::EXIT_SETUP_ERROR);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("podscope: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match (cli.command, cli.attach) {
            (Some(Command::Attach(a)), _) | (None, Some(a)) => podscope::commands::attach(&a).await,
            (Some(Command::Sim(s)), _) => {
                podscope::sim::run_cli(s).await.map(|()| ExitCode::SUCCESS)
            }
            (Some(Command::Logs(l)), _) => Ok(podscope::logs_cmd::run(&l).await),
            (Some(Command::Demo(d)), _) => podscope::demo::demo(&d).await,
            (Some(Command::Exec(a)), _) => Ok(podscope::cluster::exec_cli::run_exec_cli(&a).await),
            (Some(Command::PortForward(a)), _) => {
                Ok(podscope::cluster::forward_cli::run_port_forward_cli(&a).await)
            }
            (Some(Command::Debug(a)), _) => Ok(podscope::cluster::debug::run_debug_cli(&a).await),
            (None, None) => {
                eprintln!(
                    "podscope: name a pod (podscope POD), or run `podscope demo`; see --help"
                );
                Ok(ExitCode::from(podscope::commands::EXIT_SETUP_ERROR))
            }
        }
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("podscope: {e:?}");
            ExitCode::FAILURE
        }
    }
}
