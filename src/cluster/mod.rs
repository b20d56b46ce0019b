//! Impure adapters to the API server: kubeconfig resolution and watches feeding one channel.
//! (Named `cluster`, not `kube`, so the `kube` crate is never shadowed.)

pub mod config;
pub mod debug;
pub mod evidence;
pub mod exec;
pub mod exec_cli;
pub mod forbidden;
pub mod forward;
pub mod forward_cli;
mod forward_connection;
pub mod logs;
pub mod logs_ws;
pub mod once;
pub mod session;
pub mod session_tools;
pub mod shell;
pub mod target_tx;
mod task;
pub mod tty;
pub mod watch;
pub mod ws_auth;

pub use config::{ConnectError, ConnectOptions, Target, connect};
pub use session::Session;
pub use target_tx::TargetTx;
