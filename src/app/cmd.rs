//! `Cmd`: effects returned by `update`, executed by the loop.

/// An effect for the loop to carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    /// (Re)start the events watch for the pod with this `metadata.uid`, aborting the previous one.
    WatchEvents {
        /// `involvedObject.uid` to select on.
        uid: String,
    },
    /// Leave the loop and restore the terminal.
    Quit,
}
