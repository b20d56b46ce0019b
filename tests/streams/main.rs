//! Test binary `streams` (16 modules): The streaming subresources end to end: exec (WebSocket v4/v5 and SPDY), port-forward,
//! attach and logs, against the simulator and through kubectl.
//!
//! One binary per area (docs/testing.md): the modules share one link of kube, tokio and rustls.

#[path = "../common/mod.rs"]
mod common;
#[path = "../spdy_support/mod.rs"]
mod spdy_support;
#[path = "../stream_support/mod.rs"]
mod stream_support;

mod exec_debug;
mod exec_shell;
mod exec_sim;
mod forward_loopback;
mod forward_sim;
mod kubectl_spdy;
mod logs_follow;
mod logs_model;
mod logs_ws;
mod session_forward_sim;
mod sim_logs;
mod sim_streams;
mod sim_streams_kubectl;
mod spdy_sim;
mod stream_cut;
mod stream_rbac;
