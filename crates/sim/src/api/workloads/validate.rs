//! The checks the API server makes before it stores a workload (a subset of
//! `pkg/apis/apps/validation` and `pkg/apis/batch/validation`): what a controller needs to be
//! true of the object, worded as the API server's field errors.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

use crate::api::admission;
use crate::api::label_selector;
use crate::api::object::Object;
use crate::api::status::ApiError;

fn go_map(labels: &BTreeMap<String, String>) -> String {
    let pairs: Vec<String> = labels.iter().map(|(k, v)| format!("{k:?}:{v:?}")).collect();
    format!("map[string]string{{{}}}", pairs.join(", "))
}

/// The pod template's containers, under `path` (`spec.template`).
fn template(t: Option<&PodTemplateSpec>, path: &str, causes: &mut Vec<String>) {
    let pod = Pod {
        spec: t.and_then(|t| t.spec.clone()),
        ..Pod::default()
    };
    for cause in admission::validate(&pod) {
        causes.push(format!("{path}.{cause}"));
    }
}

fn selected(
    sel: &LabelSelector,
    t: Option<&PodTemplateSpec>,
    path: &str,
    causes: &mut Vec<String>,
) {
    let empty = sel.match_labels.as_ref().is_none_or(BTreeMap::is_empty)
        && sel.match_expressions.as_ref().is_none_or(Vec::is_empty);
    if empty {
        causes.push("spec.selector: Required value".to_string());
        return;
    }
    let labels = t
        .and_then(|t| t.metadata.as_ref())
        .and_then(|m| m.labels.clone())
        .unwrap_or_default();
    if !label_selector::matches(sel, &labels) {
        causes.push(format!(
            "{path}.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
            go_map(&labels)
        ));
    }
}

fn replicas(n: Option<i32>, causes: &mut Vec<String>) {
    if let Some(n) = n.filter(|n| *n < 0) {
        causes.push(format!(
            "spec.replicas: Invalid value: {n}: must be greater than or equal to 0"
        ));
    }
}

fn restart_policy(t: &PodTemplateSpec, path: &str, causes: &mut Vec<String>) {
    let policy = t
        .spec
        .as_ref()
        .and_then(|s| s.restart_policy.as_deref())
        .unwrap_or("");
    if !matches!(policy, "OnFailure" | "Never") {
        causes.push(format!(
            "{path}.spec.restartPolicy: Unsupported value: {policy:?}: supported values: \"OnFailure\", \"Never\""
        ));
    }
}

/// Checks `obj` (defaults applied). Errors: 422 Invalid, e.g. `Deployment.apps "web" is
/// invalid: spec.selector: Required value`.
pub fn check(obj: &Object) -> Result<(), ApiError> {
    let mut causes = Vec::new();
    match obj {
        Object::Deployment(d) => {
            replicas(d.spec.replicas, &mut causes);
            selected(
                &d.spec.selector,
                Some(&d.spec.template),
                "spec.template",
                &mut causes,
            );
            template(Some(&d.spec.template), "spec.template", &mut causes);
        }
        Object::ReplicaSet(r) => {
            replicas(r.spec.replicas, &mut causes);
            selected(
                &r.spec.selector,
                r.spec.template.as_ref(),
                "spec.template",
                &mut causes,
            );
            if r.spec.replicas.unwrap_or(1) > 0 || r.spec.template.is_some() {
                template(r.spec.template.as_ref(), "spec.template", &mut causes);
            }
        }
        Object::StatefulSet(s) => {
            replicas(s.spec.replicas, &mut causes);
            selected(
                &s.spec.selector,
                Some(&s.spec.template),
                "spec.template",
                &mut causes,
            );
            template(Some(&s.spec.template), "spec.template", &mut causes);
        }
        Object::DaemonSet(d) => {
            selected(
                &d.spec.selector,
                Some(&d.spec.template),
                "spec.template",
                &mut causes,
            );
            template(Some(&d.spec.template), "spec.template", &mut causes);
        }
        Object::Job(j) => {
            if let Some(spec) = j.spec.as_ref() {
                restart_policy(&spec.template, "spec.template", &mut causes);
                template(Some(&spec.template), "spec.template", &mut causes);
            }
        }
        Object::CronJob(c) => {
            if c.spec.schedule.trim().is_empty() {
                causes.push("spec.schedule: Required value".to_string());
            }
            if let Some(js) = c.spec.job_template.spec.as_ref() {
                let path = "spec.jobTemplate.spec.template";
                restart_policy(&js.template, path, &mut causes);
                template(Some(&js.template), path, &mut causes);
            }
        }
        _ => {}
    }
    if causes.is_empty() {
        return Ok(());
    }
    let res = obj.resource();
    Err(ApiError::invalid(
        &format!("{}.{}", res.kind(), res.group()),
        obj.name(),
        &causes,
    ))
}
