//! The watch of the pod's node (`Cmd::WatchNode`): one kube-rs `watcher` on the cluster-scoped
//! `nodes` with the field selector `metadata.name=<node>`, as [`super::watch`] does for the pod
//! (`docs/nodes.md`).
//!
//! RBAC-tolerant: many roles may read pods but not nodes. A 403 (or a server without `nodes`,
//! 404) ends the watch after one `Msg::NodeRefused` / `Msg::NodeGone` — no retries, nothing on
//! screen — and the reason is written to the log file (`tracing`). Other failures are logged and
//! retried with the watcher's back-off; the line keeps the node's last state meanwhile.

use futures::StreamExt;
use k8s_openapi::api::core::v1::Node;
use kube::Api;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WatchEvent};

use super::target_tx::TargetTx;
use crate::app::Msg;
use crate::model::node::NodeSummary;

/// The API error inside a watcher error, if any.
fn api_status(e: &watcher::Error) -> Option<(u16, String)> {
    match e {
        watcher::Error::InitialListFailed(kube::Error::Api(s))
        | watcher::Error::WatchStartFailed(kube::Error::Api(s))
        | watcher::Error::WatchFailed(kube::Error::Api(s)) => Some((s.code, s.message.clone())),
        _ => None,
    }
}

/// Watches node `name` until the receiver is gone or the server refuses. Sends `NodeApplied` for
/// each sighting, `NodeGone` when a list finished without it or it was DELETED (and, ending the
/// watch, when the server has no `nodes`: 404), `NodeRefused` on 403 (ending the watch), each
/// stamped by `tx`.
pub async fn watch_node(api: Api<Node>, name: String, tx: TargetTx) {
    let cfg = watcher::Config::default().fields(&format!("metadata.name={name}"));
    let mut stream = watcher::watcher(api, cfg).default_backoff().boxed();
    let mut seen_in_list = false;
    while let Some(item) = stream.next().await {
        let msg = match item {
            Ok(WatchEvent::Init) => {
                seen_in_list = false;
                continue;
            }
            Ok(WatchEvent::InitApply(node) | WatchEvent::Apply(node)) => {
                seen_in_list = true;
                Msg::NodeApplied(Box::new(NodeSummary::from_node(&node)))
            }
            Ok(WatchEvent::InitDone) if !seen_in_list => Msg::NodeGone(name.clone()),
            Ok(WatchEvent::InitDone) => continue,
            Ok(WatchEvent::Delete(_)) => Msg::NodeGone(name.clone()),
            Err(e) => match api_status(&e) {
                Some((403, reason)) => {
                    tracing::info!(node = %name, %reason, "node watch refused; the node line is hidden");
                    let _ = tx
                        .send(Msg::NodeRefused {
                            name: name.clone(),
                            reason,
                        })
                        .await;
                    return;
                }
                Some((404, reason)) => {
                    tracing::info!(node = %name, %reason, "no nodes resource; the node line is hidden");
                    let _ = tx.send(Msg::NodeGone(name.clone())).await;
                    return;
                }
                _ => {
                    tracing::warn!(node = %name, error = %e, "node watch failed; retrying");
                    continue;
                }
            },
        };
        if tx.send(msg).await.is_err() {
            return;
        }
    }
}
