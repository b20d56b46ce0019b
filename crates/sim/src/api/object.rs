//! The stored objects (Pod, core/v1 Event, the apps/v1 and batch/v1 workloads and the core
//! objects around a pod: Namespaces, Nodes, ConfigMaps, Secrets, Services, Endpoints,
//! EndpointSlices, ServiceAccounts, PVCs, PVs, Leases) and the field access selectors need.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{
    ConfigMap, Endpoints, Event, Namespace, Node, PersistentVolume, PersistentVolumeClaim, Pod,
    Secret, Service, ServiceAccount,
};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::Value;

pub use super::resource::Resource;
use super::status::ApiError;

/// Runs `$body` with `$x` bound to the inner `Arc` of any variant.
macro_rules! each {
    ($obj:expr, $x:ident => $body:expr) => {
        match $obj {
            Object::Pod($x) => $body,
            Object::Event($x) => $body,
            Object::Deployment($x) => $body,
            Object::ReplicaSet($x) => $body,
            Object::StatefulSet($x) => $body,
            Object::DaemonSet($x) => $body,
            Object::Job($x) => $body,
            Object::CronJob($x) => $body,
            Object::Namespace($x) => $body,
            Object::Node($x) => $body,
            Object::ConfigMap($x) => $body,
            Object::Secret($x) => $body,
            Object::Service($x) => $body,
            Object::Endpoints($x) => $body,
            Object::EndpointSlice($x) => $body,
            Object::ServiceAccount($x) => $body,
            Object::PersistentVolumeClaim($x) => $body,
            Object::PersistentVolume($x) => $body,
            Object::Lease($x) => $body,
        }
    };
}

/// A stored object, shared cheaply between the store, history and watch streams.
#[derive(Debug, Clone)]
pub enum Object {
    /// A Pod.
    Pod(Arc<Pod>),
    /// A core/v1 Event.
    Event(Arc<Event>),
    /// An apps/v1 Deployment.
    Deployment(Arc<Deployment>),
    /// An apps/v1 ReplicaSet.
    ReplicaSet(Arc<ReplicaSet>),
    /// An apps/v1 StatefulSet.
    StatefulSet(Arc<StatefulSet>),
    /// An apps/v1 DaemonSet.
    DaemonSet(Arc<DaemonSet>),
    /// A batch/v1 Job.
    Job(Arc<Job>),
    /// A batch/v1 CronJob.
    CronJob(Arc<CronJob>),
    /// A core/v1 Namespace (cluster-scoped).
    Namespace(Arc<Namespace>),
    /// A core/v1 Node (cluster-scoped).
    Node(Arc<Node>),
    /// A core/v1 ConfigMap.
    ConfigMap(Arc<ConfigMap>),
    /// A core/v1 Secret.
    Secret(Arc<Secret>),
    /// A core/v1 Service.
    Service(Arc<Service>),
    /// A core/v1 Endpoints.
    Endpoints(Arc<Endpoints>),
    /// A discovery.k8s.io/v1 EndpointSlice.
    EndpointSlice(Arc<EndpointSlice>),
    /// A core/v1 ServiceAccount.
    ServiceAccount(Arc<ServiceAccount>),
    /// A core/v1 PersistentVolumeClaim.
    PersistentVolumeClaim(Arc<PersistentVolumeClaim>),
    /// A core/v1 PersistentVolume (cluster-scoped).
    PersistentVolume(Arc<PersistentVolume>),
    /// A coordination.k8s.io/v1 Lease.
    Lease(Arc<Lease>),
}

impl Object {
    /// The resource this object belongs to.
    pub fn resource(&self) -> Resource {
        match self {
            Object::Pod(_) => Resource::Pods,
            Object::Event(_) => Resource::Events,
            Object::Deployment(_) => Resource::Deployments,
            Object::ReplicaSet(_) => Resource::ReplicaSets,
            Object::StatefulSet(_) => Resource::StatefulSets,
            Object::DaemonSet(_) => Resource::DaemonSets,
            Object::Job(_) => Resource::Jobs,
            Object::CronJob(_) => Resource::CronJobs,
            Object::Namespace(_) => Resource::Namespaces,
            Object::Node(_) => Resource::Nodes,
            Object::ConfigMap(_) => Resource::ConfigMaps,
            Object::Secret(_) => Resource::Secrets,
            Object::Service(_) => Resource::Services,
            Object::Endpoints(_) => Resource::Endpoints,
            Object::EndpointSlice(_) => Resource::EndpointSlices,
            Object::ServiceAccount(_) => Resource::ServiceAccounts,
            Object::PersistentVolumeClaim(_) => Resource::PersistentVolumeClaims,
            Object::PersistentVolume(_) => Resource::PersistentVolumes,
            Object::Lease(_) => Resource::Leases,
        }
    }

    /// The object's metadata.
    pub fn meta(&self) -> &ObjectMeta {
        each!(self, x => &x.metadata)
    }

    /// The object's metadata, writable (the shared object is copied first when others hold it).
    pub fn meta_mut(&mut self) -> &mut ObjectMeta {
        each!(self, x => &mut Arc::make_mut(x).metadata)
    }

    /// Decodes a JSON object (`apiVersion`/`kind` may be absent) as a `resource`. Unknown
    /// fields are dropped; the HTTP layer checks them first (`decode`). Errors: 400 BadRequest
    /// with serde's message when a field has the wrong type.
    pub fn from_json(resource: Resource, value: Value) -> Result<Object, ApiError> {
        fn de<T: serde::de::DeserializeOwned>(v: Value) -> Result<Arc<T>, ApiError> {
            serde_json::from_value(v)
                .map(Arc::new)
                .map_err(|e| ApiError::bad_request(format!("json: {e}")))
        }
        let mut value = value;
        if let Value::Object(m) = &mut value {
            m.insert("apiVersion".into(), resource.api_version().into());
            m.insert("kind".into(), resource.kind().into());
        }
        Ok(match resource {
            Resource::Pods => Object::Pod(de(value)?),
            Resource::Events => Object::Event(de(value)?),
            Resource::Deployments => Object::Deployment(de(value)?),
            Resource::ReplicaSets => Object::ReplicaSet(de(value)?),
            Resource::StatefulSets => Object::StatefulSet(de(value)?),
            Resource::DaemonSets => Object::DaemonSet(de(value)?),
            Resource::Jobs => Object::Job(de(value)?),
            Resource::CronJobs => Object::CronJob(de(value)?),
            Resource::Namespaces => Object::Namespace(de(value)?),
            Resource::Nodes => Object::Node(de(value)?),
            Resource::ConfigMaps => Object::ConfigMap(de(value)?),
            Resource::Secrets => Object::Secret(de(value)?),
            Resource::Services => Object::Service(de(value)?),
            Resource::Endpoints => Object::Endpoints(de(value)?),
            Resource::EndpointSlices => Object::EndpointSlice(de(value)?),
            Resource::ServiceAccounts => Object::ServiceAccount(de(value)?),
            Resource::PersistentVolumeClaims => Object::PersistentVolumeClaim(de(value)?),
            Resource::PersistentVolumes => Object::PersistentVolume(de(value)?),
            Resource::Leases => Object::Lease(de(value)?),
        })
    }

    /// An empty object of `resource` (default fields), as a probe for what it supports.
    pub fn empty(resource: Resource) -> Object {
        match resource {
            Resource::Pods => Object::Pod(Arc::default()),
            Resource::Events => Object::Event(Arc::default()),
            Resource::Deployments => Object::Deployment(Arc::default()),
            Resource::ReplicaSets => Object::ReplicaSet(Arc::default()),
            Resource::StatefulSets => Object::StatefulSet(Arc::default()),
            Resource::DaemonSets => Object::DaemonSet(Arc::default()),
            Resource::Jobs => Object::Job(Arc::default()),
            Resource::CronJobs => Object::CronJob(Arc::default()),
            Resource::Namespaces => Object::Namespace(Arc::default()),
            Resource::Nodes => Object::Node(Arc::default()),
            Resource::ConfigMaps => Object::ConfigMap(Arc::default()),
            Resource::Secrets => Object::Secret(Arc::default()),
            Resource::Services => Object::Service(Arc::default()),
            Resource::Endpoints => Object::Endpoints(Arc::default()),
            Resource::EndpointSlices => Object::EndpointSlice(Arc::default()),
            Resource::ServiceAccounts => Object::ServiceAccount(Arc::default()),
            Resource::PersistentVolumeClaims => Object::PersistentVolumeClaim(Arc::default()),
            Resource::PersistentVolumes => Object::PersistentVolume(Arc::default()),
            Resource::Leases => Object::Lease(Arc::default()),
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
        each!(self, x => serde_json::to_value(x.as_ref())).unwrap_or(Value::Null)
    }

    /// The value of a field-selector label, or `None` when the label is not supported for this
    /// resource (the API server answers 400 `field label not supported: <label>`).
    ///
    /// Pods: `metadata.name`, `metadata.namespace`, `spec.nodeName`, `spec.restartPolicy`,
    /// `spec.schedulerName`, `spec.serviceAccountName`, `status.phase`, `status.podIP`,
    /// `status.nominatedNodeName`. Events: `metadata.*`, `involvedObject.{kind,namespace,name,uid,
    /// apiVersion,resourceVersion,fieldPath}`, `reason`, `reportingComponent`, `source`, `type`.
    /// Workloads: `metadata.name`, `metadata.namespace`; Jobs also `status.successful` (the
    /// `status.succeeded` count, as `pkg/registry/batch/job/strategy.go` selects it). The core
    /// objects: `metadata.name`, `metadata.namespace`; Secrets also `type`
    /// (`pkg/registry/core/secret/strategy.go`), Namespaces `status.phase`
    /// (`pkg/registry/core/namespace/strategy.go`), Nodes `spec.unschedulable`
    /// (`pkg/registry/core/node/strategy.go`, `true`/`false`).
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
            Object::Secret(x) if label == "type" => Some(s(&x.type_)),
            Object::Namespace(x) if label == "status.phase" => {
                Some(x.status.as_ref().map(|st| s(&st.phase)).unwrap_or_default())
            }
            Object::Node(x) if label == "spec.unschedulable" => Some(
                x.spec
                    .as_ref()
                    .and_then(|sp| sp.unschedulable)
                    .unwrap_or(false)
                    .to_string(),
            ),
            Object::Job(j) if label == "status.successful" => Some(
                j.status
                    .as_ref()
                    .and_then(|s| s.succeeded)
                    .unwrap_or(0)
                    .to_string(),
            ),
            _ => None,
        }
    }
}
