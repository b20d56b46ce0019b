//! The change history: every committed change numbered by its resourceVersion, kept for
//! [`HISTORY_LIMIT`] changes so a watch can resume from an older resourceVersion (older ones
//! get 410 Expired), and broadcast live to open watches (see `docs/protocols.md` §1.3–1.4).

use std::sync::Arc;

use tokio::sync::broadcast;

use super::{State, Store, collect};
use crate::api::object::{Object, Resource};
use crate::api::status::ApiError;

/// How many changes the history keeps before the oldest are dropped (older RVs then get 410).
pub const HISTORY_LIMIT: usize = 4096;
/// Watch event type of a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeType {
    /// `ADDED`.
    Added,
    /// `MODIFIED`.
    Modified,
    /// `DELETED` (the object is its last state).
    Deleted,
}

impl ChangeType {
    /// The wire name (`ADDED`, `MODIFIED`, `DELETED`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeType::Added => "ADDED",
            ChangeType::Modified => "MODIFIED",
            ChangeType::Deleted => "DELETED",
        }
    }
}

/// One committed change, numbered by the resourceVersion it produced.
#[derive(Debug, Clone)]
pub struct Change {
    /// The resourceVersion after this change.
    pub rv: u64,
    /// ADDED / MODIFIED / DELETED.
    pub change_type: ChangeType,
    /// The new object (for DELETED: the last state).
    pub object: Object,
    /// The object before the change (MODIFIED and DELETED), used to turn selector
    /// enter/leave into ADDED/DELETED like the API server's watch filter.
    pub previous: Option<Object>,
}

/// A consistent view used to start a watch: the matching objects or history, plus a receiver
/// subscribed under the same lock (so nothing is missed in between).
pub(crate) struct WatchStart {
    pub(crate) initial: Result<Vec<Change>, ApiError>,
    pub(crate) current_rv: u64,
    pub(crate) rx: broadcast::Receiver<Arc<Change>>,
}

impl Store {
    /// Forgets the change history: any watch at a resourceVersion older than the current one then
    /// gets the 410 Expired ERROR event (`too old resource version: N (current)`).
    pub fn expire_history(&self) {
        let mut st = self.lock();
        st.history.clear();
        st.history_start = st.rv;
    }

    /// How many watch streams are open right now: each holds one subscription to the live
    /// changes, taken in [`Store::watch_start`] before its initial events, so a change committed
    /// once the count includes a client's watch reaches that watch. Tests wait on it instead of
    /// sleeping until a client (kubectl `get -w`, a kube watcher) has opened its watch.
    pub fn watchers(&self) -> usize {
        self.inner.changes.receiver_count()
    }

    /// Starts a watch consistently: for `since = None` the current matching state as ADDED
    /// changes, for `Some(rv)` the history after `rv` (or 410 if it is older than the history).
    pub(crate) fn watch_start(
        &self,
        resource: Resource,
        ns: Option<&str>,
        since: Option<u64>,
    ) -> WatchStart {
        let st = self.lock();
        let rx = self.inner.changes.subscribe();
        let initial = match since {
            None => Ok(collect(&st, resource, ns)
                .into_iter()
                .map(|object| Change {
                    rv: st.rv,
                    change_type: ChangeType::Added,
                    object,
                    previous: None,
                })
                .collect()),
            Some(rv) if rv < st.history_start => Err(ApiError::expired(rv, st.history_start)),
            Some(rv) => Ok(st
                .history
                .iter()
                .filter(|c| c.rv > rv)
                .map(|c| (**c).clone())
                .collect()),
        };
        WatchStart {
            initial,
            current_rv: st.rv,
            rx,
        }
    }

    /// Records a change under the lock: next resourceVersion, history (bounded), live broadcast,
    /// activity signal.
    pub(super) fn commit(
        &self,
        st: &mut State,
        change_type: ChangeType,
        object: Object,
        previous: Option<Object>,
    ) {
        st.rv += 1;
        let change = Arc::new(Change {
            rv: st.rv,
            change_type,
            object,
            previous,
        });
        st.history.push_back(change.clone());
        while st.history.len() > HISTORY_LIMIT {
            if let Some(dropped) = st.history.pop_front() {
                st.history_start = dropped.rv;
            }
        }
        // No receivers is fine: nobody is watching.
        let _ = self.inner.controllers.send(change.clone());
        let _ = self.inner.changes.send(change);
        self.inner.activity.send_modify(|n| *n = n.wrapping_add(1));
    }
}
