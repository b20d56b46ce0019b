//! The two kinds of stored objects (Pod, core/v1 Event) and the field access selectors need.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::core::v1::{Event, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::Value;

/// Which resource a request or a change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resource {
    /// `pods` (core/v1 Pod).
    Pods,
    /// `events` (core/v1 Event).
    Events,
}

impl Resource {
    /// The plural resource name used in messages (`pods "x" not found`).
    pub fn plural(self) -> &'static str {
        match self {
            Resource::Pods => "pods",
            Resource::Events => "events",
        }
    }

    /// The `kind` of a single object (`Pod`, `Event`).
    pub fn kind(self) -> &'static str {
        match self {
            Resource::Pods => "Pod",
            Resource::Events => "Event",
        }
    }
}

/// A stored object, shared cheaply between the store, history and watch streams.
#[derive(Debug, Clone)]
pub enum Object {
    /// A Pod.
    Pod(Arc<Pod>),
    /// A core/v1 Event.
    Event(Arc<Event>),
}

impl Object {
    /// The resource this object belongs to.
    pub fn resource(&self) -> Resource {
        match self {
            Object::Pod(_) => Resource::Pods,
            Object::Event(_) => Resource::Events,
        }
    }

    /// The object's metadata.
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Object::Pod(p) => &p.metadata,
            Object::Event(e) => &e.metadata,
        }
    }

    /// `metadata.namespace` (empty when unset).
    pub fn namespace(&self) -> &str {
        self.meta().namespace.as_deref().unwrap_or("")
    }

    /// `metadata.name` (empty when unset).
    pub fn name(&self) -> &str {
        self.meta().name.as_deref().unwrap_or("")
    }

    /// `metadata.labels` (empty map when unset).
    pub fn labels(&self) -> BTreeMap<String, String> {
        self.meta().labels.clone().unwrap_or_default()
    }

    /// The full JSON object, with `apiVersion` and `kind` (k8s-openapi writes both).
    pub fn to_json(&self) -> Value {
        let v = match self {
            Object::Pod(p) => serde_json::to_value(p.as_ref()),
            Object::Event(e) => serde_json::to_value(e.as_ref()),
        };
        v.unwrap_or(Value::Null)
    }

    /// The value of a field-selector label, or `None` when the label is not supported for this
    /// resource (the API server answers 400 `field label not supported: <label>`).
    ///
    /// Pods: `metadata.name`, `metadata.namespace`, `spec.nodeName`, `spec.restartPolicy`,
    /// `spec.schedulerName`, `spec.serviceAccountName`, `status.phase`, `status.podIP`,
    /// `status.nominatedNodeName`. Events: `metadata.*`, `involvedObject.{kind,namespace,name,uid,
    /// apiVersion,resourceVersion,fieldPath}`, `reason`, `reportingComponent`, `source`, `type`.
    pub fn field(&self, label: &str) -> Option<String> {
        let s = |o: &Option<String>| o.clone().unwrap_or_default();
        match label {
            "metadata.name" => return Some(self.name().to_string()),
            "metadata.namespace" => return Some(self.namespace().to_string()),
            _ => {}
        }
        match self {
            Object::Pod(p) => {
                let spec = p.spec.as_ref();
                let status = p.status.as_ref();
                Some(match label {
                    "spec.nodeName" => spec.map(|x| s(&x.node_name)).unwrap_or_default(),
                    "spec.restartPolicy" => spec.map(|x| s(&x.restart_policy)).unwrap_or_default(),
                    "spec.schedulerName" => spec.map(|x| s(&x.scheduler_name)).unwrap_or_default(),
                    "spec.serviceAccountName" => {
                        spec.map(|x| s(&x.service_account_name)).unwrap_or_default()
                    }
                    "status.phase" => status.map(|x| s(&x.phase)).unwrap_or_default(),
                    "status.podIP" => status.map(|x| s(&x.pod_ip)).unwrap_or_default(),
                    "status.nominatedNodeName" => status
                        .map(|x| s(&x.nominated_node_name))
                        .unwrap_or_default(),
                    _ => return None,
                })
            }
            Object::Event(e) => {
                let io = &e.involved_object;
                Some(match label {
                    "involvedObject.kind" => s(&io.kind),
                    "involvedObject.namespace" => s(&io.namespace),
                    "involvedObject.name" => s(&io.name),
                    "involvedObject.uid" => s(&io.uid),
                    "involvedObject.apiVersion" => s(&io.api_version),
                    "involvedObject.resourceVersion" => s(&io.resource_version),
                    "involvedObject.fieldPath" => s(&io.field_path),
                    "reason" => s(&e.reason),
                    "reportingComponent" => s(&e.reporting_component),
                    "source" => e
                        .source
                        .as_ref()
                        .map(|x| s(&x.component))
                        .unwrap_or_default(),
                    "type" => s(&e.type_),
                    _ => return None,
                })
            }
        }
    }
}
