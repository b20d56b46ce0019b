//! The writable layers of the simulated containers (`sim/runtime/fs.rs`): what exec'd processes
//! wrote (`kubectl cp`), kept per container instance for the simulator's lifetime.

use super::Store;
use crate::runtime::fs::Layers;

impl Store {
    /// Every container instance's writable layer; exec sessions read and write it.
    pub(crate) fn container_fs(&self) -> &Layers {
        &self.inner.container_fs
    }
}
