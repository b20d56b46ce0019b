//! The rollout steps (`rolling.go`, `recreate.go`, `util/deployment_util.go`): one scaling step
//! per pass, the next pass seeing its result.
//!
//! RollingUpdate, with `maxSurge` and `maxUnavailable` (defaults 25 %; percentages of
//! `spec.replicas`, surge rounded up and unavailability down; both 0 means 1 unavailable):
//! 1. the new ReplicaSet grows while all ReplicaSets together hold fewer than replicas +
//!    maxSurge (`NewRSNewReplicas`), or shrinks to `spec.replicas` when above it;
//! 2. old ReplicaSets shrink by at most (all − (replicas − maxUnavailable) − the new one's
//!    unavailable pods): first their own unavailable pods, then available ones while more than
//!    replicas − maxUnavailable are available; oldest first.
//!
//! No step is taken while a ReplicaSet's status lags its spec (`observedGeneration <
//! generation`): the availability it reports would be stale and old ones would shrink too far.
//!
//! Recreate: every old ReplicaSet goes to 0; once none of their pods is left, the new one is
//! created (or scaled) at `spec.replicas`.

use jiff::Timestamp;
use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::{Plan, replica_annotations, scaling_event};
use crate::controllers::{Action, Outcome, Snapshot, ids, pods};

/// Whether `spec.strategy.type` is `Recreate`.
pub(crate) fn is_recreate(d: &Deployment) -> bool {
    Some(&d.spec)
        .and_then(|s| s.strategy.as_ref())
        .and_then(|s| s.type_.as_deref())
        == Some("Recreate")
}

/// `IntOrString` against `total`: an integer as is, `N%` as N·total/100 rounded up or down.
fn scaled(v: Option<&IntOrString>, default: &str, total: i32, round_up: bool) -> i32 {
    let pct = |s: &str| {
        s.strip_suffix('%')
            .and_then(|n| n.trim().parse::<i64>().ok())
    };
    let n = match v {
        Some(IntOrString::Int(i)) => return (*i).max(0),
        Some(IntOrString::String(s)) => pct(s),
        None => pct(default),
    }
    .unwrap_or(0);
    let prod = n * i64::from(total.max(0));
    let v = if round_up {
        (prod + 99) / 100
    } else {
        prod / 100
    };
    v as i32
}

/// `(maxSurge, maxUnavailable)` resolved against `spec.replicas` (0 and 0 for Recreate; both
/// 0 makes maxUnavailable 1).
pub(crate) fn surge_and_unavailable(d: &Deployment) -> (i32, i32) {
    if is_recreate(d) {
        return (0, 0);
    }
    let spec = Some(&d.spec);
    let replicas = spec.and_then(|s| s.replicas).unwrap_or(1);
    let ru = spec
        .and_then(|s| s.strategy.as_ref())
        .and_then(|s| s.rolling_update.as_ref());
    let surge = scaled(ru.and_then(|r| r.max_surge.as_ref()), "25%", replicas, true);
    let unavailable = scaled(
        ru.and_then(|r| r.max_unavailable.as_ref()),
        "25%",
        replicas,
        false,
    );
    if surge == 0 && unavailable == 0 {
        (0, 1)
    } else {
        (surge, unavailable)
    }
}

fn spec_replicas(rs: &ReplicaSet) -> i32 {
    Some(&rs.spec).and_then(|s| s.replicas).unwrap_or(1)
}

/// Available pods as the ReplicaSet reports them (never more than it runs or should run).
fn available(rs: &ReplicaSet) -> i32 {
    let st = rs.status.as_ref();
    st.and_then(|s| s.available_replicas)
        .unwrap_or(0)
        .min(st.map_or(0, |s| s.replicas))
        .min(spec_replicas(rs))
}

fn status_current(rs: &ReplicaSet) -> bool {
    let observed = rs.status.as_ref().and_then(|s| s.observed_generation);
    rs.metadata.generation.is_none() || observed >= rs.metadata.generation
}

/// What the new ReplicaSet should run now, from `current` (`NewRSNewReplicas`).
pub(crate) fn new_rs_replicas(plan: &Plan<'_>, current: i32) -> i32 {
    let replicas = plan.replicas();
    if is_recreate(plan.d) {
        return replicas;
    }
    let (surge, _) = surge_and_unavailable(plan.d);
    let pods: i32 = plan.all().map(spec_replicas).sum();
    let max_total = replicas + surge;
    if pods >= max_total {
        return current;
    }
    current + (max_total - pods).min((replicas - current).max(0))
}

fn scale(plan: &Plan<'_>, rs: &ReplicaSet, to: i32, now: Timestamp, out: &mut Outcome) {
    let from = spec_replicas(rs);
    let (namespace, name, _) = ids(&rs.metadata);
    let (surge, _) = surge_and_unavailable(plan.d);
    out.actions.push(Action::ScaleReplicaSet {
        namespace,
        name: name.clone(),
        replicas: to,
        annotations: replica_annotations(plan.d, surge),
    });
    out.actions
        .push(scaling_event(plan.d, &name, from, to, now));
}

/// One RollingUpdate step; `true` when it scaled something.
pub(crate) fn rolling_update(plan: &Plan<'_>, now: Timestamp, out: &mut Outcome) -> bool {
    if !plan.all().all(status_current) {
        return false;
    }
    let replicas = plan.replicas();
    if let Some(new) = plan.new {
        let current = spec_replicas(new);
        let target = if current > replicas {
            replicas
        } else {
            new_rs_replicas(plan, current)
        };
        if target != current {
            scale(plan, new, target, now, out);
            return true;
        }
    }
    let old_total: i32 = plan.old.iter().map(|rs| spec_replicas(rs)).sum();
    if old_total == 0 {
        return false;
    }
    let all: i32 = plan.all().map(spec_replicas).sum();
    let (_, max_unavailable) = surge_and_unavailable(plan.d);
    let min_available = replicas - max_unavailable;
    let new_unavailable = plan
        .new
        .map_or(0, |rs| (spec_replicas(rs) - available(rs)).max(0));
    let max_scaled_down = all - min_available - new_unavailable;
    if max_scaled_down <= 0 {
        return false;
    }
    let mut targets: Vec<(&ReplicaSet, i32)> =
        plan.old.iter().map(|rs| (*rs, spec_replicas(rs))).collect();
    let mut cleaned = 0;
    for (rs, n) in targets.iter_mut() {
        if cleaned >= max_scaled_down {
            break;
        }
        let unhealthy = *n - available(rs);
        if *n == 0 || unhealthy <= 0 {
            continue;
        }
        let s = unhealthy.min(max_scaled_down - cleaned);
        *n -= s;
        cleaned += s;
    }
    let available_total: i32 = plan.all().map(available).sum();
    if available_total > min_available {
        let total = available_total - min_available;
        let mut done = 0;
        for (_, n) in targets.iter_mut() {
            if done >= total {
                break;
            }
            let s = (*n).min(total - done);
            *n -= s;
            done += s;
        }
    }
    let mut stepped = false;
    for (rs, n) in targets {
        if n != spec_replicas(rs) {
            scale(plan, rs, n, now, out);
            stepped = true;
        }
    }
    stepped
}

/// Whether none of the old ReplicaSets' pods is left (terminal ones aside).
pub(crate) fn old_pods_gone(snap: &Snapshot, plan: &Plan<'_>) -> bool {
    plan.old.iter().all(|rs| {
        let uid = rs.metadata.uid.clone().unwrap_or_default();
        snap.pods_of(&uid).iter().all(|p| pods::is_terminal(p))
    })
}

/// One Recreate step; `true` when it scaled something or waits for old pods to go.
pub(crate) fn recreate(
    snap: &Snapshot,
    plan: &Plan<'_>,
    now: Timestamp,
    out: &mut Outcome,
) -> bool {
    let mut stepped = false;
    for rs in &plan.old {
        if spec_replicas(rs) > 0 {
            scale(plan, rs, 0, now, out);
            stepped = true;
        }
    }
    if stepped || !old_pods_gone(snap, plan) {
        return true;
    }
    if let Some(new) = plan.new
        && spec_replicas(new) != plan.replicas()
    {
        scale(plan, new, plan.replicas(), now, out);
        return true;
    }
    false
}
