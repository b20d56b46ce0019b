//! podscope: a terminal UI for debugging one Kubernetes pod.
//!
//! Layout (the README's Layout section; one State, one Msg, a pure update and view):
//! - [`model`] (the `podscope-model` crate): pure domain types built from k8s-openapi objects
//!   and the diagnosis (no async runtime, no IO, no clock).
//! - [`app`]: the Elm core (`State`, `Msg`, `Cmd`, `update`), pure.
//! - [`tui`]: the one impure loop (terminal, input, clock, drawing, the exec hand-off).
//! - [`ui`]: the pure view, `ui::view(frame, &state)`.
//! - [`theme`]: the view's styles as data, chosen at start and held in `app::Config`.
//! - [`cluster`]: impure adapters to the API server (kubeconfig, watches) feeding one channel.
//! - [`sim`] (the `podscope-sim` crate): the loopback simulated API server (`podscope sim`,
//!   `podscope demo`).
//! - [`cmd`]: the subcommands (`attach`, `--once`, `logs`, `exec`, `port-forward`, `debug`,
//!   `demo`, `sim`) and their command line, on top of the layers above.

// The clock is read only where time is owned (clippy.toml, docs/architecture.md §3).
#![warn(clippy::disallowed_methods)]

pub mod app;
pub mod cluster;
pub mod cmd;
pub mod logging;
#[doc(hidden)]
pub mod test_support;
pub mod theme;
pub mod tui;
pub mod ui;

// The two other crates of the workspace, under the names the layers have always used
// (`crate::model`, `crate::sim`; docs/architecture.md §1).
pub use podscope_model as model;
pub use podscope_sim as sim;
