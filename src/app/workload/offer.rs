//! A pod attached by name whose controller replaces it (a ReplicaSet's, a DaemonSet's or a
//! Job's pod): once the watch sees it deleted, podscope watches the pods carrying its labels
//! (less the per-revision and per-pod ones) to find where the app went, and the header offers
//! the replacement (`replaced by web-7d9f8c6b5-q8m4t — press R to follow`); `R` follows it as a
//! workload's pod is followed. A StatefulSet's pod comes back under the same name: the pod
//! watch sees it re-created, nothing to offer.

use super::{FollowMode, WorkloadView};
use crate::app::Cmd;
use crate::app::state::State;
use crate::model::workload::selector::from_labels;

/// Controller kinds whose replacement pod gets another name.
const REPLACING_KINDS: [&str; 3] = ["ReplicaSet", "DaemonSet", "Job"];

/// Labels that differ between a controller's pods, or between its revisions (a Deployment's
/// rollout makes the replacement in another ReplicaSet): left out of the selector.
const PER_POD_LABELS: [&str; 7] = [
    "pod-template-hash",
    "controller-revision-hash",
    "pod-template-generation",
    "statefulset.kubernetes.io/pod-name",
    "apps.kubernetes.io/pod-index",
    "batch.kubernetes.io/job-completion-index",
    "job-completion-index",
];

/// The shown pod, attached by name, was deleted: start watching its siblings by label (once),
/// so the replacement can be offered. Nothing when a workload is already followed, or the pod
/// has no replacing controller or no labels.
pub fn pod_deleted(state: &mut State) -> Vec<Cmd> {
    if state.workload.is_some() {
        return Vec::new();
    }
    let Some(pod) = &state.target.pod else {
        return Vec::new();
    };
    let replaced = pod
        .owner
        .as_ref()
        .is_some_and(|o| REPLACING_KINDS.contains(&o.kind.as_str()));
    let selector = from_labels(&pod.labels, &PER_POD_LABELS);
    if !replaced || selector.is_empty() {
        return Vec::new();
    }
    let namespace = pod.namespace.clone();
    let stamp = state.generations.allocate();
    let view = WorkloadView::new(stamp, &namespace, None, &selector, FollowMode::Offer);
    let cmd = view.watch_cmd();
    state.workload = Some(view);
    vec![cmd]
}
