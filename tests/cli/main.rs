//! Test binary `cli` (18 modules): The `podscope` binary as a user runs it: `--once` in its forms, `logs`, the setup
//! commands, the TUI driven in tmux, the README's claims and the architecture's arrows.
//!
//! One binary per area (docs/testing.md): the modules share one link of kube, tokio and rustls.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../crates/model/tests/container_spec_support/mod.rs"]
mod container_spec_support;
#[path = "../stream_support/mod.rs"]
mod stream_support;

mod architecture;
mod auth_reviews;
mod cli_setup;
mod logs_cli;
mod once_container_spec;
mod once_diagnosis;
mod once_json;
mod once_timeline;
mod once_workload;
mod once_workload_kinds;
mod once_yaml;
mod readme;
mod tmux_diagnosis;
mod tmux_now;
mod tmux_picker;
mod tmux_start;
mod tmux_timeline;
mod tmux_tui;
mod tmux_views;
mod tmux_workload;
