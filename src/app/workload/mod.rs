//! The followed workload (`podscope deploy/web`, `-l app=web`, or the controller of a pod
//! attached by name): its summary, its pods as one label-selected watch sees them, and which of
//! them is shown. It lives beside the [`Target`](super::target::Target) in `State::workload` and
//! outlives pod switches; its messages come stamped with the workload's own generation
//! (`Msg::ForWorkload`), so a queued message of a workload no longer followed is dropped.
//!
//! Which pod is shown (`docs/workloads.md`, "The workload view"): at start and whenever the shown
//! pod is deleted, `model::workload::choice::choose` over the live pods ([`follow`]); `[`/`]`
//! move to a sibling and `P` lists the pods ([`siblings`]). A pod attached by name only offers
//! its replacement (`R`, [`FollowMode::Offer`]). Pure: effects are returned [`Cmd`]s.

pub mod follow;
pub mod offer;
pub mod siblings;

use super::generation::Generation;
use super::state::State;
use super::{Cmd, Msg};
use crate::model::sanitize::sanitize;
use crate::model::workload::{WorkloadPod, WorkloadRef, WorkloadSummary, choice};

/// How many watch failures the header keeps (the newest ones).
const ERRORS_KEPT: usize = 3;

/// What happens when the shown pod is deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowMode {
    /// A workload or selector target: switch to the replacement at once.
    Auto,
    /// A pod attached by name whose controller replaces it: offer the replacement (`R`).
    Offer,
}

/// The followed workload and its pods.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadView {
    /// Stamps the messages of the workload's watches (`Msg::ForWorkload`).
    pub stamp: Generation,
    /// The namespace of the workload and its pods.
    pub namespace: String,
    /// The workload named (`deploy/web`); `None` for `-l SELECTOR` and for the controller of a
    /// pod attached by name (then only its pods are watched).
    pub named: Option<WorkloadRef>,
    /// The label selector the pod watch uses, in kubectl's syntax (`app=web`).
    pub selector: String,
    /// The workload as its own watch last saw it (`None` for a selector or before the first).
    pub summary: Option<WorkloadSummary>,
    /// The pods the selector matches, in the choice order (`choice::sort_by_trouble`).
    pub pods: Vec<WorkloadPod>,
    /// The pod watch finished its first list.
    pub listed: bool,
    /// The person moved to a sibling by hand (`[`, `]`, `P`): a replacement of the pod they
    /// chose is then looked for in its own ReplicaSet (same `pod-template-hash`) first.
    pub by_hand: bool,
    /// Switch to the replacement, or only offer it.
    pub mode: FollowMode,
    /// [`FollowMode::Offer`]: the replacement of the deleted pod, offered under `R`.
    pub offer: Option<String>,
    /// The watches' last failures (RBAC refusals included), sanitised, oldest first.
    pub errors: Vec<String>,
    /// The workload object was deleted (its watch saw DELETED): its counts are gone.
    pub deleted: bool,
}

impl WorkloadView {
    /// A view of the pods `selector` matches in `namespace`, stamped `stamp`, nothing seen yet.
    #[must_use]
    pub fn new(
        stamp: Generation,
        namespace: &str,
        named: Option<WorkloadRef>,
        selector: &str,
        mode: FollowMode,
    ) -> WorkloadView {
        WorkloadView {
            stamp,
            namespace: namespace.to_owned(),
            named,
            selector: selector.to_owned(),
            summary: None,
            pods: Vec::new(),
            listed: false,
            by_hand: false,
            mode,
            offer: None,
            errors: Vec::new(),
            deleted: false,
        }
    }

    /// The command that starts this view's watches.
    #[must_use]
    pub fn watch_cmd(&self) -> Cmd {
        Cmd::WatchWorkload {
            stamp: self.stamp,
            namespace: self.namespace.clone(),
            workload: self.named.clone(),
            selector: self.selector.clone(),
        }
    }

    /// The pod called `name`, if the selector matches it.
    #[must_use]
    pub fn pod(&self, name: &str) -> Option<&WorkloadPod> {
        self.pods.iter().find(|p| p.pod.name == name)
    }

    /// Replaces (or adds) `pod`, keeping the choice order.
    fn upsert(&mut self, pod: WorkloadPod) {
        match self.pods.iter_mut().find(|p| p.pod.name == pod.pod.name) {
            Some(slot) => *slot = pod,
            None => self.pods.push(pod),
        }
        choice::sort_by_trouble(&mut self.pods);
    }
}

/// Starts following a workload or selector at start-up: `view` with the pods the one-shot
/// resolution found, the shown pod chosen by `choice::choose` (none when nothing matches yet:
/// the waiting screen names the selector). The target is rebuilt under its first generation,
/// since no task has been started for it yet. Returns the watch command.
pub fn begin(state: &mut State, mut view: WorkloadView, mut pods: Vec<WorkloadPod>) -> Vec<Cmd> {
    choice::sort_by_trouble(&mut pods);
    let chosen = choice::choose(&pods, view.summary.as_ref()).and_then(|i| pods.get(i));
    let name = chosen.map(|p| p.pod.name.clone()).unwrap_or_default();
    view.pods = pods;
    view.listed = true;
    state.target = super::target::Target::new(
        state.target.generation,
        &view.namespace,
        &name,
        &state.config,
    );
    let cmd = view.watch_cmd();
    state.workload = Some(view);
    state.dirty = true;
    vec![cmd]
}

/// Applies a workload watch's message (nothing without a followed workload).
pub fn on_msg(state: &mut State, msg: Msg) -> Vec<Cmd> {
    let Some(view) = state.workload.as_mut() else {
        return Vec::new();
    };
    state.dirty = true;
    match msg {
        Msg::WorkloadApplied(mut summary) => {
            // A CronJob's watch does not see its Jobs: keep what the resolution found.
            if summary.job.is_none()
                && let Some(old) = view.summary.as_ref().filter(|o| o.job.is_some())
            {
                summary.job.clone_from(&old.job);
                summary.jobs = old.jobs;
            }
            view.summary = Some(*summary);
            view.deleted = false;
            Vec::new()
        }
        Msg::WorkloadDeleted => {
            view.deleted = true;
            Vec::new()
        }
        Msg::WorkloadPodsListed(mut pods) => {
            choice::sort_by_trouble(&mut pods);
            view.pods = pods;
            view.listed = true;
            follow::settle(state)
        }
        Msg::WorkloadPodApplied(pod) => {
            view.upsert(*pod);
            follow::settle(state)
        }
        Msg::WorkloadPodDeleted(name) if name == state.target.name => {
            // Chosen while the deleted pod is still known (its ReplicaSet counts for a pod
            // chosen by hand), then forgotten.
            let cmds = follow::shown_gone(state);
            if let Some(view) = state.workload.as_mut() {
                view.pods.retain(|p| p.pod.name != name);
            }
            cmds
        }
        Msg::WorkloadPodDeleted(name) => {
            view.pods.retain(|p| p.pod.name != name);
            follow::settle(state)
        }
        Msg::WorkloadWatchFailed(reason) => {
            let text = sanitize(&reason).into_owned();
            view.errors.retain(|e| *e != text);
            view.errors.push(text);
            let extra = view.errors.len().saturating_sub(ERRORS_KEPT);
            view.errors.drain(..extra);
            Vec::new()
        }
        _ => Vec::new(),
    }
}
