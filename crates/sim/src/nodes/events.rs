//! core/v1 Events about a node or its pods, as the kubelet (`source.component: kubelet`, `host`
//! the node) and the node lifecycle controller (`node-controller`) record them.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

/// What an event is about: `(kind, namespace, name, uid)`; a Node's namespace is `""` (the
/// event itself lands in `default`, as the API server stores events of cluster-scoped objects).
pub struct About<'a> {
    /// `Node` or `Pod`.
    pub kind: &'a str,
    /// The object's namespace, `""` for a Node.
    pub namespace: &'a str,
    /// The object's name.
    pub name: &'a str,
    /// The object's uid.
    pub uid: &'a str,
}

impl<'a> About<'a> {
    /// The Node `name` with `uid`.
    #[must_use]
    pub fn node(name: &'a str, uid: &'a str) -> Self {
        About {
            kind: "Node",
            namespace: "",
            name,
            uid,
        }
    }

    /// The pod, by its metadata (empty strings where unset).
    #[must_use]
    pub fn pod(pod: &'a k8s_openapi::api::core::v1::Pod) -> Self {
        let m = &pod.metadata;
        About {
            kind: "Pod",
            namespace: m.namespace.as_deref().unwrap_or_default(),
            name: m.name.as_deref().unwrap_or_default(),
            uid: m.uid.as_deref().unwrap_or_default(),
        }
    }
}

/// A new Event `reason`/`message` of `type_` about `about`, from `component` on `host`, at `now`.
#[must_use]
pub fn event(
    about: &About<'_>,
    type_: &str,
    reason: &str,
    message: &str,
    (component, host): (&str, Option<&str>),
    now: Timestamp,
) -> Event {
    let ns = if about.namespace.is_empty() {
        "default"
    } else {
        about.namespace
    };
    // `<object>.<16 hex digits>` as client-go's recorder names them (from the time in ns).
    let id = crate::kubelet::hash64(
        now.as_nanosecond().unsigned_abs() as u64,
        &[about.name, reason],
    );
    Event {
        metadata: ObjectMeta {
            name: Some(format!("{}.{id:016x}", about.name)),
            namespace: Some(ns.to_string()),
            ..ObjectMeta::default()
        },
        involved_object: ObjectReference {
            api_version: Some("v1".into()),
            kind: Some(about.kind.into()),
            name: Some(about.name.into()),
            namespace: (!about.namespace.is_empty()).then(|| about.namespace.to_string()),
            uid: Some(about.uid.into()),
            ..ObjectReference::default()
        },
        reason: Some(reason.into()),
        message: Some(message.into()),
        type_: Some(type_.into()),
        source: Some(EventSource {
            component: Some(component.into()),
            host: host.map(Into::into),
        }),
        reporting_component: Some(component.into()),
        reporting_instance: Some(host.unwrap_or_default().to_string()),
        first_timestamp: Some(Time(now)),
        last_timestamp: Some(Time(now)),
        count: Some(1),
        ..Event::default()
    }
}
