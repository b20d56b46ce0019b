//! A running pod's spec changed through the API (`docs/simulator-kubelet.md` §1, §4): new
//! ephemeral containers ([`super::ephemeral`]) and new images of `containers[*]` /
//! `initContainers[*]`, the only container fields the API server lets change.
//!
//! A new image changes the container's spec hash. As `computePodActions` in
//! `pkg/kubelet/kuberuntime/kuberuntime_manager.go` decides, a running instance is killed —
//! `Killing` `Container X definition changed, will be restarted`, its preStop hook, the stop
//! signal, SIGKILL after `terminationGracePeriodSeconds` — and a new instance is started
//! whatever `restartPolicy` says, without CrashLoopBackOff (the back-off key includes the spec
//! hash): the image is pulled per the pull policy (a missing image gives `ErrImagePull` /
//! `ImagePullBackOff` as for a new container), `restartCount` + 1, the killed instance in
//! `lastState.terminated`. A container that is not running (waiting in back-off, or after a
//! failed pull) starts with the new image at once. A completed regular init container only
//! takes the new image (it does not run again). The other changes the API allows
//! (`activeDeadlineSeconds`, `tolerations`, `terminationGracePeriodSeconds`) are taken as they
//! are; `activeDeadlineSeconds` is not enforced.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{Container, Pod};

use super::events::EventSpec;
use super::pod_state::{PodRun, Role, RunState};
use super::{Node, Work, after, ephemeral, interactive, termination};

/// `Killing`: `Container X definition changed, will be restarted`.
fn definition_changed(fp: &str, container: &str) -> EventSpec {
    EventSpec {
        type_: "Normal",
        reason: "Killing",
        message: format!("Container {container} definition changed, will be restarted"),
        field_path: Some(fp.to_string()),
        component: "kubelet",
    }
}

/// Applies `pod`'s spec to `run` at `at` (see the module docs).
pub(crate) fn update(node: &mut Node, run: &mut PodRun, pod: &Pod, at: Timestamp) {
    let Some(new) = pod.spec.as_ref() else {
        return;
    };
    ephemeral::add_new(node, run, pod, at);
    if run.adopted {
        return;
    }
    let specs: Vec<Container> = new
        .init_containers
        .iter()
        .flatten()
        .chain(new.containers.iter())
        .cloned()
        .collect();
    if let Some(s) = run.pod.spec.as_mut() {
        s.containers.clone_from(&new.containers);
        s.init_containers.clone_from(&new.init_containers);
        s.active_deadline_seconds = new.active_deadline_seconds;
        s.tolerations.clone_from(&new.tolerations);
        s.termination_grace_period_seconds = new.termination_grace_period_seconds;
    }
    for spec in specs {
        let Some(i) = run
            .containers
            .iter()
            .position(|c| c.role != Role::Ephemeral && c.spec.name == spec.name)
        else {
            continue;
        };
        if run.containers[i].spec.image == spec.image {
            continue;
        }
        new_image(node, run, i, spec, at);
    }
}

/// Container `i` gets `spec` (a new image).
fn new_image(node: &mut Node, run: &mut PodRun, i: usize, spec: Container, at: Timestamp) {
    let completed_init = {
        let c = &run.containers[i];
        c.role == Role::Init && matches!(&c.state, RunState::Terminated(t) if t.exit_code == 0)
    };
    let c = &mut run.containers[i];
    c.program = interactive::program_for(&spec);
    c.spec = spec;
    if completed_init || run.terminating.is_some() || run.terminal {
        return;
    }
    c.image_id.clear();
    c.pull_failed_at = None;
    c.respawn = true;
    if !c.is_running() {
        c.busy = false;
        node.schedule(run, at, Work::Sync);
        return;
    }
    let fp = c.field_path();
    let name = c.spec.name.clone();
    let generation = c.generation;
    termination::stop_with(node, run, i, definition_changed(&fp, &name), at);
    let grace = run
        .pod
        .spec
        .as_ref()
        .and_then(|s| s.termination_grace_period_seconds)
        .unwrap_or(30)
        .max(0);
    let deadline = after(at, SignedDuration::from_secs(grace));
    node.schedule(run, deadline, Work::Kill { c: i, generation });
}
