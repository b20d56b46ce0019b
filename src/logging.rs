//! Tracing to a file only (`--log-file PATH`), never to the terminal. `RUST_LOG` sets the filter
//! (default `info,kube=info`).

use std::path::Path;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;

/// Starts file logging when `path` is given; keep the returned guard alive until exit so the
/// writer flushes.
///
/// # Errors
/// When the file cannot be created.
pub fn init(path: Option<&Path>) -> std::io::Result<Option<WorkerGuard>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let (writer, guard) = tracing_appender::non_blocking(file);
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .init();
    Ok(Some(guard))
}
