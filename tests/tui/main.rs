//! Test binary `tui` (42 modules): The terminal UI in-process: the view rendered to a test backend (snapshots under
//! `snapshots/`), the pure `update` driven by messages, and the live loop against the simulator.
//!
//! One binary per area (docs/testing.md): the modules share one link of kube, tokio and rustls.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../crates/model/tests/container_spec_support/mod.rs"]
mod container_spec_support;
#[path = "../usage_support/mod.rs"]
mod usage_support;
#[path = "../views_support/mod.rs"]
mod views_support;
#[path = "../workload_tui_support/mod.rs"]
mod workload_tui_support;

mod screenshots;
mod tui_logs_sim;
mod ui_access;
mod ui_cases;
mod ui_connection;
mod ui_container_spec;
mod ui_diagnosis;
mod ui_diagnosis_room;
mod ui_events_cache;
mod ui_events_focus;
mod ui_help;
mod ui_logs;
mod ui_narrow;
mod ui_node;
mod ui_picker;
mod ui_sizes;
mod ui_switcher;
mod ui_usage;
mod ui_views;
mod ui_workload;
mod update_deleted;
mod update_evidence;
mod update_history;
mod update_keys;
mod update_logs;
mod update_logs_keys;
mod update_logs_previous;
mod update_node;
mod update_node_session;
mod update_picker;
mod update_picker_rows;
mod update_picker_session;
mod update_pod;
mod update_prompt;
mod update_shell;
mod update_shell_not_running;
mod update_target;
mod update_tools;
mod update_views;
mod update_workload;
mod update_workload_follow;
mod update_workload_offer;
mod usage_model;
mod watch_live;
