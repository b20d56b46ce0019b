//! podscope: a terminal UI for debugging one Kubernetes pod.
//!
//! Layout (the README's Layout section; one State, one Msg, a pure update and view):
//! - [`model`]: pure domain types built from k8s-openapi objects (no IO, no clock).
//! - [`app`]: the Elm core (`State`, `Msg`, `Cmd`, `update`) and the one impure loop (`app::run`).
//! - [`ui`]: the pure view, `ui::view(frame, &state)`.
//! - [`theme`]: the view's styles as data, chosen at start and held in `app::Config`.
//! - [`cluster`]: impure adapters to the API server (kubeconfig, watches) feeding one channel.
//! - [`sim`]: the loopback simulated API server (`podscope sim`, `podscope demo`).
//! - [`snapshot`]: the `--once` output (text and JSON).

pub mod app;
pub mod cli;
pub mod cluster;
pub mod commands;
pub mod demo;
pub mod logging;
pub mod logs_cmd;
pub mod model;
pub mod sim;
pub mod snapshot;
pub mod theme;
pub mod ui;
