//! A pod the scheduler is not trying: held by scheduling gates, or no scheduler reports on it.

use crate::diagnosis::facts;
use crate::diagnosis::{Finding, Inputs, Severity};
use crate::duration::human_duration;

pub(super) fn gated(inp: &Inputs<'_>, gates: &[&str]) -> Finding {
    let pod = inp.pod;
    let list = if gates.is_empty() {
        "its scheduling gates".to_owned()
    } else {
        format!("scheduling gates {}", gates.join(", "))
    };
    Finding::new(
        "scheduling-gated",
        Severity::Warning,
        None,
        format!("not scheduled: held by {list}; the scheduler does not consider it until they are removed"),
    )
    .with(format!(
        "spec.schedulingGates: {}",
        if gates.is_empty() { "<none listed>".to_owned() } else { gates.join(", ") }
    ))
    .with("condition PodScheduled=False (SchedulingGated)")
    .action(format!(
        "the controller that added the gate (a queueing system such as Kueue) removes it when it admits the pod; to release it by hand: kubectl patch pod {} -n {} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/spec/schedulingGates\"}}]'",
        pod.name, pod.namespace
    ))
}

/// Pending for over a minute with no word from any scheduler.
pub(super) fn no_report(inp: &Inputs<'_>) -> Option<Finding> {
    let pod = inp.pod;
    let created = pod.creation_timestamp?;
    let age = inp.now.duration_since(created);
    if pod.phase != "Pending" || age < jiff::SignedDuration::from_mins(1) {
        return None;
    }
    let scheduler = pod
        .spec
        .scheduler_name
        .as_deref()
        .unwrap_or("default-scheduler");
    let mut f = Finding::new(
        "not-scheduled",
        Severity::Warning,
        None,
        format!(
            "not scheduled after {}: no scheduler has reported on it (schedulerName {scheduler})",
            human_duration(age)
        ),
    )
    .with("no spec.nodeName, no PodScheduled condition, no FailedScheduling event");
    f.evidence
        .extend(facts::expired_note(Some(created), inp.now, false));
    Some(f.action(format!(
        "check that the scheduler {scheduler} runs (kubectl get pods -n kube-system -l component=kube-scheduler) and its logs"
    )))
}
