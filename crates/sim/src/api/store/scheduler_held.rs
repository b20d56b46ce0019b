//! The scheduler's per-simulator state (`sim/scheduler.rs`): the uids of the pods it holds
//! back as Unschedulable, kept in the store so that simulators in one process never share it.

use super::Store;
use crate::scheduler::Held;

impl Store {
    /// The set of pod uids this simulator's scheduler holds back.
    pub(crate) fn scheduler_held(&self) -> &Held {
        &self.inner.scheduler_held
    }
}
