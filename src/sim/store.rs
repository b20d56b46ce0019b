//! The simulator's object store: pods, events, container logs, a global resourceVersion counter and
//! a bounded change history that watches replay (see `notes/protocols.md` §1.3–1.4).
//!
//! `Store` is a cheap cloneable handle (`Arc`); the HTTP handlers, tests, the demo and the kubelet
//! model all drive the same instance.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use tokio::sync::{Notify, broadcast, watch};

use super::SimClock;
use super::logbuf::LogBuf;
use super::object::{Object, Resource};
use super::status::ApiError;

/// How many changes the history keeps before the oldest are dropped (older RVs then get 410).
pub const HISTORY_LIMIT: usize = 4096;
/// Capacity of the live change channel; a watch that falls this far behind ends with 410 Expired.
const CHANNEL_CAPACITY: usize = 1024;

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

/// One line of container output with the time the runtime recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// CRI timestamp of the line.
    pub time: Timestamp,
    /// The line's text without the trailing newline.
    pub text: String,
}

/// A consistent view used to start a watch: the matching objects or history, plus a receiver
/// subscribed under the same lock (so nothing is missed in between).
pub(crate) struct WatchStart {
    pub(crate) initial: Result<Vec<Change>, ApiError>,
    pub(crate) current_rv: u64,
    pub(crate) rx: broadcast::Receiver<Arc<Change>>,
}

#[derive(Default)]
struct State {
    rv: u64,
    pods: BTreeMap<(String, String), Arc<Pod>>,
    events: BTreeMap<(String, String), Arc<Event>>,
    history: VecDeque<Arc<Change>>,
    /// Watches at RV >= this can be replayed; older ones get 410 `(history_start)`.
    history_start: u64,
    /// Logs per container instance, keyed by (namespace, pod, containerID).
    logs: HashMap<(String, String, String), LogBuf>,
    /// Work for the kubelet driver (pods created or deleted through the API), FIFO.
    intents: VecDeque<Intent>,
}

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
}

struct Inner {
    state: Mutex<State>,
    changes: broadcast::Sender<Arc<Change>>,
    shutdown: watch::Sender<bool>,
    clock: SimClock,
    /// Woken when an [`Intent`] is queued (a stored permit, so none is lost).
    intent_ready: Notify,
    /// Bumped on every committed change and every appended log line (wakes log followers).
    activity: watch::Sender<u64>,
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
        let (shutdown, _) = watch::channel(false);
        let (activity, _) = watch::channel(0);
        Store {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                changes,
                shutdown,
                clock,
                intent_ready: Notify::new(),
                activity,
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

    /// Creates a pod. Defaults: namespace `default`, `uid`, `creationTimestamp` = now.
    /// Sets `metadata.resourceVersion`. Errors: 409 AlreadyExists, 400 when the name is empty.
    pub fn create_pod(&self, mut pod: Pod) -> Result<Pod, ApiError> {
        let name = pod.metadata.name.clone().unwrap_or_default();
        if name.is_empty() {
            return Err(ApiError::bad_request("name or generateName is required"));
        }
        let ns = pod
            .metadata
            .namespace
            .get_or_insert_with(|| "default".to_string())
            .clone();
        if pod.metadata.uid.is_none() {
            pod.metadata.uid = Some(synthetic_uid(&ns, &name));
        }
        if pod.metadata.creation_timestamp.is_none() {
            pod.metadata.creation_timestamp = Some(Time(self.now()));
        }
        let mut st = self.lock();
        let key = (ns, name.clone());
        if st.pods.contains_key(&key) {
            return Err(ApiError::already_exists("pods", &name));
        }
        let rv = st.rv + 1;
        pod.metadata.resource_version = Some(rv.to_string());
        let pod = Arc::new(pod);
        st.pods.insert(key, pod.clone());
        self.commit(&mut st, ChangeType::Added, Object::Pod(pod.clone()), None);
        Ok((*pod).clone())
    }

    /// Applies `f` to the stored pod and records a MODIFIED change (new resourceVersion).
    /// Errors: 404 `pods "<name>" not found`.
    pub fn update_pod(
        &self,
        ns: &str,
        name: &str,
        f: impl FnOnce(&mut Pod),
    ) -> Result<Pod, ApiError> {
        let mut st = self.lock();
        let key = (ns.to_string(), name.to_string());
        let old = st
            .pods
            .get(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found("pods", name))?;
        let mut pod = (*old).clone();
        f(&mut pod);
        pod.metadata.namespace = Some(ns.to_string());
        pod.metadata.name = Some(name.to_string());
        pod.metadata.resource_version = Some((st.rv + 1).to_string());
        let pod = Arc::new(pod);
        st.pods.insert(key, pod.clone());
        self.commit(
            &mut st,
            ChangeType::Modified,
            Object::Pod(pod.clone()),
            Some(Object::Pod(old)),
        );
        Ok((*pod).clone())
    }

    /// Like [`Store::update_pod`], but `f` may refuse (its error is returned and nothing is
    /// written), and an update that changes nothing is not written (no new resourceVersion,
    /// no watch event; the stored object is returned), as the API server does.
    pub fn try_update_pod(
        &self,
        ns: &str,
        name: &str,
        f: impl FnOnce(&mut Pod) -> Result<(), ApiError>,
    ) -> Result<Pod, ApiError> {
        let mut st = self.lock();
        let key = (ns.to_string(), name.to_string());
        let old = st
            .pods
            .get(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found("pods", name))?;
        let mut pod = (*old).clone();
        f(&mut pod)?;
        pod.metadata.namespace = Some(ns.to_string());
        pod.metadata.name = Some(name.to_string());
        pod.metadata.resource_version = old.metadata.resource_version.clone();
        if pod == *old {
            return Ok(pod);
        }
        pod.metadata.resource_version = Some((st.rv + 1).to_string());
        let pod = Arc::new(pod);
        st.pods.insert(key, pod.clone());
        self.commit(
            &mut st,
            ChangeType::Modified,
            Object::Pod(pod.clone()),
            Some(Object::Pod(old)),
        );
        Ok((*pod).clone())
    }

    /// Removes a pod (and its logs); watchers get DELETED with the last state (new resourceVersion).
    /// Errors: 404.
    pub fn delete_pod(&self, ns: &str, name: &str) -> Result<Pod, ApiError> {
        let mut st = self.lock();
        let key = (ns.to_string(), name.to_string());
        let old = st
            .pods
            .remove(&key)
            .ok_or_else(|| ApiError::not_found("pods", name))?;
        st.logs.retain(|(n, p, _), _| !(n == ns && p == name));
        let mut last = (*old).clone();
        last.metadata.resource_version = Some((st.rv + 1).to_string());
        let last = Arc::new(last);
        self.commit(
            &mut st,
            ChangeType::Deleted,
            Object::Pod(last.clone()),
            Some(Object::Pod(old)),
        );
        Ok((*last).clone())
    }

    /// Adds an event, or replaces the event with the same namespace/name (MODIFIED, as repeated
    /// events are aggregated by bumping `count`/`lastTimestamp`). Namespace defaults to the
    /// involved object's, then `default`. Errors: 400 when the name is empty.
    pub fn add_event(&self, mut event: Event) -> Result<Event, ApiError> {
        let name = event.metadata.name.clone().unwrap_or_default();
        if name.is_empty() {
            return Err(ApiError::bad_request("name or generateName is required"));
        }
        let ns = event
            .metadata
            .namespace
            .clone()
            .or_else(|| event.involved_object.namespace.clone())
            .unwrap_or_else(|| "default".to_string());
        event.metadata.namespace = Some(ns.clone());
        if event.metadata.creation_timestamp.is_none() {
            event.metadata.creation_timestamp = Some(Time(self.now()));
        }
        if event.metadata.uid.is_none() {
            event.metadata.uid = Some(synthetic_uid(&ns, &name));
        }
        let mut st = self.lock();
        event.metadata.resource_version = Some((st.rv + 1).to_string());
        let event = Arc::new(event);
        let old = st.events.insert((ns, name), event.clone());
        let change_type = if old.is_some() {
            ChangeType::Modified
        } else {
            ChangeType::Added
        };
        self.commit(
            &mut st,
            change_type,
            Object::Event(event.clone()),
            old.map(Object::Event),
        );
        Ok((*event).clone())
    }

    /// Forgets the change history: any watch at a resourceVersion older than the current one then
    /// gets the 410 Expired ERROR event (`too old resource version: N (current)`).
    pub fn expire_history(&self) {
        let mut st = self.lock();
        st.history.clear();
        st.history_start = st.rv;
    }

    /// One pod by namespace/name.
    pub fn pod(&self, ns: &str, name: &str) -> Option<Pod> {
        self.lock()
            .pods
            .get(&(ns.to_string(), name.to_string()))
            .map(|p| (**p).clone())
    }

    /// All objects of `resource`, optionally in one namespace, ordered by namespace then name,
    /// with the resourceVersion of this snapshot.
    pub fn list(&self, resource: Resource, ns: Option<&str>) -> (Vec<Object>, u64) {
        let st = self.lock();
        (collect(&st, resource, ns), st.rv)
    }

    /// Appends one line to a container instance's log (`container_id` is the status'
    /// `containerID`, e.g. `containerd://…`).
    /// Each instance keeps at most [`super::LOG_MAX_LINES`] lines and [`super::LOG_MAX_BYTES`]
    /// bytes; the oldest lines are dropped beyond that.
    pub fn append_log(&self, ns: &str, pod: &str, container_id: &str, line: LogLine) {
        let key = (ns.to_string(), pod.to_string(), container_id.to_string());
        self.lock().logs.entry(key).or_default().push(line);
        self.inner.activity.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// The log lines of one container instance (empty when nothing was written).
    pub fn logs(&self, ns: &str, pod: &str, container_id: &str) -> Vec<LogLine> {
        let key = (ns.to_string(), pod.to_string(), container_id.to_string());
        self.lock()
            .logs
            .get(&key)
            .map(LogBuf::all)
            .unwrap_or_default()
    }

    /// Lines of one container instance numbered `from` onwards (numbering counts every line
    /// ever appended, so dropped lines are skipped) and the cursor after them.
    pub(crate) fn logs_since(
        &self,
        ns: &str,
        pod: &str,
        container_id: &str,
        from: u64,
    ) -> (Vec<LogLine>, u64) {
        let key = (ns.to_string(), pod.to_string(), container_id.to_string());
        self.lock()
            .logs
            .get(&key)
            .map_or((Vec::new(), from), |b| b.since(from))
    }

    /// A receiver that changes whenever a change is committed or a log line appended.
    pub(crate) fn activity(&self) -> watch::Receiver<u64> {
        self.inner.activity.subscribe()
    }

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

    /// The clock this store reads.
    pub fn clock(&self) -> SimClock {
        self.inner.clock
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

    /// A receiver that flips to `true` when the simulator shuts down (watch streams end).
    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }

    /// Ends every open watch stream (used by `Simulator::shutdown`).
    pub(crate) fn close_watches(&self) {
        self.inner.shutdown.send_replace(true);
    }

    fn commit(
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
        let _ = self.inner.changes.send(change);
        self.inner.activity.send_modify(|n| *n = n.wrapping_add(1));
    }
}

fn collect(st: &State, resource: Resource, ns: Option<&str>) -> Vec<Object> {
    let in_ns = |k: &(String, String)| ns.is_none_or(|n| k.0 == n);
    match resource {
        Resource::Pods => st
            .pods
            .iter()
            .filter(|(k, _)| in_ns(k))
            .map(|(_, p)| Object::Pod(p.clone()))
            .collect(),
        Resource::Events => st
            .events
            .iter()
            .filter(|(k, _)| in_ns(k))
            .map(|(_, e)| Object::Event(e.clone()))
            .collect(),
    }
}

/// A deterministic UUID-shaped uid derived from namespace/name (FNV-1a), for pods created without one.
fn synthetic_uid(ns: &str, name: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in ns.bytes().chain([b'/']).chain(name.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let l = h ^ 0x9e37_79b9_7f4a_7c15;
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        h >> 32,
        (h >> 16) & 0xffff,
        h & 0xfff,
        l & 0xfff,
        (l >> 16) & 0xffff_ffff_ffff
    )
}
