//! Pod-level ends that are not node pressure: a kubelet admission rejection, an
//! `activeDeadlineSeconds` stop, and the other `DisruptionTarget` reasons.

use super::disruption::condition_line;
use super::{fresh, replacement, state_lines};
use crate::diagnosis::facts;
use crate::diagnosis::{Finding, Inputs, Severity};
use crate::pod::ConditionSummary;

/// The kubelet's admission rejections (`pkg/kubelet/lifecycle/predicate.go`, `generalFilter`):
/// `OutOfcpu`, `OutOfmemory`, `OutOfpods`, `NodeAffinity`, `UnexpectedAdmissionError`, …
pub(super) fn is_admission_reason(reason: &str) -> bool {
    reason.starts_with("OutOf")
        || matches!(
            reason,
            "UnexpectedAdmissionError"
                | "NodeAffinity"
                | "NodeSelectorMismatching"
                | "InvalidNodeInfo"
                | "PodOSNotSupported"
                | "PodOSSelectorNodeLabelDoesNotMatch"
                | "SysctlForbidden"
                | "UnexpectedPredicateFailureType"
        )
}

/// Rejected by the kubelet at admission: phase `Failed`, `status.reason` `OutOfcpu` (etc.),
/// `Pod was rejected: Node didn't have enough resource: cpu, requested: 4000, used: 1500,
/// capacity: 2000`. The kubelet re-checks what the scheduler checked; they disagree after a
/// kubelet restart, for static pods, or for a pod bound by `spec.nodeName` without the scheduler.
pub(super) fn admission(inp: &Inputs<'_>) -> Finding {
    let pod = inp.pod;
    let node = pod.node.as_deref().unwrap_or("its node");
    let mut f = Finding::new(
        "admission-rejected",
        Severity::Error,
        None,
        format!(
            "rejected by the kubelet on node {node} before any container started: {} ({})",
            pod.reason,
            pod.message.trim()
        ),
    )
    .with(format!(
        "phase Failed, status.reason {}: \"{}\"",
        pod.reason, pod.message
    ))
    .with(
        "the kubelet re-checks resources, node affinity and OS when it admits a pod; a rejection is final for this pod object",
    );
    f.evidence.extend(state_lines(pod, inp.now));
    f.evidence.push(replacement(pod));
    f.action(
        "the owner creates a new pod (the scheduler then places it where it fits); for a pod bound by spec.nodeName, drop nodeName or free the node; kubectl describe node shows its Allocated resources",
    )
}

/// `activeDeadlineSeconds` passed: the kubelet kills the pod, phase `Failed`, reason
/// `DeadlineExceeded`, `Pod was active on the node longer than the specified deadline`
/// (`pkg/kubelet/active_deadline.go`).
pub(super) fn deadline(inp: &Inputs<'_>) -> Finding {
    let pod = inp.pod;
    let secs = pod
        .spec
        .active_deadline_seconds
        .map_or_else(|| "its".to_owned(), |s| format!("{s}s"));
    let mut f = Finding::new(
        "deadline-exceeded",
        Severity::Error,
        None,
        format!("stopped by the kubelet: the pod ran longer than activeDeadlineSeconds ({secs})"),
    )
    .with(format!(
        "phase Failed, status.reason DeadlineExceeded: \"{}\"",
        pod.message
    ));
    f.evidence.extend(state_lines(pod, inp.now));
    f.evidence.push(replacement(pod));
    f.action("raise activeDeadlineSeconds (a Job's spec.activeDeadlineSeconds bounds all its pods), or find why the work took this long in the container logs")
}

pub(super) fn other(
    inp: &Inputs<'_>,
    dt: Option<&ConditionSummary>,
    rule: &'static str,
    what: &str,
    hint: &str,
) -> Finding {
    let pod = inp.pod;
    let now = inp.now;
    let node = pod
        .node
        .as_deref()
        .map(|n| format!(" (node {n})"))
        .unwrap_or_default();
    let mut f = Finding::new(
        rule,
        Severity::Warning,
        None,
        format!("the pod {what}{node}"),
    );
    for e in inp.pod_events().filter(|e| {
        matches!(e.reason.as_str(), "TaintManagerEviction" | "Killing") && fresh(pod, e)
    }) {
        f.evidence.push(facts::event_line(e, now));
    }
    if let Some(c) = dt {
        f.evidence.push(condition_line(c, now));
    }
    if !pod.reason.is_empty() || !pod.message.is_empty() {
        f.evidence.push(format!(
            "status.reason {}: \"{}\"",
            if pod.reason.is_empty() {
                "<none>"
            } else {
                &pod.reason
            },
            pod.message
        ));
    }
    f.evidence.extend(state_lines(pod, now));
    f.evidence.push(replacement(pod));
    f.action(hint)
}
