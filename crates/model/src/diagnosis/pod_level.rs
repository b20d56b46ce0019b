//! Pod-level rules: eviction, a lost node, preemption and other disruptions, a pending
//! deletion.
//!
//! Rule ids: `node-lost`, `evicted`, `node-shutdown`, `preempted`, `evicted-by-api`,
//! `taint-eviction`, `pod-gc`, `disruption`, `admission-rejected`, `deadline-exceeded`,
//! `stuck-terminating`, `terminating`, `prestop-outlasts-grace`.

mod disruption;
mod eviction;
mod node_lost;
mod others;
mod prestop;

pub use eviction::{Eviction, Usage, parse as parse_eviction};

use jiff::Timestamp;

use super::facts::{self, clock, clock_opt};
use super::{Finding, Inputs, Severity};
use crate::deletion::{self, OwnerStatus};
use crate::duration::human_duration;
use crate::event::EventSummary;
use crate::pod::{ContainerState, PodSummary};

/// Findings about the pod as a whole. Returns true when they explain every container's state
/// (an evicted, preempted or disrupted pod, a lost node, a deletion of a finished pod): the
/// container rules then stay silent.
///
/// Order: a lost node first (nothing the node reported can be trusted), then disruptions
/// ([`disruption`]), then the pending deletion ([`deletion`]).
pub fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) -> bool {
    let lost = node_lost::findings(inp, out);
    let disrupted = !lost && disruption::findings(inp, out);
    // A deletion waiting on a lost node's kubelet is part of the node's story, not a second one.
    let deleting = match (lost, inp.pod.deletion_timestamp) {
        (true, Some(at)) if inp.pod.finalizers.is_empty() => {
            if let Some(f) = out.iter_mut().rev().find(|f| f.rule == "node-lost") {
                f.evidence.push(format!(
                    "metadata.deletionTimestamp {}: deletion was requested; the object stays until the node's kubelet confirms the containers stopped, which a lost node never does",
                    super::facts::clock(at, inp.now)
                ));
            }
            true
        }
        _ => {
            let d = deletion_finding(inp, out);
            prestop::findings(inp, out);
            d
        }
    };
    let terminal = matches!(inp.pod.phase.as_str(), "Succeeded" | "Failed");
    lost || disrupted || (deleting && terminal)
}

/// Whether event `e` can be about this pod instance: not older than the pod (a StatefulSet's
/// re-created pod has the old one's name, and the old one's events).
pub(crate) fn fresh(pod: &PodSummary, e: &EventSummary) -> bool {
    match (e.last_timestamp, pod.creation_timestamp) {
        (Some(t), Some(c)) => t >= c,
        _ => true,
    }
}

/// The `kubectl set image`/`set resources` target for the pod's template:
/// `(statefulset/demo-app, note)`; a ReplicaSet's Deployment is named by the ReplicaSet's name
/// without its hash suffix, and the note says so.
pub(crate) fn workload_target(pod: &PodSummary) -> (String, String) {
    match pod.owner.as_ref() {
        None => (format!("pod/{}", pod.name), String::new()),
        Some(o) => match o.kind.as_str() {
            "ReplicaSet" => match o.name.rsplit_once('-') {
                Some((deploy, _)) => (
                    format!("deployment/{deploy}"),
                    format!(
                        " (the Deployment behind ReplicaSet {}, by its name)",
                        o.name
                    ),
                ),
                None => (format!("replicaset/{}", o.name), String::new()),
            },
            "Job" => (
                format!("job/{}", o.name),
                " (a Job's pod template is immutable: re-create the Job instead)".to_owned(),
            ),
            kind => (
                format!("{}/{}", kind.to_ascii_lowercase(), o.name),
                String::new(),
            ),
        },
    }
}

/// What replaces a pod that is gone, by its owner.
pub(crate) fn replacement(pod: &PodSummary) -> String {
    match pod.owner.as_ref() {
        None => "no owner: nothing replaces this pod; re-create it yourself".to_owned(),
        Some(o) => match o.kind.as_str() {
            "ReplicaSet" => format!(
                "owner ReplicaSet {}: it creates a replacement pod; this one stays until deleted",
                o.name
            ),
            "StatefulSet" => format!(
                "owner StatefulSet {}: it deletes this pod and re-creates {} with the same name",
                o.name, pod.name
            ),
            "DaemonSet" => format!(
                "owner DaemonSet {}: it creates a new pod for the node",
                o.name
            ),
            "Job" => format!(
                "owner Job {}: it counts this pod as failed (backoffLimit, unless a podFailurePolicy ignores DisruptionTarget) and creates another",
                o.name
            ),
            kind => format!(
                "owner {kind} {}: it re-creates the pod if it manages pods",
                o.name
            ),
        },
    }
}

/// One line per container: `container mysql: terminated ContainerStatusUnknown, exit 137
/// (times unknown): "…"`; never a year-0001 time (absent times say so).
pub(crate) fn state_lines(pod: &PodSummary, now: Timestamp) -> Vec<String> {
    pod.containers
        .iter()
        .filter_map(|c| {
            let who = facts::role(c);
            match &c.state {
                ContainerState::Terminated(t) => {
                    let times = match (t.started_at, t.finished_at) {
                        (None, None) => " (times unknown)".to_owned(),
                        (s, e) => format!(
                            ", started {}, finished {}",
                            clock_opt(s, now),
                            clock_opt(e, now)
                        ),
                    };
                    let msg = t
                        .message
                        .as_deref()
                        .map(str::trim)
                        .filter(|m| !m.is_empty())
                        .map(|m| format!(": \"{m}\""))
                        .unwrap_or_default();
                    Some(format!(
                        "{who}: terminated {}, exit {}{times}{msg}",
                        if t.reason.is_empty() {
                            "<no reason>"
                        } else {
                            &t.reason
                        },
                        t.exit_code
                    ))
                }
                ContainerState::Waiting { reason, .. } => Some(format!("{who}: waiting {reason}")),
                ContainerState::Running { started_at } => Some(format!(
                    "{who}: running since {}",
                    clock_opt(*started_at, now)
                )),
                ContainerState::Unknown => None,
            }
        })
        .collect()
}

/// The pending deletion (`crate::deletion::diagnose`): `stuck-terminating` (error when
/// finalizers are held by a gone or absent owner, or the kubelet has not confirmed the stop a
/// minute past `deletionTimestamp`; warning while the owner exists or is not known yet),
/// `terminating` (info, within the grace period). The API server keeps a deleted pod while
/// `metadata.finalizers` is non-empty and until its kubelet confirms the stop. Checked against
/// `21-terminating-job-tracking-finalizer` (job-tracking finalizer, owner Job gone, phase
/// Succeeded, no events) and `27-nodelost-unknown` (no finalizers, kubelet unreachable).
fn deletion_finding(inp: &Inputs<'_>, out: &mut Vec<Finding>) -> bool {
    let pod = inp.pod;
    let now = inp.now;
    let Some(at) = pod.deletion_timestamp else {
        return false;
    };
    let Some(notice) = deletion::diagnose(pod, inp.owner, now) else {
        return false;
    };
    let past = now.duration_since(at);
    let held = !pod.finalizers.is_empty();
    let owner_gone = pod.owner.is_none() || matches!(inp.owner, OwnerStatus::Gone);
    let (rule, severity) = if at > now {
        ("terminating", Severity::Info)
    } else if held && owner_gone {
        ("stuck-terminating", Severity::Error)
    } else if held {
        ("stuck-terminating", Severity::Warning)
    } else if past.as_secs() > 60 {
        ("stuck-terminating", Severity::Error)
    } else {
        ("terminating", Severity::Info)
    };
    let phase = pod.phase.as_str();
    let headline = if matches!(phase, "Succeeded" | "Failed") {
        format!(
            "{} (phase {phase}), deletion pending: {}",
            pod.print.status, notice.headline
        )
    } else {
        notice.headline
    };
    let mut f = Finding::new(rule, severity, None, headline);
    // Held by a finalizer, the API server says why; without one, the kubelet not confirming is
    // an inference (node unreachable, runtime stuck, teardown failing).
    if rule == "stuck-terminating" && !held {
        f.confidence = super::Confidence::Likely;
    }
    f.action = notice.hint;
    if f.action.is_none()
        && held
        && at <= now
        && let Some(o) = &pod.owner
    {
        f.action = Some(format!(
            "{} {} should remove the finalizer; if it no longer exists (or its controller is stuck), nothing will: kubectl patch pod {} -n {} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}}]'",
            o.kind, o.name, pod.name, pod.namespace
        ));
    }
    let when = if at <= now {
        format!("{} ago", human_duration(past))
    } else {
        format!("in {}", human_duration(at.duration_since(now)))
    };
    f.evidence.push(format!(
        "metadata.deletionTimestamp: {} ({when})",
        clock(at, now)
    ));
    f.evidence.push(if held {
        format!("metadata.finalizers: {}", pod.finalizers.join(", "))
    } else {
        "metadata.finalizers: none".to_owned()
    });
    for fin in &pod.finalizers {
        if fin == "batch.kubernetes.io/job-tracking" {
            f.evidence.push(
                "batch.kubernetes.io/job-tracking is removed by the Job controller once it has counted the pod; without the Job, nobody removes it"
                    .to_owned(),
            );
        }
    }
    if let Some(o) = &pod.owner {
        let status = match inp.owner {
            OwnerStatus::Unknown => "not checked yet".to_owned(),
            OwnerStatus::Exists => "exists".to_owned(),
            OwnerStatus::Gone => {
                "gone (GET returned 404, or an object of that name with another uid)".to_owned()
            }
            OwnerStatus::Failed(why) => format!("could not be checked ({why})"),
        };
        f.evidence
            .push(format!("owner {} {}: {status}", o.kind, o.name));
    } else {
        f.evidence
            .push("no owner (metadata.ownerReferences is empty)".to_owned());
    }
    f.evidence.push(match phase {
        "Succeeded" | "Failed" => format!(
            "phase {phase}: kubectl ≥1.29 shows {}, older kubectl Terminating; either way the deletion is pending",
            pod.print.status
        ),
        "" => "phase <none>".to_owned(),
        p => format!("phase {p}; kubectl shows STATUS {}", pod.print.status),
    });
    if !held && at <= now {
        f.evidence.push(format!(
            "no finalizers: the pod stays until the kubelet on {} confirms its containers stopped",
            pod.node.as_deref().unwrap_or("<no node>")
        ));
        if f.action.is_none() && severity == Severity::Error {
            f.action = Some(format!(
                "check node {0}: kubectl describe node {0}; if the node is known dead, kubectl delete pod {1} -n {2} --grace-period=0 --force (if it is alive, its containers keep running)",
                pod.node.as_deref().unwrap_or("<node>"),
                pod.name,
                pod.namespace
            ));
        }
    }
    if matches!(phase, "Succeeded" | "Failed") {
        f.evidence.extend(state_lines(pod, now));
    }
    f.evidence.extend(facts::expired_note(
        Some(at.min(now)),
        now,
        inp.events.iter().any(|e| fresh(pod, e)),
    ));
    out.push(f);
    true
}
