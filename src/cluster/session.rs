//! `Session`: owns the background tasks (pod watch, events watch) and executes `Cmd`s.

use crate::app::Cmd;

/// Owns every background task talking to the cluster; dropping it aborts them all.
#[derive(Debug, Default)]
pub struct Session {}

impl Session {
    /// Carries out one effect returned by `update` (spawning or aborting tasks).
    /// `Cmd::Quit` is handled by the loop, not here.
    pub fn execute(&mut self, cmd: &Cmd) {
        let _ = cmd;
    }
}
