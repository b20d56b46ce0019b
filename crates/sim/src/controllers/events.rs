//! core/v1 Events as the controllers record them (`source.component` `replicaset-controller`,
//! `deployment-controller`, …; `involvedObject` the workload), one new Event per call: the
//! controllers' messages name the pod or the scale, so repeats are rare.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

use super::{Action, Kind};

/// A `Normal` or `Warning` Event about `obj` (of `kind`), by `component`, at `now`.
pub(crate) fn event(
    kind: Kind,
    obj: &ObjectMeta,
    type_: &str,
    reason: &str,
    message: String,
    component: &str,
    now: Timestamp,
) -> Action {
    use rand::Rng as _;
    let name = obj.name.clone().unwrap_or_default();
    let ns = obj.namespace.clone().unwrap_or_else(|| "default".into());
    // `<object>.<16 hex digits>` as client-go's recorder names them (it uses the time in ns).
    let id = (now.as_nanosecond() as u64) ^ u64::from(rand::rng().random::<u32>());
    Action::Event(Box::new(Event {
        metadata: ObjectMeta {
            name: Some(format!("{name}.{id:016x}")),
            namespace: Some(ns.clone()),
            ..ObjectMeta::default()
        },
        involved_object: ObjectReference {
            api_version: Some(kind.api_version().into()),
            kind: Some(kind.name().into()),
            name: Some(name),
            namespace: Some(ns),
            uid: obj.uid.clone(),
            resource_version: obj.resource_version.clone(),
            ..ObjectReference::default()
        },
        reason: Some(reason.into()),
        message: Some(message),
        type_: Some(type_.into()),
        source: Some(EventSource {
            component: Some(component.into()),
            host: None,
        }),
        reporting_component: Some(component.into()),
        reporting_instance: Some(String::new()),
        first_timestamp: Some(Time(now)),
        last_timestamp: Some(Time(now)),
        count: Some(1),
        ..Event::default()
    }))
}
