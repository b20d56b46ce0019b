//! `State`: everything the view needs, owned by the loop.

/// The whole application state (filled in by the TUI work).
#[derive(Debug, Default)]
pub struct State {}
