//! The API server's defaults and create-time additions for the workload kinds
//! (`pkg/apis/apps/v1/defaults.go`, `pkg/apis/batch/v1/defaults.go`, the Job strategy's
//! `generateSelector` in `pkg/registry/batch/job/strategy.go`); see `docs/workloads-api.md` §2.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{
    DaemonSetUpdateStrategy, DeploymentStrategy, RollingUpdateDaemonSet, RollingUpdateDeployment,
    RollingUpdateStatefulSetStrategy, StatefulSetPersistentVolumeClaimRetentionPolicy,
    StatefulSetUpdateStrategy,
};
use k8s_openapi::api::batch::v1::JobSpec;
use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use crate::api::admission::default_pod_template;
use crate::api::object::Object;

/// The label the API server selects a Job's pods by (`batch.kubernetes.io/controller-uid`).
pub const JOB_CONTROLLER_UID: &str = "batch.kubernetes.io/controller-uid";
/// The label naming a Job on its pods (`batch.kubernetes.io/job-name`).
pub const JOB_NAME: &str = "batch.kubernetes.io/job-name";

fn template(t: &mut PodTemplateSpec) {
    default_pod_template(t.spec.get_or_insert_with(Default::default));
}

fn job_spec(spec: &mut JobSpec) {
    if spec.completions.is_none() && spec.parallelism.is_none() {
        spec.completions = Some(1);
    }
    spec.parallelism.get_or_insert(1);
    spec.backoff_limit
        .get_or_insert(if spec.backoff_limit_per_index.is_some() {
            i32::MAX
        } else {
            6
        });
    spec.completion_mode
        .get_or_insert_with(|| "NonIndexed".into());
    spec.suspend.get_or_insert(false);
    spec.manual_selector.get_or_insert(false);
    let replacement = if spec.pod_failure_policy.is_some() {
        "Failed"
    } else {
        "TerminatingOrFailed"
    };
    spec.pod_replacement_policy
        .get_or_insert_with(|| replacement.into());
    template(&mut spec.template);
}

/// Fills the fields the API server defaults on every write of `obj` (a decoded body, or an
/// object a controller creates): Deployments `replicas: 1`, `strategy: RollingUpdate` with
/// `maxSurge`/`maxUnavailable` 25 %, `revisionHistoryLimit: 10`, `progressDeadlineSeconds:
/// 600`; ReplicaSets `replicas: 1`; StatefulSets `replicas: 1`, `podManagementPolicy:
/// OrderedReady`, `updateStrategy: RollingUpdate` (`partition: 0`), `revisionHistoryLimit:
/// 10`, `persistentVolumeClaimRetentionPolicy` Retain/Retain; DaemonSets `updateStrategy:
/// RollingUpdate` (`maxUnavailable: 1`, `maxSurge: 0`), `revisionHistoryLimit: 10`; Jobs
/// `completions`/`parallelism` 1, `backoffLimit: 6`, `completionMode: NonIndexed`, `suspend:
/// false`, `manualSelector: false`, `podReplacementPolicy: TerminatingOrFailed`; CronJobs
/// `concurrencyPolicy: Allow`, `suspend: false`, `successfulJobsHistoryLimit: 3`,
/// `failedJobsHistoryLimit: 1`; every pod template gets the PodSpec defaults. Pods and
/// events are left alone.
pub fn apply(obj: &mut Object) {
    match obj {
        Object::Deployment(d) => {
            let spec = &mut Arc::make_mut(d).spec;
            spec.replicas.get_or_insert(1);
            let strategy = spec
                .strategy
                .get_or_insert_with(DeploymentStrategy::default);
            let kind = strategy
                .type_
                .get_or_insert_with(|| "RollingUpdate".into())
                .clone();
            if kind == "RollingUpdate" {
                let ru = strategy
                    .rolling_update
                    .get_or_insert_with(RollingUpdateDeployment::default);
                ru.max_surge
                    .get_or_insert_with(|| IntOrString::String("25%".into()));
                ru.max_unavailable
                    .get_or_insert_with(|| IntOrString::String("25%".into()));
            }
            spec.revision_history_limit.get_or_insert(10);
            spec.progress_deadline_seconds.get_or_insert(600);
            template(&mut spec.template);
        }
        Object::ReplicaSet(r) => {
            let spec = &mut Arc::make_mut(r).spec;
            spec.replicas.get_or_insert(1);
            if let Some(t) = spec.template.as_mut() {
                template(t);
            }
        }
        Object::StatefulSet(s) => {
            let spec = &mut Arc::make_mut(s).spec;
            spec.replicas.get_or_insert(1);
            spec.pod_management_policy
                .get_or_insert_with(|| "OrderedReady".into());
            let us = spec
                .update_strategy
                .get_or_insert_with(StatefulSetUpdateStrategy::default);
            if us.type_.get_or_insert_with(|| "RollingUpdate".into()) == "RollingUpdate" {
                us.rolling_update
                    .get_or_insert_with(RollingUpdateStatefulSetStrategy::default)
                    .partition
                    .get_or_insert(0);
            }
            spec.revision_history_limit.get_or_insert(10);
            let policy = spec
                .persistent_volume_claim_retention_policy
                .get_or_insert_with(StatefulSetPersistentVolumeClaimRetentionPolicy::default);
            policy.when_deleted.get_or_insert_with(|| "Retain".into());
            policy.when_scaled.get_or_insert_with(|| "Retain".into());
            template(&mut spec.template);
        }
        Object::DaemonSet(d) => {
            let spec = &mut Arc::make_mut(d).spec;
            let us = spec
                .update_strategy
                .get_or_insert_with(DaemonSetUpdateStrategy::default);
            if us.type_.get_or_insert_with(|| "RollingUpdate".into()) == "RollingUpdate" {
                let ru = us
                    .rolling_update
                    .get_or_insert_with(RollingUpdateDaemonSet::default);
                ru.max_unavailable.get_or_insert(IntOrString::Int(1));
                ru.max_surge.get_or_insert(IntOrString::Int(0));
            }
            spec.revision_history_limit.get_or_insert(10);
            template(&mut spec.template);
        }
        Object::Job(j) => {
            let job = Arc::make_mut(j);
            job_spec(job.spec.get_or_insert_with(JobSpec::default));
        }
        Object::CronJob(c) => {
            let spec = &mut Arc::make_mut(c).spec;
            spec.concurrency_policy
                .get_or_insert_with(|| "Allow".into());
            spec.suspend.get_or_insert(false);
            spec.successful_jobs_history_limit.get_or_insert(3);
            spec.failed_jobs_history_limit.get_or_insert(1);
            if let Some(js) = spec.job_template.spec.as_mut() {
                template(&mut js.template);
            }
        }
        _ => {}
    }
}

/// What the API server adds when it creates `obj` (after `uid` is set): a Job without
/// `manualSelector: true` gets the labels `batch.kubernetes.io/controller-uid`,
/// `batch.kubernetes.io/job-name`, `controller-uid` and `job-name` on its template and the
/// selector `batch.kubernetes.io/controller-uid=<uid>`; a Job without labels shows its
/// template's.
pub fn on_create(obj: &mut Object) {
    let Object::Job(j) = obj else { return };
    let job = Arc::make_mut(j);
    let uid = job.metadata.uid.clone().unwrap_or_default();
    let name = job.metadata.name.clone().unwrap_or_default();
    let spec = job.spec.get_or_insert_with(JobSpec::default);
    if spec.manual_selector != Some(true) {
        let labels = spec
            .template
            .metadata
            .get_or_insert_with(Default::default)
            .labels
            .get_or_insert_with(BTreeMap::new);
        for (k, v) in [
            (JOB_CONTROLLER_UID, &uid),
            (JOB_NAME, &name),
            ("controller-uid", &uid),
            ("job-name", &name),
        ] {
            labels.insert(k.to_string(), v.clone());
        }
        spec.selector = Some(LabelSelector {
            match_labels: Some(BTreeMap::from([(JOB_CONTROLLER_UID.to_string(), uid)])),
            match_expressions: None,
        });
    }
    if job.metadata.labels.as_ref().is_none_or(BTreeMap::is_empty) {
        job.metadata.labels = spec
            .template
            .metadata
            .as_ref()
            .and_then(|m| m.labels.clone());
    }
}
