//! Ranking findings (`docs/diagnosis.md` "Ranking"): severity, then how specific the evidence
//! is ([`Basis`]), then cause before symptom, then now before then. The rules push findings in
//! the order the kubelet meets the pod (pod level, scheduling, init, sidecars, main), which is
//! the causal order; the sort is stable, so that order breaks every remaining tie.

use super::evidence::{Basis, Confidence};
use super::{Finding, Inputs, Severity};
use crate::model::pod::{ContainerKind, ContainerState};

/// Rules whose finding is inferred rather than stated by the cluster.
const LIKELY: [&str; 8] = [
    "sigkill",
    "sigterm",
    "killed-by-signal",
    "liveness-kills-slow-start",
    "memory-near-limit",
    "completed-and-restarted",
    "warning-event",
    "stuck-terminating",
];

/// Rules that only say something is wrong and quote the raw message: allowed first only when
/// nothing more specific exists.
const GENERIC: [&str; 8] = [
    "container-waiting-error",
    "sandbox-failed",
    "warning-event",
    "volume-mount-failed",
    "image-pull-failed",
    "container-config-error",
    "stuck-terminating",
    "image-inspect-failed",
];

/// Rules that read a reason or an exit code, and name a cause only with a log line or a
/// message beside them.
const REASON: [&str; 8] = [
    "app-exit",
    "killed-by-signal",
    "readiness-failing",
    "liveness-failing",
    "start-error",
    "container-status-unknown",
    "not-executable",
    "starting",
];

/// The confidence and basis a rule's findings start with.
#[must_use]
pub fn defaults(rule: &str) -> (Confidence, Basis) {
    let confidence = if LIKELY.contains(&rule) {
        Confidence::Likely
    } else {
        Confidence::Certain
    };
    let basis = if GENERIC.contains(&rule) {
        Basis::Generic
    } else if REASON.contains(&rule) {
        Basis::Reason
    } else {
        Basis::Specific
    };
    (confidence, basis)
}

/// Whether `f` is about a container that runs and is ready now, from an instance that ended
/// more than ten minutes ago: a finding about then, which live warnings outrank.
fn about_then(inp: &Inputs<'_>, f: &Finding) -> bool {
    let Some(name) = f.container.as_deref() else {
        return false;
    };
    let Some(c) = inp.pod.containers.iter().find(|c| c.name == name) else {
        return false;
    };
    let ContainerState::Running { started_at } = &c.state else {
        return false;
    };
    c.ready
        && started_at.is_some_and(|s| inp.now.duration_since(s).as_secs() > 600)
        && f.rule != "memory-near-limit"
}

/// Where the container a finding is about stands in the start order: the pod itself first,
/// then init containers, sidecars, main containers and ephemeral ones.
fn place(inp: &Inputs<'_>, f: &Finding) -> u8 {
    let Some(name) = f.container.as_deref() else {
        return 0;
    };
    match inp
        .pod
        .containers
        .iter()
        .find(|c| c.name == name)
        .map(|c| c.kind)
    {
        Some(ContainerKind::Init) => 1,
        Some(ContainerKind::Sidecar) => 2,
        Some(ContainerKind::Main) | None => 3,
        Some(ContainerKind::Ephemeral) => 4,
    }
}

/// Sorts `problems` (errors and warnings, in the order the rules pushed them) by severity,
/// then basis, then whether the finding is about a past instance; then moves the finding of a
/// container whose failure another's explains (a dependency on localhost is the pod's own
/// container) behind that container's finding.
pub fn rank(inp: &Inputs<'_>, problems: &mut [Finding]) {
    problems.sort_by_key(|f| {
        let severity = match f.severity {
            Severity::Error => 0u8,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        (severity, f.basis, about_then(inp, f), place(inp, f))
    });
    symptoms_after_causes(problems);
}

/// Whether a finding's evidence says its container could not reach something on the pod's
/// own loopback: another container of the pod (a proxy, an agent) is the dependency.
fn waits_on_loopback(f: &Finding) -> bool {
    f.evidence.iter().any(|e| {
        e.kind == super::EvidenceKind::Log
            && ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .any(|l| e.text.contains(l))
            && ["refused", "timeout", "timed out", "unavailable", "reset"]
                .iter()
                .any(|w| e.text.to_ascii_lowercase().contains(w))
    })
}

/// A container that fails because it cannot reach a neighbour on loopback is the symptom when
/// another container of the pod has a finding of its own: that finding goes first.
fn symptoms_after_causes(problems: &mut [Finding]) {
    let Some(symptom) = problems.iter().position(waits_on_loopback) else {
        return;
    };
    let cause = problems.iter().enumerate().position(|(i, f)| {
        i > symptom
            && f.container.is_some()
            && f.container != problems[symptom].container
            && matches!(f.severity, Severity::Error | Severity::Warning)
    });
    if let Some(c) = cause {
        let name = problems[c].container.clone().unwrap_or_default();
        problems[symptom]
            .evidence
            .push(format!("symptom: container {name} of the same pod fails too, and this container depends on it through loopback"));
        problems[symptom..=c].rotate_right(1);
    }
}
