//! What the session starts on the user's demand: ephemeral debug containers (`d`), port-forwards
//! (one [`Forwarder`] per forward, its statuses relayed as `Msg::Forward`), and the pod picker's
//! list+watch (`super::pod_list_watch`), only while the picker is open.
//! The terminal handoff itself (`Cmd::OpenShell`, `Cmd::AttachDebug`) is the loop's, see
//! `tui::run`.

use std::collections::HashMap;

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use tokio::sync::mpsc::Sender;
use tokio::sync::watch;

use super::config::Target;
use super::debug::{
    Profile, add_ephemeral_container, debug_container, debugger_name, wait_running,
};
use super::exec::ExecError;
use super::forward::Forwarder;
use super::target_tx::TargetTx;
use crate::app::Msg;
use crate::app::generation::Generation;
use crate::app::msg::ForwardMsg;
use crate::app::shell::DEBUG_IMAGE;
use crate::model::forward::PortSpec;
use tokio_util::task::AbortOnDropHandle;

/// Running forwards, debug-container tasks and the picker's list+watch. Dropping it closes
/// every listener and aborts the tasks.
#[derive(Default)]
pub struct OnDemand {
    /// Forwards by id: the starter/relay task, which owns the [`Forwarder`] (dropped with it).
    forwards: HashMap<u64, AbortOnDropHandle<()>>,
    /// Debug-container tasks (patch + wait).
    debug: Vec<AbortOnDropHandle<()>>,
    /// The pod picker's list+watch, while the picker is open.
    pod_list: Option<AbortOnDropHandle<()>>,
}

impl std::fmt::Debug for OnDemand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnDemand")
            .field("forwards", &self.forwards.keys().collect::<Vec<_>>())
            .field("pod_list", &self.pod_list.is_some())
            .finish_non_exhaustive()
    }
}

impl OnDemand {
    /// Starts forward `id` for `spec` to the pod `pod` names (`target`'s, or a workload's pod
    /// the session follows since): binds, then relays every status change as
    /// `Msg::Forward(Status)`; a bind failure is `Msg::Forward(Failed)`. Each is stamped with
    /// the current value of `generation`; when it changes (the pod was re-created, or another
    /// pod of the workload is followed: the forward follows), the current status is sent again
    /// under the new one.
    pub fn add_forward(
        &mut self,
        target: &Target,
        id: u64,
        spec: PortSpec,
        tx: Sender<Msg>,
        mut generation: watch::Receiver<Generation>,
        pod: watch::Receiver<String>,
    ) {
        // A finished task is a forward that could not start (a running one ends only when the
        // session drops).
        self.forwards.retain(|_, t| !t.is_finished());
        let (client, ns) = (target.client.clone(), target.namespace.clone());
        let task = tokio::spawn(async move {
            let fwd = match Forwarder::start_following(client, &ns, pod, &[spec]).await {
                Ok(f) => f,
                Err(e) => {
                    let error = e.to_string();
                    let stamp = *generation.borrow();
                    let _ = tx
                        .send(Msg::for_target(
                            stamp,
                            Msg::Forward(ForwardMsg::Failed { id, error }),
                        ))
                        .await;
                    return;
                }
            };
            let mut rx = fwd.subscribe();
            loop {
                let status = rx.borrow_and_update().first().cloned();
                let stamp = *generation.borrow_and_update();
                if let Some(status) = status
                    && tx
                        .send(Msg::for_target(
                            stamp,
                            Msg::Forward(ForwardMsg::Status { id, status }),
                        ))
                        .await
                        .is_err()
                {
                    break;
                }
                let changed = tokio::select! {
                    changed = rx.changed() => changed.is_ok(),
                    changed = generation.changed() => changed.is_ok(),
                };
                if !changed {
                    break;
                }
            }
            drop(fwd);
        });
        self.forwards.insert(id, AbortOnDropHandle::new(task));
    }

    /// Stops forward `id` (its listener closes when the task's `Forwarder` drops).
    pub fn stop_forward(&mut self, id: u64) {
        self.forwards.remove(&id);
    }

    /// Stops every forward, debug-container task and the picker's list+watch.
    pub fn stop_all(&mut self) {
        self.forwards.clear();
        self.debug.clear();
        self.pod_list = None;
    }

    /// Adds a `debugger-xxxxx` ephemeral container ([`DEBUG_IMAGE`], profile general, tty,
    /// targeting `target_container`) and waits until it runs: `Msg::DebugReady{name}` or
    /// `Msg::DebugFailed`.
    pub fn add_debug(&mut self, target: &Target, target_container: String, tx: TargetTx) {
        self.debug.retain(|t| !t.is_finished());
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
            let msg = match add_ephemeral_container(&api, &pod, &ec).await {
                Err(ExecError::Api { message, .. }) => Msg::DebugFailed(message),
                Err(e) => Msg::DebugFailed(e.to_string()),
                Ok(()) => match wait_running(&api, &pod, &name).await {
                    Ok(()) => Msg::DebugReady { name },
                    Err(e) => Msg::DebugFailed(e.to_string()),
                },
            };
            let _ = tx.send(msg).await;
        });
        self.debug.push(AbortOnDropHandle::new(task));
    }

    /// `Cmd::WatchPodList`: starts the picker's list+watch of `namespace`'s pods (`None`: all
    /// namespaces) through `client`, aborting a running one; its messages go through `tx`.
    pub fn watch_pod_list(
        &mut self,
        client: kube::Client,
        namespace: Option<String>,
        tx: TargetTx,
    ) {
        let task = tokio::spawn(super::pod_list_watch::watch_pod_list(client, namespace, tx));
        self.pod_list = Some(AbortOnDropHandle::new(task));
    }

    /// `Cmd::StopPodList`: aborts the picker's list+watch (no more requests or messages).
    pub fn stop_pod_list(&mut self) {
        self.pod_list = None;
    }

    /// Whether the picker's list+watch is running (for tests of the session).
    #[must_use]
    pub fn pod_list_running(&self) -> bool {
        self.pod_list.as_ref().is_some_and(|t| !t.is_finished())
    }
}
