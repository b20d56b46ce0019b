//! Start order and restarts: admit, sandbox, the pod sync, image pulls, container starts and
//! exits.
//!
//! The sync walks init containers in order (a regular init container must exit 0 before the next
//! one; a native sidecar must be `started`, i.e. its startupProbe passed), then starts every main
//! container at once. Exited containers restart per `restartPolicy` (sidecars always) under the
//! CrashLoopBackOff gate of [`super::backoff`] (`docs/protocols.md` §5.1).

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::events;
use super::images::{needs_pull, pull_key};
use super::instance::start_instance;
use super::pod_state::{ContainerRun, PodRun, Role, RunState};
use super::{Node, Work, after, ephemeral, hex256, termination};

/// The kubelet acts on an exit (PLEG relist + pod sync) this long after it.
pub const SYNC_LATENCY: SignedDuration = SignedDuration::from_secs(1);
/// Admit → sandbox ready; first `Pulled` → `Created`/`Started`; a simulated image pull.
pub const STEP: SignedDuration = SignedDuration::from_secs(1);

/// Takes the pod onto this node at `now`: fills uid/creationTimestamp if the store did not,
/// binds it (`spec.nodeName`), records `Scheduled`, queues the sandbox.
pub(crate) fn admit(node: &mut Node, mut pod: Pod, now: Timestamp) -> PodRun {
    let namespace = pod
        .metadata
        .namespace
        .clone()
        .unwrap_or_else(|| "default".into());
    let name = pod.metadata.name.clone().unwrap_or_default();
    pod.metadata.namespace = Some(namespace.clone());
    let created = pod
        .metadata
        .creation_timestamp
        .as_ref()
        .map_or(now, |t| t.0);
    pod.metadata.creation_timestamp = Some(Time(created));
    let uid = pod.metadata.uid.clone().unwrap_or_else(|| {
        let h = hex256(&[&namespace, &name, &created.to_string()]);
        format!(
            "{}-{}-{}-{}-{}",
            &h[0..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..32]
        )
    });
    pod.metadata.uid = Some(uid.clone());
    let spec = pod.spec.get_or_insert_with(Default::default);
    spec.node_name = Some(node.cfg.node_name.clone());
    let has_init = spec.init_containers.as_ref().is_some_and(|v| !v.is_empty());
    let waiting = if has_init {
        "PodInitializing"
    } else {
        "ContainerCreating"
    };
    let mut containers = Vec::new();
    for c in spec.init_containers.iter().flatten() {
        let role = if c.restart_policy.as_deref() == Some("Always") {
            Role::Sidecar
        } else {
            Role::Init
        };
        containers.push(ContainerRun::new(c.clone(), role, waiting));
    }
    for c in &spec.containers {
        containers.push(ContainerRun::new(c.clone(), Role::Main, waiting));
    }
    // With every address of the /16 held (65 000 pods on one node), the pod runs without one.
    let pod_ip = node.ips.allocate().unwrap_or_default();
    let run = PodRun {
        pod,
        namespace: namespace.clone(),
        name: name.clone(),
        uid,
        pod_ip,
        containers,
        synced: false,
        sandbox: false,
        initialized: !has_init,
        init_failed: false,
        terminating: None,
        completing: None,
        conditions: vec![("PodScheduled".into(), "True".into(), now)],
        created,
        terminal: false,
        emitted: None,
        adopted: false,
    };
    let node_name = node.cfg.node_name.clone();
    node.event(&run, events::scheduled(&namespace, &name, &node_name), now);
    node.schedule(&run, after(now, STEP), Work::Sandbox);
    run
}

/// The sandbox is up (`PodReadyToStartContainers`); sync right away.
pub(crate) fn sandbox(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    if run.terminating.is_some() || run.sandbox {
        return;
    }
    run.synced = true;
    if !super::mounts::ready(node, run, at) {
        return;
    }
    run.sandbox = true;
    sync(node, run, at);
}

/// Whether an instance of a container in `role` that exited with `exit_code` is restarted
/// under the pod's `restartPolicy` (a sidecar always, an ephemeral container never).
pub(crate) fn should_restart(policy: &str, role: Role, exit_code: i32) -> bool {
    match role {
        Role::Sidecar => true,
        Role::Ephemeral => false,
        Role::Init => policy != "Never" && exit_code != 0,
        Role::Main => match policy {
            "Never" => false,
            "OnFailure" => exit_code != 0,
            _ => true,
        },
    }
}

/// What to do with an exited or never-started container during a sync.
fn start_or_restart(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    let c = &run.containers[i];
    if c.busy || c.is_running() {
        return;
    }
    if c.respawn {
        // A new spec (`super::spec_update`): a new instance now, whatever the policy, no
        // back-off; the killed instance becomes `lastState` even if the pull fails.
        let c = &mut run.containers[i];
        if let RunState::Terminated(t) = &c.state {
            c.last = Some(t.clone());
        }
        begin_start(node, run, i, at);
        return;
    }
    match c.latest_exit().map(|t| t.exit_code) {
        None => begin_start(node, run, i, at),
        Some(code) => {
            if should_restart(run.restart_policy(), c.role, code) {
                restart(node, run, i, at);
            }
        }
    }
}

/// The pod sync: start or restart what the kubelet order allows now.
pub(crate) fn sync(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    if run.terminating.is_some() || !run.sandbox || run.init_failed || run.terminal {
        return;
    }
    ephemeral::start_new(node, run, at);
    if !run.initialized {
        for i in 0..run.containers.len() {
            let c = &run.containers[i];
            match c.role {
                Role::Main | Role::Ephemeral => continue,
                Role::Init => {
                    if let RunState::Terminated(t) = &c.state {
                        if t.exit_code == 0 {
                            continue;
                        }
                        if run.restart_policy() == "Never" {
                            run.init_failed = true;
                            return;
                        }
                    }
                }
                Role::Sidecar => {
                    if c.is_running() && c.started {
                        continue;
                    }
                }
            }
            start_or_restart(node, run, i, at);
            return;
        }
        run.initialized = true;
    }
    for i in 0..run.containers.len() {
        if matches!(run.containers[i].role, Role::Main | Role::Sidecar) {
            start_or_restart(node, run, i, at);
        }
    }
    complete_if_finished(node, run, at);
}

/// Job-style completion: when every main container finished for good, stop the sidecars (see
/// [`termination::complete`]); called at the exit itself, as the kubelet's PLEG sees it, and
/// at every sync.
pub(crate) fn complete_if_finished(node: &mut Node, run: &mut PodRun, at: Timestamp) {
    let policy = run.restart_policy().to_string();
    let mains = run.indices(Role::Main);
    let finished = !mains.is_empty()
        && mains.iter().all(|&i| {
            let c = &run.containers[i];
            !c.respawn && matches!(&c.state, RunState::Terminated(t) if !should_restart(&policy, Role::Main, t.exit_code))
        });
    if finished && run.completing.is_none() && run.terminating.is_none() {
        termination::complete(node, run, at);
    }
}

fn restart_key(run: &PodRun, i: usize) -> String {
    format!("{}/{}", run.uid, run.containers[i].spec.name)
}

/// First start of container `i` (or a retry after a failed pull, or a new image).
pub(crate) fn begin_start(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    let image = run.containers[i].image().to_string();
    let fp = run.containers[i].field_path();
    let in_pull_backoff = run.containers[i]
        .pull_failed_at
        .and_then(|_| node.pulls.in_backoff_since_update(&pull_key(run, i), at));
    if let Some(d) = in_pull_backoff {
        run.containers[i].state = RunState::Waiting {
            reason: "ImagePullBackOff".into(),
            message: Some(format!("Back-off pulling image \"{image}\"")),
        };
        node.event(run, events::pull_backoff(&fp, &image), at);
        node.event(run, events::failed_reason(&fp, "ImagePullBackOff"), at);
        let failed_at = run.containers[i].pull_failed_at.unwrap_or(at);
        let retry = after(failed_at, super::backoff::to_signed(d));
        node.schedule(run, retry, Work::Sync);
        return;
    }
    run.containers[i].busy = true;
    if needs_pull(node, &run.containers[i]) {
        super::images::warn_missing_secrets(node, run, at);
        node.event(run, events::pulling(&fp, &image), at);
        node.schedule(run, after(at, STEP), Work::PullDone(i));
    } else {
        node.event(run, events::pulled_present(node.wording, &fp, &image), at);
        node.schedule(run, after(at, STEP), Work::Create(i));
    }
}

/// `Created` + `Started` of the first instance.
pub(crate) fn create(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    if run.terminating.is_some() {
        return;
    }
    start_instance(node, run, i, at);
}

/// The CrashLoopBackOff gate: restart now, or wait with `CrashLoopBackOff` and a `BackOff` event.
fn restart(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    let Some(t_exit) = run.containers[i].latest_exit().map(|t| t.finished_at) else {
        begin_start(node, run, i, at);
        return;
    };
    let key = restart_key(run, i);
    let fp = run.containers[i].field_path();
    let name = run.containers[i].spec.name.clone();
    if let Some(delay) = node.restarts.in_backoff_since(&key, t_exit, at) {
        let message = super::waiting_message(&name, &run.name, &run.namespace, &run.uid, delay);
        let c = &mut run.containers[i];
        if let RunState::Terminated(t) = &c.state {
            c.last = Some(t.clone());
        }
        c.state = RunState::Waiting {
            reason: "CrashLoopBackOff".into(),
            message: Some(message),
        };
        let obj = events::Involved {
            namespace: &run.namespace,
            name: &run.name,
            uid: &run.uid,
        };
        let spec = events::restart_backoff(&fp, &name, &obj);
        node.event(run, spec, at);
        node.schedule(
            run,
            after(t_exit, super::backoff::to_signed(delay)),
            Work::Sync,
        );
        return;
    }
    node.restarts.next(&key, t_exit, at);
    let image = run.containers[i].image().to_string();
    node.event(run, events::pulled_present(node.wording, &fp, &image), at);
    start_instance(node, run, i, at);
}
