//! Findings for a pod the kubelet evicted, the scheduler preempted, or another component
//! disrupted (`DisruptionTarget` condition, `pkg/apis/core/types.go` `DisruptionTarget` reasons
//! `TerminationByKubelet`, `PreemptionByScheduler`, `EvictionByEvictionAPI`,
//! `DeletionByTaintManager`, `DeletionByPodGC`).

use super::eviction::{self, amount, plain};
use super::others::{admission, deadline, is_admission_reason, other};
use super::{fresh, replacement, state_lines, workload_target};
use crate::diagnosis::config::lookup_line;
use crate::diagnosis::facts::{self, clock};
use crate::diagnosis::{Finding, Inputs, ObjectRef, Severity};
use crate::event::EventSummary;
use crate::pod::ConditionSummary;

/// Pushes the disruption finding, if any; true when there is one (it explains the containers).
pub(super) fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) -> bool {
    let pod = inp.pod;
    let dt = pod
        .conditions
        .iter()
        .find(|c| c.type_ == "DisruptionTarget" && c.status == "True");
    let dt_reason = dt.map_or("", |c| c.reason.as_str());
    let event = |reasons: &[&str]| {
        inp.pod_events()
            .find(|e| reasons.contains(&e.reason.as_str()) && fresh(pod, e))
    };
    let evicted_event = event(&["Evicted"]);
    let shutdown_text = |s: &str| s.to_ascii_lowercase().contains("shutdown");
    let shutdown = (pod.reason == "Terminated" && shutdown_text(&pod.message))
        || (dt_reason == "TerminationByKubelet" && dt.is_some_and(|c| shutdown_text(&c.message)));
    if !shutdown
        && (pod.reason == "Evicted"
            || evicted_event.is_some()
            || dt_reason == "TerminationByKubelet")
    {
        out.push(evicted(inp, dt, evicted_event));
        return true;
    }
    if shutdown {
        out.push(other(
            inp,
            dt,
            "node-shutdown",
            "was terminated because its node shut down (graceful node shutdown)",
            "the owner re-creates it on another node; for a bare pod, re-create it",
        ));
        return true;
    }
    if pod.phase == "Failed" && pod.reason == "DeadlineExceeded" {
        out.push(deadline(inp));
        return true;
    }
    if pod.phase == "Failed" && is_admission_reason(&pod.reason) {
        out.push(admission(inp));
        return true;
    }
    let preempted = event(&["Preempted", "Preempting"]);
    if dt_reason == "PreemptionByScheduler" || preempted.is_some() || pod.reason == "Preempting" {
        out.push(preemption(inp, dt, preempted));
        return true;
    }
    let (rule, what, hint) = match dt_reason {
        "" => return false,
        "EvictionByEvictionAPI" => (
            "evicted-by-api",
            "was evicted through the Eviction API (kubectl drain, a descheduler or an autoscaler scaling down)",
            "an intended stop: the owner re-creates it elsewhere; a PodDisruptionBudget bounds how many go at once",
        ),
        "DeletionByTaintManager" => (
            "taint-eviction",
            "was deleted by the taint manager: its node has a NoExecute taint the pod does not tolerate (or tolerates only for tolerationSeconds)",
            "kubectl describe node shows the taint; add a toleration if the pod should stay through it",
        ),
        "DeletionByPodGC" => (
            "pod-gc",
            "was deleted by the pod garbage collector (its node is gone or it was orphaned)",
            "the owner re-creates it; check why the node left: kubectl get nodes",
        ),
        _ => (
            "disruption",
            "is being disrupted (DisruptionTarget condition)",
            "the condition's reason and message say who disrupted it",
        ),
    };
    out.push(other(inp, dt, rule, what, hint));
    true
}

pub(super) fn condition_line(c: &ConditionSummary, now: jiff::Timestamp) -> String {
    let at = c
        .last_transition_time
        .map(|t| format!(" at {}", clock(t, now)))
        .unwrap_or_default();
    let msg = if c.message.is_empty() {
        String::new()
    } else {
        format!(": \"{}\"", c.message)
    };
    format!("condition DisruptionTarget=True ({}){at}{msg}", c.reason)
}

/// Node-pressure (or limit) eviction by the kubelet. Checked against
/// `23-evicted-ephemeral-storage-classic` (classic shape: only status.reason/message, `exceeds
/// its request of 0`, ephemeral-storage) and `25-evicted-memory-containerstatusunknown` (memory,
/// `request is 204Mi, has larger consumption of memory`, ContainerStatusUnknown, null times).
fn evicted(inp: &Inputs<'_>, dt: Option<&ConditionSummary>, ev: Option<&EventSummary>) -> Finding {
    let pod = inp.pod;
    let now = inp.now;
    let node = pod.node.as_deref().unwrap_or("its node");
    let message = [
        pod.message.as_str(),
        dt.map_or("", |c| c.message.as_str()),
        ev.map_or("", |e| e.message.as_str()),
    ]
    .into_iter()
    .map(str::trim)
    .find(|m| !m.is_empty())
    .unwrap_or("");
    let e = eviction::parse(message);
    let res = e.resource.clone().unwrap_or_else(|| "resources".to_owned());
    let pressure = match (&e.available, &e.threshold) {
        (Some(a), Some(t)) => format!(
            " (available {}, threshold {})",
            plain(&res, a),
            plain(&res, t)
        ),
        _ => String::new(),
    };
    let culprit = e.culprit();
    let cause = if let Some(u) = culprit {
        let request = if quant_zero(&u.request) {
            format!("with no {res} request (request {})", u.request)
        } else {
            format!("against a request of {}", amount(&res, &u.request))
        };
        format!(
            "the node was low on {res}{pressure} and container {} was using {} {request}",
            u.container,
            amount(&res, &u.usage)
        )
    } else if let Some(r) = &e.resource {
        format!("the node was low on {r}{pressure}")
    } else if let Some(c) = &e.condition {
        // `The node had condition: [X].` is the eviction manager's answer at admission
        // (`pkg/kubelet/eviction/eviction_manager.go` Admit): the pod was refused, never ran.
        format!(
            "the kubelet refused to admit it because the node had condition {c} (under that pressure it rejects new pods); the pod never ran"
        )
    } else if let Some(l) = &e.limit {
        l.clone()
    } else if message.is_empty() {
        "the kubelet left no message".to_owned()
    } else {
        format!("\"{message}\"")
    };
    let mut f = Finding::new(
        "evicted",
        Severity::Error,
        culprit.map(|u| u.container.as_str()),
        format!("evicted from node {node}: {cause}"),
    );
    if !pod.reason.is_empty() || !pod.message.is_empty() {
        f.evidence.push(format!(
            "status.reason {}, status.message: \"{}\"",
            if pod.reason.is_empty() {
                "<none>"
            } else {
                &pod.reason
            },
            pod.message.trim_end()
        ));
    }
    if let Some(ev) = ev {
        f.evidence.push(facts::event_line(ev, now));
    }
    if let Some(c) = dt {
        f.evidence.push(condition_line(c, now));
    }
    for u in &e.usages {
        let spec = facts::spec_of(pod, &u.container);
        let limit = spec
            .and_then(|c| facts::resource(c, true, &res))
            .map(|l| format!(", limit {}", amount(&res, l)))
            .unwrap_or_else(|| format!(", no {res} limit"));
        f.evidence.push(format!(
            "container {}: using {} of {res}, request {}{limit}",
            u.container,
            amount(&res, &u.usage),
            if quant_zero(&u.request) {
                "0 (none set)".to_owned()
            } else {
                amount(&res, &u.request)
            }
        ));
    }
    if let (Some(t), Some(a)) = (&e.threshold, &e.available) {
        f.evidence.push(format!(
            "eviction threshold: {res} available below {}; it was {}",
            amount(&res, t),
            amount(&res, a)
        ));
    }
    if e.condition.is_none() {
        f.evidence.push(format!(
            "qosClass {}: the kubelet evicts first the pods using more than their requests, then by priority, then by how far above the request they are",
            pod.qos_class.as_deref().unwrap_or("<unknown>")
        ));
    }
    for ev2 in inp
        .events
        .iter()
        .filter(|x| matches!(x.reason.as_str(), "Killing" | "ExceededGracePeriod") && fresh(pod, x))
    {
        f.evidence.push(facts::event_line(ev2, now));
    }
    if pod.print.status != "Evicted" && !pod.print.status.is_empty() {
        f.evidence.push(format!(
            "kubectl shows STATUS {}: a container's reason overrides the pod's reason Evicted",
            pod.print.status
        ));
    }
    f.evidence.extend(state_lines(pod, now));
    if pod
        .containers
        .iter()
        .all(|c| matches!(c.state, crate::pod::ContainerState::Unknown))
    {
        f.evidence.push(
            "no container statuses are left: the containers and their logs are gone".to_owned(),
        );
    }
    let since = dt
        .and_then(|c| c.last_transition_time)
        .or(pod.creation_timestamp);
    f.evidence
        .extend(facts::expired_note(since, now, ev.is_some()));
    f.evidence.push(replacement(pod));
    if let Some(n) = pod.node.as_deref() {
        let r = ObjectRef::Node(n.to_owned());
        f.evidence.extend(lookup_line(inp, &r));
        f.checks.push(r);
    }
    let (target, note) = workload_target(pod);
    let ns = &pod.namespace;
    let fix = match culprit {
        Some(u) if res == "ephemeral-storage" => format!(
            "give container {c} an ephemeral-storage request near its use (at least {use_}) and a limit — kubectl set resources {target} -c {c} --requests=ephemeral-storage={use_} -n {ns}{note} — or have it write to a volume (an emptyDir with sizeLimit, or a PVC) instead of its writable layer and logs",
            c = u.container,
            use_ = plain(&res, &u.usage)
        ),
        Some(u) => format!(
            "raise container {c}'s {res} request to its real use (at least {use_}): requests drive the kubelet's eviction ranking — kubectl set resources {target} -c {c} --requests={res}={use_} -n {ns}{note}; a {res} limit caps it",
            c = u.container,
            use_ = plain(&res, &u.usage)
        ),
        None if e.condition.is_some() => format!(
            "relieve node {node}'s {c} (kubectl describe node {node}: its conditions, then free disk or memory there); the pod's own requests played no part",
            c = e.condition.as_deref().unwrap_or("pressure")
        ),
        None => format!(
            "set {res} requests (and limits) close to real use so this pod is not the first to go under pressure, or move it to a node with room"
        ),
    };
    f.action(format!(
        "{fix}; this pod object is dead (its containers are gone): kubectl delete pod {} -n {ns} once you have read it",
        pod.name
    ))
}

fn quant_zero(q: &str) -> bool {
    facts::quantity(q).is_none_or(|v| v == 0.0)
}

/// Preempted by the scheduler (`pkg/scheduler/framework/preemption`: `Preempted` event `Preempted
/// by pod UID on node N`, DisruptionTarget `PreemptionByScheduler`) or by the kubelet to admit a
/// critical pod (`Preempting`, `Preempted in order to admit critical pod`).
fn preemption(
    inp: &Inputs<'_>,
    dt: Option<&ConditionSummary>,
    ev: Option<&EventSummary>,
) -> Finding {
    let pod = inp.pod;
    let now = inp.now;
    let node = pod.node.as_deref().unwrap_or("its node");
    let by_kubelet = pod.reason == "Preempting" || ev.is_some_and(|e| e.reason == "Preempting");
    let headline = if by_kubelet {
        format!("preempted by the kubelet on node {node} to admit a critical pod")
    } else {
        format!(
            "preempted: the scheduler removed it from node {node} to make room for a higher-priority pod (this pod's priority {})",
            pod.spec.priority.unwrap_or(0)
        )
    };
    let mut f = Finding::new("preempted", Severity::Warning, None, headline);
    if let Some(c) = dt {
        f.evidence.push(condition_line(c, now));
    }
    if let Some(e) = ev {
        f.evidence.push(facts::event_line(e, now));
    }
    if !pod.reason.is_empty() {
        f.evidence
            .push(format!("status.reason {}: \"{}\"", pod.reason, pod.message));
    }
    f.evidence.push(format!(
        "priority {}, {}",
        pod.spec.priority.unwrap_or(0),
        pod.spec.priority_class_name.as_deref().map_or_else(
            || "no priorityClassName".to_owned(),
            |p| format!("priorityClassName {p}")
        )
    ));
    f.evidence.extend(state_lines(pod, now));
    f.evidence.push(replacement(pod));
    f.action(
        "give it a higher priorityClassName if it matters more, or make room so both fit (more nodes, smaller requests); the replacement may stay Pending until there is room",
    )
}
