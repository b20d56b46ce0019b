//! [`WorkloadSummary`] from the k8s-openapi objects, one function per kind
//! (`docs/workloads.md` "Summaries"; sources: the controllers' status updates in
//! `pkg/controller/deployment/sync.go`, `pkg/controller/statefulset/stateful_set_status_updater.go`,
//! `pkg/controller/daemon/daemon_controller.go`, `pkg/controller/job/job_controller.go`, and
//! `FindNewReplicaSet`/`EqualIgnoreHash` in `pkg/controller/deployment/util/deployment_util.go`).

use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};

use super::diff::template_changes;
use super::selector::render;
use super::{JobCounts, Revision, WorkloadCondition, WorkloadKind, WorkloadSummary};
use crate::sanitize::sanitize;

/// The label the Deployment controller adds to a ReplicaSet's selector, template and pods.
pub const POD_TEMPLATE_HASH: &str = "pod-template-hash";
/// The label the StatefulSet and DaemonSet controllers add to their pods.
pub const CONTROLLER_REVISION_HASH: &str = "controller-revision-hash";
/// The annotation holding a ReplicaSet's rollout revision number.
pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";

fn clean(s: &str) -> String {
    sanitize(s).into_owned()
}

fn base(
    kind: WorkloadKind,
    meta: &ObjectMeta,
    selector: Option<&LabelSelector>,
) -> WorkloadSummary {
    let text = |s: &Option<String>| clean(s.as_deref().unwrap_or(""));
    WorkloadSummary {
        kind,
        name: text(&meta.name),
        namespace: text(&meta.namespace),
        uid: text(&meta.uid),
        selector: selector.map(render).map(|s| clean(&s)).unwrap_or_default(),
        replicas: None,
        ready: 0,
        updated: 0,
        available: 0,
        conditions: Vec::new(),
        revisions: Vec::new(),
        changes: Vec::new(),
        jobs: None,
        job: None,
    }
}

/// Conditions from any kind's `(type, status, reason, message)`, sanitised.
/// A condition field as an optional string: the kinds' condition types spell `type` and
/// `status` as `String` or `Option<String>`.
trait Field {
    fn field(&self) -> Option<&String>;
}

impl Field for String {
    fn field(&self) -> Option<&String> {
        Some(self)
    }
}

impl Field for Option<String> {
    fn field(&self) -> Option<&String> {
        self.as_ref()
    }
}

/// `status.conditions` of any kind (each has its own condition type with the same `type`,
/// `status`, `reason` and `message` fields) as [`WorkloadCondition`]s.
macro_rules! conditions_of {
    ($list:expr) => {
        conditions($list.iter().flatten().map(|c| {
            [
                c.type_.field(),
                c.status.field(),
                c.reason.field(),
                c.message.field(),
            ]
        }))
    };
}

fn conditions<'a>(
    items: impl IntoIterator<Item = [Option<&'a String>; 4]>,
) -> Vec<WorkloadCondition> {
    let opt = |s: Option<&String>| clean(s.map_or("", String::as_str));
    items
        .into_iter()
        .map(|[t, s, r, m]| WorkloadCondition {
            type_: opt(t),
            status: opt(s),
            reason: opt(r),
            message: opt(m),
        })
        .collect()
}

/// Whether `meta`'s controller owner (or any owner) has `uid`.
#[must_use]
pub fn owned_by(meta: &ObjectMeta, uid: &str) -> bool {
    meta.owner_references
        .iter()
        .flatten()
        .any(|r| r.uid == uid && r.controller != Some(false))
}

/// `deployment.kubernetes.io/revision` of a ReplicaSet, when set and a number.
#[must_use]
pub fn revision_of(rs: &ReplicaSet) -> Option<i64> {
    rs.metadata
        .annotations
        .as_ref()?
        .get(REVISION_ANNOTATION)?
        .parse()
        .ok()
}

/// `template` without the `pod-template-hash` label, as `EqualIgnoreHash` compares.
fn without_hash(template: &PodTemplateSpec) -> PodTemplateSpec {
    let mut t = template.clone();
    if let Some(meta) = t.metadata.as_mut()
        && let Some(labels) = meta.labels.as_mut()
    {
        labels.remove(POD_TEMPLATE_HASH);
        if labels.is_empty() {
            meta.labels = None;
        }
    }
    t
}

/// A Deployment with `replica_sets` (any list: those not owned by its uid are ignored):
/// `spec.replicas` (default 1), `status.{ready,updated,available}Replicas`, conditions,
/// `revisions` newest first, and `changes` from the previous ReplicaSet's template to the new
/// one's. The new ReplicaSet is the oldest whose template equals the Deployment's ignoring
/// `pod-template-hash`, else the one with the highest revision; the previous one is the highest
/// revision below it that still has pods, else the next-highest revision.
#[must_use]
pub fn from_deployment(d: &Deployment, replica_sets: &[ReplicaSet]) -> WorkloadSummary {
    let spec = &d.spec;
    let mut s = base(WorkloadKind::Deployment, &d.metadata, Some(&spec.selector));
    s.replicas = Some(spec.replicas.unwrap_or(1));
    if let Some(st) = &d.status {
        s.ready = st.ready_replicas.unwrap_or(0);
        s.updated = st.updated_replicas.unwrap_or(0);
        s.available = st.available_replicas.unwrap_or(0);
        s.conditions = conditions_of!(st.conditions);
    }
    let uid = d.metadata.uid.as_deref().unwrap_or("");
    let mut owned: Vec<&ReplicaSet> = replica_sets
        .iter()
        .filter(|rs| !uid.is_empty() && owned_by(&rs.metadata, uid))
        .collect();
    owned.sort_by(|a, b| {
        (
            revision_of(b),
            &b.metadata.creation_timestamp,
            &b.metadata.name,
        )
            .cmp(&(
                revision_of(a),
                &a.metadata.creation_timestamp,
                &a.metadata.name,
            ))
    });
    let template = without_hash(&spec.template);
    let mut by_age = owned.clone();
    by_age.sort_by(|a, b| {
        a.metadata
            .creation_timestamp
            .cmp(&b.metadata.creation_timestamp)
    });
    let new = by_age
        .iter()
        .find(|rs| rs.spec.template.as_ref().map(without_hash).as_ref() == Some(&template))
        .or(owned.first())
        .copied();
    let new_at = new.and_then(|n| owned.iter().position(|rs| std::ptr::eq(*rs, n)));
    s.revisions = owned
        .iter()
        .enumerate()
        .map(|(i, rs)| revision(rs, Some(i) == new_at))
        .collect();
    if let Some(i) = new_at {
        let older = &owned[i + 1..];
        let previous = older
            .iter()
            .find(|rs| rs.status.as_ref().is_some_and(|st| st.replicas > 0))
            .or(older.first());
        let tpl = |rs: &ReplicaSet| rs.spec.template.clone();
        if let (Some(prev), Some(new)) = (previous.and_then(|p| tpl(p)), tpl(owned[i])) {
            s.changes = template_changes(&prev, &new);
        }
    }
    s
}

fn revision(rs: &ReplicaSet, new: bool) -> Revision {
    let label = |key: &str| {
        rs.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(key))
            .map(|v| clean(v))
    };
    let st = rs.status.as_ref();
    Revision {
        name: clean(rs.metadata.name.as_deref().unwrap_or("")),
        hash: label(POD_TEMPLATE_HASH).unwrap_or_default(),
        revision: revision_of(rs),
        replicas: st.map_or(0, |st| st.replicas),
        ready: st.and_then(|st| st.ready_replicas).unwrap_or(0),
        new,
    }
}

/// A ReplicaSet on its own: `spec.replicas` (default 1), ready and available; `updated` is
/// `status.replicas` (every pod it has is of its one template).
#[must_use]
pub fn from_replica_set(rs: &ReplicaSet) -> WorkloadSummary {
    let spec = &rs.spec;
    let mut s = base(WorkloadKind::ReplicaSet, &rs.metadata, Some(&spec.selector));
    s.replicas = Some(spec.replicas.unwrap_or(1));
    if let Some(st) = &rs.status {
        s.ready = st.ready_replicas.unwrap_or(0);
        s.updated = st.replicas;
        s.available = st.available_replicas.unwrap_or(0);
        s.conditions = conditions_of!(st.conditions);
    }
    s
}

/// A StatefulSet: `spec.replicas` (default 1), `status.{ready,updated,available}Replicas`.
#[must_use]
pub fn from_stateful_set(sts: &StatefulSet) -> WorkloadSummary {
    let spec = &sts.spec;
    let mut s = base(
        WorkloadKind::StatefulSet,
        &sts.metadata,
        Some(&spec.selector),
    );
    s.replicas = Some(spec.replicas.unwrap_or(1));
    if let Some(st) = &sts.status {
        s.ready = st.ready_replicas.unwrap_or(0);
        s.updated = st.updated_replicas.unwrap_or(0);
        s.available = st.available_replicas.unwrap_or(0);
        s.conditions = conditions_of!(st.conditions);
    }
    s
}

/// A DaemonSet: desired is `status.desiredNumberScheduled`, ready `numberReady`, updated
/// `updatedNumberScheduled`, available `numberAvailable`.
#[must_use]
pub fn from_daemon_set(ds: &DaemonSet) -> WorkloadSummary {
    let spec = &ds.spec;
    let mut s = base(WorkloadKind::DaemonSet, &ds.metadata, Some(&spec.selector));
    let st = ds.status.as_ref();
    s.replicas = Some(st.map_or(0, |st| st.desired_number_scheduled));
    if let Some(st) = st {
        s.ready = st.number_ready;
        s.updated = st.updated_number_scheduled.unwrap_or(0);
        s.available = st.number_available.unwrap_or(0);
        s.conditions = conditions_of!(st.conditions);
    }
    s
}

/// A Job: desired is `spec.completions` (`None` for a work-queue Job without it), ready
/// `status.ready`, the `active`/`succeeded`/`failed` counts in `jobs`, conditions
/// (`Complete`, `Failed`, `SuccessCriteriaMet`, `FailureTarget`, `Suspended`).
#[must_use]
pub fn from_job(job: &Job) -> WorkloadSummary {
    let spec = job.spec.as_ref();
    let mut s = base(
        WorkloadKind::Job,
        &job.metadata,
        spec.and_then(|sp| sp.selector.as_ref()),
    );
    s.replicas = spec.and_then(|sp| sp.completions);
    let st = job.status.as_ref();
    s.ready = st.and_then(|st| st.ready).unwrap_or(0);
    s.jobs = Some(JobCounts {
        active: st.and_then(|st| st.active).unwrap_or(0),
        succeeded: st.and_then(|st| st.succeeded).unwrap_or(0),
        failed: st.and_then(|st| st.failed).unwrap_or(0),
        backoff_limit: spec.map(|sp| sp.backoff_limit.unwrap_or(6)),
    });
    if let Some(st) = st {
        s.conditions = conditions_of!(st.conditions);
    }
    s
}

/// A CronJob through its most recent Job (`latest`, owned by it): that Job's counts,
/// conditions and selector under the CronJob's kind, name and uid, and `job` its name. Without
/// a Job, nothing is desired and the selector is empty (no pods to list).
#[must_use]
pub fn from_cron_job(cj: &CronJob, latest: Option<&Job>) -> WorkloadSummary {
    let mut s = match latest {
        Some(job) => from_job(job),
        None => base(WorkloadKind::CronJob, &cj.metadata, None),
    };
    let own = base(WorkloadKind::CronJob, &cj.metadata, None);
    s.kind = WorkloadKind::CronJob;
    s.job = latest.and_then(|j| j.metadata.name.as_deref()).map(clean);
    s.name = own.name;
    s.namespace = own.namespace;
    s.uid = own.uid;
    s
}

/// The newest of `jobs` owned by the CronJob with `uid` (by `creationTimestamp`, then name).
#[must_use]
pub fn latest_job<'a>(jobs: &'a [Job], uid: &str) -> Option<&'a Job> {
    jobs.iter()
        .filter(|j| !uid.is_empty() && owned_by(&j.metadata, uid))
        .max_by(|a, b| {
            (&a.metadata.creation_timestamp, &a.metadata.name)
                .cmp(&(&b.metadata.creation_timestamp, &b.metadata.name))
        })
}
