//! Scheduling rules: a Pending pod the scheduler cannot place, from `FailedScheduling` events
//! and the `PodScheduled` condition.
//!
//! Rule ids: `unschedulable`, `unbound-pvc`, `missing-pvc`, `scheduling-gated`, `not-scheduled`.

mod fit_error;
mod quiet;
pub mod spec;
mod words;

pub use fit_error::{FitError, Why, parse, why};

use super::config::{Kind, event_span_line, lookup_line, not_found};
use super::facts;
use super::{Finding, Inputs, ObjectRef, Severity};
use crate::duration::human_duration;
use crate::event::EventSummary;
use crate::pod::PodSummary;

fn fresh(pod: &PodSummary, e: &EventSummary) -> bool {
    match (e.last_timestamp, pod.creation_timestamp) {
        (Some(t), Some(c)) => t >= c,
        _ => true,
    }
}

fn nominated(pod: &PodSummary) -> Option<&str> {
    let n = pod.print.nominated_node.as_str();
    (!n.is_empty() && n != "<none>").then_some(n)
}

/// Findings about scheduling.
///
/// The scheduler tries a pod that has no `spec.nodeName`; when no node passes its filters it
/// records a `FailedScheduling` event and sets `PodScheduled=False` (reason `Unschedulable`)
/// with the `FitError` message (`pkg/scheduler/framework/types.go`, `FitError.Error`: the number
/// of nodes, a histogram of per-node reasons, then what preemption found), and retries when the
/// cluster changes (and at least every 5 min). A pod with `spec.schedulingGates` is not tried at
/// all (`PodScheduled=False`, reason `SchedulingGated`). Checked against `34-pending-failedscheduling` (12 nodes, 9
/// excluded by node affinity, 3 short of 12Gi memory, events API `series`).
pub fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    let pod = inp.pod;
    if pod.node.as_deref().is_some_and(|n| !n.is_empty())
        || matches!(pod.phase.as_str(), "Succeeded" | "Failed")
        || pod.deletion_timestamp.is_some_and(|d| d <= inp.now)
    {
        return;
    }
    let cond = pod.conditions.iter().find(|c| c.type_ == "PodScheduled");
    let gates: Vec<&str> = pod
        .spec
        .scheduling_gates
        .iter()
        .flatten()
        .map(|g| g.name.as_str())
        .collect();
    if !gates.is_empty() || cond.is_some_and(|c| c.reason == "SchedulingGated") {
        out.push(quiet::gated(inp, &gates));
        return;
    }
    let event = inp
        .pod_events()
        .find(|e| e.reason == "FailedScheduling" && fresh(pod, e));
    let unschedulable = cond.filter(|c| c.status == "False");
    if event.is_none() && unschedulable.is_none() {
        out.extend(quiet::no_report(inp));
        return;
    }
    let message = event
        .map(|e| e.message.as_str())
        .filter(|m| !m.trim().is_empty())
        .or(unschedulable.map(|c| c.message.as_str()))
        .unwrap_or("");
    out.push(unschedulable_finding(inp, event, unschedulable, message));
}

fn unschedulable_finding(
    inp: &Inputs<'_>,
    event: Option<&EventSummary>,
    cond: Option<&crate::pod::ConditionSummary>,
    message: &str,
) -> Finding {
    let pod = inp.pod;
    let now = inp.now;
    let ns = &pod.namespace;
    let req = spec::effective_requests(&pod.spec);
    let fe = parse(message);
    let lower = message.to_ascii_lowercase();
    let missing_pvc = not_found(message)
        .into_iter()
        .find(|(k, _)| *k == Kind::Pvc)
        .map(|(_, n)| n);
    let unbound = lower.contains("unbound immediate persistentvolumeclaims");
    let claims = spec::claims(&pod.spec, &pod.name);
    let (rule, cause) = if let Some(name) = &missing_pvc {
        (
            "missing-pvc",
            format!("PersistentVolumeClaim {name} does not exist in namespace {ns}"),
        )
    } else if unbound {
        (
            "unbound-pvc",
            format!(
                "its PersistentVolumeClaim{} {} not bound to a volume yet (pod has unbound immediate PersistentVolumeClaims)",
                if claims.len() == 1 { "" } else { "s" },
                if claims.is_empty() {
                    "are".to_owned()
                } else {
                    format!(
                        "{} {}",
                        claims.join(", "),
                        if claims.len() == 1 { "is" } else { "are" }
                    )
                }
            ),
        )
    } else {
        match &fe {
            Some(fe) if !fe.reasons.is_empty() => {
                let parts: Vec<String> = fe
                    .reasons
                    .iter()
                    .map(|(n, r)| words::phrase(*n, r, &req))
                    .collect();
                let of = fe
                    .total
                    .map_or_else(|| "of the nodes".to_owned(), |t| format!("of {t} nodes"));
                (
                    "unschedulable",
                    format!("{of}, {}", words::join_and(&parts)),
                )
            }
            Some(fe) if fe.total == Some(0) => (
                "unschedulable",
                "the cluster has no nodes the scheduler can use".to_owned(),
            ),
            Some(FitError {
                prefilter: Some(p), ..
            }) => ("unschedulable", p.clone()),
            _ if message.trim().is_empty() => {
                ("unschedulable", "the scheduler gave no reason".to_owned())
            }
            _ => {
                let short: String = message.chars().take(200).collect();
                let more = if short.len() < message.len() {
                    "…"
                } else {
                    ""
                };
                (
                    "unschedulable",
                    format!("the scheduler says \"{short}{more}\""),
                )
            }
        }
    };
    let nominee = nominated(pod);
    let preemption = match (&fe, nominee) {
        (_, Some(n)) => format!("; nominated node {n}: waiting for preempted pods to leave it"),
        (Some(fe), None) => match (fit_error::preemption_futile(fe), fe.preemption.as_deref()) {
            (_, Some(p)) if p.contains("preemptionPolicy=Never") => {
                "; preemption is off for it (preemptionPolicy Never)".to_owned()
            }
            (Some(true), _) => "; preemption cannot help".to_owned(),
            _ => String::new(),
        },
        _ => String::new(),
    };
    let scale_up = inp.pod_events().find(|e| {
        e.reason == "TriggeredScaleUp" && event.is_none_or(|f| e.last_timestamp >= f.last_timestamp)
    });
    let severity = if nominee.is_some() || scale_up.is_some() {
        Severity::Warning
    } else {
        Severity::Error
    };
    let mut f = Finding::new(
        rule,
        severity,
        None,
        format!("not scheduled: {cause}{preemption}"),
    );
    if let Some(e) = event {
        f.evidence.push(event_span_line(e, now));
    }
    if let Some(c) = cond {
        let since = c
            .last_transition_time
            .map(|t| format!(" since {}", facts::clock(t, now)))
            .unwrap_or_default();
        let reason = if c.reason.is_empty() {
            "no reason"
        } else {
            &c.reason
        };
        let msg = if event.is_some_and(|e| e.message == c.message) || c.message.is_empty() {
            String::new()
        } else {
            format!(": \"{}\"", c.message)
        };
        f.evidence.push(format!(
            "condition PodScheduled={} ({reason}){since}{msg}",
            c.status
        ));
    }
    if let Some(created) = pod.creation_timestamp {
        f.evidence.push(format!(
            "pending {} (created {}); no spec.nodeName",
            human_duration(now.duration_since(created)),
            facts::clock(created, now)
        ));
    }
    f.evidence.extend(facts::expired_note(
        cond.and_then(|c| c.last_transition_time)
            .or(pod.creation_timestamp),
        now,
        event.is_some(),
    ));

    let mut whys: Vec<Why> = Vec::new();
    if let Some(fe) = &fe {
        let total = fe.total.map(|t| format!(" of {t}")).unwrap_or_default();
        for (n, r) in &fe.reasons {
            f.evidence.push(format!("  {n}{total} nodes: {r}"));
            whys.push(why(r));
        }
        if let (Some(t), true) = (fe.total, fe.reasons.len() > 1) {
            let sum: u32 = fe.reasons.iter().map(|(n, _)| n).sum();
            if sum > t {
                f.evidence.push(format!(
                    "  (the counts add up to {sum}: a node can fail several checks)"
                ));
            }
        }
        if let Some(p) = &fe.preemption {
            f.evidence.push(format!("preemption: {p}"));
        }
        if fe.reasons.is_empty() && fe.prefilter.is_none() && !message.is_empty() {
            f.evidence.push(format!("scheduler message: \"{message}\""));
        }
    } else if !message.is_empty() && event.is_none() && cond.is_none() {
        f.evidence.push(format!("scheduler message: \"{message}\""));
    }
    f.evidence.push(if req.is_empty() {
        "requests: none (the pod asks for no cpu or memory)".to_owned()
    } else {
        format!(
            "requests (effective: main containers summed, init containers at most, plus overhead): {}",
            spec::requests_text(&req)
        )
    });
    if let Some(a) = spec::required_node_affinity(&pod.spec) {
        f.evidence.push(format!("required node affinity: {a}"));
    }
    if let Some(s) = spec::node_selector(&pod.spec) {
        f.evidence.push(format!("nodeSelector: {s}"));
    }
    if whys
        .iter()
        .any(|w| matches!(w, Why::Taint | Why::NotReady | Why::Cordoned))
        || !spec::only_default_tolerations(&pod.spec)
    {
        f.evidence
            .push(format!("tolerations: {}", spec::tolerations(&pod.spec)));
    }
    if whys.iter().any(|w| {
        matches!(
            w,
            Why::PodAffinity | Why::PodAntiAffinity | Why::ExistingAntiAffinity
        )
    }) {
        f.evidence.extend(spec::pod_affinity(&pod.spec));
    }
    if whys.contains(&Why::TopologySpread) {
        f.evidence.extend(spec::topology_spread(&pod.spec));
    }
    if whys.contains(&Why::Ports) {
        f.evidence.extend(spec::host_ports(&pod.spec));
    }
    let volume_related = missing_pvc.is_some()
        || unbound
        || whys
            .iter()
            .any(|w| matches!(w, Why::Volume | Why::VolumeZone));
    if volume_related {
        let mut names = claims.clone();
        if let Some(m) = &missing_pvc
            && !names.contains(m)
        {
            names.push(m.clone());
        }
        for c in names {
            let r = ObjectRef::PersistentVolumeClaim(c);
            f.evidence.extend(lookup_line(inp, &r));
            f.checks.push(r);
        }
    }
    if let Some(n) = nominee {
        f.evidence.push(format!(
            "status.nominatedNodeName {n}: the scheduler preempted pods there and waits for them to terminate"
        ));
    }
    if fe.as_ref().is_some_and(|fe| fe.preemption.is_some()) {
        f.evidence.push(format!(
            "priority {} ({}), preemptionPolicy {}: preemption only removes pods of lower priority",
            pod.spec.priority.unwrap_or(0),
            pod.spec.priority_class_name.as_deref().map_or_else(
                || "no priorityClassName".to_owned(),
                |p| format!("priorityClassName {p}")
            ),
            pod.spec
                .preemption_policy
                .as_deref()
                .unwrap_or("PreemptLowerPriority")
        ));
    }
    for e in inp.pod_events().filter(|e| {
        matches!(
            e.reason.as_str(),
            "NotTriggerScaleUp" | "TriggeredScaleUp" | "FailedScaleUp"
        )
    }) {
        f.evidence.push(facts::event_line(e, now));
    }
    if let Some(s) = pod
        .spec
        .scheduler_name
        .as_deref()
        .filter(|s| *s != "default-scheduler")
    {
        f.evidence.push(format!("schedulerName {s}"));
    }
    f.evidence.push(
        "the scheduler retries when the cluster changes (a node joins, a pod leaves, labels or taints change) and at least every 5 minutes; no container exists yet, so logs, exec and port-forward have nothing to attach to"
            .to_owned(),
    );
    let hint = match rule {
        "missing-pvc" => format!(
            "create the PersistentVolumeClaim {} in namespace {ns} (or fix claimName in the pod template): kubectl get pvc -n {ns}",
            missing_pvc.as_deref().unwrap_or("")
        ),
        "unbound-pvc" => format!(
            "kubectl describe pvc {} -n {ns}: its events say why it is not bound (no StorageClass or provisioner, no matching PersistentVolume, quota)",
            claims.first().map_or("<claim>", String::as_str)
        ),
        _ => words::hint(inp, fe.as_ref(), &req),
    };
    f.action(hint)
}
