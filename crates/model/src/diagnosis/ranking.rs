//! Ranking findings (`docs/diagnosis.md` "Ranking"): severity, then how specific the evidence
//! is ([`Basis`]), then cause before symptom, then now before then. The rules push findings in
//! the order the kubelet meets the pod (pod level, scheduling, init, sidecars, main), which is
//! the causal order; the sort is stable, so that order breaks every remaining tie.

use super::evidence::{Basis, Confidence};
use super::{Finding, Inputs, Severity};
use crate::pod::{ContainerKind, ContainerState};

/// Rules whose finding is inferred rather than stated by the cluster.
const LIKELY: [&str; 7] = [
    "sigkill",
    "sigterm",
    "killed-by-signal",
    "liveness-kills-slow-start",
    "memory-near-limit",
    "completed-and-restarted",
    "warning-event",
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
const REASON: [&str; 12] = [
    "init-running",
    "go-panic",
    "app-exit",
    "stopped-by-kubelet",
    "admission-rejected",
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
    symptoms_after_causes(inp, problems);
}

/// Words of a log line that says a connection failed.
const NETWORK: [&str; 7] = [
    "refused",
    "timeout",
    "timed out",
    "unavailable",
    "reset",
    "no such host",
    "eof",
];

/// Whether a finding rests on a log line saying a connection failed; `loopback` when the
/// address was the pod's own (another container of the pod is the dependency).
fn network_failure(f: &Finding) -> Option<bool> {
    f.evidence
        .iter()
        .filter(|e| e.kind == super::EvidenceKind::Log)
        .find(|e| {
            let l = e.text.to_ascii_lowercase();
            NETWORK.iter().any(|w| l.contains(w))
        })
        .map(|e| {
            ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .any(|l| e.text.contains(l))
        })
}

/// Whether container `name` of the pod is a proxy the others' traffic goes through: a service
/// mesh's sidecar (its iptables rules send every connection of the pod through it) or a
/// database or API proxy beside the app.
fn is_proxy(inp: &Inputs<'_>, name: &str) -> bool {
    let Some(c) = inp.pod.containers.iter().find(|c| c.name == name) else {
        return false;
    };
    ["proxy", "envoy", "istio", "linkerd"]
        .iter()
        .any(|w| c.name.contains(w) || c.image.contains(w))
}

/// Cause before symptom: a container whose connections fail is the symptom when the pod's
/// proxy (or, for a loopback address, any other container of the pod) has a finding of its
/// own: that finding goes first, and the symptom says what it depends on.
fn symptoms_after_causes(inp: &Inputs<'_>, problems: &mut [Finding]) {
    let Some((symptom, loopback)) = problems
        .iter()
        .enumerate()
        .find_map(|(i, f)| network_failure(f).map(|l| (i, l)))
    else {
        return;
    };
    let cause = problems.iter().enumerate().position(|(i, f)| {
        i > symptom
            && f.container.is_some()
            && f.container != problems[symptom].container
            && matches!(f.severity, Severity::Error | Severity::Warning)
            && (loopback || f.container.as_deref().is_some_and(|c| is_proxy(inp, c)))
    });
    if let Some(c) = cause {
        let name = problems[c].container.clone().unwrap_or_default();
        if problems[c].severity > problems[symptom].severity {
            problems[c].severity = problems[symptom].severity;
        }
        problems[symptom].evidence.push(format!(
            "symptom: this container's connections go through container {name} of the same pod, which fails too"
        ));
        problems[c].evidence.push(format!(
            "cause: container {} fails because its connections through {name} fail",
            problems[symptom].container.as_deref().unwrap_or("?")
        ));
        problems[symptom..=c].rotate_right(1);
    }
}
