//! `Session`: owns the background tasks (pod watch, events watch) and executes `Cmd`s.

use k8s_openapi::api::core::v1::{Event, Pod};
use kube::Api;
use tokio::sync::mpsc::Sender;
use tokio::task::JoinHandle;

use super::config::Target;
use super::watch::{watch_events, watch_pod};
use crate::app::{Cmd, Msg};

/// A task that is aborted when dropped (replacing a stream aborts the old one).
#[derive(Debug)]
struct Owned(JoinHandle<()>);

impl Drop for Owned {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Owns every background task talking to the cluster; dropping it aborts them all.
#[derive(Debug)]
pub struct Session {
    target: Target,
    tx: Sender<Msg>,
    pod_watch: Option<Owned>,
    events_watch: Option<Owned>,
}

impl Session {
    /// Starts the pod watch for `target`; its messages go to `tx`.
    /// Must be called inside a tokio runtime.
    #[must_use]
    pub fn start(target: Target, tx: Sender<Msg>) -> Session {
        let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
        let task = tokio::spawn(watch_pod(
            api,
            target.namespace.clone(),
            target.pod.clone(),
            tx.clone(),
        ));
        Session {
            target,
            tx,
            pod_watch: Some(Owned(task)),
            events_watch: None,
        }
    }

    /// Carries out one effect returned by `update` (spawning or aborting tasks).
    /// `Cmd::Quit` is handled by the loop, not here.
    pub fn execute(&mut self, cmd: &Cmd) {
        match cmd {
            Cmd::WatchEvents { uid } => {
                let api: Api<Event> =
                    Api::namespaced(self.target.client.clone(), &self.target.namespace);
                self.events_watch = Some(Owned(tokio::spawn(watch_events(
                    api,
                    self.target.namespace.clone(),
                    self.target.pod.clone(),
                    uid.clone(),
                    self.tx.clone(),
                ))));
            }
            Cmd::Quit => {
                self.pod_watch = None;
                self.events_watch = None;
            }
        }
    }
}
