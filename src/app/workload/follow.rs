//! Moving the view to another pod of the workload: the first pod that matches (nothing did at
//! start), the replacement of the shown pod once it is deleted, or a sibling chosen by hand. The
//! new pod gets a new [`Target`] under the next generation, like a re-created pod, keeping what
//! the person set up: the port-forwards (the session re-aims them at the new pod,
//! `Cmd::FollowPod`), the selected container by name and the log pane's settings, with a marker
//! line in the pane saying what happened.

use super::FollowMode;
use crate::app::Cmd;
use crate::app::state::{Connection, State};
use crate::app::target::Target;
use crate::model::sanitize::sanitize;
use crate::model::workload::{WorkloadPod, choice};
use crate::model::{LineKind, LogLine};

/// Why the view moves to another pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// Nothing matched at start; this is the first pod that does.
    FirstMatch,
    /// The shown pod (named) was deleted; this is a new pod of its ReplicaSet (or owner).
    Replaced {
        /// The deleted pod's name.
        old: String,
    },
    /// The shown pod was deleted; this pod is of another ReplicaSet (a rollout undo, a scale
    /// down): not a replacement.
    Deleted {
        /// The deleted pod's name.
        old: String,
    },
    /// The shown pod is no longer selected (relabelled, no `deletionTimestamp`).
    Unmatched {
        /// The pod no longer matched.
        old: String,
        /// The selector it no longer matches (`app=web`).
        selector: String,
    },
    /// This pod is in more trouble than the shown one (`choice::trouble`), which the person
    /// did not choose by hand.
    MoreTrouble {
        /// The pod shown before.
        old: String,
        /// What the new pod is in: its STATUS (`CrashLoopBackOff`).
        status: String,
        /// Its ReplicaSet is the rollout's new one.
        new_revision: bool,
    },
    /// The person chose it (`[`, `]`, `P`).
    ByHand,
}

/// After the workload's pods changed: when no pod was shown yet, the chosen one; when the shown
/// pod is gone (its watch saw it deleted, or the selector no longer matches it — a rollout
/// undo), its replacement; else, unless the person moved by hand, a pod in strictly more
/// trouble than the shown one ([`more_trouble`]).
pub fn settle(state: &mut State) -> Vec<Cmd> {
    let Some(view) = &state.workload else {
        return Vec::new();
    };
    if state.target.name.is_empty() {
        return match pick(state, None) {
            Some(name) => to_pod(state, &name, Why::FirstMatch),
            None => Vec::new(),
        };
    }
    let deleted = matches!(state.target.connection, Connection::Deleted { .. });
    let unmatched = view.listed && view.pod(&state.target.name).is_none();
    if deleted || (unmatched && view.mode == FollowMode::Auto && state.target.pod.is_some()) {
        return shown_gone(state);
    }
    more_trouble(state)
}

/// Moves to the pod `choice::choose` picks among the live pods when its trouble level is
/// strictly worse than the shown pod's (so two pods never take turns) and is an error (a
/// container waiting with an error reason, or failed: `Pending` and not-ready are what every
/// rollout passes through); never after a move by hand, never for a pod attached by name
/// ([`FollowMode::Offer`]).
fn more_trouble(state: &mut State) -> Vec<Cmd> {
    let Some(view) = state.workload.as_ref() else {
        return Vec::new();
    };
    let Some(shown) = view.pod(&state.target.name) else {
        return Vec::new();
    };
    if view.by_hand || view.mode != FollowMode::Auto {
        return Vec::new();
    }
    let live: Vec<&WorkloadPod> = view
        .pods
        .iter()
        .filter(|p| p.pod.deletion_timestamp.is_none())
        .collect();
    let owned: Vec<WorkloadPod> = live.iter().map(|p| (*p).clone()).collect();
    let Some(best) = choice::choose(&owned, view.summary.as_ref()).and_then(|i| owned.get(i))
    else {
        return Vec::new();
    };
    let worse = choice::trouble(&best.pod);
    if best.pod.name == shown.pod.name
        || worse >= choice::trouble(&shown.pod)
        || worse > choice::Trouble::Failed
    {
        return Vec::new();
    }
    let new_revision = view
        .summary
        .as_ref()
        .zip(best.hash.as_deref())
        .and_then(|(s, h)| s.revision_for(h))
        .is_some_and(|r| r.new);
    let why = Why::MoreTrouble {
        old: shown.pod.name.clone(),
        status: best.pod.print.status.clone(),
        new_revision,
    };
    let name = best.pod.name.clone();
    to_pod(state, &name, why)
}

/// The ordinal of a StatefulSet pod's name (`db-2` → 2).
fn ordinal(name: &str) -> Option<i32> {
    name.rsplit_once('-')?.1.parse().ok()
}

/// The shown pod was deleted: switch to its replacement ([`FollowMode::Auto`]) or offer it
/// ([`FollowMode::Offer`]); nothing while no live pod is left (the next sighting settles it).
/// A StatefulSet's pod is re-created under its own name: it is waited for (the pod watch sees
/// it re-created), with a notice, while its ordinal is below `spec.replicas`.
pub fn shown_gone(state: &mut State) -> Vec<Cmd> {
    let old = state.target.name.clone();
    let Some(view) = state.workload.as_ref() else {
        return Vec::new();
    };
    let last = view.pod(&old);
    let owner = last
        .and_then(|p| p.pod.owner.clone())
        .or_else(|| state.target.pod.as_ref().and_then(|p| p.owner.clone()));
    let old_hash = last.and_then(|p| p.hash.clone());
    let deleting = matches!(state.target.connection, Connection::Deleted { .. })
        || last.is_some_and(|p| p.pod.deletion_timestamp.is_some())
        || state
            .target
            .pod
            .as_ref()
            .is_some_and(|p| p.deletion_timestamp.is_some());
    let stateful = owner.as_ref().is_some_and(|o| o.kind == "StatefulSet");
    let kept = view
        .summary
        .as_ref()
        .and_then(|s| s.replicas)
        .is_none_or(|n| ordinal(&old).is_none_or(|i| i < n));
    if deleting && stateful && kept {
        let text = format!(
            "pod {} deleted; the StatefulSet re-creates it under the same name",
            sanitize(&old)
        );
        // Once, also as a marker in the log pane: it outlives the re-created pod's new target.
        let marker = sanitize(&format!("── {text} ──")).into_owned();
        if !state.target.logs.carried.iter().any(|l| l.text == marker) {
            let at = state
                .target
                .pod
                .as_ref()
                .and_then(crate::model::PodSummary::deletion_requested_at)
                .filter(|t| *t <= state.now)
                .unwrap_or(state.now);
            let line = LogLine::note("", 0, Some(at), LineKind::Marker, &marker);
            state.target.logs.carry(line);
            crate::app::notice::post(state, text);
            state.dirty = true;
        }
        return Vec::new();
    }
    let selector = view.selector.clone();
    let hash = old_hash.clone().filter(|_| view.by_hand);
    let Some(name) = pick(state, hash.as_deref()) else {
        return Vec::new();
    };
    let Some(view) = state.workload.as_mut() else {
        return Vec::new();
    };
    let same = view.pod(&name).is_some_and(|p| {
        p.hash == old_hash
            && p.pod.owner.as_ref().map(|o| &o.name) == owner.as_ref().map(|o| &o.name)
    });
    let why = match (deleting, same) {
        (false, _) => Why::Unmatched { old, selector },
        (true, true) => Why::Replaced { old },
        (true, false) => Why::Deleted { old },
    };
    match view.mode {
        FollowMode::Auto => to_pod(state, &name, why),
        FollowMode::Offer => {
            if view.offer.as_deref() != Some(name.as_str()) {
                view.offer = Some(name);
                state.dirty = true;
            }
            Vec::new()
        }
    }
}

/// The pod to show among the workload's live pods (not the shown one, none being deleted):
/// `choice::choose` over those of the ReplicaSet `hash` when it has any and is not scaled to 0
/// (an old ReplicaSet a rollout empties), else over all.
fn pick(state: &State, hash: Option<&str>) -> Option<String> {
    let view = state.workload.as_ref()?;
    let scaled_away = view
        .summary
        .as_ref()
        .zip(hash)
        .and_then(|(s, h)| s.revision_for(h))
        .is_some_and(|r| !r.new && r.replicas == 0);
    let hash = hash.filter(|_| !scaled_away);
    let live: Vec<WorkloadPod> = view
        .pods
        .iter()
        .filter(|p| p.pod.name != state.target.name && p.pod.deletion_timestamp.is_none())
        .cloned()
        .collect();
    let same: Vec<WorkloadPod> = live
        .iter()
        .filter(|p| hash.is_some() && p.hash.as_deref() == hash)
        .cloned()
        .collect();
    let among = if same.is_empty() { live } else { same };
    let i = choice::choose(&among, view.summary.as_ref())?;
    among.get(i).map(|p| p.pod.name.clone())
}

/// `R`: follows the offered replacement (nothing when none is offered).
pub fn take_offer(state: &mut State) -> Vec<Cmd> {
    let Some(name) = state.workload.as_mut().and_then(|v| v.offer.take()) else {
        return Vec::new();
    };
    let old = state.target.name.clone();
    to_pod(state, &name, Why::Replaced { old })
}

/// The marker line for a move: `── pod web-7d9f8c6b5-x2k9q deleted; following its replacement
/// web-7d9f8c6b5-q8m4t (ReplicaSet web-7d9f8c6b5) ──` (a new pod of the same ReplicaSet),
/// `── pod A deleted; showing B (ReplicaSet R) ──` (another one), `── pod A no longer matches
/// app=web; showing B (…) ──`, `── B (ReplicaSet R, new) is in CrashLoopBackOff; showing it
/// instead of A ──`; `None` for a move by hand or a first match (nothing was shown before).
#[must_use]
pub fn marker_text(why: &Why, new: &str, owner: Option<&crate::model::OwnerRef>) -> Option<String> {
    let by = owner.map_or_else(String::new, |o| format!(" ({} {})", o.kind, o.name));
    match why {
        Why::Replaced { old } => Some(format!(
            "── pod {old} deleted; following its replacement {new}{by} ──"
        )),
        Why::Deleted { old } => Some(format!("── pod {old} deleted; showing {new}{by} ──")),
        Why::Unmatched { old, selector } => Some(format!(
            "── pod {old} no longer matches {selector}; showing {new}{by} ──"
        )),
        Why::MoreTrouble {
            old,
            status,
            new_revision,
        } => {
            let by = match (owner, new_revision) {
                (Some(o), true) => format!(" ({} {}, new)", o.kind, o.name),
                _ => by,
            };
            Some(format!(
                "── {new}{by} is in {status}; showing it instead of {old} ──"
            ))
        }
        Why::FirstMatch | Why::ByHand => None,
    }
}

/// Where the marker goes in time: before the first line the new pod can have written (its
/// creation) and no later than the deletion request of the pod shown, else `now`.
fn marker_time(state: &State, name: &str) -> jiff::Timestamp {
    let requested = state
        .target
        .pod
        .as_ref()
        .and_then(crate::model::PodSummary::deletion_requested_at);
    let created = state
        .workload
        .as_ref()
        .and_then(|v| v.pod(name))
        .and_then(|p| p.created);
    [requested, created]
        .into_iter()
        .flatten()
        .chain(std::iter::once(state.now))
        .min()
        .unwrap_or(state.now)
}

/// Aims the view at the workload's pod `name`: a new target under the next generation keeping
/// the forwards, the focus, the log pane's settings (and its markers) and the selected
/// container by name; the marker line and a notice; `Cmd::FollowPod`.
pub fn to_pod(state: &mut State, name: &str, why: Why) -> Vec<Cmd> {
    let owner = state
        .workload
        .as_ref()
        .and_then(|v| v.pod(name))
        .and_then(|p| p.pod.owner.clone());
    let container = state.selected_container().map(|c| c.name.clone());
    let at = marker_time(state, name);
    let generation = state.generations.allocate();
    let namespace = state.target.namespace.clone();
    state.target = Target::replacement(&state.target, generation, name);
    state.target.preferred_container = container;
    if let Some(view) = state.workload.as_mut() {
        view.offer = None;
        // A replacement of a pod chosen by hand is still the person's choice.
        match why {
            Why::ByHand => view.by_hand = true,
            Why::FirstMatch => view.by_hand = false,
            _ => {}
        }
    }
    let text = marker_text(&why, name, owner.as_ref()).map(|t| sanitize(&t).into_owned());
    if let Some(text) = &text {
        let line = LogLine::note("", 0, Some(at), LineKind::Marker, text);
        state.target.logs.carry(line);
    }
    let notice = match &why {
        Why::Replaced { old } => format!(
            "pod {} deleted; following its replacement {}",
            sanitize(old),
            sanitize(name)
        ),
        Why::Deleted { old } => {
            format!("pod {} deleted; showing {}", sanitize(old), sanitize(name))
        }
        Why::Unmatched { old, selector } => format!(
            "pod {} no longer matches {}; showing {}",
            sanitize(old),
            sanitize(selector),
            sanitize(name)
        ),
        Why::MoreTrouble { old, status, .. } => format!(
            "{} is in {}; showing it instead of {}",
            sanitize(name),
            sanitize(status),
            sanitize(old)
        ),
        Why::FirstMatch => format!("pod {} matches the selector", sanitize(name)),
        Why::ByHand => format!("showing pod {}", sanitize(name)),
    };
    crate::app::notice::post(state, notice);
    state.dirty = true;
    vec![Cmd::FollowPod {
        namespace,
        name: name.to_owned(),
        generation,
    }]
}
