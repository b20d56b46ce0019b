//! `podscope` binary: parse, install error and log handling, hand over to the library.

#![warn(clippy::disallowed_methods)]

use std::process::ExitCode;

use podscope::cmd::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse_args(std::env::args_os());
    if let Err(e) = color_eyre::install() {
        eprintln!("podscope: {e}");
    }
    let _log_guard = match podscope::logging::init(cli.log_file.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("podscope: cannot open log file: {e}");
            return ExitCode::from(podscope::cmd::EXIT_SETUP_ERROR);
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
    let result = runtime.block_on(podscope::cmd::run(cli.command, cli.attach));
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("podscope: {e:?}");
            ExitCode::FAILURE
        }
    }
}
