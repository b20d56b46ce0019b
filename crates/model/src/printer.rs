//! Pod STATUS / READY / RESTARTS / AGE exactly as the API server's printer computes them.
//!
//! Mirrors kubectl's `printPod` (kubernetes `pkg/printers/internalversion/printers.go`); see
//! `docs/protocols.md` §6. This is the one printer shared by the TUI, `--once` and the simulator.
//!
//! The printer works on the raw API strings (the simulator must answer exactly what a real API
//! server answers); callers that draw to a terminal sanitise the result
//! (`PodSummary::from_pod` does).

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{
    Container, ContainerState, ContainerStatus, Pod, PodCondition, PodStatus,
};

use super::duration::human_duration;

/// The printer's clock-free result for one pod.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PodPrint {
    /// Ready containers (main containers plus started, ready sidecars).
    pub ready: u32,
    /// `len(spec.containers)` + sidecars.
    pub total: u32,
    /// The STATUS column, e.g. `CrashLoopBackOff`, `Init:1/2`, `Terminating`.
    pub status: String,
    /// Sum of restart counts as the printer counts them.
    pub restarts: i64,
    /// Newest `lastState.terminated.finishedAt` that the printer considered.
    pub last_restart: Option<Timestamp>,
    /// IP (wide): `status.podIPs[0].ip`, or `<none>`.
    pub ip: String,
    /// NODE (wide): `spec.nodeName`, or `<none>`.
    pub node: String,
    /// NOMINATED NODE (wide): `status.nominatedNodeName`, or `<none>`.
    pub nominated_node: String,
    /// READINESS GATES (wide): `"<true>/<total>"` over `spec.readinessGates`, or `<none>`.
    pub readiness_gates: String,
}

/// One `kubectl get pod` row at a given `now` (the cells as strings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodRow {
    /// NAME.
    pub name: String,
    /// READY, e.g. `1/2`.
    pub ready: String,
    /// STATUS.
    pub status: String,
    /// RESTARTS, e.g. `5 (70s ago)`.
    pub restarts: String,
    /// AGE, e.g. `10m`.
    pub age: String,
    /// IP (wide), `<none>` when absent.
    pub ip: String,
    /// NODE (wide), `<none>` when absent.
    pub node: String,
    /// NOMINATED NODE (wide).
    pub nominated_node: String,
    /// READINESS GATES (wide), `<none>` or `n/m`.
    pub readiness_gates: String,
}

/// A `meta.k8s.io/v1` `TableRowCondition` the printer attaches to a row (§6.1 step 8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowCondition {
    /// `type`: always `Completed` for pods.
    pub type_: String,
    /// `status`: `True`.
    pub status: String,
    /// `reason`: `Succeeded` or `Failed`.
    pub reason: String,
    /// `message`: `The pod has completed successfully.` or `The pod failed.`.
    pub message: String,
}

impl PodPrint {
    /// The READY cell: `"<ready>/<total>"`, e.g. `1/2`.
    pub fn ready_text(&self) -> String {
        format!("{}/{}", self.ready, self.total)
    }

    /// The RESTARTS cell at `now`: `"5 (70s ago)"`, or just `"<restarts>"` when there are no
    /// restarts or no `finishedAt` was seen (§6.1 step 7).
    pub fn restarts_text(&self, now: Timestamp) -> String {
        match self.last_restart {
            Some(last) if self.restarts != 0 => {
                format!("{} ({} ago)", self.restarts, since(last, now))
            }
            _ => self.restarts.to_string(),
        }
    }
}

/// The AGE cell: `<unknown>` when `created` is absent, else `HumanDuration(now − created)`
/// (kubectl's `translateTimestampSince`).
pub fn age(created: Option<Timestamp>, now: Timestamp) -> String {
    match created {
        Some(t) => since(t, now),
        None => "<unknown>".to_string(),
    }
}

fn since(t: Timestamp, now: Timestamp) -> String {
    human_duration(now.duration_since(t))
}

/// The `reason` string of an optional field, empty when absent.
fn text(s: &Option<String>) -> &str {
    s.as_deref().unwrap_or("")
}

fn is_sidecar(c: Option<&&Container>) -> bool {
    c.and_then(|c| c.restart_policy.as_deref()) == Some("Always")
}

fn condition_true(conditions: &[PodCondition], type_: &str) -> bool {
    conditions
        .iter()
        .any(|c| c.type_ == type_ && c.status == "True")
}

fn last_finished(status: &ContainerStatus) -> Option<Timestamp> {
    status
        .last_state
        .as_ref()?
        .terminated
        .as_ref()?
        .finished_at
        .as_ref()
        .map(|t| t.0)
}

fn newest(a: Option<Timestamp>, b: Option<Timestamp>) -> Option<Timestamp> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Computes READY / STATUS / restarts / last restart and the wide cells of a pod, exactly as
/// `printPod` of Kubernetes v1.35 does (`docs/protocols.md` §6.1 steps 1–7 and 9).
///
/// Sidecar-aware: init containers with `restartPolicy: Always` count in `total`, and when started
/// and ready in `ready`; the `Initialized == True` condition lets the main-container loop run even
/// when an init status stopped the init loop; main containers are visited last to first so the
/// first container's state wins; `Completed` with a running container becomes `Running` /
/// `NotReady`; deletion gives `Unknown` (status.reason `NodeLost`) or `Terminating` (non-terminal
/// phase). Strings are returned raw (not sanitised).
pub fn print_pod(pod: &Pod) -> PodPrint {
    let empty_containers: Vec<Container> = Vec::new();
    let spec = pod.spec.as_ref();
    let containers = spec.map_or(&empty_containers, |s| &s.containers);
    let init_specs = spec
        .and_then(|s| s.init_containers.as_ref())
        .unwrap_or(&empty_containers);
    let default_status = PodStatus::default();
    let default_state = ContainerState::default();
    let status = pod.status.as_ref().unwrap_or(&default_status);
    let conditions: &[PodCondition] = status.conditions.as_deref().unwrap_or(&[]);
    let phase = text(&status.phase).to_string();

    let sidecars = init_specs
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"))
        .count();
    let total = u32::try_from(containers.len() + sidecars).unwrap_or(u32::MAX);
    let mut ready: u32 = 0;
    let mut restarts: i64 = 0;
    let mut sidecar_restarts: i64 = 0;
    let mut last_restart: Option<Timestamp> = None;
    let mut sidecar_last_restart: Option<Timestamp> = None;

    let mut reason = if text(&status.reason).is_empty() {
        phase.clone()
    } else {
        text(&status.reason).to_string()
    };
    if conditions
        .iter()
        .any(|c| c.type_ == "PodScheduled" && text(&c.reason) == "SchedulingGated")
    {
        reason = "SchedulingGated".to_string();
    }

    let mut initializing = false;
    let init_statuses: &[ContainerStatus] =
        status.init_container_statuses.as_deref().unwrap_or(&[]);
    for (i, cs) in init_statuses.iter().enumerate() {
        let spec_entry = init_specs.iter().find(|c| c.name == cs.name);
        let sidecar = is_sidecar(spec_entry.as_ref());
        let finished = last_finished(cs);
        restarts += i64::from(cs.restart_count);
        last_restart = newest(last_restart, finished);
        if sidecar {
            sidecar_restarts += i64::from(cs.restart_count);
            sidecar_last_restart = newest(sidecar_last_restart, finished);
        }
        let state = cs.state.as_ref().unwrap_or(&default_state);
        if state.terminated.as_ref().is_some_and(|t| t.exit_code == 0) {
            continue;
        }
        if sidecar && cs.started == Some(true) {
            if cs.ready {
                ready += 1;
            }
            continue;
        }
        if let Some(t) = &state.terminated {
            reason = if !text(&t.reason).is_empty() {
                format!("Init:{}", text(&t.reason))
            } else if t.signal.unwrap_or(0) != 0 {
                format!("Init:Signal:{}", t.signal.unwrap_or(0))
            } else {
                format!("Init:ExitCode:{}", t.exit_code)
            };
        } else if let Some(w) = state
            .waiting
            .as_ref()
            .filter(|w| !text(&w.reason).is_empty() && text(&w.reason) != "PodInitializing")
        {
            reason = format!("Init:{}", text(&w.reason));
        } else {
            reason = format!("Init:{}/{}", i, init_specs.len());
        }
        initializing = true;
        break;
    }

    if !initializing || condition_true(conditions, "Initialized") {
        restarts = sidecar_restarts;
        last_restart = sidecar_last_restart;
        let mut has_running = false;
        let statuses: &[ContainerStatus] = status.container_statuses.as_deref().unwrap_or(&[]);
        for cs in statuses.iter().rev() {
            restarts += i64::from(cs.restart_count);
            last_restart = newest(last_restart, last_finished(cs));
            let state = cs.state.as_ref().unwrap_or(&default_state);
            let waiting_reason = state.waiting.as_ref().map_or("", |w| text(&w.reason));
            if !waiting_reason.is_empty() {
                reason = waiting_reason.to_string();
            } else if let Some(t) = &state.terminated {
                reason = if !text(&t.reason).is_empty() {
                    text(&t.reason).to_string()
                } else if t.signal.unwrap_or(0) != 0 {
                    format!("Signal:{}", t.signal.unwrap_or(0))
                } else {
                    format!("ExitCode:{}", t.exit_code)
                };
            } else if cs.ready && state.running.is_some() {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            reason = if condition_true(conditions, "Ready") {
                "Running".to_string()
            } else {
                "NotReady".to_string()
            };
        }
    }

    if pod.metadata.deletion_timestamp.is_some() {
        if text(&status.reason) == "NodeLost" {
            reason = "Unknown".to_string();
        } else if phase != "Succeeded" && phase != "Failed" {
            reason = "Terminating".to_string();
        }
    }

    let or_none = |s: Option<&str>| match s {
        Some(v) if !v.is_empty() => v.to_string(),
        _ => "<none>".to_string(),
    };
    let ip = or_none(
        status
            .pod_ips
            .as_ref()
            .and_then(|ips| ips.first())
            .map(|p| p.ip.as_str()),
    );
    let node = or_none(spec.and_then(|s| s.node_name.as_deref()));
    let nominated_node = or_none(status.nominated_node_name.as_deref());
    let readiness_gates = match spec.and_then(|s| s.readiness_gates.as_ref()) {
        Some(gates) if !gates.is_empty() => {
            let true_count = gates
                .iter()
                .filter(|g| {
                    conditions
                        .iter()
                        .find(|c| c.type_ == g.condition_type)
                        .is_some_and(|c| c.status == "True")
                })
                .count();
            format!("{true_count}/{}", gates.len())
        }
        _ => "<none>".to_string(),
    };

    PodPrint {
        ready,
        total,
        status: reason,
        restarts,
        last_restart,
        ip,
        node,
        nominated_node,
        readiness_gates,
    }
}

/// The row conditions `printPod` attaches (§6.1 step 8): phase `Succeeded` →
/// `Completed/True/Succeeded/"The pod has completed successfully."`, phase `Failed` →
/// `Completed/True/Failed/"The pod failed."`, otherwise none.
pub fn row_conditions(pod: &Pod) -> Vec<RowCondition> {
    let phase = pod.status.as_ref().map_or("", |s| text(&s.phase));
    let message = match phase {
        "Succeeded" => "The pod has completed successfully.",
        "Failed" => "The pod failed.",
        _ => return Vec::new(),
    };
    vec![RowCondition {
        type_: "Completed".to_string(),
        status: "True".to_string(),
        reason: phase.to_string(),
        message: message.to_string(),
    }]
}

/// The full `kubectl get pod -o wide` row at `now` (raw strings, as the server's Table has them).
pub fn pod_row(pod: &Pod, now: Timestamp) -> PodRow {
    let print = print_pod(pod);
    PodRow {
        name: pod.metadata.name.clone().unwrap_or_default(),
        ready: print.ready_text(),
        restarts: print.restarts_text(now),
        age: age(pod.metadata.creation_timestamp.as_ref().map(|t| t.0), now),
        status: print.status,
        ip: print.ip,
        node: print.node,
        nominated_node: print.nominated_node,
        readiness_gates: print.readiness_gates,
    }
}
