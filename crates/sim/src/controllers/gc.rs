//! Garbage collection (`pkg/controller/garbagecollector/garbagecollector.go`), background
//! propagation: once an owner is deleted, every object whose `ownerReferences` all point at
//! owners that no longer exist is deleted too, pods gracefully. A Job's pods also lose the
//! `batch.kubernetes.io/job-tracking` finalizer (the Job controller releases the pods of a Job
//! that is gone), so they can go.
//!
//! Only owners seen deleted count (the `gone` uids the [`driver`](super::driver) collects from
//! the store's DELETED changes): fixture and scenario pods that name owners the simulator never
//! had (a case's `ReplicaSet` or `Job`) are left alone, as they were loaded to be looked at.
//!
//! Orphan propagation (`kubectl delete --cascade=orphan`): the API keeps the owner with
//! `deletionTimestamp` and the `orphan` finalizer; the collector removes the ownerReference to
//! it from every dependent, then the finalizer, and the store removes the owner. The
//! dependents stay, owned by nothing.

use std::collections::HashSet;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::job::TRACKING_FINALIZER;
use super::{Action, Kind, Snapshot, ids};

/// Whether the object's owners are all gone and at least one of them was seen deleted.
fn orphaned(meta: &ObjectMeta, existing: &HashSet<String>, gone: &HashSet<String>) -> bool {
    let refs = meta.owner_references.as_deref().unwrap_or(&[]);
    !refs.is_empty()
        && refs.iter().all(|r| !existing.contains(&r.uid))
        && refs.iter().any(|r| gone.contains(&r.uid))
}

/// The deletions (and finalizer releases) for the dependents of the `gone` owners.
pub fn reconcile(snap: &Snapshot, gone: &HashSet<String>) -> Vec<Action> {
    let mut actions = orphan(snap);
    if gone.is_empty() {
        return actions;
    }
    let existing = snap.uids();
    for p in &snap.pods {
        if !orphaned(&p.metadata, &existing, gone) {
            continue;
        }
        let (namespace, name, uid) = ids(&p.metadata);
        if p.metadata
            .finalizers
            .iter()
            .flatten()
            .any(|f| f == TRACKING_FINALIZER)
        {
            actions.push(Action::RemovePodFinalizer {
                namespace: namespace.clone(),
                name: name.clone(),
                uid: uid.clone(),
                finalizer: TRACKING_FINALIZER.into(),
            });
        }
        if p.metadata.deletion_timestamp.is_none() {
            actions.push(Action::DeletePod {
                namespace,
                name,
                uid,
            });
        }
    }
    let workloads = [
        (
            Kind::ReplicaSet,
            snap.replica_sets
                .iter()
                .map(|o| &o.metadata)
                .collect::<Vec<_>>(),
        ),
        (
            Kind::Deployment,
            snap.deployments.iter().map(|o| &o.metadata).collect(),
        ),
        (
            Kind::StatefulSet,
            snap.stateful_sets.iter().map(|o| &o.metadata).collect(),
        ),
        (
            Kind::DaemonSet,
            snap.daemon_sets.iter().map(|o| &o.metadata).collect(),
        ),
        (Kind::Job, snap.jobs.iter().map(|o| &o.metadata).collect()),
        (
            Kind::CronJob,
            snap.cron_jobs.iter().map(|o| &o.metadata).collect(),
        ),
    ];
    for (kind, metas) in workloads {
        for meta in metas {
            if meta.deletion_timestamp.is_none() && orphaned(meta, &existing, gone) {
                let (namespace, name, _) = ids(meta);
                actions.push(Action::Delete {
                    kind,
                    namespace,
                    name,
                });
            }
        }
    }
    actions
}

/// The `gone` uids some object still names as an owner (the others can be forgotten).
pub fn still_referenced(snap: &Snapshot, gone: &HashSet<String>) -> HashSet<String> {
    let metas = snap
        .pods
        .iter()
        .map(|o| &o.metadata)
        .chain(snap.replica_sets.iter().map(|o| &o.metadata))
        .chain(snap.jobs.iter().map(|o| &o.metadata));
    metas
        .flat_map(|m| m.owner_references.iter().flatten())
        .filter(|r| gone.contains(&r.uid))
        .map(|r| r.uid.clone())
        .collect()
}

/// Every object of `snap` with its kind (`None` for pods).
fn all_metas(snap: &Snapshot) -> Vec<(Option<Kind>, &ObjectMeta)> {
    let mut v: Vec<(Option<Kind>, &ObjectMeta)> =
        snap.pods.iter().map(|o| (None, &o.metadata)).collect();
    v.extend(
        snap.replica_sets
            .iter()
            .map(|o| (Some(Kind::ReplicaSet), &o.metadata)),
    );
    v.extend(
        snap.deployments
            .iter()
            .map(|o| (Some(Kind::Deployment), &o.metadata)),
    );
    v.extend(
        snap.stateful_sets
            .iter()
            .map(|o| (Some(Kind::StatefulSet), &o.metadata)),
    );
    v.extend(
        snap.daemon_sets
            .iter()
            .map(|o| (Some(Kind::DaemonSet), &o.metadata)),
    );
    v.extend(snap.jobs.iter().map(|o| (Some(Kind::Job), &o.metadata)));
    v.extend(
        snap.cron_jobs
            .iter()
            .map(|o| (Some(Kind::CronJob), &o.metadata)),
    );
    v
}

/// Owners being deleted with the `orphan` finalizer: release their dependents, then the finalizer.
fn orphan(snap: &Snapshot) -> Vec<Action> {
    let mut actions = Vec::new();
    let metas = all_metas(snap);
    for (kind, owner) in &metas {
        let Some(kind) = kind else { continue };
        let orphaning = owner.deletion_timestamp.is_some()
            && owner.finalizers.iter().flatten().any(|f| f == "orphan");
        if !orphaning {
            continue;
        }
        let (namespace, name, uid) = ids(owner);
        for (dkind, dep) in &metas {
            if dep.owner_references.iter().flatten().any(|r| r.uid == uid) {
                let (dns, dname, _) = ids(dep);
                actions.push(Action::ReleaseDependent {
                    kind: *dkind,
                    namespace: dns,
                    name: dname,
                    owner_uid: uid.clone(),
                });
            }
        }
        actions.push(Action::RemoveFinalizer {
            kind: *kind,
            namespace,
            name,
            finalizer: "orphan".into(),
        });
    }
    actions
}
