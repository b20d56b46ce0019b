//! Impure adapters to the API server: kubeconfig resolution, watches feeding one channel, log
//! streams, exec, port-forward, ephemeral debug containers and one-shot reads. Used by the TUI
//! ([`Session`]) and by the subcommands (the `cmd` layer); nothing here knows the command line.
//! (Named `cluster`, not `kube`, so the `kube` crate is never shadowed.)

pub mod access;
pub mod config;
pub mod debug;
pub mod evidence;
pub mod exec;
pub mod forbidden;
pub mod forward;
mod forward_connection;
pub mod logs;
pub mod logs_ws;
pub mod metrics;
pub mod node_watch;
pub mod on_demand;
pub mod one_shot;
pub mod pod_list_watch;
pub mod portforward_ws;
pub mod session;
pub mod shell;
pub mod target_tx;
pub mod tty;
pub mod watch;
pub mod workload;
pub mod workload_watch;

pub use config::{ConnectError, ConnectOptions, Target, connect};
pub use session::Session;
pub use target_tx::TargetTx;
