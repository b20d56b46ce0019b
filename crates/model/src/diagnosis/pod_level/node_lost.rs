//! A pod whose node stopped reporting.
//!
//! The node lifecycle controller (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`)
//! marks a node `Ready=Unknown` when its kubelet misses heartbeats (40 s by default), records a
//! `NodeNotReady` event ("Node is not ready") on each of its pods and sets their `Ready`
//! condition False (`MarkPodsNotReady`); older clusters also set the pod's `status.reason`
//! `NodeLost` (kubectl then prints `Unknown`), newer ones taint the node
//! `node.kubernetes.io/unreachable` and delete the pods after their toleration (300 s by
//! default). Nothing else in the pod's status changes: the containers keep the node's last
//! report. A deletion never completes, because only that kubelet can confirm the containers
//! stopped; a StatefulSet will not create a pod with the same name until the object is gone.

use super::{fresh, replacement};
use crate::diagnosis::config::lookup_line;
use crate::diagnosis::facts::{self, clock};
use crate::diagnosis::{Finding, Inputs, Lookup, ObjectRef, Severity};
use crate::duration::human_duration;
use crate::pod::ContainerState;

/// Pushes the node-lost finding when the pod's node is lost; true then.
///
/// Signs: `status.reason NodeLost`, `phase Unknown`, the `Ready` condition `Unknown`, a
/// `NodeNotReady` event with the `Ready` condition not True since it, or a `DisruptionTarget`
/// `DeletionByTaintManager` on a not-ready pod whose containers still claim `ready` (the stale
/// report). Checked against `27-nodelost-unknown`.
pub(super) fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) -> bool {
    let pod = inp.pod;
    let now = inp.now;
    let ready = pod.conditions.iter().find(|c| c.type_ == "Ready");
    let event = inp
        .pod_events()
        .find(|e| e.reason == "NodeNotReady" && fresh(pod, e));
    let stale_ready = pod
        .containers
        .iter()
        .any(|c| c.ready && matches!(c.state, ContainerState::Running { .. }));
    let event_sign = event.is_some_and(|e| {
        ready.is_some_and(|r| {
            r.status != "True"
                && (stale_ready
                    || match (r.last_transition_time, e.last_timestamp) {
                        (Some(t), Some(at)) => t.duration_since(at).abs().as_secs() <= 60,
                        _ => false,
                    })
        })
    });
    // Taint-based eviction of a pod on an unreachable node (the NodeNotReady event expired).
    let taint_sign = pod.conditions.iter().any(|c| {
        c.type_ == "DisruptionTarget" && c.status == "True" && c.reason == "DeletionByTaintManager"
    }) && stale_ready
        && ready.is_some_and(|r| r.status != "True");
    let lost = pod.reason == "NodeLost"
        || taint_sign
        || pod.phase == "Unknown"
        || ready.is_some_and(|r| r.status == "Unknown")
        || event_sign;
    if !lost {
        return false;
    }
    let node = pod.node.as_deref().unwrap_or("<unknown node>");
    let node_ref = ObjectRef::Node(node.to_owned());
    let back = matches!(
        inp.related.get(&node_ref),
        Some(Lookup::Found { conditions, .. }) if conditions.is_empty()
    );
    let headline = if back {
        format!(
            "node {node} stopped reporting; it reports healthy again, so the pod's status should refresh — until then what is shown is the node's last report"
        )
    } else {
        format!(
            "node {node} stopped reporting; the pod's real state is unknown — what is shown is the node's last report"
        )
    };
    let severity = if back {
        Severity::Warning
    } else {
        Severity::Error
    };
    let mut f = Finding::new("node-lost", severity, None, headline);
    if !pod.reason.is_empty() {
        f.evidence
            .push(format!("status.reason {}: \"{}\"", pod.reason, pod.message));
    }
    f.evidence.push(format!(
        "phase {}; kubectl shows STATUS {}",
        if pod.phase.is_empty() {
            "<none>"
        } else {
            &pod.phase
        },
        pod.print.status
    ));
    if let Some(r) = ready {
        match r.last_transition_time {
            Some(t) => f.evidence.push(format!(
                "last heard from the node: condition Ready={} since {} ({} ago)",
                r.status,
                clock(t, now),
                human_duration(now.duration_since(t))
            )),
            None => f.evidence.push(format!("condition Ready={}", r.status)),
        }
    }
    for e in inp
        .pod_events()
        .filter(|e| e.reason == "TaintManagerEviction" && fresh(pod, e))
        .take(1)
    {
        f.evidence.push(facts::event_line(e, now));
    }
    if let Some(e) = event {
        let from = if e.source.is_empty() {
            String::new()
        } else {
            format!(" (from {})", e.source)
        };
        f.evidence
            .push(format!("{}{from}", facts::event_line(e, now)));
    }
    for c in &pod.containers {
        let state = match &c.state {
            ContainerState::Running { .. } => "running",
            ContainerState::Waiting { .. } => "waiting",
            ContainerState::Terminated(_) => "terminated",
            ContainerState::Unknown => "no status",
        };
        f.evidence.push(format!(
            "{}: {state}{} as last reported — stale",
            facts::role(c),
            if c.ready { ", ready" } else { "" }
        ));
    }
    if let Some(d) = pod.deletion_timestamp {
        let when = if d <= now {
            format!("{} ago", human_duration(now.duration_since(d)))
        } else {
            format!("in {}", human_duration(d.duration_since(now)))
        };
        f.evidence.push(format!(
            "deletion requested (deletionTimestamp {}, {when}): the object stays until the kubelet confirms the containers stopped, which a lost node never does",
            clock(d, now)
        ));
    }
    if let Some(t) = pod.spec.tolerations.iter().flatten().find(|t| {
        t.key.as_deref() == Some("node.kubernetes.io/unreachable")
            && t.effect.as_deref() == Some("NoExecute")
    }) {
        f.evidence.push(match t.toleration_seconds {
            Some(s) => format!(
                "tolerates node.kubernetes.io/unreachable for {s}s: after that the taint manager deletes it"
            ),
            None => "tolerates node.kubernetes.io/unreachable forever: it is never deleted for it".to_owned(),
        });
    }
    f.evidence.push(match pod.owner.as_ref() {
        Some(o) if o.kind == "StatefulSet" => format!(
            "owner StatefulSet {}: it will not create a new {} until this object is gone (it never runs two pods with one identity)",
            o.name, pod.name
        ),
        _ => replacement(pod),
    });
    match inp.related.get(&node_ref) {
        Some(Lookup::Absent) => f.evidence.push(format!(
            "Node {node}: absent (GET returned 404): the node object is deleted, so the pod garbage collector will delete the pod"
        )),
        _ => f.evidence.extend(lookup_line(inp, &node_ref)),
    }
    f.checks.push(node_ref);
    f.evidence.push(format!(
        "exec, logs and port-forward go through the kubelet on {node} and will fail"
    ));
    let f = f.action(format!(
        "check the node: kubectl describe node {node} (conditions, last heartbeat) and the machine itself. Only if it is known dead (powered off, deleted) force the deletion: kubectl delete pod {} -n {} --grace-period=0 --force — if the node is in fact alive (a network partition), its containers keep running next to the replacement (for a StatefulSet: two pods with one identity, risking its data)",
        pod.name, pod.namespace
    ));
    out.push(f);
    true
}
