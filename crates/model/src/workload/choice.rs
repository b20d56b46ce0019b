//! Which pod of a workload to show: the one in most trouble (`docs/workloads.md` "Which pod").
//!
//! The levels read what the kubelet reports (`containerStatuses[].state`, `status.phase`, the
//! `Ready` condition; `pkg/kubelet/kubelet_pods.go`'s `getPhase` and the container runtime's
//! waiting reasons).

use std::cmp::Reverse;

use super::{WorkloadPod, WorkloadSummary};
use crate::{ContainerKind, ContainerState, PodSummary};

/// How much trouble a pod is in, most first (`Trouble::Waiting < Trouble::Running`, so sorting
/// ascending puts the worst first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Trouble {
    /// A container waits with an error reason (`CrashLoopBackOff`, `ImagePullBackOff`,
    /// `ErrImagePull`, `CreateContainerConfigError`, …: anything but `ContainerCreating` and
    /// `PodInitializing`).
    Waiting,
    /// A container's current instance terminated with a failure (non-zero exit), or the pod's
    /// phase is `Failed`.
    Failed,
    /// `status.phase` is `Pending` (scheduling, pulling, creating).
    Pending,
    /// Running, but a container or the `Ready` condition is not ready.
    NotReady,
    /// Running and ready, or `Succeeded`.
    Running,
}

/// Waiting reasons that are progress, not trouble.
const BENIGN_WAITING: [&str; 3] = ["", "ContainerCreating", "PodInitializing"];

/// The trouble level of `pod` (ephemeral debug containers are not counted).
#[must_use]
pub fn trouble(pod: &PodSummary) -> Trouble {
    let containers = || {
        pod.containers
            .iter()
            .filter(|c| c.kind != ContainerKind::Ephemeral)
    };
    let waiting_error = containers().any(|c| {
        matches!(&c.state, ContainerState::Waiting { reason, .. }
            if !BENIGN_WAITING.contains(&reason.as_str()))
    });
    if waiting_error {
        return Trouble::Waiting;
    }
    let failed = pod.phase == "Failed"
        || containers()
            .any(|c| matches!(&c.state, ContainerState::Terminated(t) if t.exit_code != 0));
    if failed {
        return Trouble::Failed;
    }
    match pod.phase.as_str() {
        "Succeeded" => Trouble::Running,
        "Pending" | "" => Trouble::Pending,
        _ => {
            let ready_condition = pod
                .conditions
                .iter()
                .find(|c| c.type_ == "Ready")
                .is_none_or(|c| c.status == "True");
            let all_ready = containers()
                .filter(|c| matches!(c.kind, ContainerKind::Main | ContainerKind::Sidecar))
                .all(|c| c.ready);
            if ready_condition && all_ready {
                Trouble::Running
            } else {
                Trouble::NotReady
            }
        }
    }
}

/// The hash of the new ReplicaSet while a rollout runs (the new one and an older one with
/// pods), `None` otherwise.
fn rollout_new_hash(summary: Option<&WorkloadSummary>) -> Option<&str> {
    let revisions = &summary?.revisions;
    let new = revisions.iter().find(|r| r.new)?;
    let old_with_pods = revisions.iter().any(|r| !r.new && r.replicas > 0);
    (old_with_pods && !new.hash.is_empty()).then_some(new.hash.as_str())
}

/// The sort key: live before deleting, most trouble, (during a rollout) the new ReplicaSet's
/// pods, newest `creationTimestamp`, then name.
fn key<'a>(
    p: &'a WorkloadPod,
    new_hash: Option<&str>,
) -> (
    bool,
    Trouble,
    bool,
    Reverse<Option<jiff::Timestamp>>,
    &'a str,
) {
    let old = new_hash.is_some_and(|h| p.hash.as_deref() != Some(h));
    (
        p.pod.deletion_timestamp.is_some(),
        trouble(&p.pod),
        old,
        Reverse(p.created.or(p.pod.creation_timestamp)),
        p.pod.name.as_str(),
    )
}

/// The index in `pods` of the pod to show: a live pod before one being deleted, then the most
/// trouble ([`trouble`]), then — during a rollout of `summary` (a new ReplicaSet and an older
/// one with pods) — the new ReplicaSet's pods, then the newest, then the name. `None` when
/// `pods` is empty.
#[must_use]
pub fn choose(pods: &[WorkloadPod], summary: Option<&WorkloadSummary>) -> Option<usize> {
    let new_hash = rollout_new_hash(summary);
    (0..pods.len()).min_by(|a, b| key(&pods[*a], new_hash).cmp(&key(&pods[*b], new_hash)))
}

/// Sorts `pods` worst first: live before deleting, most trouble, newest, name (the picker's and
/// the glyph row's order). Takes a slice, so a `&mut Vec` passes as it is.
pub fn sort_by_trouble(pods: &mut [WorkloadPod]) {
    pods.sort_by(|a, b| key(a, None).cmp(&key(b, None)));
}
