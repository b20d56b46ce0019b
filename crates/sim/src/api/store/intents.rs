//! Work queued from the API side (pods created, updated or deleted; an attached shell's exit) for
//! the kubelet driver.

use super::Store;

/// A request from the API side to the kubelet driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Intent {
    /// A pod was created: the kubelet should run it.
    Admit {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
    },
    /// A pod's deletion started (`deletionTimestamp` set) with this grace period in seconds.
    Delete {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// `deletionGracePeriodSeconds`.
        grace: i64,
    },
    /// A pod's spec changed through the API (new ephemeral containers, new images): the kubelet
    /// should apply it.
    Update {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
    },
    /// The interactive shell that is a container's PID 1 exited (its attach ended it).
    Pid1Exited {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// The container's name.
        container: String,
        /// The shell's exit code.
        code: i32,
    },
}

impl Store {
    /// Queues work for the kubelet driver and wakes it.
    pub(crate) fn submit(&self, intent: Intent) {
        self.lock().intents.push_back(intent);
        self.inner.intent_ready.notify_one();
    }

    /// Takes every queued [`Intent`], oldest first.
    pub(crate) fn take_intents(&self) -> Vec<Intent> {
        self.lock().intents.drain(..).collect()
    }

    /// Resolves once an [`Intent`] was queued since the last call.
    pub(crate) async fn intent_queued(&self) {
        self.inner.intent_ready.notified().await;
    }
}
