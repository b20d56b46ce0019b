//! The followed workload's watches (`Cmd::WatchWorkload`): its pods through **one**
//! label-selected watch (`watcher::Config::labels`, never a namespace-wide list), the workload
//! object by `metadata.name` field selector, and for a Deployment its ReplicaSets by the same
//! label selector, folded into the summary with `model::workload::summary::from_deployment`
//! (`docs/workloads.md`, "The workload view").
//!
//! Every message is stamped `Msg::ForWorkload(stamp, …)` ([`WorkloadTx`]), so once the app
//! follows another workload (or none) what is still queued is dropped. Errors are messages
//! (`Msg::WorkloadWatchFailed`, RBAC refusals named); each watch retries with kube-rs's default
//! back-off and the others keep going.

use std::collections::BTreeMap;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WatchEvent};
use kube::{Api, Client, Resource};
use serde::de::DeserializeOwned;
use tokio::sync::mpsc::Sender;
use tokio_util::task::AbortOnDropHandle;

use super::watch::{pod_selector, watch_error};
use crate::app::Msg;
use crate::app::generation::Generation;
use crate::model::workload::{WorkloadKind, WorkloadPod, WorkloadRef, WorkloadSummary, summary};

/// A sender into the loop's channel that stamps with one workload view's generation.
#[derive(Debug, Clone)]
pub struct WorkloadTx {
    tx: Sender<Msg>,
    stamp: Generation,
}

impl WorkloadTx {
    /// Stamps what is sent through `tx` with `stamp` (`Msg::ForWorkload`).
    #[must_use]
    pub fn new(tx: Sender<Msg>, stamp: Generation) -> WorkloadTx {
        WorkloadTx { tx, stamp }
    }

    /// Sends `msg` stamped; `false` when the loop is gone.
    pub async fn send(&self, msg: Msg) -> bool {
        self.tx
            .send(Msg::ForWorkload(self.stamp, Box::new(msg)))
            .await
            .is_ok()
    }
}

/// Starts the watches of the pods `selector` matches in `namespace` and, when named, of
/// `workload` (with a Deployment's ReplicaSets); dropping the handles aborts them.
#[must_use]
pub fn start(
    client: &Client,
    namespace: &str,
    workload: Option<&WorkloadRef>,
    selector: &str,
    tx: &WorkloadTx,
) -> Vec<AbortOnDropHandle<()>> {
    let spawn = |f| AbortOnDropHandle::new(tokio::spawn(f));
    let mut tasks = vec![spawn(Box::pin(watch_pods(
        Api::namespaced(client.clone(), namespace),
        namespace.to_owned(),
        selector.to_owned(),
        tx.clone(),
    )) as futures::future::BoxFuture<'static, ()>)];
    let Some(w) = workload else {
        return tasks;
    };
    let (ns, name, tx) = (namespace.to_owned(), w.name.clone(), tx.clone());
    let task: futures::future::BoxFuture<'static, ()> = match w.kind {
        WorkloadKind::Deployment => Box::pin(watch_deployment(
            client.clone(),
            ns,
            name,
            selector.to_owned(),
            tx,
        )),
        WorkloadKind::ReplicaSet => Box::pin(watch_object(
            Api::<ReplicaSet>::namespaced(client.clone(), &ns),
            ns,
            name,
            "replicasets.apps",
            tx,
            summary::from_replica_set,
        )),
        WorkloadKind::StatefulSet => Box::pin(watch_object(
            Api::<StatefulSet>::namespaced(client.clone(), &ns),
            ns,
            name,
            "statefulsets.apps",
            tx,
            summary::from_stateful_set,
        )),
        WorkloadKind::DaemonSet => Box::pin(watch_object(
            Api::<DaemonSet>::namespaced(client.clone(), &ns),
            ns,
            name,
            "daemonsets.apps",
            tx,
            summary::from_daemon_set,
        )),
        WorkloadKind::Job => Box::pin(watch_object(
            Api::<Job>::namespaced(client.clone(), &ns),
            ns,
            name,
            "jobs.batch",
            tx,
            summary::from_job,
        )),
        WorkloadKind::CronJob => Box::pin(watch_object(
            Api::<CronJob>::namespaced(client.clone(), &ns),
            ns,
            name,
            "cronjobs.batch",
            tx,
            |cj: &CronJob| summary::from_cron_job(cj, None),
        )),
    };
    tasks.push(spawn(task));
    tasks
}

/// Watches the pods `selector` matches: `WorkloadPodsListed` after each (re)list,
/// `WorkloadPodApplied` / `WorkloadPodDeleted` after, `WorkloadWatchFailed` on errors.
pub async fn watch_pods(api: Api<Pod>, namespace: String, selector: String, tx: WorkloadTx) {
    let cfg = watcher::Config::default().labels(&selector);
    let mut stream = watcher::watcher(api, cfg).default_backoff().boxed();
    let mut listing: Vec<WorkloadPod> = Vec::new();
    while let Some(item) = stream.next().await {
        let msg = match item {
            Ok(WatchEvent::Init) => {
                listing.clear();
                continue;
            }
            Ok(WatchEvent::InitApply(pod)) => {
                listing.push(WorkloadPod::from_pod(&pod));
                continue;
            }
            Ok(WatchEvent::InitDone) => Msg::WorkloadPodsListed(std::mem::take(&mut listing)),
            Ok(WatchEvent::Apply(pod)) => {
                Msg::WorkloadPodApplied(Box::new(WorkloadPod::from_pod(&pod)))
            }
            Ok(WatchEvent::Delete(pod)) => {
                // The last state first when it was deleted (its `deletionTimestamp`): a pod
                // that only stopped matching the selector arrives as DELETED without one.
                if pod.metadata.deletion_timestamp.is_some()
                    && !tx
                        .send(Msg::WorkloadPodApplied(Box::new(WorkloadPod::from_pod(
                            &pod,
                        ))))
                        .await
                {
                    return;
                }
                Msg::WorkloadPodDeleted(pod.metadata.name.clone().unwrap_or_default())
            }
            Err(e) => Msg::WorkloadWatchFailed(watch_error(&e, "pods", &namespace)),
        };
        if !tx.send(msg).await {
            return;
        }
    }
}

/// Watches one workload object by name and sends its summary (`summarize`) on every change.
async fn watch_object<K>(
    api: Api<K>,
    namespace: String,
    name: String,
    resource: &'static str,
    tx: WorkloadTx,
    summarize: impl Fn(&K) -> WorkloadSummary + Send + 'static,
) where
    K: Resource + Clone + DeserializeOwned + std::fmt::Debug + Send + 'static,
{
    let cfg = watcher::Config::default().fields(&pod_selector(&name));
    let mut stream = watcher::watcher(api, cfg).default_backoff().boxed();
    while let Some(item) = stream.next().await {
        let msg = match item {
            Ok(WatchEvent::InitApply(obj) | WatchEvent::Apply(obj)) => {
                Msg::WorkloadApplied(Box::new(summarize(&obj)))
            }
            Ok(WatchEvent::Delete(_)) => Msg::WorkloadDeleted,
            Ok(_) => continue,
            Err(e) => Msg::WorkloadWatchFailed(watch_error(&e, resource, &namespace)),
        };
        if !tx.send(msg).await {
            return;
        }
    }
}

/// What one of a Deployment's two watches yielded.
enum Seen {
    Deployment(Result<WatchEvent<Deployment>, watcher::Error>),
    ReplicaSet(Result<WatchEvent<ReplicaSet>, watcher::Error>),
}

/// Watches a Deployment by name and its ReplicaSets by `selector`, and sends
/// `summary::from_deployment` of both whenever either changes (the ReplicaSets of a relist
/// once the list is complete).
async fn watch_deployment(
    client: Client,
    namespace: String,
    name: String,
    selector: String,
    tx: WorkloadTx,
) {
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &namespace);
    let replica_sets: Api<ReplicaSet> = Api::namespaced(client, &namespace);
    let by_name = watcher::Config::default().fields(&pod_selector(&name));
    let by_labels = watcher::Config::default().labels(&selector);
    let d = watcher::watcher(deployments, by_name)
        .default_backoff()
        .map(Seen::Deployment);
    let r = watcher::watcher(replica_sets, by_labels)
        .default_backoff()
        .map(Seen::ReplicaSet);
    let mut stream = futures::stream::select(d.boxed(), r.boxed());
    let mut deployment: Option<Deployment> = None;
    let mut sets: BTreeMap<String, ReplicaSet> = BTreeMap::new();
    let mut listing: BTreeMap<String, ReplicaSet> = BTreeMap::new();
    let key = |rs: &ReplicaSet| rs.metadata.name.clone().unwrap_or_default();
    while let Some(seen) = stream.next().await {
        let failed = match seen {
            Seen::Deployment(Ok(WatchEvent::InitApply(d) | WatchEvent::Apply(d))) => {
                deployment = Some(d);
                None
            }
            Seen::Deployment(Ok(WatchEvent::Delete(_))) => {
                deployment = None;
                if !tx.send(Msg::WorkloadDeleted).await {
                    return;
                }
                continue;
            }
            Seen::Deployment(Ok(_)) => continue,
            Seen::Deployment(Err(e)) => Some(watch_error(&e, "deployments.apps", &namespace)),
            Seen::ReplicaSet(Ok(WatchEvent::Init)) => {
                listing.clear();
                continue;
            }
            Seen::ReplicaSet(Ok(WatchEvent::InitApply(rs))) => {
                listing.insert(key(&rs), rs);
                continue;
            }
            Seen::ReplicaSet(Ok(WatchEvent::InitDone)) => {
                sets = std::mem::take(&mut listing);
                None
            }
            Seen::ReplicaSet(Ok(WatchEvent::Apply(rs))) => {
                sets.insert(key(&rs), rs);
                None
            }
            Seen::ReplicaSet(Ok(WatchEvent::Delete(rs))) => {
                sets.remove(&key(&rs));
                None
            }
            Seen::ReplicaSet(Err(e)) => Some(watch_error(&e, "replicasets.apps", &namespace)),
        };
        let msg = match (failed, &deployment) {
            (Some(text), _) => Msg::WorkloadWatchFailed(text),
            (None, Some(d)) => {
                let rs: Vec<ReplicaSet> = sets.values().cloned().collect();
                Msg::WorkloadApplied(Box::new(summary::from_deployment(d, &rs)))
            }
            (None, None) => continue,
        };
        if !tx.send(msg).await {
            return;
        }
    }
}
