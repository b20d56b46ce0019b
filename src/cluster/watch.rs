//! The two watches: the pod (field-selected by `metadata.name`) and its events
//! (field-selected by `involvedObject.*`). Each maps kube-rs watcher events to [`Msg`]s.
//!
//! Both use `kube::runtime::watcher` with `default_backoff()` (800 ms → 30 s): a dropped watch or
//! `410 Expired` relists, an unreachable server retries, and every error is reported as a `Msg`.

use super::config::describe_error;
use super::target_tx::TargetTx;
use crate::app::Msg;
use crate::model::{EventSummary, PodSummary};
use futures::StreamExt;
use k8s_openapi::api::core::v1::{Event, Pod};
use kube::Api;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WatchEvent};

/// Field selector for exactly one pod: `metadata.name=<name>`.
#[must_use]
pub fn pod_selector(name: &str) -> String {
    format!("metadata.name={name}")
}

/// Field selector for the events of one pod instance, as `kubectl describe` sends it
/// (`involvedObject.name=…,involvedObject.namespace=…,involvedObject.uid=…`).
#[must_use]
pub fn events_selector(name: &str, namespace: &str, uid: &str) -> String {
    format!(
        "involvedObject.name={name},involvedObject.namespace={namespace},involvedObject.uid={uid}"
    )
}

/// One line for a watcher error on `resource` in `namespace`: verb, resource and cause.
pub(crate) fn watch_error(e: &watcher::Error, resource: &str, namespace: &str) -> String {
    match e {
        watcher::Error::InitialListFailed(k) => describe_error(k, "list", resource, namespace),
        watcher::Error::WatchStartFailed(k) | watcher::Error::WatchFailed(k) => {
            describe_error(k, "watch", resource, namespace)
        }
        watcher::Error::WatchError(status) => format!(
            "watch of {resource} in namespace \"{namespace}\" ended by the server ({} {}): {}; relisting",
            status.code, status.reason, status.message
        ),
        watcher::Error::NoResourceVersion => {
            format!("watch of {resource} returned no resourceVersion; relisting")
        }
    }
}

/// Watches one pod until the receiver is gone. Sends `PodWatchRestarted` at each (re)list,
/// `PodApplied` for each sighting, `PodAbsent` when a list finished without the pod,
/// `PodDeleted` on DELETED and `PodWatchFailed` on errors (then retries with back-off), each
/// stamped by `tx` with the generation it was started for.
pub async fn watch_pod(api: Api<Pod>, namespace: String, name: String, tx: TargetTx) {
    let cfg = watcher::Config::default().fields(&pod_selector(&name));
    let mut stream = watcher::watcher(api, cfg).default_backoff().boxed();
    let mut seen_in_list = false;
    while let Some(item) = stream.next().await {
        let msg = match item {
            Ok(WatchEvent::Init) => {
                seen_in_list = false;
                Msg::PodWatchRestarted
            }
            Ok(WatchEvent::InitApply(pod)) => {
                seen_in_list = true;
                let summary = Msg::PodApplied(Box::new(PodSummary::from_pod(&pod)));
                if send_object(&tx, pod).await.is_err() {
                    return;
                }
                summary
            }
            Ok(WatchEvent::InitDone) if !seen_in_list => Msg::PodAbsent,
            Ok(WatchEvent::InitDone) => continue,
            Ok(WatchEvent::Apply(pod)) => {
                let summary = Msg::PodApplied(Box::new(PodSummary::from_pod(&pod)));
                if send_object(&tx, pod).await.is_err() {
                    return;
                }
                summary
            }
            Ok(WatchEvent::Delete(pod)) => {
                let summary = Msg::PodDeleted(Box::new(PodSummary::from_pod(&pod)));
                if send_object(&tx, pod).await.is_err() {
                    return;
                }
                summary
            }
            Err(e) => Msg::PodWatchFailed(watch_error(&e, "pods", &namespace)),
        };
        if tx.send(msg).await.is_err() {
            return;
        }
    }
}

/// `Msg::PodObject(pod)`: the object itself, sent before the summary built from it (the YAML
/// and describe views, `app::views`); moved, not copied.
async fn send_object(tx: &TargetTx, pod: Pod) -> Result<(), ()> {
    tx.send(Msg::PodObject(std::sync::Arc::new(pod)))
        .await
        .map_err(|_| ())
}

/// Watches the events of one pod instance (by UID). Sends `EventsReset` after each (re)list,
/// then `EventApplied` / `EventDeleted`, and `EventsWatchFailed` on errors, stamped by `tx`.
pub async fn watch_events(
    api: Api<Event>,
    namespace: String,
    name: String,
    uid: String,
    tx: TargetTx,
) {
    let cfg = watcher::Config::default().fields(&events_selector(&name, &namespace, &uid));
    let mut stream = watcher::watcher(api, cfg).default_backoff().boxed();
    let mut listing: Vec<EventSummary> = Vec::new();
    while let Some(item) = stream.next().await {
        let msg = match item {
            Ok(WatchEvent::Init) => {
                listing.clear();
                continue;
            }
            Ok(WatchEvent::InitApply(ev)) => {
                listing.push(EventSummary::from_event(&ev));
                continue;
            }
            Ok(WatchEvent::InitDone) => Msg::EventsReset(std::mem::take(&mut listing)),
            Ok(WatchEvent::Apply(ev)) => Msg::EventApplied(EventSummary::from_event(&ev)),
            Ok(WatchEvent::Delete(ev)) => {
                Msg::EventDeleted(ev.metadata.uid.clone().unwrap_or_default())
            }
            Err(e) => Msg::EventsWatchFailed(watch_error(&e, "events", &namespace)),
        };
        if tx.send(msg).await.is_err() {
            return;
        }
    }
}
