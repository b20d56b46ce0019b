//! The in-memory cluster's kubelet: a status from the pod's image tag.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{
    ContainerState, ContainerStateTerminated, ContainerStatus, Pod, PodCondition, PodStatus,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

/// What the fake kubelet makes of a pod, from its first container's image tag: `:bad` runs
/// not ready, `:fail` ends Failed (exit 1), `:done` ends Succeeded, `:pending` stays Pending,
/// anything else Running and Ready.
pub(crate) fn kubelet_status(pod: &Pod, now: Timestamp) -> PodStatus {
    let image = pod
        .spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .and_then(|c| c.image.clone())
        .unwrap_or_default();
    let tag = image.rsplit(':').next().unwrap_or("");
    let ready = |s: &str| PodCondition {
        type_: "Ready".into(),
        status: s.into(),
        last_transition_time: Some(Time(now)),
        ..PodCondition::default()
    };
    let terminated = |code: i32| ContainerStatus {
        name: "c".into(),
        state: Some(ContainerState {
            terminated: Some(ContainerStateTerminated {
                exit_code: code,
                finished_at: Some(Time(now)),
                ..ContainerStateTerminated::default()
            }),
            ..ContainerState::default()
        }),
        ..ContainerStatus::default()
    };
    match tag {
        "pending" => PodStatus {
            phase: Some("Pending".into()),
            ..PodStatus::default()
        },
        "bad" => PodStatus {
            phase: Some("Running".into()),
            conditions: Some(vec![ready("False")]),
            ..PodStatus::default()
        },
        "fail" => PodStatus {
            phase: Some("Failed".into()),
            container_statuses: Some(vec![terminated(1)]),
            ..PodStatus::default()
        },
        "done" => PodStatus {
            phase: Some("Succeeded".into()),
            container_statuses: Some(vec![terminated(0)]),
            ..PodStatus::default()
        },
        _ => PodStatus {
            phase: Some("Running".into()),
            conditions: Some(vec![ready("True")]),
            ..PodStatus::default()
        },
    }
}
