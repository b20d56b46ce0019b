//! [`Owned`]: a spawned task that is aborted when its handle is dropped, so whoever holds the
//! handle (the session, its tools) owns the task's lifetime.

use tokio::task::JoinHandle;

/// A task aborted on drop.
#[derive(Debug)]
pub(crate) struct Owned(pub(crate) JoinHandle<()>);

impl Drop for Owned {
    fn drop(&mut self) {
        self.0.abort();
    }
}
