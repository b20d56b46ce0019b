//! The controller model: what kube-controller-manager's workload controllers do, as pure
//! functions of a [`Snapshot`] of the stored objects and the simulator's time
//! (`docs/controllers.md`).
//!
//! Each controller is `reconcile(&Snapshot, now) -> Outcome`: the [`Action`]s that bring the
//! cluster one step closer to what the objects ask for (create or delete pods and objects,
//! scale a ReplicaSet, write a status, record an Event) and the earliest instant it wants to be
//! asked again (a minReadySeconds wait, a progress deadline, a Job's back-off, a CronJob's next
//! schedule). The [`driver`] takes snapshots from the store on every change and at those
//! instants, runs [`reconcile_all`] and applies the actions; a pass that finds nothing to do
//! returns no action, so passes converge.
//!
//! Modelled on `pkg/controller/{replicaset,deployment,statefulset,daemon,job,cronjob,
//! garbagecollector}` of kubernetes/kubernetes.

pub mod cronjob;
pub mod daemonset;
pub mod deployment;
pub(crate) mod driver;
pub mod endpointslice;
mod events;
pub mod gc;
pub mod hash;
pub mod job;
pub mod pods;
pub mod pv_binder;
pub mod replicaset;
pub mod statefulset;
#[cfg(test)]
mod testing;
pub mod ttl;
#[cfg(test)]
mod workload_tests;

use std::collections::BTreeMap;

use jiff::Timestamp;
use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{Event, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// The stored objects the controllers read, each list in namespace/name order, plus the one
/// simulated node's name (DaemonSets place a pod on it).
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// `metadata.name` of the simulated node (`SimConfig::node`, `sim-node-1`).
    pub node: String,
    /// Every pod.
    pub pods: Vec<Pod>,
    /// Every apps/v1 ReplicaSet.
    pub replica_sets: Vec<ReplicaSet>,
    /// Every apps/v1 Deployment.
    pub deployments: Vec<Deployment>,
    /// Every apps/v1 StatefulSet.
    pub stateful_sets: Vec<StatefulSet>,
    /// Every apps/v1 DaemonSet.
    pub daemon_sets: Vec<DaemonSet>,
    /// Every batch/v1 Job.
    pub jobs: Vec<Job>,
    /// Every batch/v1 CronJob.
    pub cron_jobs: Vec<CronJob>,
}

impl Snapshot {
    /// The pods whose controller `ownerReference` has `uid` (what a controller owns; nothing is
    /// adopted by selector).
    pub fn pods_of(&self, uid: &str) -> Vec<&Pod> {
        self.pods
            .iter()
            .filter(|p| controller_uid(&p.metadata) == Some(uid))
            .collect()
    }

    /// The ReplicaSets controlled by the object with `uid` (a Deployment), oldest first.
    pub fn replica_sets_of(&self, uid: &str) -> Vec<&ReplicaSet> {
        let mut v: Vec<&ReplicaSet> = self
            .replica_sets
            .iter()
            .filter(|r| controller_uid(&r.metadata) == Some(uid))
            .collect();
        v.sort_by_key(|r| {
            (
                r.metadata.creation_timestamp.clone().map(|t| t.0),
                r.metadata.name.clone(),
            )
        });
        v
    }

    /// The Jobs controlled by the object with `uid` (a CronJob), oldest first.
    pub fn jobs_of(&self, uid: &str) -> Vec<&Job> {
        let mut v: Vec<&Job> = self
            .jobs
            .iter()
            .filter(|j| controller_uid(&j.metadata) == Some(uid))
            .collect();
        v.sort_by_key(|j| {
            (
                j.metadata.creation_timestamp.clone().map(|t| t.0),
                j.metadata.name.clone(),
            )
        });
        v
    }

    /// Every object's `metadata.uid` (owners that still exist, for the garbage collector).
    pub fn uids(&self) -> std::collections::HashSet<String> {
        let metas = self
            .pods
            .iter()
            .map(|o| &o.metadata)
            .chain(self.replica_sets.iter().map(|o| &o.metadata))
            .chain(self.deployments.iter().map(|o| &o.metadata))
            .chain(self.stateful_sets.iter().map(|o| &o.metadata))
            .chain(self.daemon_sets.iter().map(|o| &o.metadata))
            .chain(self.jobs.iter().map(|o| &o.metadata))
            .chain(self.cron_jobs.iter().map(|o| &o.metadata));
        metas.filter_map(|m| m.uid.clone()).collect()
    }
}

/// The kinds of objects the controllers create, scale, annotate or delete besides pods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// apps/v1 ReplicaSet.
    ReplicaSet,
    /// apps/v1 Deployment.
    Deployment,
    /// apps/v1 StatefulSet.
    StatefulSet,
    /// apps/v1 DaemonSet.
    DaemonSet,
    /// batch/v1 Job.
    Job,
    /// batch/v1 CronJob.
    CronJob,
}

impl Kind {
    /// `kind` as written in objects and ownerReferences.
    pub fn name(self) -> &'static str {
        match self {
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Deployment => "Deployment",
            Kind::StatefulSet => "StatefulSet",
            Kind::DaemonSet => "DaemonSet",
            Kind::Job => "Job",
            Kind::CronJob => "CronJob",
        }
    }

    /// `apiVersion`: `apps/v1` or `batch/v1`.
    pub fn api_version(self) -> &'static str {
        match self {
            Kind::Job | Kind::CronJob => "batch/v1",
            _ => "apps/v1",
        }
    }
}

/// A whole object of one of the [`Kind`]s (what [`Action::Create`] stores and
/// [`Action::Status`] takes the `status` of).
#[derive(Debug, Clone, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "short-lived values, one per action"
)]
pub enum Workload {
    /// A ReplicaSet.
    ReplicaSet(ReplicaSet),
    /// A Deployment.
    Deployment(Deployment),
    /// A StatefulSet.
    StatefulSet(StatefulSet),
    /// A DaemonSet.
    DaemonSet(DaemonSet),
    /// A Job.
    Job(Job),
    /// A CronJob.
    CronJob(CronJob),
}

impl Workload {
    /// The object's kind.
    pub fn kind(&self) -> Kind {
        match self {
            Workload::ReplicaSet(_) => Kind::ReplicaSet,
            Workload::Deployment(_) => Kind::Deployment,
            Workload::StatefulSet(_) => Kind::StatefulSet,
            Workload::DaemonSet(_) => Kind::DaemonSet,
            Workload::Job(_) => Kind::Job,
            Workload::CronJob(_) => Kind::CronJob,
        }
    }

    /// The object's metadata.
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Workload::ReplicaSet(o) => &o.metadata,
            Workload::Deployment(o) => &o.metadata,
            Workload::StatefulSet(o) => &o.metadata,
            Workload::DaemonSet(o) => &o.metadata,
            Workload::Job(o) => &o.metadata,
            Workload::CronJob(o) => &o.metadata,
        }
    }
}

/// One write a controller asks for. Pods are identified by `uid` too, so an action meant for
/// one incarnation never touches a pod re-created under the same name.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Create this pod (named, in its `metadata.namespace`) and run it on the kubelet model.
    CreatePod(Box<Pod>),
    /// Delete a pod gracefully, as `kubectl delete pod` does (its own grace period).
    DeletePod {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// `metadata.uid` of the incarnation meant.
        uid: String,
    },
    /// Remove `finalizer` from a pod's `metadata.finalizers` (a Job counted it).
    RemovePodFinalizer {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// `metadata.uid` of the incarnation meant.
        uid: String,
        /// e.g. `batch.kubernetes.io/job-tracking`.
        finalizer: String,
    },
    /// Remove `finalizer` from an object's `metadata.finalizers` (the garbage collector's
    /// `orphan` once the dependents are released); the store removes an object whose deletion
    /// was requested and whose last finalizer went.
    RemoveFinalizer {
        /// Which kind of object.
        kind: Kind,
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// e.g. `orphan`.
        finalizer: String,
    },
    /// Remove the `ownerReferences` entry naming `owner_uid` from a pod (`kind: None`) or an
    /// object (orphaning it).
    ReleaseDependent {
        /// `None` for a pod, else the object's kind.
        kind: Option<Kind>,
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// The owner's `metadata.uid`.
        owner_uid: String,
    },
    /// Create this object (named, in its namespace).
    Create(Box<Workload>),
    /// Set a ReplicaSet's `spec.replicas` and merge `annotations` into its metadata (how the
    /// Deployment controller scales and stamps revisions).
    ScaleReplicaSet {
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// The new `spec.replicas`.
        replicas: i32,
        /// Annotations to set (others are kept).
        annotations: BTreeMap<String, String>,
    },
    /// Merge `annotations` into an object's metadata (e.g. a Deployment's
    /// `deployment.kubernetes.io/revision`).
    Annotate {
        /// Which kind of object.
        kind: Kind,
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
        /// Annotations to set (others are kept).
        annotations: BTreeMap<String, String>,
    },
    /// Write this object's `status` (only the status: spec and metadata stay the stored ones).
    Status(Box<Workload>),
    /// Delete an object (background propagation: the garbage collector removes its dependents).
    Delete {
        /// Which kind of object.
        kind: Kind,
        /// `metadata.namespace`.
        namespace: String,
        /// `metadata.name`.
        name: String,
    },
    /// Record this core/v1 Event.
    Event(Box<Event>),
}

/// What one reconcile asks for: actions in order, and when to be run again at the latest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// The writes, in the order to apply them.
    pub actions: Vec<Action>,
    /// The earliest simulated instant something becomes due (`None`: only changes matter).
    pub wake: Option<Timestamp>,
}

impl Outcome {
    /// Asks to be run again at `at` (keeps the earliest instant).
    pub fn wake_at(&mut self, at: Timestamp) {
        self.wake = Some(self.wake.map_or(at, |w| w.min(at)));
    }

    /// Appends `other`'s actions and keeps the earlier wake-up.
    pub fn merge(&mut self, other: Outcome) {
        self.actions.extend(other.actions);
        if let Some(w) = other.wake {
            self.wake_at(w);
        }
    }
}

/// Runs every controller on `snap` at `now` (ReplicaSets, Deployments, StatefulSets,
/// DaemonSets, Jobs, CronJobs, finished Jobs' TTL; garbage collection runs separately, see
/// [`gc`]).
pub fn reconcile_all(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    out.merge(deployment::reconcile(snap, now));
    out.merge(replicaset::reconcile(snap, now));
    out.merge(statefulset::reconcile(snap, now));
    out.merge(daemonset::reconcile(snap, now));
    out.merge(cronjob::reconcile(snap, now));
    out.merge(job::reconcile(snap, now));
    out.merge(ttl::reconcile(snap, now));
    out
}

/// The `uid` of the controller `ownerReference` (`controller: true`) of an object.
pub fn controller_uid(meta: &ObjectMeta) -> Option<&str> {
    meta.owner_references
        .as_ref()?
        .iter()
        .find(|r| r.controller == Some(true))
        .map(|r| r.uid.as_str())
}

/// The controller `ownerReference` a controller puts on what it creates: `{apiVersion, kind,
/// name, uid, controller: true, blockOwnerDeletion: true}`.
pub fn owner_reference(
    kind: Kind,
    owner: &ObjectMeta,
) -> k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference {
    k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference {
        api_version: kind.api_version().to_string(),
        kind: kind.name().to_string(),
        name: owner.name.clone().unwrap_or_default(),
        uid: owner.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// `metadata.namespace`, `metadata.name` and `metadata.uid` (empty when unset).
pub(crate) fn ids(meta: &ObjectMeta) -> (String, String, String) {
    (
        meta.namespace.clone().unwrap_or_else(|| "default".into()),
        meta.name.clone().unwrap_or_default(),
        meta.uid.clone().unwrap_or_default(),
    )
}
