//! The Deployment controller (`pkg/controller/deployment/{deployment_controller,sync,rolling,
//! recreate,progress}.go`, `util/deployment_util.go`).
//!
//! - The **new ReplicaSet** is the owned one whose template equals the Deployment's (the
//!   `pod-template-hash` label left out); the others are old. When there is none it is created:
//!   `<deploy>-<hash>` ([`template_hash`] of the template and `status.collisionCount`), the
//!   template's labels plus `pod-template-hash` on the ReplicaSet, its selector and its
//!   template, the Deployment's annotations plus `deployment.kubernetes.io/revision` (one more
//!   than the highest old revision), `…/desired-replicas` and `…/max-replicas`. A ReplicaSet
//!   found again (a rollback, `kubectl rollout undo`) gets the next revision the same way.
//! - Rolling and Recreate steps: [`rolling`]; `status` and conditions: [`status`].
//! - `spec.paused`: no rollout step and no clean-up, only the status.
//! - `revisionHistoryLimit` (default 10): once the rollout is complete, old ReplicaSets scaled to
//!   0 beyond that many (oldest revisions first) are deleted.
//! - Events `ScalingReplicaSet`: `Scaled up replica set web-6c8f9d4b7 from 0 to 1`, `Scaled down
//!   replica set … from 3 to 2`.

mod rolling;
mod status;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_lifecycle;

use std::collections::BTreeMap;

use jiff::Timestamp;
use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet, ReplicaSetSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::events::event;
use super::hash::{POD_TEMPLATE_HASH, equal_ignore_hash, template_hash};
use super::{Action, Kind, Outcome, Snapshot, Workload, ids, owner_reference};

/// `deployment.kubernetes.io/revision` on Deployments and their ReplicaSets.
pub const REVISION: &str = "deployment.kubernetes.io/revision";
/// `deployment.kubernetes.io/revision-history`: the earlier revisions of a reused ReplicaSet.
pub const REVISION_HISTORY: &str = "deployment.kubernetes.io/revision-history";
/// `deployment.kubernetes.io/desired-replicas` on ReplicaSets.
pub const DESIRED_REPLICAS: &str = "deployment.kubernetes.io/desired-replicas";
/// `deployment.kubernetes.io/max-replicas` on ReplicaSets (replicas + maxSurge).
pub const MAX_REPLICAS: &str = "deployment.kubernetes.io/max-replicas";

const COMPONENT: &str = "deployment-controller";

/// Annotations not copied from a Deployment to its ReplicaSets (`skipCopyAnnotation`).
const NOT_COPIED: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    REVISION_HISTORY,
    DESIRED_REPLICAS,
    MAX_REPLICAS,
    "deprecated.deployment.rollback.to",
];

/// Reconciles every Deployment of `snap` (see the module docs).
pub fn reconcile(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    for d in &snap.deployments {
        if d.metadata.deletion_timestamp.is_none() {
            reconcile_one(snap, d, now, &mut out);
        }
    }
    out
}

/// A Deployment's view for one pass: its ReplicaSets split into the new one and the old ones.
pub(crate) struct Plan<'a> {
    pub d: &'a Deployment,
    pub new: Option<&'a ReplicaSet>,
    pub old: Vec<&'a ReplicaSet>,
}

impl Plan<'_> {
    /// `spec.replicas` (default 1).
    pub fn replicas(&self) -> i32 {
        Some(&self.d.spec).and_then(|s| s.replicas).unwrap_or(1)
    }

    /// Every owned ReplicaSet, new one first.
    pub fn all(&self) -> impl Iterator<Item = &ReplicaSet> {
        self.new.into_iter().chain(self.old.iter().copied())
    }
}

fn reconcile_one(snap: &Snapshot, d: &Deployment, now: Timestamp, out: &mut Outcome) {
    let spec = &d.spec;
    let uid = d.metadata.uid.clone().unwrap_or_default();
    let owned = snap.replica_sets_of(&uid);
    let (new, old): (Vec<&ReplicaSet>, Vec<&ReplicaSet>) = owned.into_iter().partition(|rs| {
        Some(&rs.spec)
            .and_then(|s| s.template.as_ref())
            .is_some_and(|t| equal_ignore_hash(t, &spec.template))
    });
    let mut plan = Plan {
        d,
        new: new.first().copied(),
        old,
    };
    // Two ReplicaSets with the same template (not made by us): the oldest is the new one.
    plan.old.extend(new.iter().skip(1).copied());
    let paused = spec.paused == Some(true);
    let recreate = rolling::is_recreate(d);
    let may_create = !paused && (!recreate || rolling::old_pods_gone(snap, &plan));
    let created = if plan.new.is_none() && may_create {
        create_new(snap, &plan, now, out)
    } else {
        if let Some(rs) = plan.new {
            stamp_new(&plan, rs, out);
        }
        None
    };
    let stepped = if paused || created.is_some() {
        false
    } else if recreate {
        rolling::recreate(snap, &plan, now, out)
    } else {
        rolling::rolling_update(&plan, now, out)
    };
    let complete = status::sync(&plan, created.as_deref(), now, out);
    if complete && !paused && !stepped {
        cleanup(&plan, out);
    }
}

fn revision(rs: &ReplicaSet) -> i64 {
    rs.metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(REVISION))
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

fn max_old_revision(plan: &Plan<'_>) -> i64 {
    plan.old.iter().map(|rs| revision(rs)).max().unwrap_or(0)
}

/// The annotations a ReplicaSet of `d` carries for `replicas` desired.
fn replica_annotations(d: &Deployment, max_surge: i32) -> BTreeMap<String, String> {
    let replicas = Some(&d.spec).and_then(|s| s.replicas).unwrap_or(1);
    BTreeMap::from([
        (DESIRED_REPLICAS.to_string(), replicas.to_string()),
        (MAX_REPLICAS.to_string(), (replicas + max_surge).to_string()),
    ])
}

/// Creates the new ReplicaSet; returns its name.
fn create_new(
    snap: &Snapshot,
    plan: &Plan<'_>,
    now: Timestamp,
    out: &mut Outcome,
) -> Option<String> {
    let d = plan.d;
    let spec = Some(&d.spec)?;
    let (ns, dname, _) = ids(&d.metadata);
    let collisions = d.status.as_ref().and_then(|s| s.collision_count);
    let hash = template_hash(&spec.template, collisions);
    let name = format!("{dname}-{hash}");
    if snap.replica_sets.iter().any(|rs| {
        rs.metadata.namespace.as_deref() == Some(ns.as_str())
            && rs.metadata.name.as_deref() == Some(name.as_str())
    }) {
        // A ReplicaSet of another template holds the name: count a collision, hash again.
        let mut next = d.clone();
        let st = next.status.get_or_insert_with(Default::default);
        st.collision_count = Some(collisions.unwrap_or(0) + 1);
        out.actions
            .push(Action::Status(Box::new(Workload::Deployment(next))));
        return None;
    }
    let mut template = spec.template.clone();
    let tmeta = template.metadata.get_or_insert_with(ObjectMeta::default);
    let mut labels = tmeta.labels.clone().unwrap_or_default();
    labels.insert(POD_TEMPLATE_HASH.into(), hash.clone());
    tmeta.labels = Some(labels.clone());
    let mut selector = spec.selector.clone();
    selector
        .match_labels
        .get_or_insert_with(BTreeMap::new)
        .insert(POD_TEMPLATE_HASH.into(), hash);
    let mut annotations: BTreeMap<String, String> = d
        .metadata
        .annotations
        .clone()
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| !NOT_COPIED.contains(&k.as_str()))
        .collect();
    let (surge, _) = rolling::surge_and_unavailable(d);
    annotations.extend(replica_annotations(d, surge));
    annotations.insert(REVISION.into(), (max_old_revision(plan) + 1).to_string());
    let replicas = rolling::new_rs_replicas(plan, 0);
    let rs = ReplicaSet {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: Some(ns),
            labels: Some(labels),
            annotations: Some(annotations),
            owner_references: Some(vec![owner_reference(Kind::Deployment, &d.metadata)]),
            ..ObjectMeta::default()
        },
        spec: ReplicaSetSpec {
            replicas: Some(replicas),
            min_ready_seconds: spec.min_ready_seconds,
            selector,
            template: Some(template),
        },
        status: None,
    };
    out.actions
        .push(Action::Create(Box::new(Workload::ReplicaSet(rs))));
    if replicas > 0 {
        out.actions.push(scaling_event(d, &name, 0, replicas, now));
    }
    Some(name)
}

/// Brings the found new ReplicaSet's revision (a rollback: the next one) and replica
/// annotations up to date, and the Deployment's revision annotation with it.
fn stamp_new(plan: &Plan<'_>, rs: &ReplicaSet, out: &mut Outcome) {
    let d = plan.d;
    let current = rs.metadata.annotations.clone().unwrap_or_default();
    let mut wanted = BTreeMap::new();
    let max_old = max_old_revision(plan);
    let rev = revision(rs);
    let mut new_rev = rev;
    if rev <= max_old {
        new_rev = max_old + 1;
        wanted.insert(REVISION.to_string(), new_rev.to_string());
        if rev > 0 {
            let history = match current.get(REVISION_HISTORY) {
                Some(h) if !h.is_empty() => format!("{h},{rev}"),
                _ => rev.to_string(),
            };
            wanted.insert(REVISION_HISTORY.to_string(), history);
        }
    }
    let (surge, _) = rolling::surge_and_unavailable(d);
    for (k, v) in replica_annotations(d, surge) {
        if current.get(&k) != Some(&v) {
            wanted.insert(k, v);
        }
    }
    if !wanted.is_empty() {
        let (ns, name, _) = ids(&rs.metadata);
        out.actions.push(Action::Annotate {
            kind: Kind::ReplicaSet,
            namespace: ns,
            name,
            annotations: wanted,
        });
    }
    let d_rev = d
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(REVISION));
    if d_rev != Some(&new_rev.to_string()) {
        let (ns, name, _) = ids(&d.metadata);
        out.actions.push(Action::Annotate {
            kind: Kind::Deployment,
            namespace: ns,
            name,
            annotations: BTreeMap::from([(REVISION.to_string(), new_rev.to_string())]),
        });
    }
}

/// The `ScalingReplicaSet` Event (Kubernetes ≥ 1.29 wording: `Scaled up replica set X from A
/// to B`).
pub(crate) fn scaling_event(
    d: &Deployment,
    rs: &str,
    from: i32,
    to: i32,
    now: Timestamp,
) -> Action {
    let dir = if to > from { "up" } else { "down" };
    event(
        Kind::Deployment,
        &d.metadata,
        "Normal",
        "ScalingReplicaSet",
        format!("Scaled {dir} replica set {rs} from {from} to {to}"),
        COMPONENT,
        now,
    )
}

/// Deletes the old ReplicaSets beyond `revisionHistoryLimit` that run nothing.
fn cleanup(plan: &Plan<'_>, out: &mut Outcome) {
    let limit = Some(&plan.d.spec)
        .and_then(|s| s.revision_history_limit)
        .unwrap_or(10)
        .max(0) as usize;
    let mut idle: Vec<&ReplicaSet> = plan
        .old
        .iter()
        .copied()
        .filter(|rs| {
            Some(&rs.spec).and_then(|s| s.replicas) == Some(0)
                && rs.status.as_ref().is_none_or(|s| s.replicas == 0)
                && rs.metadata.deletion_timestamp.is_none()
        })
        .collect();
    if idle.len() <= limit {
        return;
    }
    idle.sort_by_key(|rs| revision(rs));
    for rs in &idle[..idle.len() - limit] {
        let (namespace, name, _) = ids(&rs.metadata);
        out.actions.push(Action::Delete {
            kind: Kind::ReplicaSet,
            namespace,
            name,
        });
    }
}
