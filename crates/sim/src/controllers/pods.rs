//! Pod facts the controllers share: active, ready, available (`minReadySeconds`), the pod a
//! template makes, and generated name suffixes.
//!
//! "Active" is `pkg/controller/controller_utils.go`'s `IsPodActive`: not `Succeeded` or
//! `Failed` and no `deletionTimestamp`. "Available" is `podutil.IsPodAvailable`: Ready, and Ready
//! for at least `minReadySeconds` (from the Ready condition's `lastTransitionTime`).

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};

/// The alphabet of generated names (`k8s.io/apimachinery/pkg/util/rand`): no vowels, no `0`,
/// `1`, `3`, so no words and no look-alikes.
pub const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// Five random characters of [`NAME_ALPHABET`], as the API server appends to `generateName`.
pub fn random_suffix() -> String {
    use rand::Rng as _;
    let mut rng = rand::rng();
    (0..5)
        .map(|_| char::from(NAME_ALPHABET[rng.random_range(0..NAME_ALPHABET.len())]))
        .collect()
}

/// `status.phase` (empty when unset).
pub fn phase(pod: &Pod) -> &str {
    pod.status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("")
}

/// Whether the pod has finished: phase `Succeeded` or `Failed`.
pub fn is_terminal(pod: &Pod) -> bool {
    matches!(phase(pod), "Succeeded" | "Failed")
}

/// Whether deletion has started (`metadata.deletionTimestamp` set).
pub fn is_terminating(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_some()
}

/// Not terminal and not terminating: the pods a controller counts.
pub fn is_active(pod: &Pod) -> bool {
    !is_terminal(pod) && !is_terminating(pod)
}

/// The `Ready` condition's `lastTransitionTime` when it is `True`; `None` when not ready.
pub fn ready_since(pod: &Pod) -> Option<Timestamp> {
    let cond = pod
        .status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == "Ready" && c.status == "True")?;
    Some(
        cond.last_transition_time
            .as_ref()
            .map_or(Timestamp::UNIX_EPOCH, |t| t.0),
    )
}

/// Whether the pod is Ready.
pub fn is_ready(pod: &Pod) -> bool {
    ready_since(pod).is_some()
}

/// Whether the pod is Running and Ready (what OrderedReady StatefulSets wait for).
pub fn is_running_and_ready(pod: &Pod) -> bool {
    phase(pod) == "Running" && is_ready(pod)
}

/// When the pod becomes (or became) available: Ready since `t`, plus `minReadySeconds`.
/// `None` while it is not ready.
pub fn available_at(pod: &Pod, min_ready_seconds: i32) -> Option<Timestamp> {
    let since = ready_since(pod)?;
    Some(
        since
            .saturating_add(SignedDuration::from_secs(i64::from(
                min_ready_seconds.max(0),
            )))
            .unwrap_or(since),
    )
}

/// Whether the pod is available at `now` (see [`available_at`]).
pub fn is_available(pod: &Pod, min_ready_seconds: i32, now: Timestamp) -> bool {
    available_at(pod, min_ready_seconds).is_some_and(|t| t <= now)
}

/// The sum of the containers' `restartCount`s.
pub fn restarts(pod: &Pod) -> i32 {
    pod.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .map_or(0, |cs| cs.iter().map(|c| c.restart_count).sum())
}

/// A pod made from `template`: its labels, annotations and spec, `name` in `namespace`,
/// controlled by `owner`.
pub fn from_template(
    template: &PodTemplateSpec,
    namespace: &str,
    name: &str,
    generate_name: Option<String>,
    owner: OwnerReference,
) -> Pod {
    let tmeta = template.metadata.clone().unwrap_or_default();
    Pod {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            generate_name,
            namespace: Some(namespace.to_string()),
            labels: tmeta.labels,
            annotations: tmeta.annotations,
            finalizers: tmeta.finalizers,
            owner_references: Some(vec![owner]),
            ..ObjectMeta::default()
        },
        spec: template.spec.clone(),
        status: None,
    }
}

/// The order in which surplus pods are deleted (`controller.ActivePods`' ranking): unscheduled
/// before scheduled, Pending before Running, not ready before ready, ready for less time
/// first, more restarts first, newer first. Sorts `pods` in place, first to delete first.
pub fn sort_for_deletion(pods: &mut [&Pod]) {
    pods.sort_by_key(|p| {
        let scheduled = p.spec.as_ref().and_then(|s| s.node_name.as_ref()).is_some();
        let phase_rank = match phase(p) {
            "Pending" | "" => 0,
            "Unknown" => 1,
            _ => 2,
        };
        let ready = ready_since(p);
        (
            scheduled,
            phase_rank,
            ready.is_some(),
            std::cmp::Reverse(ready),
            std::cmp::Reverse(restarts(p)),
            std::cmp::Reverse(p.metadata.creation_timestamp.clone().map(|t| t.0)),
        )
    });
}
