//! The simulated node as the control plane sees it (`docs/nodes.md` §4): the Node object and
//! Lease its kubelet registers at start ([`object`]), the kubelet's heartbeats, the node
//! lifecycle controller and taint eviction ([`lifecycle`]), memory pressure ([`pressure`]) and
//! the node scenarios that make the node lose its kubelet or run short of memory.
//!
//! Heartbeats as a real kubelet sends them (`pkg/kubelet/nodelease`,
//! `pkg/kubelet/kubelet_node_status.go`): the Lease is renewed every [`LEASE_RENEW`]; the
//! Node's status is posted only when it changes or every [`STATUS_REPORT`] (the conditions'
//! `lastHeartbeatTime` then moves), so watchers of nodes see a write every five minutes, not
//! every ten seconds.
//!
//! A scenario document of kind `Node` names the node and carries the plan in annotations
//! ([`NodePlan::from_annotations`]): `podscope.dev/kubelet-stops-after-seconds: "N"` (the
//! kubelet stops posting N simulated seconds after the start; the lifecycle controller marks
//! the node `Unknown` [`lifecycle::GRACE`] later) and
//! `podscope.dev/memory-pressure-after-seconds: "N"`.

pub mod events;
pub mod lifecycle;
pub mod object;
pub mod pressure;

use std::collections::BTreeMap;
use std::sync::Arc;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};

use crate::api::object::{Object, Resource};
use crate::api::status::ApiError;
use crate::api::store::Store;
use crate::kubelet::KubeletConfig;

pub use lifecycle::unreachable;

/// How often the kubelet renews its Lease (`nodeLeaseRenewIntervalFraction` 0.25 × 40 s).
pub const LEASE_RENEW: SignedDuration = SignedDuration::from_secs(10);
/// How often the kubelet posts an unchanged status (`nodeStatusReportFrequency`, 5 min).
pub const STATUS_REPORT: SignedDuration = SignedDuration::from_mins(5);
/// The annotation of a scenario's Node document: when the kubelet stops posting.
pub const KUBELET_STOPS_AFTER: &str = "podscope.dev/kubelet-stops-after-seconds";
/// The annotation of a scenario's Node document: when memory pressure starts.
pub const MEMORY_PRESSURE_AFTER: &str = "podscope.dev/memory-pressure-after-seconds";

/// What a scenario does to the node, counted from the simulator's start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodePlan {
    /// The kubelet stops renewing its Lease and posting status.
    pub kubelet_stops_after: Option<SignedDuration>,
    /// The kubelet sees memory pressure and evicts a BestEffort pod.
    pub memory_pressure_after: Option<SignedDuration>,
}

impl NodePlan {
    /// The plan of a scenario's Node document from its annotations (see the module docs).
    /// Errors: an annotation whose value is not a whole number of seconds, named.
    pub fn from_annotations(annotations: &BTreeMap<String, String>) -> Result<NodePlan, String> {
        let secs = |key: &str| -> Result<Option<SignedDuration>, String> {
            annotations
                .get(key)
                .map(|v| {
                    v.parse::<u32>()
                        .map(|s| SignedDuration::from_secs(i64::from(s)))
                        .map_err(|_| format!("{key}: want a number of seconds, got {v:?}"))
                })
                .transpose()
        };
        Ok(NodePlan {
            kubelet_stops_after: secs(KUBELET_STOPS_AFTER)?,
            memory_pressure_after: secs(MEMORY_PRESSURE_AFTER)?,
        })
    }

    /// Both plans together (the earliest of each).
    #[must_use]
    pub fn merge(self, other: NodePlan) -> NodePlan {
        let min = |a: Option<SignedDuration>, b: Option<SignedDuration>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        NodePlan {
            kubelet_stops_after: min(self.kubelet_stops_after, other.kubelet_stops_after),
            memory_pressure_after: min(self.memory_pressure_after, other.memory_pressure_after),
        }
    }
}

/// Registers the node of `cfg` and its Lease at the store's `now`, as a starting kubelet does.
/// Errors: the store's (409 when the node exists).
pub fn register(store: &Store, cfg: &KubeletConfig) -> Result<(), ApiError> {
    let now = store.now();
    let node = store.create_object(Object::Node(Arc::new(object::node(cfg, now))))?;
    let uid = node.meta().uid.clone().unwrap_or_default();
    store.create_object(Object::Lease(Arc::new(object::lease(
        &cfg.node_name,
        &uid,
        now,
    ))))?;
    Ok(())
}

/// Renews the node's Lease at `now`.
fn renew_lease(store: &Store, name: &str, now: Timestamp) {
    let r = store.update_object(Resource::Leases, object::LEASE_NAMESPACE, name, |o| {
        if let Object::Lease(l) = o {
            Arc::make_mut(l)
                .spec
                .get_or_insert_with(Default::default)
                .renew_time = Some(MicroTime(now));
        }
        Ok(())
    });
    if let Err(e) = r {
        tracing::debug!("lease of {name}: {e}");
    }
}

/// Posts the node's status at `now`: each condition's `lastHeartbeatTime` moves.
fn post_status(store: &Store, name: &str, now: Timestamp) {
    let r = store.update_object(Resource::Nodes, "", name, |o| {
        if let Object::Node(n) = o {
            let n = Arc::make_mut(n);
            for c in n
                .status
                .iter_mut()
                .flat_map(|s| s.conditions.iter_mut().flatten())
            {
                c.last_heartbeat_time = Some(Time(now));
            }
        }
        Ok(())
    });
    if let Err(e) = r {
        tracing::debug!("status of {name}: {e}");
    }
}

/// The node's kubelet heartbeats and the control plane's view of it, until the store shuts
/// down: Lease renewals, status reports, the plan's instants and the lifecycle controller's
/// passes, each at its simulated instant (a frozen clock never reaches one).
pub async fn run(store: Store, cfg: KubeletConfig, plan: NodePlan) {
    let name = cfg.node_name.clone();
    let start = store.now();
    let at = |d: Option<SignedDuration>| d.and_then(|d| start.checked_add(d).ok());
    let stop_at = at(plan.kubelet_stops_after);
    let mut pressure_at = at(plan.memory_pressure_after);
    let mut next_lease = start.checked_add(LEASE_RENEW).unwrap_or(start);
    let mut next_status = start.checked_add(STATUS_REPORT).unwrap_or(start);
    let mut next_monitor = start
        .checked_add(lifecycle::MONITOR_PERIOD)
        .unwrap_or(start);
    let mut shutdown = store.shutdown_signal();
    loop {
        let now = store.now();
        let alive = stop_at.is_none_or(|t| now < t);
        if alive && now >= next_lease {
            renew_lease(&store, &name, now);
            next_lease = now.checked_add(LEASE_RENEW).unwrap_or(now);
        }
        if alive && now >= next_status {
            post_status(&store, &name, now);
            next_status = now.checked_add(STATUS_REPORT).unwrap_or(now);
        }
        if alive && pressure_at.is_some_and(|t| now >= t) {
            pressure_at = None;
            pressure::start(&store, &name, now);
        }
        if now >= next_monitor {
            lifecycle::monitor(&store, &name, now);
            next_monitor = now.checked_add(lifecycle::MONITOR_PERIOD).unwrap_or(now);
        }
        let mut wake = next_monitor;
        if alive {
            wake = wake.min(next_lease).min(next_status);
            for t in [stop_at, pressure_at].into_iter().flatten() {
                wake = wake.min(t);
            }
        }
        if let Some(t) = lifecycle::next_eviction(&store, &name, now) {
            wake = wake.min(t);
        }
        let Some(delay) = store.clock().real_delay_until(wake) else {
            // A frozen clock: nothing ever becomes due.
            let _ = shutdown.changed().await;
            return;
        };
        tokio::select! {
            () = tokio::time::sleep(delay.max(std::time::Duration::from_millis(1))) => {}
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
    }
}
