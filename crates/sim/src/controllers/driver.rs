//! The controller driver: the task that runs the pure controllers against the simulator's
//! [`Store`] on its clock (their only IO), beside the kubelet driver.
//!
//! Loop: take a [`Snapshot`] of every pod and workload, run the garbage collector
//! ([`gc::reconcile`]) and [`reconcile_all`], apply the actions in order, then wait for the
//! next change of anything but Events ([`Store::subscribe`]), the earliest wake-up the
//! controllers asked for (turned into real time through the clock's speed; a frozen clock never
//! reaches it), or shutdown. Owners seen DELETED are remembered (for the garbage collector)
//! until nothing names them any more. An action the store refuses (a name taken meanwhile, an
//! object deleted meanwhile) is logged and dropped: the next pass sees the new state and asks
//! again if it still must.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use super::{Action, Kind, Snapshot, Workload, gc, reconcile_all};
use crate::api::admission;
use crate::api::object::{Object, Resource};
use crate::api::status::ApiError;
use crate::api::store::{Change, ChangeType, Store};
use crate::api::workloads::defaults;
use crate::api::writes::delete_pod_gracefully;

/// Runs until the store shuts down (see the module docs); `node` is the simulated node's name.
pub(crate) async fn run(store: Store, node: String) {
    let mut changes = store.subscribe();
    let mut shutdown = store.shutdown_signal();
    let mut gone: HashSet<String> = HashSet::new();
    loop {
        if *shutdown.borrow_and_update() {
            return;
        }
        let wake = step(&store, &node, &mut gone);
        let delay = wake.and_then(|at| store.clock().real_delay_until(at));
        // One timer for the whole wait: an irrelevant change (an Event, a Lease renewal every
        // 10 s) must not restart it, or a wake-up further away than that never comes.
        let timer = sleep_opt(delay);
        tokio::pin!(timer);
        // Wait for a change that matters (not an Event), the wake-up, or shutdown.
        loop {
            tokio::select! {
                r = changes.recv() => match r {
                    Ok(ch) => {
                        let mut relevant = note(&ch, &mut gone);
                        loop {
                            match changes.try_recv() {
                                Ok(ch) => relevant |= note(&ch, &mut gone),
                                Err(TryRecvError::Lagged(_)) => relevant = true,
                                Err(_) => break,
                            }
                        }
                        if relevant {
                            break;
                        }
                    }
                    Err(RecvError::Lagged(_)) => break,
                    Err(RecvError::Closed) => return,
                },
                () = &mut timer => break,
                _ = shutdown.changed() => return,
            }
        }
    }
}

async fn sleep_opt(delay: Option<std::time::Duration>) {
    match delay {
        // At least 1 ms: the clock may read a hair before the wake-up instant.
        Some(d) => tokio::time::sleep(d.max(std::time::Duration::from_millis(1))).await,
        None => std::future::pending().await,
    }
}

/// Remembers a deleted owner; whether the change can matter to a controller.
fn note(ch: &Change, gone: &mut HashSet<String>) -> bool {
    let resource = ch.object.resource();
    if ch.change_type == ChangeType::Deleted
        && !matches!(resource, Resource::Events | Resource::Pods)
        && let Some(uid) = ch.object.meta().uid.clone()
    {
        gone.insert(uid);
    }
    // A node's Lease renewal (every 10 s, `sim::nodes`) is nothing the controllers read.
    !matches!(resource, Resource::Events | Resource::Leases)
}

fn typed<T: Clone>(store: &Store, resource: Resource, f: fn(&Object) -> Option<&T>) -> Vec<T> {
    store
        .list(resource, None)
        .0
        .iter()
        .filter_map(|o| f(o).cloned())
        .collect()
}

/// Every pod and workload in the store now.
pub(crate) fn snapshot(store: &Store, node: &str) -> Snapshot {
    Snapshot {
        node: node.to_string(),
        pods: typed(store, Resource::Pods, |o| match o {
            Object::Pod(p) => Some(p.as_ref()),
            _ => None,
        }),
        replica_sets: typed(store, Resource::ReplicaSets, |o| match o {
            Object::ReplicaSet(x) => Some(x.as_ref()),
            _ => None,
        }),
        deployments: typed(store, Resource::Deployments, |o| match o {
            Object::Deployment(x) => Some(x.as_ref()),
            _ => None,
        }),
        stateful_sets: typed(store, Resource::StatefulSets, |o| match o {
            Object::StatefulSet(x) => Some(x.as_ref()),
            _ => None,
        }),
        daemon_sets: typed(store, Resource::DaemonSets, |o| match o {
            Object::DaemonSet(x) => Some(x.as_ref()),
            _ => None,
        }),
        jobs: typed(store, Resource::Jobs, |o| match o {
            Object::Job(x) => Some(x.as_ref()),
            _ => None,
        }),
        cron_jobs: typed(store, Resource::CronJobs, |o| match o {
            Object::CronJob(x) => Some(x.as_ref()),
            _ => None,
        }),
    }
}

/// One pass: snapshot, garbage collection, controllers, actions applied in order. Returns the
/// earliest wake-up asked for.
pub(crate) fn step(
    store: &Store,
    node: &str,
    gone: &mut HashSet<String>,
) -> Option<jiff::Timestamp> {
    let snap = snapshot(store, node);
    let now = store.now();
    let mut actions = gc::reconcile(&snap, gone);
    let referenced = gc::still_referenced(&snap, gone);
    gone.retain(|u| referenced.contains(u));
    let out = reconcile_all(&snap, now);
    actions.extend(out.actions);
    for action in actions {
        if let Err(e) = apply(store, action) {
            tracing::debug!("controller action refused: {e}");
        }
    }
    super::endpointslice::sync(store);
    super::pv_binder::sync(store);
    crate::scheduler::retry(store);
    out.wake
}

/// The store resource of a [`Kind`].
pub(crate) fn resource(kind: Kind) -> Resource {
    match kind {
        Kind::ReplicaSet => Resource::ReplicaSets,
        Kind::Deployment => Resource::Deployments,
        Kind::StatefulSet => Resource::StatefulSets,
        Kind::DaemonSet => Resource::DaemonSets,
        Kind::Job => Resource::Jobs,
        Kind::CronJob => Resource::CronJobs,
    }
}

fn object(w: Workload) -> Object {
    match w {
        Workload::ReplicaSet(x) => Object::ReplicaSet(Arc::new(x)),
        Workload::Deployment(x) => Object::Deployment(Arc::new(x)),
        Workload::StatefulSet(x) => Object::StatefulSet(Arc::new(x)),
        Workload::DaemonSet(x) => Object::DaemonSet(Arc::new(x)),
        Workload::Job(x) => Object::Job(Arc::new(x)),
        Workload::CronJob(x) => Object::CronJob(Arc::new(x)),
    }
}

/// Copies `from`'s status onto the stored object `to` (same kind and uid; else unchanged).
fn copy_status(to: &mut Object, from: &Workload) {
    if to.meta().uid != from.meta().uid {
        return;
    }
    match (to, from) {
        (Object::ReplicaSet(t), Workload::ReplicaSet(f)) => {
            Arc::make_mut(t).status = f.status.clone()
        }
        (Object::Deployment(t), Workload::Deployment(f)) => {
            Arc::make_mut(t).status = f.status.clone()
        }
        (Object::StatefulSet(t), Workload::StatefulSet(f)) => {
            Arc::make_mut(t).status = f.status.clone()
        }
        (Object::DaemonSet(t), Workload::DaemonSet(f)) => {
            Arc::make_mut(t).status = f.status.clone()
        }
        (Object::Job(t), Workload::Job(f)) => Arc::make_mut(t).status = f.status.clone(),
        (Object::CronJob(t), Workload::CronJob(f)) => Arc::make_mut(t).status = f.status.clone(),
        _ => {}
    }
}

fn merge_annotations(o: &mut Object, annotations: &BTreeMap<String, String>) {
    o.meta_mut()
        .annotations
        .get_or_insert_with(BTreeMap::new)
        .extend(annotations.clone());
}

fn same_pod(store: &Store, ns: &str, name: &str, uid: &str) -> bool {
    store
        .pod(ns, name)
        .is_some_and(|p| p.metadata.uid.as_deref() == Some(uid))
}

fn apply(store: &Store, action: Action) -> Result<(), ApiError> {
    match action {
        Action::CreatePod(pod) => {
            let ns = pod
                .metadata
                .namespace
                .clone()
                .unwrap_or_else(|| "default".into());
            admission::create_pod_and_run(store, &ns, *pod)?;
        }
        Action::DeletePod {
            namespace,
            name,
            uid,
        } => {
            if same_pod(store, &namespace, &name, &uid) {
                delete_pod_gracefully(store, &namespace, &name, None)?;
            }
        }
        Action::RemovePodFinalizer {
            namespace,
            name,
            uid,
            finalizer,
        } => {
            if !same_pod(store, &namespace, &name, &uid) {
                return Ok(());
            }
            let pod = store.try_update_pod(&namespace, &name, |p| {
                if let Some(f) = p.metadata.finalizers.as_mut() {
                    f.retain(|x| *x != finalizer);
                }
                Ok(())
            })?;
            if Store::removable(&pod) {
                store.delete_pod(&namespace, &name)?;
            }
        }
        Action::RemoveFinalizer {
            kind,
            namespace,
            name,
            finalizer,
        } => {
            store.update_object(resource(kind), &namespace, &name, |o| {
                if let Some(f) = o.meta_mut().finalizers.as_mut() {
                    f.retain(|x| *x != finalizer);
                }
                Ok(())
            })?;
        }
        Action::ReleaseDependent {
            kind,
            namespace,
            name,
            owner_uid,
        } => {
            let res = kind.map_or(Resource::Pods, resource);
            store.update_object(res, &namespace, &name, |o| {
                let meta = o.meta_mut();
                if let Some(refs) = meta.owner_references.as_mut() {
                    refs.retain(|r| r.uid != owner_uid);
                }
                // The API server omits an empty list (`omitempty`): the field goes.
                if meta.owner_references.as_ref().is_some_and(Vec::is_empty) {
                    meta.owner_references = None;
                }
                Ok(())
            })?;
        }
        Action::Create(w) => {
            let mut obj = object(*w);
            defaults::apply(&mut obj);
            store.create_object(obj)?;
        }
        Action::ScaleReplicaSet {
            namespace,
            name,
            replicas,
            annotations,
        } => {
            store.update_object(Resource::ReplicaSets, &namespace, &name, |o| {
                if let Object::ReplicaSet(rs) = o {
                    Arc::make_mut(rs).spec.replicas = Some(replicas);
                }
                merge_annotations(o, &annotations);
                Ok(())
            })?;
        }
        Action::Annotate {
            kind,
            namespace,
            name,
            annotations,
        } => {
            store.update_object(resource(kind), &namespace, &name, |o| {
                merge_annotations(o, &annotations);
                Ok(())
            })?;
        }
        Action::Status(w) => {
            let meta = w.meta().clone();
            let ns = meta.namespace.unwrap_or_default();
            let name = meta.name.unwrap_or_default();
            store.update_object(resource(w.kind()), &ns, &name, |o| {
                copy_status(o, &w);
                Ok(())
            })?;
        }
        Action::Delete {
            kind,
            namespace,
            name,
        } => {
            store.delete_object(resource(kind), &namespace, &name)?;
        }
        Action::Event(ev) => {
            store.add_event(*ev)?;
        }
    }
    Ok(())
}
