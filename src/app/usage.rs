//! The pod's resource usage (`docs/usage.md`): whether the cluster serves the metrics API and
//! the samples read since attach.
//!
//! - The first sighting of a target's pod asks for the poll (`Cmd::PollMetrics`): the session
//!   probes the API group once, then GETs the pod's PodMetrics once per window until the target
//!   changes. Its answers arrive stamped with the target's generation, so a switched-to or
//!   re-created pod starts with an empty history.
//! - `Msg::MetricsStatus` says whether the group is served; a refusal (403) is said once in the
//!   header's notice and stays as the detail's one line.
//! - `Msg::PodMetricsRead` adds a sample per container; the state is dirty only when the
//!   window is a new one (the same window read twice changes nothing). The history belongs to
//!   the target, not to a container instance: it survives restarts.
//!
//! Pure, like `update`.

use super::Cmd;
use super::state::State;
use crate::model::usage::{MetricsApi, PodMetrics, UsageHistory};

/// What is known of the pod's usage.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsageView {
    /// The poll was asked for this target.
    pub asked: bool,
    /// What the probe (or a later read) found.
    pub api: MetricsApi,
    /// The samples since attach, per container.
    pub history: UsageHistory,
}

/// After the pod changed: asks for the poll once per target.
pub fn pod_changed(state: &mut State) -> Vec<Cmd> {
    if state.target.usage.asked || state.target.pod.is_none() {
        return Vec::new();
    }
    state.target.usage.asked = true;
    vec![Cmd::PollMetrics]
}

/// The probe's (or a read's) verdict on the metrics API.
pub fn status(state: &mut State, api: MetricsApi) {
    if state.target.usage.api == api {
        return;
    }
    if let MetricsApi::Forbidden(_) = &api
        && let Some(line) = api.line()
    {
        super::notice::post(state, line);
    }
    state.target.usage.api = api;
    state.dirty = true;
}

/// One PodMetrics read: its samples taken in; dirty when it was a new window.
pub fn read(state: &mut State, metrics: &PodMetrics) {
    let usage = &mut state.target.usage;
    if usage.api != MetricsApi::Served {
        usage.api = MetricsApi::Served;
        state.dirty = true;
    }
    if usage.history.push(metrics) {
        state.dirty = true;
    }
}
