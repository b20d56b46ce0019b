//! `pods/attach` to a container whose PID 1 is not an interactive shell (`sh -c 'echo hi'`, a
//! server): the session carries the running instance's output and ends, with a Success status
//! whatever the exit code (the kubelet's attach reports none), when the instance stops.
//! stdin is read and dropped (the simulated programs read none).
//!
//! The output is the instance's log from its start, then what it writes (one channel, stdout:
//! the model keeps stdout and stderr in one log). A real runtime passes only what is written
//! after the attach; `kubectl debug` attaches within moments of the start, before a real
//! program would have printed, while the simulated one prints at its start instant — so the
//! simulator delivers the start's output too (`docs/simulator-kubelet.md` §3).

use k8s_openapi::api::core::v1::Pod;

use super::attach::running_instance;
use super::channels::{Channels, Ending, Input, Session};
use crate::api::logs::follow::{Follow, spawn};
use crate::api::store::Store;

impl<C: Channels> Session<C> {
    /// Follows `container`'s running instance (see the module docs); [`Ending::Gone`] when the
    /// client leaves first.
    pub(super) async fn follow_output(
        &mut self,
        store: &Store,
        pod: &Pod,
        container: &str,
    ) -> Ending {
        let Some(id) = running_instance(pod, container) else {
            return self.hold().await;
        };
        let follow = Follow {
            namespace: pod
                .metadata
                .namespace
                .clone()
                .unwrap_or_else(|| "default".into()),
            pod: pod.metadata.name.clone().unwrap_or_default(),
            container_id: id,
            cursor: 0,
            timestamps: false,
            limit: None,
        };
        let mut rx = spawn(store.clone(), follow, Vec::new());
        loop {
            tokio::select! {
                chunk = rx.recv() => match chunk {
                    Some(bytes) => {
                        if !self.output(1, &bytes).await {
                            return Ending::Gone;
                        }
                    }
                    // The instance stopped: an empty argv tells `run` no shell exited here.
                    None => return Ending::Exit { code: 0, argv: Vec::new() },
                },
                input = self.ch.recv() => {
                    if matches!(input, Input::Gone) {
                        return Ending::Gone;
                    }
                }
            }
        }
    }
}
