//! The [`Kubelet`]'s entry points for changes after admission: a pod's spec updated through the
//! API, the end of an interactive PID 1 reported by its attach, static pods taken on for their
//! ephemeral containers (`docs/simulator-kubelet.md`).

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;

use super::{Change, Kubelet, emit_if_changed, ephemeral, spec_update};

impl Kubelet {
    /// The stored pod's spec changed (new ephemeral containers, new images, the other fields
    /// the API server lets change): applies it ([`spec_update`]). A pod this kubelet does not
    /// run (a fixture's static pod) is adopted for its ephemeral containers only; another
    /// incarnation (a different uid) is ignored. Returns the changes due at `now`.
    pub fn update(&mut self, pod: Pod, now: Timestamp) -> Vec<Change> {
        let key = (
            pod.metadata
                .namespace
                .clone()
                .unwrap_or_else(|| "default".into()),
            pod.metadata.name.clone().unwrap_or_default(),
        );
        match self.pods.get_mut(&key) {
            Some(run) if Some(&run.uid) == pod.metadata.uid.as_ref() => {
                spec_update::update(&mut self.node, run, &pod, now);
                emit_if_changed(&mut self.node, run, now);
            }
            Some(_) => {}
            None => {
                let has_ephemeral = pod
                    .spec
                    .as_ref()
                    .and_then(|s| s.ephemeral_containers.as_ref())
                    .is_some_and(|l| !l.is_empty());
                if has_ephemeral {
                    let mut run = ephemeral::adopt(&mut self.node, pod, now);
                    emit_if_changed(&mut self.node, &mut run, now);
                    self.pods.insert(key, run);
                }
            }
        }
        self.advance(now)
    }

    /// The interactive shell that is `container`'s PID 1 exited with `code` (its attach ended
    /// it, [`super::interactive`]): the running instance terminates (`Completed` for 0, else
    /// `Error`) and the usual rules follow (restarts per `restartPolicy`; an ephemeral container
    /// stays terminated). Unknown pods or containers yield no changes.
    pub fn pid1_exited(
        &mut self,
        namespace: &str,
        name: &str,
        container: &str,
        code: i32,
        now: Timestamp,
    ) -> Vec<Change> {
        let key = (namespace.to_string(), name.to_string());
        if let Some(run) = self.pods.get_mut(&key)
            && let Some(i) = run
                .containers
                .iter()
                .position(|c| c.spec.name == container && c.is_running())
        {
            let generation = run.containers[i].generation;
            let reason = if code == 0 { "Completed" } else { "Error" };
            super::instance::exit(&mut self.node, run, i, generation, code, reason, now);
            emit_if_changed(&mut self.node, run, now);
        }
        self.advance(now)
    }

    /// Whether the pod is one this kubelet adopted for its ephemeral containers (a fixture's
    /// static pod): its other containers and its deletion are not the kubelet's.
    pub fn adopted(&self, namespace: &str, name: &str) -> bool {
        self.pods
            .get(&(namespace.to_string(), name.to_string()))
            .is_some_and(|r| r.adopted)
    }

    /// Drops an adopted pod (its deletion is finished by the driver at once).
    pub fn forget(&mut self, namespace: &str, name: &str) {
        self.pods.remove(&(namespace.to_string(), name.to_string()));
    }
}
