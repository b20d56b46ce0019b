//! The apps/v1 and batch/v1 Tables, with the columns and cells of kube-apiserver 1.33's
//! printers (`printDeployment`, `printReplicaSet`, `printStatefulSet`, `printDaemonSet`,
//! `printJob`, `printCronJob` in `pkg/printers/internalversion/printers.go`): counts come from
//! `status` (0 while no controller has written it), the priority-1 cells are always filled.

use std::collections::BTreeMap;

use jiff::Timestamp;
use k8s_openapi::api::batch::v1::{Job, JobCondition};
use k8s_openapi::api::core::v1::{Container, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde_json::{Value, json};

use super::column;
use crate::api::label_selector;
use crate::api::object::{Object, Resource};
use podscope_model::printer;

const NAME: &str = "Name must be unique within a namespace.";
const AGE: &str =
    "CreationTimestamp is a timestamp representing the server time when this object was created.";
const CONTAINERS: &str = "Names of each container in the template.";
const IMAGES: &str = "Images referenced by each container in the template.";
const SELECTOR: &str = "A label query over pods that should match the replica count.";

fn typed(name: &str, kind: &str, priority: u8, description: &str) -> Value {
    let mut c = column(name, priority, description);
    c["type"] = json!(kind);
    c
}

/// `Containers, Images[, Selector]` at priority 1.
fn wide(with_selector: bool) -> Vec<Value> {
    let mut v = vec![
        column("Containers", 1, CONTAINERS),
        column("Images", 1, IMAGES),
    ];
    if with_selector {
        v.push(column("Selector", 1, SELECTOR));
    }
    v
}

/// The column definitions of `resource`'s Table.
pub(super) fn columns(resource: Resource) -> Vec<Value> {
    let name = column("Name", 0, NAME);
    let age = column("Age", 0, AGE);
    let int = |n: &str, d: &str| typed(n, "integer", 0, d);
    let mut cols = match resource {
        Resource::Deployments => vec![
            name,
            column("Ready", 0, "Number of the pod with ready state"),
            int(
                "Up-to-date",
                "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
            ),
            int(
                "Available",
                "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
            ),
            age,
        ],
        Resource::ReplicaSets => vec![
            name,
            int("Desired", "Replicas is the number of desired replicas."),
            int(
                "Current",
                "Replicas is the most recently observed number of replicas.",
            ),
            int(
                "Ready",
                "The number of ready replicas for this replica set.",
            ),
            age,
        ],
        Resource::StatefulSets => vec![
            name,
            column("Ready", 0, "Number of the pod with ready state"),
            age,
        ],
        Resource::DaemonSets => vec![
            name,
            int(
                "Desired",
                "The total number of nodes that should be running the daemon pod.",
            ),
            int(
                "Current",
                "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.",
            ),
            int(
                "Ready",
                "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.",
            ),
            int(
                "Up-to-date",
                "The total number of nodes that are running updated daemon pod",
            ),
            int(
                "Available",
                "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.",
            ),
            column(
                "Node Selector",
                0,
                "NodeSelector is a selector which must be true for the pod to fit on a node.",
            ),
            age,
        ],
        Resource::Jobs => vec![
            name,
            column("Status", 0, "Status of the job."),
            column(
                "Completions",
                0,
                "The number of pods which reached phase Succeeded.",
            ),
            column("Duration", 0, "Time required to complete the job."),
            age,
        ],
        Resource::CronJobs => vec![
            name,
            column("Schedule", 0, "The schedule in Cron format."),
            column("Timezone", 0, "The time zone name for the given schedule."),
            typed(
                "Suspend",
                "boolean",
                0,
                "This flag tells the controller to suspend subsequent executions.",
            ),
            int("Active", "A list of pointers to currently running jobs."),
            column(
                "Last Schedule",
                0,
                "Information when was the last time the job was successfully scheduled.",
            ),
            age,
        ],
        _ => vec![name, age],
    };
    cols.extend(wide(!matches!(
        resource,
        Resource::StatefulSets | Resource::Pods | Resource::Events
    )));
    cols
}

/// `Containers` and `Images`: the template's containers' names and images, comma-joined.
fn layout(containers: &[Container]) -> (String, String) {
    let names: Vec<&str> = containers.iter().map(|c| c.name.as_str()).collect();
    let images: Vec<&str> = containers
        .iter()
        .map(|c| c.image.as_deref().unwrap_or(""))
        .collect();
    (names.join(","), images.join(","))
}

fn containers_of(t: Option<&PodTemplateSpec>) -> &[Container] {
    t.and_then(|t| t.spec.as_ref())
        .map_or(&[][..], |s| s.containers.as_slice())
}

/// `printers.FormatLabels`: `k=v,…` in key order, `<none>` when empty.
fn format_labels(m: Option<&BTreeMap<String, String>>) -> String {
    match m {
        Some(m) if !m.is_empty() => m
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(","),
        _ => "<none>".to_string(),
    }
}

fn has_condition(conditions: &[JobCondition], kind: &str) -> bool {
    conditions
        .iter()
        .find(|c| c.type_ == kind)
        .is_some_and(|c| c.status == "True")
}

/// The Job's `Status`, `Completions` and `Duration` cells.
fn job_cells(j: &Job, now: Timestamp) -> (String, String, String) {
    let status = j.status.clone().unwrap_or_default();
    let spec = j.spec.clone().unwrap_or_default();
    let succeeded = status.succeeded.unwrap_or(0);
    let completions = match spec.completions {
        Some(c) => format!("{succeeded}/{c}"),
        None if spec.parallelism.unwrap_or(0) > 1 => {
            format!("{succeeded}/1 of {}", spec.parallelism.unwrap_or(0))
        }
        None => format!("{succeeded}/1"),
    };
    let duration = match (&status.start_time, &status.completion_time) {
        (None, _) => String::new(),
        (Some(s), None) => printer::age(Some(s.0), now),
        (Some(s), Some(c)) => printer::age(Some(s.0), c.0),
    };
    let conds = status.conditions.unwrap_or_default();
    let state = if has_condition(&conds, "Complete") {
        "Complete"
    } else if has_condition(&conds, "Failed") {
        "Failed"
    } else if j.metadata.deletion_timestamp.is_some() {
        "Terminating"
    } else if has_condition(&conds, "Suspended") {
        "Suspended"
    } else if has_condition(&conds, "FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    (state.to_string(), completions, duration)
}

fn with_wide(mut cells: Vec<Value>, c: &[Container], sel: Option<Option<&LabelSelector>>) -> Value {
    let (names, images) = layout(c);
    cells.push(json!(names));
    cells.push(json!(images));
    if let Some(sel) = sel {
        cells.push(json!(label_selector::format(sel)));
    }
    json!({"cells": cells})
}

/// One row of `obj` at `now`.
pub(super) fn row(obj: &Object, now: Timestamp) -> Value {
    let age = json!(printer::age(
        obj.meta().creation_timestamp.as_ref().map(|t| t.0),
        now
    ));
    let name = json!(obj.name());
    match obj {
        Object::Deployment(d) => {
            let st = d.status.clone().unwrap_or_default();
            let ready = format!(
                "{}/{}",
                st.ready_replicas.unwrap_or(0),
                d.spec.replicas.unwrap_or(0)
            );
            let cells = vec![
                name,
                json!(ready),
                json!(st.updated_replicas.unwrap_or(0)),
                json!(st.available_replicas.unwrap_or(0)),
                age,
            ];
            with_wide(
                cells,
                containers_of(Some(&d.spec.template)),
                Some(Some(&d.spec.selector)),
            )
        }
        Object::ReplicaSet(r) => {
            let st = r.status.clone().unwrap_or_default();
            let cells = vec![
                name,
                json!(r.spec.replicas.unwrap_or(0)),
                json!(st.replicas),
                json!(st.ready_replicas.unwrap_or(0)),
                age,
            ];
            with_wide(
                cells,
                containers_of(r.spec.template.as_ref()),
                Some(Some(&r.spec.selector)),
            )
        }
        Object::StatefulSet(s) => {
            let st = s.status.clone().unwrap_or_default();
            let ready = format!(
                "{}/{}",
                st.ready_replicas.unwrap_or(0),
                s.spec.replicas.unwrap_or(0)
            );
            with_wide(
                vec![name, json!(ready), age],
                containers_of(Some(&s.spec.template)),
                None,
            )
        }
        Object::DaemonSet(d) => {
            let st = d.status.clone().unwrap_or_default();
            let node_selector = d
                .spec
                .template
                .spec
                .as_ref()
                .and_then(|s| s.node_selector.as_ref());
            let cells = vec![
                name,
                json!(st.desired_number_scheduled),
                json!(st.current_number_scheduled),
                json!(st.number_ready),
                json!(st.updated_number_scheduled.unwrap_or(0)),
                json!(st.number_available.unwrap_or(0)),
                json!(format_labels(node_selector)),
                age,
            ];
            with_wide(
                cells,
                containers_of(Some(&d.spec.template)),
                Some(Some(&d.spec.selector)),
            )
        }
        Object::Job(j) => {
            let (status, completions, duration) = job_cells(j, now);
            let spec = j.spec.as_ref();
            let cells = vec![
                name,
                json!(status),
                json!(completions),
                json!(duration),
                age,
            ];
            with_wide(
                cells,
                containers_of(spec.map(|s| &s.template)),
                Some(spec.and_then(|s| s.selector.as_ref())),
            )
        }
        Object::CronJob(c) => {
            let st = c.status.clone().unwrap_or_default();
            let last = st
                .last_schedule_time
                .as_ref()
                .map_or_else(|| "<none>".to_string(), |t| printer::age(Some(t.0), now));
            let suspend = match c.spec.suspend {
                Some(true) => "True",
                Some(false) => "False",
                None => "<unset>",
            };
            let cells = vec![
                name,
                json!(c.spec.schedule),
                json!(c.spec.time_zone.as_deref().unwrap_or("<none>")),
                json!(suspend),
                json!(st.active.map_or(0, |a| a.len())),
                json!(last),
                age,
            ];
            let js = c.spec.job_template.spec.as_ref();
            with_wide(
                cells,
                containers_of(js.map(|s| &s.template)),
                Some(js.and_then(|s| s.selector.as_ref())),
            )
        }
        _ => json!({"cells": [name, age]}),
    }
}
