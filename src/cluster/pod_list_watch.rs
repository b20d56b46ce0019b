//! The pod picker's one list+watch: kube-rs's `watcher` on the pods of one namespace
//! (`Api::namespaced`) or of all of them (`Api::all`, `-A`), run only while the picker is open
//! (`Cmd::WatchPodList` starts it, `Cmd::StopPodList` or the next start aborts it). Each
//! (re)list is sent whole, then each change one pod at a time; `docs/picker.md` describes it.

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WatchEvent};
use kube::{Api, Client};

use super::target_tx::TargetTx;
use super::watch::watch_error;
use crate::app::Msg;
use crate::app::switcher::PodChoice;

/// The pods API the picker lists: `namespace`'s, or every namespace's for `None`.
#[must_use]
pub fn pods_api(client: Client, namespace: Option<&str>) -> Api<Pod> {
    match namespace {
        Some(ns) => Api::namespaced(client, ns),
        None => Api::all(client),
    }
}

/// Lists and watches the pods of `namespace` (`None`: all namespaces) until aborted or the
/// receiver is gone: `Msg::PodList` with every pod after each (re)list (the initial one,
/// after `410 Expired`, after an error), then `Msg::PodListApplied` / `Msg::PodListDeleted`
/// per change, and `Msg::PodListFailed` on errors (the watcher retries with its default
/// back-off, 800 ms → 30 s), each stamped by `tx`.
pub async fn watch_pod_list(client: Client, namespace: Option<String>, tx: TargetTx) {
    let api = pods_api(client, namespace.as_deref());
    let mut stream = watcher::watcher(api, watcher::Config::default())
        .default_backoff()
        .boxed();
    let mut listing: Vec<PodChoice> = Vec::new();
    while let Some(item) = stream.next().await {
        let msg = match item {
            Ok(WatchEvent::Init) => {
                listing.clear();
                continue;
            }
            Ok(WatchEvent::InitApply(pod)) => {
                listing.push(PodChoice::from_pod(&pod));
                continue;
            }
            Ok(WatchEvent::InitDone) => Msg::PodList(std::mem::take(&mut listing)),
            Ok(WatchEvent::Apply(pod)) => Msg::PodListApplied(PodChoice::from_pod(&pod)),
            Ok(WatchEvent::Delete(pod)) => Msg::PodListDeleted {
                namespace: pod.metadata.namespace.clone().unwrap_or_default(),
                name: pod.metadata.name.clone().unwrap_or_default(),
            },
            Err(e) => Msg::PodListFailed(match &namespace {
                Some(ns) => watch_error(&e, "pods", ns),
                None => {
                    watch_error(&e, "pods", "").replace(" in namespace \"\"", " in all namespaces")
                }
            }),
        };
        if tx.send(msg).await.is_err() {
            return;
        }
    }
}
