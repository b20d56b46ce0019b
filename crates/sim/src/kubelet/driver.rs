//! The kubelet driver: the task that runs the pure [`Kubelet`] model against the simulator's
//! [`Store`] on the simulator's clock (the model's only IO).
//!
//! Loop: take the queued [`Intent`]s (pods created or deleted through the API) in order, call
//! `admit`/`delete` at the clock's `now`, then `advance(now)`, and apply every [`Change`] in the
//! order the kubelet produced it:
//! - `Pod`: the stored pod gets the kubelet's `status` and `spec.nodeName` (metadata stays the
//!   API's: labels, deletion fields) — one MODIFIED with a new resourceVersion, skipped when
//!   nothing changed or the stored pod is another incarnation (different uid);
//! - `Event`: created, or replaced with its bumped `count` (uid and resourceVersion assigned);
//! - `Log`: appended to the container instance's log (`containerID` from
//!   [`kubelet::container_id`]);
//! - `Removed`: the pod is deleted (watchers get DELETED) if its deletion had started.
//!
//! `Update` intents (a spec changed through the API) go to `Kubelet::update`, `Pid1Exited` (an
//! attached interactive shell ended) to `Kubelet::pid1_exited`. Of a pod the kubelet adopted
//! for its ephemeral containers (a fixture's static pod) only `ephemeralContainerStatuses` are
//! written, and its deletion is finished at once as for any static pod.
//!
//! Then it sleeps until `next_wakeup()` (turned into real time through the clock's speed; a
//! frozen clock never reaches it), a new intent, or shutdown. A pod deleted through the API that
//! the kubelet does not run (a fixture pod) is removed at once.

use std::collections::HashMap;

use k8s_openapi::api::core::v1::Pod;

use crate::api::store::{Intent, LogLine, Store};
use crate::kubelet::{self, Change, Kubelet};

/// Runs until the store shuts down (see the module docs).
pub(crate) async fn run(store: Store, mut kubelet: Kubelet) {
    let mut shutdown = store.shutdown_signal();
    let mut uids: HashMap<(String, String), String> = HashMap::new();
    loop {
        if *shutdown.borrow_and_update() {
            return;
        }
        step(&store, &mut kubelet, &mut uids);
        let delay = kubelet
            .next_wakeup()
            .and_then(|at| store.clock().real_delay_until(at));
        tokio::select! {
            () = store.intent_queued() => {}
            () = sleep_opt(delay) => {}
            _ = shutdown.changed() => return,
        }
    }
}

async fn sleep_opt(delay: Option<std::time::Duration>) {
    match delay {
        // Never sleep less than 1 ms: the clock may read a hair before the wakeup instant.
        Some(d) => tokio::time::sleep(d.max(std::time::Duration::from_millis(1))).await,
        None => std::future::pending().await,
    }
}

/// One pass: intents, then everything due, applied in order.
pub(crate) fn step(
    store: &Store,
    kubelet: &mut Kubelet,
    uids: &mut HashMap<(String, String), String>,
) {
    let now = store.now();
    kubelet.set_config_sources(super::config_store::sources(store));
    // A kubelet the control plane lost (`sim::nodes`) hears no deletes and writes nothing.
    let lost = crate::nodes::unreachable(store, &kubelet.node.cfg.node_name);
    let mut changes = Vec::new();
    for intent in store.take_intents() {
        match intent {
            Intent::Admit { namespace, name } => {
                let Some(pod) = store.pod(&namespace, &name) else {
                    continue;
                };
                let uid = pod.metadata.uid.clone().unwrap_or_default();
                uids.insert((namespace, name), uid);
                changes.extend(kubelet.admit(pod, now));
            }
            Intent::Update { namespace, name } => {
                let Some(pod) = store.pod(&namespace, &name) else {
                    continue;
                };
                let uid = pod.metadata.uid.clone().unwrap_or_default();
                uids.entry((namespace, name)).or_insert(uid);
                changes.extend(kubelet.update(pod, now));
            }
            Intent::Pid1Exited {
                namespace,
                name,
                container,
                code,
            } => changes.extend(kubelet.pid1_exited(&namespace, &name, &container, code, now)),
            Intent::Delete { .. } if lost => {}
            Intent::Delete {
                namespace,
                name,
                grace,
            } => {
                if kubelet.adopted(&namespace, &name) {
                    kubelet.forget(&namespace, &name);
                    if let Err(e) = store.finalize_pod(&namespace, &name) {
                        tracing::debug!("deleting static pod {namespace}/{name}: {e}");
                    }
                } else if kubelet.pod(&namespace, &name).is_some() {
                    changes.extend(kubelet.delete(&namespace, &name, Some(grace), now));
                } else if let Err(e) = store.finalize_pod(&namespace, &name) {
                    tracing::debug!("deleting static pod {namespace}/{name}: {e}");
                }
            }
        }
    }
    changes.extend(kubelet.advance(now));
    if lost {
        return;
    }
    for change in changes {
        if let Change::Pod(pod) = &change
            && kubelet.adopted(
                pod.metadata.namespace.as_deref().unwrap_or_default(),
                pod.metadata.name.as_deref().unwrap_or_default(),
            )
        {
            apply_ephemeral_statuses(store, pod);
            continue;
        }
        apply(store, uids, change);
    }
}

fn apply(store: &Store, uids: &mut HashMap<(String, String), String>, change: Change) {
    match change {
        Change::Pod(pod) => apply_pod(store, &pod),
        Change::Event(ev) => {
            if let Err(e) = store.add_event(*ev) {
                tracing::warn!("kubelet event refused: {e}");
            }
        }
        Change::Log {
            namespace,
            pod,
            container,
            restart_count,
            at,
            line,
        } => {
            let Some(uid) = uids.get(&(namespace.clone(), pod.clone())) else {
                return;
            };
            let id = kubelet::container_id(uid, &container, restart_count);
            store.append_log(
                &namespace,
                &pod,
                &id,
                LogLine {
                    time: at,
                    text: line,
                },
            );
        }
        Change::Removed { namespace, name } => {
            let deleting = store
                .pod(&namespace, &name)
                .is_some_and(|p| p.metadata.deletion_timestamp.is_some());
            if deleting {
                // Already gone (a force delete) is fine; finalizers keep it.
                let _ = store.finalize_pod(&namespace, &name);
            }
            uids.remove(&(namespace, name));
        }
    }
}

fn apply_pod(store: &Store, new: &Pod) {
    let ns = new.metadata.namespace.clone().unwrap_or_default();
    let name = new.metadata.name.clone().unwrap_or_default();
    let node = new.spec.as_ref().and_then(|s| s.node_name.clone());
    let result = store.try_update_pod(&ns, &name, |stored| {
        if stored.metadata.uid != new.metadata.uid {
            return Ok(());
        }
        stored.status = new.status.clone();
        if let Some(spec) = stored.spec.as_mut() {
            spec.node_name = node;
        }
        Ok(())
    });
    if let Err(e) = result {
        // The pod was force-deleted while the kubelet still ran it.
        tracing::debug!("kubelet status for {ns}/{name} dropped: {e}");
    }
}

/// An adopted (static) pod: only its `ephemeralContainerStatuses` are the kubelet's.
fn apply_ephemeral_statuses(store: &Store, new: &Pod) {
    let ns = new.metadata.namespace.clone().unwrap_or_default();
    let name = new.metadata.name.clone().unwrap_or_default();
    let statuses = new
        .status
        .as_ref()
        .and_then(|s| s.ephemeral_container_statuses.clone());
    let result = store.try_update_pod(&ns, &name, |stored| {
        if stored.metadata.uid == new.metadata.uid {
            stored
                .status
                .get_or_insert_with(Default::default)
                .ephemeral_container_statuses = statuses;
        }
        Ok(())
    });
    if let Err(e) = result {
        tracing::debug!("kubelet status for {ns}/{name} dropped: {e}");
    }
}
