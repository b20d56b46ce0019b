//! The session's issue #5 effects: ephemeral debug containers, port-forwards (one
//! [`Forwarder`] per forward, its statuses relayed as `Msg::Forward`), and the demo's pod list.
//! The terminal handoff itself (`Cmd::OpenShell`, `Cmd::AttachDebug`) is the loop's, see
//! `app::run`.

use std::collections::HashMap;
use std::sync::Arc;

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::{Patch, PatchParams};
use tokio::sync::mpsc::Sender;

use super::config::Target;
use super::debug::{Profile, debug_container, debugger_name, wait_running};
use super::forward::Forwarder;
use super::task::Owned;
use crate::app::Msg;
use crate::app::msg::ForwardMsg;
use crate::app::shell::DEBUG_IMAGE;
use crate::model::forward::PortSpec;

/// Lists the pods the switcher offers as `(namespace, name)`. Provided by `podscope demo` from
/// the simulator's in-process store; absent for real clusters.
pub type PodLister = Arc<dyn Fn() -> Vec<(String, String)> + Send + Sync>;

/// Running forwards and the pod lister. Dropping it closes every listener.
#[derive(Default)]
pub struct Tools {
    /// Forwards by id: the starter/relay task, which owns the [`Forwarder`] (dropped with it).
    forwards: HashMap<u64, Owned>,
    /// Debug-container tasks (patch + wait).
    debug: Vec<Owned>,
    /// The demo's pod list.
    pub lister: Option<PodLister>,
}

impl std::fmt::Debug for Tools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tools")
            .field("forwards", &self.forwards.keys().collect::<Vec<_>>())
            .field("lister", &self.lister.is_some())
            .finish_non_exhaustive()
    }
}

impl Tools {
    /// Starts forward `id` for `spec` to `target`'s pod: binds, then relays every status change
    /// as `Msg::Forward(Status)`; a bind failure is `Msg::Forward(Failed)`.
    pub fn add_forward(&mut self, target: &Target, id: u64, spec: PortSpec, tx: Sender<Msg>) {
        // A finished task is a forward that could not start (a running one ends only when the
        // session drops).
        self.forwards.retain(|_, t| !t.0.is_finished());
        let (client, ns, pod) = (
            target.client.clone(),
            target.namespace.clone(),
            target.pod.clone(),
        );
        let task = tokio::spawn(async move {
            let fwd = match Forwarder::start(client, &ns, &pod, &[spec]).await {
                Ok(f) => f,
                Err(e) => {
                    let error = e.to_string();
                    let _ = tx
                        .send(Msg::Forward(ForwardMsg::Failed { id, error }))
                        .await;
                    return;
                }
            };
            let mut rx = fwd.subscribe();
            loop {
                let status = rx.borrow_and_update().first().cloned();
                if let Some(status) = status
                    && tx
                        .send(Msg::Forward(ForwardMsg::Status { id, status }))
                        .await
                        .is_err()
                {
                    break;
                }
                if rx.changed().await.is_err() {
                    break;
                }
            }
            drop(fwd);
        });
        self.forwards.insert(id, Owned(task));
    }

    /// Stops forward `id` (its listener closes when the task's `Forwarder` drops).
    pub fn stop_forward(&mut self, id: u64) {
        self.forwards.remove(&id);
    }

    /// Stops every forward.
    pub fn stop_all(&mut self) {
        self.forwards.clear();
        self.debug.clear();
    }

    /// Adds a `debugger-xxxxx` ephemeral container ([`DEBUG_IMAGE`], profile general, tty,
    /// targeting `target_container`) and waits until it runs: `Msg::DebugReady{name}` or
    /// `Msg::DebugFailed`.
    pub fn add_debug(&mut self, target: &Target, target_container: String, tx: Sender<Msg>) {
        self.debug.retain(|t| !t.0.is_finished());
        let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
        let pod = target.pod.clone();
        let name = debugger_name(&mut rand::rng());
        let task = tokio::spawn(async move {
            let ec = debug_container(
                &name,
                DEBUG_IMAGE,
                &target_container,
                Profile::General,
                &[],
                true,
            );
            let patch = serde_json::json!({"spec": {"ephemeralContainers": [ec]}});
            let msg = match api
                .patch_ephemeral_containers(&pod, &PatchParams::default(), &Patch::Strategic(patch))
                .await
            {
                Err(kube::Error::Api(s)) => Msg::DebugFailed(s.message.clone()),
                Err(e) => Msg::DebugFailed(e.to_string()),
                Ok(_) => match wait_running(&api, &pod, &name).await {
                    Ok(()) => Msg::DebugReady { name },
                    Err(e) => Msg::DebugFailed(e.to_string()),
                },
            };
            let _ = tx.send(msg).await;
        });
        self.debug.push(Owned(task));
    }

    /// Answers `Cmd::ListPods` with `Msg::PodList` (empty without a lister).
    pub fn list_pods(&self, tx: &Sender<Msg>) {
        let pods = self.lister.as_ref().map(|l| l()).unwrap_or_default();
        let tx = tx.clone();
        tokio::spawn(async move {
            let _ = tx.send(Msg::PodList(pods)).await;
        });
    }
}
