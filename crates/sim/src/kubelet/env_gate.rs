//! The kubelet's last checks before it creates a container (`generateContainerConfig` in
//! `pkg/kubelet/kuberuntime/kuberuntime_container.go`), in its order:
//!
//! 1. its environment must resolve (`docs/kubelet-references.md` §Environment): a referenced
//!    ConfigMap, Secret or key that is missing fails with the message of
//!    [`super::config_refs::resolve_env`];
//! 2. `verifyRunAsNonRoot` (`security_context_others.go`): with an effective `runAsNonRoot:
//!    true` (the container's `securityContext` over the pod's) and no `runAsUser`, an image
//!    whose user is 0 ([`crate::runtime::image::SimImage::user`]) fails with `container
//!    has runAsNonRoot and image will run as root (pod: "<name>_<ns>(<uid>)", container:
//!    <name>)`; an effective `runAsUser: 0` with `container's runAsUser breaks non-root policy
//!    (pod: …, container: …)`.
//!
//! Then the container waits in `CreateContainerConfigError` with that message, a `Failed`
//! event `Error: <message>` is recorded (`startContainer`), and the pod worker syncs again
//! after [`CONFIG_RETRY`] (no CrashLoopBackOff: nothing ran); the container starts at the first
//! sync that finds everything — for runAsNonRoot only a changed spec (a new pod) can.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Container;

use super::config_refs::resolve_env;
use super::events;
use super::pod_state::{PodRun, RunState};
use super::{Node, Work, after};
use crate::runtime::image::SimImage;

/// How long the pod worker waits after a failed sync before the next one (`backOffPeriod`,
/// 10 s, in `pkg/kubelet/kubelet.go`; the real one adds up to 50 % jitter, not modelled).
pub const CONFIG_RETRY: SignedDuration = SignedDuration::from_secs(10);

/// `verifyRunAsNonRoot` for container `c` of `run` (see the module docs).
fn verify_run_as_non_root(run: &PodRun, c: &Container) -> Result<(), String> {
    let pod_sc = run
        .pod
        .spec
        .as_ref()
        .and_then(|s| s.security_context.as_ref());
    let sc = c.security_context.as_ref();
    let non_root = sc
        .and_then(|s| s.run_as_non_root)
        .or_else(|| pod_sc.and_then(|s| s.run_as_non_root));
    if non_root != Some(true) {
        return Ok(());
    }
    let pod = format!("{}_{}({})", run.name, run.namespace, run.uid);
    let user = sc
        .and_then(|s| s.run_as_user)
        .or_else(|| pod_sc.and_then(|s| s.run_as_user));
    let who = format!("(pod: \"{pod}\", container: {})", c.name);
    match user {
        Some(0) => Err(format!(
            "container's runAsUser breaks non-root policy {who}"
        )),
        Some(_) => Ok(()),
        None if SimImage::of(c.image.as_deref().unwrap_or("")).user() == 0 => Err(format!(
            "container has runAsNonRoot and image will run as root {who}"
        )),
        None => Ok(()),
    }
}

/// Whether container `i` of `run` may be created at `at`; when not, sets its waiting state,
/// records the event and queues the next sync.
pub(crate) fn ready(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) -> bool {
    let spec = &run.containers[i].spec;
    let err = match resolve_env(&run.namespace, spec, &node.mounts.sources)
        .and_then(|_| verify_run_as_non_root(run, spec))
    {
        Ok(()) => return true,
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
