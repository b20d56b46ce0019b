//! core/v1 Events as the kubelet (and the scheduler) record them, with their message texts.
//!
//! Reasons from `kubernetes/kubernetes:pkg/kubelet/events/event.go` (`docs/protocols.md` §1.7).
//! Texts follow the cases in `assets/cases/*/events.json` (Kubernetes ≈1.32–1.33:
//! `Created container: X`, `Started container X`, `Container image "X" already present on
//! machine`); [`EventWording::V1_36`] gives the seed article's 1.36 texts (`Container created`,
//! `Container started`, `… already present on machine and can be accessed by the pod`).
//!
//! Repeats of the same (object, fieldPath, type, reason, message) are aggregated like client-go's
//! event correlator: same `metadata.name`, `count` + 1, new `lastTimestamp`.

use std::collections::HashMap;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

use super::backoff_messages::backoff_event_message;

/// Which Kubernetes version's kubelet texts to use for `Pulled`/`Created`/`Started`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EventWording {
    /// Kubernetes 1.32–1.35 (the cases): `Created container: X`, `Started container X`.
    #[default]
    V1_33,
    /// Kubernetes 1.36 (the seed's `kubectl describe pod hello`): `Container created`,
    /// `Container started`, pull check `… and can be accessed by the pod`.
    V1_36,
}

/// What an event is about and what it says (before aggregation).
#[derive(Debug, Clone)]
pub(crate) struct EventSpec {
    /// `Normal` or `Warning`.
    pub type_: &'static str,
    /// `reason`, e.g. `BackOff`.
    pub reason: &'static str,
    /// `message`.
    pub message: String,
    /// `involvedObject.fieldPath`, e.g. `spec.initContainers{proxy}`; `None` for pod-level events.
    pub field_path: Option<String>,
    /// `source.component`: `kubelet` or `default-scheduler`.
    pub component: &'static str,
}

/// The pod an event is about.
#[derive(Debug, Clone)]
pub(crate) struct Involved<'a> {
    pub namespace: &'a str,
    pub name: &'a str,
    pub uid: &'a str,
}

/// All events recorded so far, for aggregation (keyed by object, fieldPath, type, reason, message).
#[derive(Debug, Default)]
pub(crate) struct EventBook {
    by_key: HashMap<String, Event>,
    created: u64,
}

impl EventBook {
    /// Records `spec` at `at` for `obj` on `node`; returns the new or count-bumped Event.
    pub(crate) fn record(
        &mut self,
        obj: &Involved<'_>,
        node: &str,
        spec: EventSpec,
        at: Timestamp,
    ) -> Event {
        let key = format!(
            "{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
            obj.uid,
            spec.field_path.as_deref().unwrap_or(""),
            spec.type_,
            spec.reason,
            spec.message
        );
        if let Some(ev) = self.by_key.get_mut(&key) {
            ev.count = Some(ev.count.unwrap_or(1) + 1);
            ev.last_timestamp = Some(Time(at));
            return ev.clone();
        }
        self.created += 1;
        // client-go names events `<object>.<unix nanos in hex>`; the counter keeps names unique
        // when two events share an instant.
        let nanos = at.as_nanosecond().unsigned_abs() + u128::from(self.created);
        let scheduler = spec.component == "default-scheduler";
        let ev = Event {
            metadata: ObjectMeta {
                name: Some(format!("{}.{nanos:x}", obj.name)),
                namespace: Some(obj.namespace.to_string()),
                creation_timestamp: Some(Time(at)),
                ..ObjectMeta::default()
            },
            involved_object: ObjectReference {
                api_version: Some("v1".into()),
                kind: Some("Pod".into()),
                name: Some(obj.name.to_string()),
                namespace: Some(obj.namespace.to_string()),
                uid: Some(obj.uid.to_string()),
                field_path: spec.field_path,
                ..ObjectReference::default()
            },
            reason: Some(spec.reason.into()),
            message: Some(spec.message),
            type_: Some(spec.type_.into()),
            source: Some(EventSource {
                component: Some(spec.component.into()),
                host: (!scheduler).then(|| node.to_string()),
            }),
            first_timestamp: Some(Time(at)),
            last_timestamp: Some(Time(at)),
            count: Some(1),
            reporting_component: Some(spec.component.into()),
            reporting_instance: Some(if scheduler {
                String::new()
            } else {
                node.to_string()
            }),
            ..Event::default()
        };
        self.by_key.insert(key, ev.clone());
        ev
    }

    /// Forgets the events of a removed pod (by uid) so a recreated pod starts fresh.
    pub(crate) fn forget_uid(&mut self, uid: &str) {
        let prefix = format!("{uid}\u{0}");
        self.by_key.retain(|k, _| !k.starts_with(&prefix));
    }
}

fn kubelet(
    type_: &'static str,
    reason: &'static str,
    field_path: &str,
    message: String,
) -> EventSpec {
    EventSpec {
        type_,
        reason,
        message,
        field_path: Some(field_path.to_string()),
        component: "kubelet",
    }
}

/// `Scheduled`: `Successfully assigned <ns>/<pod> to <node>` from `default-scheduler`.
pub(crate) fn scheduled(namespace: &str, pod: &str, node: &str) -> EventSpec {
    EventSpec {
        type_: "Normal",
        reason: "Scheduled",
        message: format!("Successfully assigned {namespace}/{pod} to {node}"),
        field_path: None,
        component: "default-scheduler",
    }
}

/// `Pulling`: `Pulling image "<image>"`.
pub(crate) fn pulling(fp: &str, image: &str) -> EventSpec {
    kubelet(
        "Normal",
        "Pulling",
        fp,
        format!("Pulling image \"{image}\""),
    )
}

/// `Pulled` when the image is cached on the node.
pub(crate) fn pulled_present(w: EventWording, fp: &str, image: &str) -> EventSpec {
    let tail = match w {
        EventWording::V1_33 => "",
        EventWording::V1_36 => " and can be accessed by the pod",
    };
    let msg = format!("Container image \"{image}\" already present on machine{tail}");
    kubelet("Normal", "Pulled", fp, msg)
}

/// `Pulled` after a (simulated 1 s) pull: `Successfully pulled image "X" in 1s (1s including
/// waiting). Image size: N bytes.`
pub(crate) fn pulled(fp: &str, image: &str, size: u64) -> EventSpec {
    let msg = format!(
        "Successfully pulled image \"{image}\" in 1s (1s including waiting). Image size: {size} bytes."
    );
    kubelet("Normal", "Pulled", fp, msg)
}

/// `Failed`: `Failed to pull image "X": <error>`.
pub(crate) fn pull_failed(fp: &str, image: &str, error: &str) -> EventSpec {
    let msg = format!("Failed to pull image \"{image}\": {error}");
    kubelet("Warning", "Failed", fp, msg)
}

/// `Failed`: `Error: <reason>` (ErrImagePull, ImagePullBackOff).
pub(crate) fn failed_reason(fp: &str, reason: &str) -> EventSpec {
    kubelet("Warning", "Failed", fp, format!("Error: {reason}"))
}

/// `BackOff` (image): `Back-off pulling image "X"` (Normal, as in case 13).
pub(crate) fn pull_backoff(fp: &str, image: &str) -> EventSpec {
    let msg = format!("Back-off pulling image \"{image}\"");
    kubelet("Normal", "BackOff", fp, msg)
}

/// `Created`.
pub(crate) fn created(w: EventWording, fp: &str, container: &str) -> EventSpec {
    let msg = match w {
        EventWording::V1_33 => format!("Created container: {container}"),
        EventWording::V1_36 => "Container created".to_string(),
    };
    kubelet("Normal", "Created", fp, msg)
}

/// `Started`.
pub(crate) fn started(w: EventWording, fp: &str, container: &str) -> EventSpec {
    let msg = match w {
        EventWording::V1_33 => format!("Started container {container}"),
        EventWording::V1_36 => "Container started".to_string(),
    };
    kubelet("Normal", "Started", fp, msg)
}

/// `Killing`: `Stopping container X` (pod deletion, sidecar stop).
pub(crate) fn stopping(fp: &str, container: &str) -> EventSpec {
    kubelet(
        "Normal",
        "Killing",
        fp,
        format!("Stopping container {container}"),
    )
}

/// `Killing` with the reason `killContainer` was given as its message (`FailedPostStartHook`).
pub(crate) fn killing(fp: &str, message: &str) -> EventSpec {
    kubelet("Normal", "Killing", fp, message.to_string())
}

/// `FailedPostStartHook`: `PostStartHook failed` (the handler's message stays out of events).
pub(crate) fn post_start_failed(fp: &str) -> EventSpec {
    let msg = "PostStartHook failed".to_string();
    kubelet("Warning", "FailedPostStartHook", fp, msg)
}

/// `FailedToRetrieveImagePullSecret` (pod-level): `Unable to retrieve some image pull secrets
/// (<names>); attempting to pull the image may not succeed.`
pub(crate) fn pull_secrets_missing(names: &str) -> EventSpec {
    EventSpec {
        type_: "Warning",
        reason: "FailedToRetrieveImagePullSecret",
        message: format!(
            "Unable to retrieve some image pull secrets ({names}); attempting to pull the image may not succeed."
        ),
        field_path: None,
        component: "kubelet",
    }
}

/// `Killing` after a failed liveness/startup probe:
/// `Container X failed liveness probe, will be restarted`.
pub(crate) fn probe_killing(fp: &str, container: &str, probe: &str) -> EventSpec {
    let msg = format!("Container {container} failed {probe} probe, will be restarted");
    kubelet("Normal", "Killing", fp, msg)
}

/// `Unhealthy`: `<Liveness|Readiness|Startup> probe failed: <output>`.
pub(crate) fn unhealthy(fp: &str, probe_title: &str, output: &str) -> EventSpec {
    let msg = format!("{probe_title} probe failed: {output}");
    kubelet("Warning", "Unhealthy", fp, msg)
}

/// `BackOff` (restart), via the model's text (`docs/protocols.md` §5.1).
pub(crate) fn restart_backoff(fp: &str, container: &str, pod: &Involved<'_>) -> EventSpec {
    let msg = backoff_event_message(container, pod.name, pod.namespace, pod.uid);
    kubelet("Warning", "BackOff", fp, msg)
}

/// `FailedPreStopHook`: the preStop handler could not run.
pub(crate) fn prestop_failed(fp: &str, detail: &str) -> EventSpec {
    let msg = format!("PreStopHook failed: {detail}");
    kubelet("Warning", "FailedPreStopHook", fp, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_repeats_into_count() {
        let mut book = EventBook::default();
        let obj = Involved {
            namespace: "default",
            name: "crash",
            uid: "u-1",
        };
        let t0 = Timestamp::from_second(1_700_000_000).expect("valid");
        let t1 = Timestamp::from_second(1_700_000_010).expect("valid");
        let a = book.record(
            &obj,
            "n1",
            restart_backoff("spec.containers{hello}", "hello", &obj),
            t0,
        );
        let b = book.record(
            &obj,
            "n1",
            restart_backoff("spec.containers{hello}", "hello", &obj),
            t1,
        );
        assert_eq!(a.metadata.name, b.metadata.name);
        assert_eq!((a.count, b.count), (Some(1), Some(2)));
        assert_eq!(b.last_timestamp.map(|t| t.0), Some(t1));
        assert_eq!(b.first_timestamp.map(|t| t.0), Some(t0));
    }
}
