//! The kubelet's last check before it creates a container: its environment must resolve
//! (`docs/kubelet-references.md` §Environment). When a referenced ConfigMap, Secret or key is
//! missing, `generateContainerConfig` fails: the container waits in
//! `CreateContainerConfigError` with the message of [`super::config_refs::resolve_env`], a
//! `Failed` event `Error: <message>` is recorded (`startContainer` in
//! `pkg/kubelet/kuberuntime/kuberuntime_container.go`), and the pod worker syncs again after
//! [`CONFIG_RETRY`] (no CrashLoopBackOff: nothing ran); the container starts at the first sync
//! that finds everything.

use jiff::{SignedDuration, Timestamp};

use super::config_refs::resolve_env;
use super::events;
use super::pod_state::{PodRun, RunState};
use super::{Node, Work, after};

/// How long the pod worker waits after a failed sync before the next one (`backOffPeriod`,
/// 10 s, in `pkg/kubelet/kubelet.go`; the real one adds up to 50 % jitter, not modelled).
pub const CONFIG_RETRY: SignedDuration = SignedDuration::from_secs(10);

/// Whether container `i` of `run` may be created at `at`; when not, sets its waiting state,
/// records the event and queues the next sync.
pub(crate) fn ready(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) -> bool {
    let err = match resolve_env(
        &run.namespace,
        &run.containers[i].spec,
        &node.mounts.sources,
    ) {
        Ok(_) => return true,
        Err(e) => e,
    };
    let fp = run.containers[i].field_path();
    let c = &mut run.containers[i];
    c.busy = false;
    if let RunState::Terminated(t) = &c.state {
        c.last = Some(t.clone());
    }
    c.state = RunState::Waiting {
        reason: "CreateContainerConfigError".into(),
        message: Some(err.clone()),
    };
    node.event(run, events::failed_reason(&fp, &err), at);
    node.schedule(run, after(at, CONFIG_RETRY), Work::Sync);
    false
}
