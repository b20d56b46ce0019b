//! The simulator's object store: pods, events, the apps/v1 and batch/v1 workloads, container
//! logs, a global resourceVersion counter and a bounded change history that watches replay (see
//! `docs/protocols.md` §1.3–1.4).
//!
//! `Store` is a cheap cloneable handle (`Arc`); the HTTP handlers, tests, the demo and the kubelet
//! model all drive the same instance. By concept: [`objects`] (pods and events), [`history`]
//! (changes, watch starts, 410), [`logs`] (container log lines, each instance's bounded
//! [`logbuf`]), [`intents`] (work for the
//! kubelet driver), [`workloads`] (the apps/v1 and batch/v1 objects), [`stream_cuts`] (a test knob that cuts the open exec/port-forward connections), [`container_fs`] (the containers' writable layers), [`scheduler_held`] (the pods the scheduler holds back).

mod container_fs;
#[cfg(test)]
mod core_tests;
mod history;
mod intents;
pub(crate) mod logbuf;
mod logs;
mod metrics;
mod objects;
mod scheduler_held;
mod stream_cuts;
mod workloads;
#[cfg(test)]
mod workloads_tests;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use tokio::sync::{Notify, broadcast, watch};

use crate::SimClock;
use logbuf::LogBuf;

use crate::api::object::{Object, Resource};
pub use history::{Change, ChangeType, HISTORY_LIMIT};
pub(crate) use intents::Intent;
pub use logs::LogLine;
use objects::collect;
pub use workloads::Propagation;
pub(crate) use workloads::generated as generated_name;

/// Capacity of the live change channel; a watch that falls this far behind ends with 410 Expired.
const CHANNEL_CAPACITY: usize = 1024;

#[derive(Default)]
struct State {
    rv: u64,
    pods: BTreeMap<(String, String), Arc<Pod>>,
    events: BTreeMap<(String, String), Arc<Event>>,
    /// The apps/v1 and batch/v1 objects, per resource, keyed by (namespace, name).
    workloads: BTreeMap<Resource, BTreeMap<(String, String), Object>>,
    history: VecDeque<Arc<Change>>,
    /// Watches at RV >= this can be replayed; older ones get 410 `(history_start)`.
    history_start: u64,
    /// Logs per container instance, keyed by (namespace, pod, containerID).
    logs: HashMap<(String, String, String), LogBuf>,
    /// Work for the kubelet driver (pods created or deleted through the API), FIFO.
    intents: VecDeque<Intent>,
}

struct Inner {
    state: Mutex<State>,
    changes: broadcast::Sender<Arc<Change>>,
    /// The same changes for in-process subscribers ([`Store::subscribe`]), apart so that
    /// [`Store::watchers`] counts client watches only.
    controllers: broadcast::Sender<Arc<Change>>,
    shutdown: watch::Sender<bool>,
    clock: SimClock,
    /// Woken when an [`Intent`] is queued (a stored permit, so none is lost).
    intent_ready: Notify,
    /// Bumped on every committed change and every appended log line (wakes log followers).
    activity: watch::Sender<u64>,
    /// Bumped by [`Store::cut_streams`]; open exec/attach/port-forward connections (WebSocket or
    /// SPDY) watch it.
    stream_cuts: watch::Sender<u64>,
    /// The writable layers of the containers exec'd processes wrote into (`kubectl cp`).
    container_fs: crate::runtime::fs::Layers,
    /// The uids of the pods the scheduler holds back (`sim/scheduler.rs`).
    scheduler_held: crate::scheduler::Held,
    /// Whether metrics.k8s.io is served, and how often it samples (`sim/metrics`).
    metrics: crate::metrics::Setting,
}

/// Cloneable handle to the simulated cluster's objects.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

impl Store {
    /// An empty store (RV 0) using `clock` for `creationTimestamp` defaults and Table ages.
    pub fn new(clock: SimClock) -> Self {
        let (changes, _) = broadcast::channel(CHANNEL_CAPACITY);
        let (controllers, _) = broadcast::channel(CHANNEL_CAPACITY);
        let (shutdown, _) = watch::channel(false);
        let (activity, _) = watch::channel(0);
        let (stream_cuts, _) = watch::channel(0);
        Store {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                changes,
                controllers,
                shutdown,
                clock,
                intent_ready: Notify::new(),
                activity,
                stream_cuts,
                container_fs: Default::default(),
                scheduler_held: Default::default(),
                metrics: Default::default(),
            }),
        }
    }

    /// The simulator's current time (the frozen instant, or the wall clock).
    pub fn now(&self) -> Timestamp {
        self.inner.clock.now()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The current global resourceVersion (incremented by every change).
    pub fn resource_version(&self) -> u64 {
        self.lock().rv
    }

    /// The clock this store reads.
    pub fn clock(&self) -> SimClock {
        self.inner.clock
    }

    /// A receiver that flips to `true` when the simulator shuts down (watch streams end).
    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }

    /// Ends every open watch stream (used by `Simulator::shutdown`).
    pub(crate) fn close_watches(&self) {
        self.inner.shutdown.send_replace(true);
    }
}
