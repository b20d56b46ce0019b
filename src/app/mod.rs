//! The Elm core: one `State`, one `Msg` enum, a pure `update`, effects as `Cmd` data. Nothing
//! here does IO, reads the clock or knows the view; the loop that does is `crate::tui`.
//!
//! `State` is three parts: the immutable [`config::Config`], the [`target::Target`] (the pod
//! shown and all derived from it, replaced whole under a new [`generation::Generation`] on a
//! switch or a re-created pod) and the [`overlay::Overlay`] the UI is in. Messages of cluster
//! tasks arrive stamped with their target's generation and are dropped once it is gone.

pub mod access;
pub mod cmd;
pub mod config;
pub mod diagnosis;
pub mod evidence;
pub mod focus;
pub mod forwards;
pub mod generation;
pub mod help;
pub mod keymap;
pub mod logs;
pub mod msg;
pub mod node;
pub mod notice;
pub mod overlay;
mod pod_applied;
pub mod prompt;
pub mod shell;
pub mod state;
pub mod switcher;
pub mod target;
pub mod update;
pub mod usage;
pub mod views;
pub mod workload;

pub use cmd::Cmd;
pub use msg::Msg;
pub use state::{Config, State};
pub use update::update;
