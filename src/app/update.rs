//! `update`: the pure transition function.

use super::{Cmd, Msg, State};

/// Applies one message; returns effects for the loop.
pub fn update(_state: &mut State, _msg: Msg) -> Vec<Cmd> {
    Vec::new()
}
