//! Ephemeral containers (`spec.ephemeralContainers`, added through the `ephemeralcontainers`
//! subresource) as the kubelet runs them (`docs/simulator-kubelet.md` §2).
//!
//! - A new entry becomes a [`Role::Ephemeral`] container, waiting `ContainerCreating`
//!   (`PodInitializing` when the pod has init containers, the kubelet's default waiting state of
//!   `convertToAPIContainerStatuses` in `pkg/kubelet/kubelet_pods.go`), and is started at the next
//!   sync once the sandbox exists, whatever the init containers are doing — with the same
//!   `Pulling`/`Pulled`/`Created`/`Started` events, container IDs and imageIDs as any container
//!   ([`super::lifecycle`]). Its program is chosen from its image and command like any other
//!   container's ([`crate::runtime::programs`]); an interactive shell waits for its attach
//!   ([`super::interactive`]).
//! - It is never restarted: once it exited it stays `terminated` (`restartCount` 0).
//! - A pod the kubelet did not admit (a fixture's static pod) is [`adopt`]ed: only its ephemeral
//!   containers run here, its other statuses stay the fixture's.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Container, EphemeralContainer, Pod};

use super::pod_state::{ContainerRun, PodRun, Role};
use super::{Node, Work};

/// The `Container` an ephemeral container's common fields describe (the kubelet converts them
/// the same way: `v1.Container(ec.EphemeralContainerCommon)`); `targetContainerName` is dropped.
pub(crate) fn as_container(ec: &EphemeralContainer) -> Container {
    let mut v = serde_json::to_value(ec).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("targetContainerName");
    }
    serde_json::from_value(v).unwrap_or_else(|_| Container {
        name: ec.name.clone(),
        image: ec.image.clone(),
        command: ec.command.clone(),
        args: ec.args.clone(),
        stdin: ec.stdin,
        tty: ec.tty,
        ..Container::default()
    })
}

/// A container run for the ephemeral container `ec` of a pod (`has_init`: the pod has init
/// containers, which decides the waiting reason before the start).
fn new_run(ec: &EphemeralContainer, has_init: bool) -> ContainerRun {
    let spec = as_container(ec);
    let waiting = if has_init {
        "PodInitializing"
    } else {
        "ContainerCreating"
    };
    ContainerRun::new(spec, Role::Ephemeral, waiting)
}

/// Adds the ephemeral containers of `pod`'s spec that `run` does not know yet and queues a
/// sync to start them. Returns whether any was added.
pub(crate) fn add_new(node: &mut Node, run: &mut PodRun, pod: &Pod, at: Timestamp) -> bool {
    let Some(spec) = pod.spec.as_ref() else {
        return false;
    };
    let has_init = spec.init_containers.as_ref().is_some_and(|v| !v.is_empty());
    let mut added = false;
    for ec in spec.ephemeral_containers.iter().flatten() {
        let known = run
            .containers
            .iter()
            .any(|c| c.role == Role::Ephemeral && c.spec.name == ec.name);
        if !known {
            run.containers.push(new_run(ec, has_init));
            added = true;
        }
    }
    if let Some(s) = run.pod.spec.as_mut() {
        s.ephemeral_containers = spec.ephemeral_containers.clone();
    }
    if added {
        node.schedule(run, at, Work::Sync);
    }
    added
}

/// Starts the ephemeral containers that never started (called from every sync): the first
/// start only, never a restart.
pub(crate) fn start_new(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    for i in run.indices(Role::Ephemeral) {
        let c = &run.containers[i];
        if c.busy || c.ever_started {
            continue;
        }
        super::lifecycle::begin_start(node, run, i, at);
    }
}

/// A pod the kubelet did not admit (a fixture's static pod, already running on its node): it
/// is taken on with its spec and status as they are, and only its ephemeral containers run
/// (the sandbox counts as ready when the fixture's phase is `Running`).
pub(crate) fn adopt(node: &mut Node, pod: Pod, at: Timestamp) -> PodRun {
    let namespace = pod
        .metadata
        .namespace
        .clone()
        .unwrap_or_else(|| "default".into());
    let name = pod.metadata.name.clone().unwrap_or_default();
    let uid = pod.metadata.uid.clone().unwrap_or_default();
    let created = pod.metadata.creation_timestamp.as_ref().map_or(at, |t| t.0);
    let status = pod.status.clone().unwrap_or_default();
    let running = status.phase.as_deref() == Some("Running");
    let mut run = PodRun {
        pod: pod.clone(),
        namespace,
        name,
        uid,
        pod_ip: String::new(),
        containers: Vec::new(),
        synced: true,
        sandbox: running,
        initialized: true,
        init_failed: false,
        terminating: None,
        completing: None,
        conditions: Vec::new(),
        created,
        terminal: !running,
        emitted: None,
        adopted: true,
    };
    add_new(node, &mut run, &pod, at);
    run
}
