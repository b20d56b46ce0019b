//! Building `status` (phase, conditions, container statuses) from the kubelet's view.
//!
//! Phase follows the kubelet's `getPhase` (`pkg/kubelet/kubelet_pods.go`): Pending while
//! initializing or while a main container waits for its first start; Running while one runs or
//! restarts; with every main container stopped for good, Succeeded when all exited 0, else
//! Failed (Failed at once when an init container fails under `restartPolicy: Never`).
//! Conditions are written in the kubelet's order `PodReadyToStartContainers`, `Initialized`,
//! `Ready`, `ContainersReady`, `PodScheduled`, each with `lastTransitionTime` = when its status
//! last changed. Times are truncated to whole seconds, as the API stores them.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{
    ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStateWaiting,
    ContainerStatus, HostIP, PodCondition, PodIP, PodStatus,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::KubeletConfig;
use super::pod_state::{ContainerRun, PodRun, Role, RunState, Term};

fn secs(t: Timestamp) -> Time {
    Time(Timestamp::from_second(t.as_second()).unwrap_or(t))
}

fn term(t: &Term) -> ContainerState {
    ContainerState {
        terminated: Some(ContainerStateTerminated {
            container_id: Some(t.container_id.clone()),
            exit_code: t.exit_code,
            reason: Some(t.reason.clone()),
            started_at: Some(secs(t.started_at)),
            finished_at: Some(secs(t.finished_at)),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The container's status as the API shows it (while a postStart hook runs: the status from
/// before the start, [`super::hooks`]).
pub(crate) fn container_status(c: &ContainerRun) -> ContainerStatus {
    if let Some((frozen, _)) = &c.frozen {
        return frozen.clone();
    }
    let state = match &c.state {
        RunState::Waiting { reason, message } => ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: Some(reason.clone()),
                message: message.clone(),
            }),
            ..Default::default()
        },
        RunState::Running { started_at } => ContainerState {
            running: Some(ContainerStateRunning {
                started_at: Some(secs(*started_at)),
            }),
            ..Default::default()
        },
        RunState::Terminated(t) => term(t),
    };
    ContainerStatus {
        name: c.spec.name.clone(),
        image: c.image().to_string(),
        image_id: c.image_id.clone(),
        container_id: c.ever_started.then(|| c.container_id.clone()),
        // A regular init container reports ready once it completed (the seed's describe shows
        // `render-config … Ready: True`), never while it runs (the prober's `UpdatePodStatus`).
        ready: match c.role {
            Role::Init => matches!(&c.state, RunState::Terminated(t) if t.exit_code == 0),
            _ => c.ready,
        },
        restart_count: c.restart_count,
        started: Some(c.started),
        state: Some(state),
        last_state: Some(c.last.as_ref().map(term).unwrap_or_default()),
        ..Default::default()
    }
}

/// Whether a main container is stopped for good (`terminated` and not to be restarted).
fn main_done(policy: &str, c: &ContainerRun) -> Option<bool> {
    match &c.state {
        RunState::Terminated(t) => {
            let again = match policy {
                "Never" => false,
                "OnFailure" => t.exit_code != 0,
                _ => true,
            };
            (!again).then_some(t.exit_code == 0)
        }
        _ => None,
    }
}

/// `status.phase`.
pub(crate) fn phase(run: &PodRun) -> &'static str {
    if run.init_failed {
        return "Failed";
    }
    let mains: Vec<&ContainerRun> = run
        .containers
        .iter()
        .filter(|c| c.role == Role::Main)
        .collect();
    if run.terminal {
        let ok = mains
            .iter()
            .all(|c| matches!(&c.state, RunState::Terminated(t) if t.exit_code == 0));
        return if ok { "Succeeded" } else { "Failed" };
    }
    if !run.initialized {
        return "Pending";
    }
    let first_hook = |c: &&ContainerRun| c.frozen.as_ref().is_some_and(|(_, first)| *first);
    if mains
        .iter()
        .any(|c| (!c.ever_started && !c.is_running()) || first_hook(c))
    {
        return "Pending";
    }
    let policy = run.restart_policy();
    let done: Vec<Option<bool>> = mains.iter().map(|c| main_done(policy, c)).collect();
    if done.iter().all(Option::is_some) && !mains.is_empty() {
        return if done.iter().all(|d| *d == Some(true)) {
            "Succeeded"
        } else {
            "Failed"
        };
    }
    "Running"
}

fn condition(
    run: &mut PodRun,
    type_: &str,
    ok: bool,
    reason: Option<&str>,
    message: Option<String>,
    at: Timestamp,
) -> PodCondition {
    let status = if ok { "True" } else { "False" };
    let since = match run.conditions.iter_mut().find(|(t, _, _)| t == type_) {
        Some((_, s, since)) if s == status => *since,
        Some(entry) => {
            entry.1 = status.to_string();
            entry.2 = at;
            at
        }
        None => {
            run.conditions
                .push((type_.to_string(), status.to_string(), at));
            at
        }
    };
    PodCondition {
        type_: type_.to_string(),
        status: status.to_string(),
        last_transition_time: Some(secs(since)),
        reason: (!ok).then(|| reason.map(str::to_string)).flatten(),
        message: (!ok).then_some(message).flatten(),
        ..Default::default()
    }
}

/// `BestEffort` / `Burstable` / `Guaranteed` from the containers' requests and limits.
fn qos_class(run: &PodRun) -> &'static str {
    let specs: Vec<_> = run
        .containers
        .iter()
        .filter(|c| c.role != Role::Ephemeral)
        .map(|c| &c.spec)
        .collect();
    let any = specs.iter().any(|s| {
        s.resources.as_ref().is_some_and(|r| {
            r.requests.as_ref().is_some_and(|m| !m.is_empty())
                || r.limits.as_ref().is_some_and(|m| !m.is_empty())
        })
    });
    if !any {
        return "BestEffort";
    }
    let guaranteed = specs.iter().all(|s| {
        let Some(r) = &s.resources else { return false };
        let Some(limits) = &r.limits else {
            return false;
        };
        let full = limits.contains_key("cpu") && limits.contains_key("memory");
        let same = r
            .requests
            .iter()
            .flatten()
            .all(|(k, v)| limits.get(k) == Some(v));
        full && same
    });
    if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Rewrites `run.pod.status` for instant `at` (of an adopted pod only its
/// `ephemeralContainerStatuses`).
pub(crate) fn refresh(cfg: &KubeletConfig, run: &mut PodRun, at: Timestamp) {
    if run.adopted {
        let ephemeral = ephemeral_statuses(run);
        run.pod
            .status
            .get_or_insert_with(Default::default)
            .ephemeral_container_statuses = ephemeral;
        return;
    }
    let phase = phase(run);
    let mut conditions = Vec::new();
    if run.sandbox || run.terminal || run.synced {
        let sandbox = run.sandbox;
        conditions.push(condition(
            run,
            "PodReadyToStartContainers",
            sandbox,
            None,
            None,
            at,
        ));
        let incomplete: Vec<String> = run
            .containers
            .iter()
            .filter(|c| match c.role {
                Role::Init => !matches!(&c.state, RunState::Terminated(t) if t.exit_code == 0),
                Role::Sidecar => !c.started,
                Role::Main | Role::Ephemeral => false,
            })
            .map(|c| c.spec.name.clone())
            .collect();
        let initialized = run.initialized;
        let msg = format!(
            "containers with incomplete status: [{}]",
            incomplete.join(" ")
        );
        conditions.push(condition(
            run,
            "Initialized",
            initialized,
            Some("ContainersNotInitialized"),
            Some(msg),
            at,
        ));
        let unready: Vec<String> = run
            .containers
            .iter()
            .filter(|c| matches!(c.role, Role::Main | Role::Sidecar) && !c.ready)
            .map(|c| c.spec.name.clone())
            .collect();
        let terminal = phase == "Succeeded" || phase == "Failed";
        let (reason, msg) = if terminal {
            ("PodCompleted", None)
        } else {
            let m = format!("containers with unready status: [{}]", unready.join(" "));
            ("ContainersNotReady", Some(m))
        };
        let ready = unready.is_empty() && !terminal;
        conditions.push(condition(
            run,
            "Ready",
            ready,
            Some(reason),
            msg.clone(),
            at,
        ));
        conditions.push(condition(
            run,
            "ContainersReady",
            ready,
            Some(reason),
            msg,
            at,
        ));
    }
    conditions.push(condition(run, "PodScheduled", true, None, None, at));
    let inits: Vec<ContainerStatus> = run
        .containers
        .iter()
        .filter(|c| matches!(c.role, Role::Init | Role::Sidecar))
        .map(container_status)
        .collect();
    let ephemeral = ephemeral_statuses(run);
    let mains: Vec<ContainerStatus> = run
        .containers
        .iter()
        .filter(|c| c.role == Role::Main)
        .map(container_status)
        .collect();
    let started = run.sandbox || run.terminal || run.synced;
    let has_ip = (run.sandbox || run.terminal) && !run.pod_ip.is_empty();
    let ip = has_ip.then(|| run.pod_ip.clone());
    run.pod.status = Some(PodStatus {
        phase: Some(phase.to_string()),
        conditions: Some(conditions),
        host_ip: started.then(|| cfg.host_ip.clone()),
        host_ips: started.then(|| {
            vec![HostIP {
                ip: cfg.host_ip.clone(),
            }]
        }),
        pod_ip: ip.clone(),
        pod_ips: ip.map(|ip| vec![PodIP { ip }]),
        start_time: started.then(|| secs(run.created)),
        qos_class: Some(qos_class(run).to_string()),
        init_container_statuses: (started && !inits.is_empty()).then_some(inits),
        container_statuses: started.then_some(mains),
        ephemeral_container_statuses: ephemeral,
        ..Default::default()
    });
}

/// `ephemeralContainerStatuses`: `None` without ephemeral containers. The prober never
/// touches them, so `started` stays unset and `ready` false (`UpdatePodStatus` in
/// `pkg/kubelet/prober/prober_manager.go` walks the other two lists only).
fn ephemeral_statuses(run: &PodRun) -> Option<Vec<ContainerStatus>> {
    let list: Vec<ContainerStatus> = run
        .containers
        .iter()
        .filter(|c| c.role == Role::Ephemeral)
        .map(|c| ContainerStatus {
            ready: false,
            started: None,
            ..container_status(c)
        })
        .collect();
    (!list.is_empty()).then_some(list)
}
