//! A pure, deterministic kubelet: runs simulated pods on one node.
//!
//! No IO, no clock: every entry point takes `now: jiff::Timestamp`, and [`Kubelet::advance`] runs
//! the work that is due, in time order, returning [`Change`]s for the simulator's store (pods,
//! events, container log lines). What a container does is chosen from its image, command and env
//! by [`crate::runtime::programs`] (see that module's docs for the rules).
//!
//! Timing model (deterministic; all constants documented where defined):
//! - admit at `t`: `Scheduled` event, `spec.nodeName`, phase Pending; the sandbox is ready at
//!   `t + 1 s` (`PodReadyToStartContainers`, podIP), then containers start in kubelet order
//!   ([`lifecycle`]): init containers one at a time, native sidecars in order (the next waits for
//!   the sidecar's startupProbe), then all main containers.
//! - A first start: `Pulled` (or `Pulling` + 1 s pull) then `Created`/`Started` 1 s later, after
//!   the config checks of [`env_gate`] (environment, runAsNonRoot); an instance's start, plan and
//!   exit are [`instance`]'s, a postStart hook [`hooks`]', a wait for a Service [`waits`]'.
//! - The kubelet notices an exit and syncs 1 s later ([`lifecycle::SYNC_LATENCY`]); restarts follow
//!   the CrashLoopBackOff rules of `docs/protocols.md` §5 ([`backoff`]): the first restart happens
//!   at that sync, later ones exactly at `T_exit + backoff`. The real kubelet's extra 0–15 s sync
//!   jitter is deliberately not modelled.
//! - Probes first run `max(initialDelaySeconds, 1 s)` after the start (liveness/readiness: 1 s after
//!   the startupProbe passed), then every `periodSeconds` ([`probes`]).
//! - Deletion ([`termination`]): `Killing`, preStop, stop signal, sidecars last in reverse order,
//!   SIGKILL at the deadline, final status, then [`Change::Removed`].
//! - Spec updates ([`Kubelet::update`]): new ephemeral containers start once ([`ephemeral`]), a
//!   new image restarts its container ([`spec_update`]); an interactive shell PID 1 ends when
//!   its attach says so ([`interactive`], [`Kubelet::pid1_exited`]).

mod backoff;
mod backoff_messages;
pub mod config_refs;
mod config_store;
pub(crate) mod driver;
mod env_gate;
mod ephemeral;
mod events;
pub mod field_refs;
mod hooks;
mod ids;
mod images;
mod instance;
pub(crate) mod interactive;
mod ip;
mod lifecycle;
mod mounts;
mod pod_state;
mod probes;
mod spec_update;
mod status;
mod termination;
mod updates;
mod waits;
mod work;

use std::collections::{BTreeMap, HashSet};

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};

pub use crate::runtime::programs::MIN_RUN;
pub use backoff::RESET_AFTER;
pub use backoff_messages::{backoff_event_message, waiting_message};
pub(crate) use config_store::sources as config_sources;
pub use events::EventWording;
pub use ids::container_id;
pub(crate) use ids::{after, hash64, hex256};
pub use termination::SIDECAR_DELAY;

use events::{EventBook, EventSpec, Involved};
use pod_state::PodRun;
use podscope_model::BackoffCurve;
pub(crate) use work::Work;

/// Node identity and tuning for a [`Kubelet`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KubeletConfig {
    /// `spec.nodeName` given to admitted pods, e.g. `k8s-node-2`.
    pub node_name: String,
    /// `status.hostIP`, e.g. `192.168.10.21`.
    pub host_ip: String,
    /// The node's pod CIDR, a /16, as the first octets of its addresses: `10.244.` or
    /// `10.244.1.` (the first pod gets `10.244.1.2`; a missing trailing dot is added). Pods get
    /// free addresses of `10.244.0.0/16` in order, wrapping, freed ones reused (`ip`).
    pub pod_cidr_prefix: String,
    /// The CrashLoopBackOff curve (10 s → 300 s by default; 1 s → 60 s with the reduced decay).
    pub curve: BackoffCurve,
}

/// One thing the simulator's store must apply or publish.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The pod's new full object (metadata/spec/status); `metadata.resourceVersion` is left for
    /// the store to bump.
    Pod(Box<Pod>),
    /// The pod is gone from the node and must be deleted from the store.
    Removed {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
    },
    /// A new Event, or an aggregated one with the same `metadata.name` and a bumped `count`.
    Event(Box<Event>),
    /// One line a container instance wrote (stdout/stderr interleaved), without the newline.
    Log {
        /// Pod namespace.
        namespace: String,
        /// Pod name.
        pod: String,
        /// Container name.
        container: String,
        /// The instance: the container's `restartCount` when it ran.
        restart_count: i32,
        /// When the runtime recorded the line (the CRI timestamp).
        at: Timestamp,
        /// The text.
        line: String,
    },
}

/// Pod key: `(namespace, name)`.
type Key = (String, String);

#[derive(Debug, Clone)]
struct Task {
    key: Key,
    uid: String,
    work: Work,
}

/// Everything but the pods: the queue, back-off tables, events, image cache, output buffer.
#[derive(Debug)]
pub(crate) struct Node {
    pub cfg: KubeletConfig,
    pub wording: EventWording,
    queue: BTreeMap<(Timestamp, u64), Task>,
    seq: u64,
    pub restarts: backoff::BackoffTable,
    pub pulls: backoff::BackoffTable,
    pub events: EventBook,
    pub images: HashSet<String>,
    pub ips: ip::PodIps,
    pub out: Vec<Change>,
    /// The ConfigMaps/Secrets the kubelet reads and the pods waiting for their volumes.
    pub mounts: mounts::Mounts,
}

impl Node {
    /// Queues `work` for `run` at `at`.
    pub(crate) fn schedule(&mut self, run: &PodRun, at: Timestamp, work: Work) {
        self.seq += 1;
        let task = Task {
            key: (run.namespace.clone(), run.name.clone()),
            uid: run.uid.clone(),
            work,
        };
        self.queue.insert((at, self.seq), task);
    }

    /// Records an event about `run` and outputs it.
    pub(crate) fn event(&mut self, run: &PodRun, spec: EventSpec, at: Timestamp) {
        let obj = Involved {
            namespace: &run.namespace,
            name: &run.name,
            uid: &run.uid,
        };
        let ev = self.events.record(&obj, &self.cfg.node_name, spec, at);
        self.out.push(Change::Event(Box::new(ev)));
    }

    /// Outputs a log line of container `c`'s current instance; `stamped` adds the Go/nginx
    /// `YYYY/MM/DD HH:MM:SS ` prefix (UTC).
    pub(crate) fn log(&mut self, run: &PodRun, c: usize, at: Timestamp, text: &str, stamped: bool) {
        let line = if stamped {
            format!("{} {text}", at.strftime("%Y/%m/%d %H:%M:%S"))
        } else {
            text.to_string()
        };
        let cr = &run.containers[c];
        self.out.push(Change::Log {
            namespace: run.namespace.clone(),
            pod: run.name.clone(),
            container: cr.spec.name.clone(),
            restart_count: cr.restart_count,
            at,
            line,
        });
    }
}

/// The simulated kubelet of one node (see the module docs for the model).
#[derive(Debug)]
pub struct Kubelet {
    node: Node,
    pods: BTreeMap<Key, PodRun>,
}

impl Kubelet {
    /// A kubelet with no pods.
    pub fn new(cfg: KubeletConfig) -> Self {
        let curve = cfg.curve;
        let ips = ip::PodIps::new(&cfg.pod_cidr_prefix);
        Self {
            node: Node {
                cfg,
                wording: EventWording::default(),
                queue: BTreeMap::new(),
                seq: 0,
                restarts: backoff::BackoffTable::new(curve),
                pulls: backoff::BackoffTable::new(curve),
                events: EventBook::default(),
                images: HashSet::new(),
                ips,
                out: Vec::new(),
                mounts: mounts::Mounts::default(),
            },
            pods: BTreeMap::new(),
        }
    }

    /// Uses another Kubernetes version's event texts (default [`EventWording::V1_33`]).
    pub fn with_event_wording(mut self, wording: EventWording) -> Self {
        self.node.wording = wording;
        self
    }

    /// A pod was created: schedules it here (`spec.nodeName`, `Scheduled` event, `PodScheduled`)
    /// and starts running it. A pod with the same namespace/name already running is replaced.
    /// Returns the changes due at `now`.
    pub fn admit(&mut self, pod: Pod, now: Timestamp) -> Vec<Change> {
        let run = lifecycle::admit(&mut self.node, pod, now);
        let key = (run.namespace.clone(), run.name.clone());
        if let Some(old) = self.pods.insert(key.clone(), run) {
            self.node.ips.release(&old.pod_ip);
        }
        if let Some(run) = self.pods.get_mut(&key) {
            emit_if_changed(&mut self.node, run, now);
        }
        self.advance(now)
    }

    /// The pod is being deleted: sets `deletionTimestamp = now + grace` and starts the
    /// termination sequence (grace from `grace_period_seconds`, else
    /// `spec.terminationGracePeriodSeconds`, else 30 s; 0 stops everything at once).
    /// Unknown pods yield no changes.
    pub fn delete(
        &mut self,
        namespace: &str,
        name: &str,
        grace_period_seconds: Option<i64>,
        now: Timestamp,
    ) -> Vec<Change> {
        let key = (namespace.to_string(), name.to_string());
        if let Some(run) = self.pods.get_mut(&key) {
            termination::delete(&mut self.node, run, grace_period_seconds, now);
            emit_if_changed(&mut self.node, run, now);
        }
        self.advance(now)
    }

    /// Runs all work due at or before `now`, in time order, and returns what changed.
    pub fn advance(&mut self, now: Timestamp) -> Vec<Change> {
        while let Some((&(at, seq), _)) = self.node.queue.first_key_value() {
            if at > now {
                break;
            }
            let Some(task) = self.node.queue.remove(&(at, seq)) else {
                break;
            };
            let Some(run) = self.pods.get_mut(&task.key) else {
                continue;
            };
            if run.uid != task.uid {
                continue;
            }
            let removed = work::dispatch(&mut self.node, run, task.work, at);
            emit_if_changed(&mut self.node, run, at);
            if removed {
                self.node.restarts.forget_prefix(&format!("{}/", run.uid));
                self.node.pulls.forget_prefix(&format!("{}/", run.uid));
                self.node.events.forget_uid(&run.uid);
                self.node.mounts.forget(&run.uid);
                self.node.out.push(Change::Removed {
                    namespace: task.key.0.clone(),
                    name: task.key.1.clone(),
                });
                if let Some(old) = self.pods.remove(&task.key) {
                    self.node.ips.release(&old.pod_ip);
                }
            }
        }
        std::mem::take(&mut self.node.out)
    }

    /// The ConfigMaps and Secrets the kubelet reads from now on (env references and volumes,
    /// [`config_refs`]); the driver refreshes them from the store before every pass.
    pub fn set_config_sources(&mut self, sources: config_refs::ConfigSources) {
        self.node.mounts.sources = sources;
    }

    /// When [`Kubelet::advance`] next has something to do (`None`: nothing queued).
    pub fn next_wakeup(&self) -> Option<Timestamp> {
        self.node.queue.first_key_value().map(|(&(at, _), _)| at)
    }

    /// The current object of a pod this kubelet runs.
    pub fn pod(&self, namespace: &str, name: &str) -> Option<&Pod> {
        self.pods
            .get(&(namespace.to_string(), name.to_string()))
            .map(|r| &r.pod)
    }
}

/// Rebuilds the status and outputs the pod when it differs from the last output.
fn emit_if_changed(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    status::refresh(&node.cfg, run, at);
    if run.emitted.as_ref() != Some(&run.pod) {
        run.emitted = Some(run.pod.clone());
        node.out.push(Change::Pod(Box::new(run.pod.clone())));
    }
}
