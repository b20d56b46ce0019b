//! Building [`ContainerSummary`] values: each spec container joined with its status, in kubelet order.
//!
//! Internal to the model; `PodSummary::from_pod` is the public entry point.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{
    Container, ContainerPort, ContainerState as ApiContainerState, ContainerStateTerminated,
    ContainerStatus, EphemeralContainer, PodSpec, PodStatus, Probe, ResourceRequirements,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::backoff::{Backoff, BackoffCurve};
use super::container_spec::ContainerSpec;
use super::pod::{ContainerKind, ContainerState, ContainerSummary, Probes, Terminated};
use super::probe::describe_probe;
use super::sanitize::{sanitize, sanitize_multiline};

/// The spec facts of one container, common to `Container` and `EphemeralContainer`.
struct SpecFacts<'a> {
    name: &'a str,
    image: Option<&'a str>,
    command: Vec<String>,
    ports: &'a [ContainerPort],
    liveness: Option<&'a Probe>,
    readiness: Option<&'a Probe>,
    startup: Option<&'a Probe>,
    memory_limit: Option<&'a str>,
    spec: ContainerSpec,
}

fn argv(command: &Option<Vec<String>>, args: &Option<Vec<String>>) -> Vec<String> {
    command
        .iter()
        .chain(args.iter())
        .flatten()
        .map(|s| sanitize(s).into_owned())
        .collect()
}

fn memory_limit(r: &Option<ResourceRequirements>) -> Option<&str> {
    r.as_ref()?
        .limits
        .as_ref()?
        .get("memory")
        .map(|q| q.0.as_str())
}

impl<'a> SpecFacts<'a> {
    fn of(c: &'a Container, pod: &PodSpec) -> Self {
        SpecFacts {
            name: &c.name,
            image: c.image.as_deref(),
            command: argv(&c.command, &c.args),
            ports: c.ports.as_deref().unwrap_or(&[]),
            liveness: c.liveness_probe.as_ref(),
            readiness: c.readiness_probe.as_ref(),
            startup: c.startup_probe.as_ref(),
            memory_limit: memory_limit(&c.resources),
            spec: ContainerSpec::of(c, pod),
        }
    }

    fn of_ephemeral(c: &'a EphemeralContainer, pod: &PodSpec) -> Self {
        SpecFacts {
            name: &c.name,
            image: c.image.as_deref(),
            command: argv(&c.command, &c.args),
            ports: c.ports.as_deref().unwrap_or(&[]),
            liveness: c.liveness_probe.as_ref(),
            readiness: c.readiness_probe.as_ref(),
            startup: c.startup_probe.as_ref(),
            memory_limit: memory_limit(&c.resources),
            spec: ContainerSpec::of_ephemeral(c, pod),
        }
    }
}

pub(super) fn owned(s: &Option<String>) -> String {
    sanitize(s.as_deref().unwrap_or("")).into_owned()
}

pub(super) fn time(t: &Option<Time>) -> Option<Timestamp> {
    t.as_ref().map(|t| t.0)
}

fn terminated(t: &ContainerStateTerminated) -> Terminated {
    Terminated {
        reason: owned(&t.reason),
        exit_code: t.exit_code,
        signal: t.signal.unwrap_or(0),
        message: t
            .message
            .as_deref()
            .map(|m| sanitize_multiline(m).into_owned()),
        started_at: time(&t.started_at),
        finished_at: time(&t.finished_at),
        container_id: owned(&t.container_id),
    }
}

/// kubectl describe's order: running, then waiting, then terminated; nothing → `Unknown`.
fn state(s: Option<&ApiContainerState>) -> ContainerState {
    let Some(s) = s else {
        return ContainerState::Unknown;
    };
    if let Some(r) = &s.running {
        ContainerState::Running {
            started_at: time(&r.started_at),
        }
    } else if let Some(w) = &s.waiting {
        ContainerState::Waiting {
            reason: owned(&w.reason),
            message: w.message.as_deref().map(|m| sanitize(m).into_owned()),
        }
    } else if let Some(t) = &s.terminated {
        ContainerState::Terminated(terminated(t))
    } else {
        ContainerState::Unknown
    }
}

fn summary(
    kind: ContainerKind,
    spec: Option<&SpecFacts<'_>>,
    status: Option<&ContainerStatus>,
) -> ContainerSummary {
    let name = spec
        .map(|s| s.name)
        .or(status.map(|s| s.name.as_str()))
        .unwrap_or("");
    let image = spec
        .and_then(|s| s.image)
        .or(status.map(|s| s.image.as_str()))
        .unwrap_or("");
    let describe = |p: Option<&Probe>| p.map(|p| sanitize(&describe_probe(p)).into_owned());
    ContainerSummary {
        name: sanitize(name).into_owned(),
        kind,
        image: sanitize(image).into_owned(),
        command: spec.map(|s| s.command.clone()).unwrap_or_default(),
        ready: status.is_some_and(|s| s.ready),
        started: status.and_then(|s| s.started),
        restart_count: status.map_or(0, |s| s.restart_count),
        state: state(status.and_then(|s| s.state.as_ref())),
        last_state: status
            .and_then(|s| s.last_state.as_ref())
            .and_then(|l| l.terminated.as_ref())
            .map(terminated),
        probes: Probes {
            startup: describe(spec.and_then(|s| s.startup)),
            liveness: describe(spec.and_then(|s| s.liveness)),
            readiness: describe(spec.and_then(|s| s.readiness)),
        },
        memory_limit: spec
            .and_then(|s| s.memory_limit)
            .map(|m| sanitize(m).into_owned()),
        ports: spec.map_or_else(Vec::new, |s| {
            s.ports
                .iter()
                .map(|p| {
                    (
                        p.name.as_deref().map(|n| sanitize(n).into_owned()),
                        p.container_port,
                        p.protocol
                            .as_deref()
                            .map_or_else(|| "TCP".to_string(), |p| sanitize(p).into_owned()),
                    )
                })
                .collect()
        }),
        backoff: status.and_then(|s| Backoff::from_status(s, BackoffCurve::DEFAULT)),
        spec: spec.map(|s| s.spec.clone()).unwrap_or_default(),
    }
}

/// Joins one spec list with its status list by name: spec order first, then statuses whose
/// name matches no spec entry (they are still shown, with the list's kind).
fn join(
    out: &mut Vec<ContainerSummary>,
    specs: &[(ContainerKind, SpecFacts<'_>)],
    statuses: &[ContainerStatus],
    orphan_kind: ContainerKind,
) {
    for (kind, spec) in specs {
        let status = statuses.iter().find(|s| s.name == spec.name);
        out.push(summary(*kind, Some(spec), status));
    }
    for status in statuses {
        if !specs.iter().any(|(_, s)| s.name == status.name) {
            out.push(summary(orphan_kind, None, Some(status)));
        }
    }
}

/// All containers of the pod in kubelet order: `spec.initContainers` in spec order (kind `Init`,
/// or `Sidecar` with `restartPolicy: Always`), then `spec.containers`, then
/// `spec.ephemeralContainers`, each joined by name with its status from
/// `initContainerStatuses` / `containerStatuses` / `ephemeralContainerStatuses`; statuses naming no
/// spec entry follow their list's spec entries. Strings are sanitised.
pub(super) fn containers_in_kubelet_order(
    spec: &PodSpec,
    status: &PodStatus,
) -> Vec<ContainerSummary> {
    let mut containers = Vec::new();
    let inits: Vec<_> = spec
        .init_containers
        .iter()
        .flatten()
        .map(|c| {
            let kind = if c.restart_policy.as_deref() == Some("Always") {
                ContainerKind::Sidecar
            } else {
                ContainerKind::Init
            };
            (kind, SpecFacts::of(c, spec))
        })
        .collect();
    join(
        &mut containers,
        &inits,
        status.init_container_statuses.as_deref().unwrap_or(&[]),
        ContainerKind::Init,
    );
    let mains: Vec<_> = spec
        .containers
        .iter()
        .map(|c| (ContainerKind::Main, SpecFacts::of(c, spec)))
        .collect();
    join(
        &mut containers,
        &mains,
        status.container_statuses.as_deref().unwrap_or(&[]),
        ContainerKind::Main,
    );
    let ephemerals: Vec<_> = spec
        .ephemeral_containers
        .iter()
        .flatten()
        .map(|c| (ContainerKind::Ephemeral, SpecFacts::of_ephemeral(c, spec)))
        .collect();
    join(
        &mut containers,
        &ephemerals,
        status
            .ephemeral_container_statuses
            .as_deref()
            .unwrap_or(&[]),
        ContainerKind::Ephemeral,
    );
    containers
}
