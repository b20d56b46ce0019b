//! The Elm core: one `State`, one `Msg` enum, a pure `update`, effects as `Cmd` data.
//! `run` is the only impure file: terminal, input, tick, channel, draw.

pub mod cmd;
pub mod diagnosis;
pub mod evidence;
pub mod focus;
pub mod forwards;
pub mod keymap;
pub mod logs;
pub mod msg;
pub mod prompt;
pub mod run;
pub mod shell;
pub mod state;
pub mod switcher;
pub mod update;

pub use cmd::Cmd;
pub use msg::Msg;
pub use state::State;
pub use update::update;
