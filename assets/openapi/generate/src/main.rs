//! Prints the OpenAPI v3 `components.schemas` of one API group version, and everything they
//! reference, as one JSON object, generated from k8s-openapi's `schemars` implementations
//! (which carry the upstream field descriptions). The argument picks the document:
//!
//! - `core` (the default): core/v1 Pod, meta/v1 Status and ListMeta, plus a hand-written
//!   PodList (`core-v1-pod-schemas.json`);
//! - `core-objects`: core/v1 Namespace, Node, ConfigMap, Secret, Service, Endpoints,
//!   ServiceAccount, PersistentVolumeClaim, PersistentVolume, Event and their lists
//!   (`core-v1-objects-schemas.json`);
//! - `discovery`, `coordination`, `events`: discovery.k8s.io/v1 EndpointSlice,
//!   coordination.k8s.io/v1 Lease, events.k8s.io/v1 Event and their lists
//!   (`discovery-v1-schemas.json`, `coordination-v1-schemas.json`, `events-v1-schemas.json`);
//! - `apps`: apps/v1 Deployment, ReplicaSet, StatefulSet, DaemonSet, their lists and
//!   autoscaling/v1 Scale (`apps-v1-schemas.json`);
//! - `batch`: batch/v1 Job, CronJob and their lists (`batch-v1-schemas.json`).
//!
//! schemars' `openapi3()` settings already write references the Kubernetes way
//! (`#/components/schemas/<name>`, a `$ref` with siblings wrapped in `allOf`). This program adds
//! `x-kubernetes-group-version-kind` to the top-level kinds, as kube-apiserver does, so that
//! `kubectl explain` finds them. The simulator (`crates/sim/src/api/openapi/`) adds the paths.

use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::autoscaling::v1::Scale;
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{
    ConfigMap, Endpoints, Event, Namespace, Node, PersistentVolume, PersistentVolumeClaim, Pod,
    Secret, Service, ServiceAccount,
};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, Status};
use serde_json::{Map, Value, json};

/// k8s-openapi models lists generically (`List<T>`, no schema): a list written as upstream has it.
fn list(item: &str, plural: &str) -> Value {
    let kind = item.rsplit('.').next().unwrap_or(item);
    json!({
        "description": format!("{kind}List is a collection of {plural}."),
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": {"description": "APIVersion defines the versioned schema of this representation of an object.", "type": "string"},
            "items": {"description": format!("Items is the list of {plural}."), "type": "array", "items": {"$ref": format!("#/components/schemas/{item}")}},
            "kind": {"description": "Kind is a string value representing the REST resource this object represents.", "type": "string"},
            "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}], "description": "Standard list metadata."},
        },
    })
}

fn tag(defs: &mut Map<String, Value>, name: &str, group: &str, version: &str, kind: &str) {
    if let Some(Value::Object(schema)) = defs.get_mut(name) {
        schema.insert(
            "x-kubernetes-group-version-kind".into(),
            json!([{"group": group, "kind": kind, "version": version}]),
        );
    } else {
        eprintln!("missing schema {name}");
        std::process::exit(1);
    }
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "core".to_string());
    let mut generator = schemars::generate::SchemaSettings::openapi3().into_generator();
    generator.subschema_for::<ListMeta>();
    generator.subschema_for::<Status>();
    // (schema name, group, version, kind, plural for the list)
    let kinds: &[(&str, &str, &str, &str, &str)] = match which.as_str() {
        "core" => {
            generator.subschema_for::<Pod>();
            &[("io.k8s.api.core.v1.Pod", "", "v1", "Pod", "pods")]
        }
        "apps" => {
            generator.subschema_for::<Deployment>();
            generator.subschema_for::<ReplicaSet>();
            generator.subschema_for::<StatefulSet>();
            generator.subschema_for::<DaemonSet>();
            generator.subschema_for::<Scale>();
            &[
                ("io.k8s.api.apps.v1.Deployment", "apps", "v1", "Deployment", "Deployments"),
                ("io.k8s.api.apps.v1.ReplicaSet", "apps", "v1", "ReplicaSet", "ReplicaSets"),
                ("io.k8s.api.apps.v1.StatefulSet", "apps", "v1", "StatefulSet", "StatefulSets"),
                ("io.k8s.api.apps.v1.DaemonSet", "apps", "v1", "DaemonSet", "DaemonSets"),
            ]
        }
        "batch" => {
            generator.subschema_for::<Job>();
            generator.subschema_for::<CronJob>();
            &[
                ("io.k8s.api.batch.v1.Job", "batch", "v1", "Job", "Jobs"),
                ("io.k8s.api.batch.v1.CronJob", "batch", "v1", "CronJob", "CronJobs"),
            ]
        }
        "core-objects" => {
            generator.subschema_for::<Namespace>();
            generator.subschema_for::<Node>();
            generator.subschema_for::<ConfigMap>();
            generator.subschema_for::<Secret>();
            generator.subschema_for::<Service>();
            generator.subschema_for::<Endpoints>();
            generator.subschema_for::<ServiceAccount>();
            generator.subschema_for::<PersistentVolumeClaim>();
            generator.subschema_for::<PersistentVolume>();
            generator.subschema_for::<Event>();
            &[
                ("io.k8s.api.core.v1.Namespace", "", "v1", "Namespace", "Namespaces"),
                ("io.k8s.api.core.v1.Node", "", "v1", "Node", "Nodes"),
                ("io.k8s.api.core.v1.ConfigMap", "", "v1", "ConfigMap", "ConfigMaps"),
                ("io.k8s.api.core.v1.Secret", "", "v1", "Secret", "Secrets"),
                ("io.k8s.api.core.v1.Service", "", "v1", "Service", "Services"),
                ("io.k8s.api.core.v1.Endpoints", "", "v1", "Endpoints", "Endpoints"),
                ("io.k8s.api.core.v1.ServiceAccount", "", "v1", "ServiceAccount", "ServiceAccounts"),
                ("io.k8s.api.core.v1.PersistentVolumeClaim", "", "v1", "PersistentVolumeClaim", "PersistentVolumeClaims"),
                ("io.k8s.api.core.v1.PersistentVolume", "", "v1", "PersistentVolume", "PersistentVolumes"),
                ("io.k8s.api.core.v1.Event", "", "v1", "Event", "Events"),
            ]
        }
        "discovery" => {
            generator.subschema_for::<EndpointSlice>();
            &[("io.k8s.api.discovery.v1.EndpointSlice", "discovery.k8s.io", "v1", "EndpointSlice", "EndpointSlices")]
        }
        "coordination" => {
            generator.subschema_for::<Lease>();
            &[("io.k8s.api.coordination.v1.Lease", "coordination.k8s.io", "v1", "Lease", "Leases")]
        }
        "events" => {
            generator.subschema_for::<k8s_openapi::api::events::v1::Event>();
            &[("io.k8s.api.events.v1.Event", "events.k8s.io", "v1", "Event", "Events")]
        }
        other => {
            eprintln!("unknown document {other:?}: core, core-objects, apps, batch, discovery, coordination or events");
            std::process::exit(2);
        }
    };
    let mut defs = generator.take_definitions(true);
    for (name, group, version, kind, plural) in kinds {
        let list_name = format!("{name}List");
        let mut l = list(name, plural);
        if which == "core" {
            // Upstream words PodList's docs this way.
            l["description"] = json!("PodList is a list of Pods.");
            l["properties"]["items"]["description"] = json!("List of pods.");
        }
        defs.insert(list_name.clone(), l);
        tag(&mut defs, name, group, version, kind);
        tag(&mut defs, &list_name, group, version, &format!("{kind}List"));
    }
    if which == "apps" {
        tag(&mut defs, "io.k8s.api.autoscaling.v1.Scale", "autoscaling", "v1", "Scale");
    }
    tag(&mut defs, "io.k8s.apimachinery.pkg.apis.meta.v1.Status", "", "v1", "Status");
    let out = serde_json::to_string(&Value::Object(defs)).expect("JSON serialises");
    println!("{out}");
}
