//! The Tables of the core objects around a pod, with the columns and cells of kube-apiserver
//! 1.33's printers (`printNamespace`, `printConfigMap`, `printSecret`, `printService`,
//! `printEndpoints`, `printEndpointSlice`, `printServiceAccount`,
//! `printPersistentVolumeClaim`, `printPersistentVolume`, `printLease` in
//! `pkg/printers/internalversion/printers.go`); the priority-1 cells are always filled, as the
//! server generates the wide form. Nodes print Name and Age here until their own printer.

use jiff::Timestamp;
use serde_json::{Value, json};

use super::column;
use super::core_cells::{claim_cells, endpoints, service_cells, slice_cells, volume_cells};
use crate::api::object::{Object, Resource};
use podscope_model::printer;

const NAME: &str = "Name must be unique within a namespace.";
const AGE: &str =
    "CreationTimestamp is a timestamp representing the server time when this object was created.";

/// Whether `resource` is printed here.
pub(super) fn prints(resource: Resource) -> bool {
    matches!(
        resource,
        Resource::Namespaces
            | Resource::Nodes
            | Resource::ConfigMaps
            | Resource::Secrets
            | Resource::Services
            | Resource::Endpoints
            | Resource::EndpointSlices
            | Resource::ServiceAccounts
            | Resource::PersistentVolumeClaims
            | Resource::PersistentVolumes
            | Resource::Leases
    )
}

/// The column definitions of `resource`'s Table (one of [`prints`]).
pub(super) fn columns(resource: Resource) -> Vec<Value> {
    let name = column("Name", 0, NAME);
    let age = column("Age", 0, AGE);
    let c = |n: &str, d: &str| column(n, 0, d);
    match resource {
        Resource::Namespaces => vec![name, c("Status", "The status of the namespace"), age],
        Resource::ConfigMaps => vec![
            name,
            c("Data", "Data contains the configuration data."),
            age,
        ],
        Resource::Secrets => vec![
            name,
            c(
                "Type",
                "Used to facilitate programmatic handling of secret data.",
            ),
            c("Data", "Data contains the secret data."),
            age,
        ],
        Resource::Services => vec![
            name,
            c("Type", "type determines how the Service is exposed."),
            c("Cluster-IP", "clusterIP is the IP address of the service."),
            c(
                "External-IP",
                "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
            ),
            c(
                "Port(s)",
                "The list of ports that are exposed by this service.",
            ),
            age,
            column(
                "Selector",
                1,
                "Route service traffic to pods with label keys and values matching this selector.",
            ),
        ],
        Resource::Endpoints => vec![
            name,
            c(
                "Endpoints",
                "The set of all endpoints is the union of all subsets.",
            ),
            age,
        ],
        Resource::EndpointSlices => vec![
            name,
            c(
                "AddressType",
                "addressType specifies the type of address carried by this EndpointSlice.",
            ),
            c(
                "Ports",
                "ports specifies the list of network ports exposed by each endpoint in this slice.",
            ),
            c(
                "Endpoints",
                "endpoints is a list of unique endpoints in this slice.",
            ),
            age,
        ],
        Resource::ServiceAccounts => vec![
            name,
            c(
                "Secrets",
                "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.",
            ),
            age,
        ],
        Resource::PersistentVolumeClaims => vec![
            name,
            c(
                "Status",
                "phase represents the current phase of PersistentVolumeClaim.",
            ),
            c(
                "Volume",
                "volumeName is the binding reference to the PersistentVolume backing this claim.",
            ),
            c(
                "Capacity",
                "capacity represents the actual resources of the underlying volume.",
            ),
            c(
                "Access Modes",
                "accessModes contains the actual access modes the volume backing the PVC has.",
            ),
            c("StorageClass", "StorageClass of the pvc"),
            c("VolumeAttributesClass", "VolumeAttributesClass of the pvc"),
            age,
            column(
                "VolumeMode",
                1,
                "volumeMode defines what type of volume is required by the claim.",
            ),
        ],
        Resource::PersistentVolumes => vec![
            name,
            c(
                "Capacity",
                "capacity is the description of the persistent volume's resources and capacity.",
            ),
            c(
                "Access Modes",
                "accessModes contains all ways the volume can be mounted.",
            ),
            c(
                "Reclaim Policy",
                "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.",
            ),
            c(
                "Status",
                "phase indicates if a volume is available, bound to a claim, or released by a claim.",
            ),
            c(
                "Claim",
                "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.",
            ),
            c("StorageClass", "StorageClass of the pv"),
            c("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
            c(
                "Reason",
                "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.",
            ),
            age,
            column(
                "VolumeMode",
                1,
                "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.",
            ),
        ],
        Resource::Leases => vec![
            name,
            c(
                "Holder",
                "holderIdentity contains the identity of the holder of a current lease.",
            ),
            age,
        ],
        _ => vec![name, age],
    }
}

/// One row of `obj` at `now` (its kind one of [`prints`]).
pub(super) fn row(obj: &Object, now: Timestamp) -> Value {
    let age = printer::age(obj.meta().creation_timestamp.as_ref().map(|t| t.0), now);
    let name = obj.name().to_string();
    let deleting = obj.meta().deletion_timestamp.is_some();
    let cells: Vec<Value> = match obj {
        Object::Namespace(n) => {
            let phase = n.status.as_ref().and_then(|s| s.phase.clone());
            vec![json!(name), json!(phase.unwrap_or_default()), json!(age)]
        }
        Object::ConfigMap(c) => {
            let n = c.data.as_ref().map_or(0, |d| d.len())
                + c.binary_data.as_ref().map_or(0, |d| d.len());
            vec![json!(name), json!(n), json!(age)]
        }
        Object::Secret(s) => {
            let n = s.data.as_ref().map_or(0, |d| d.len());
            vec![
                json!(name),
                json!(s.type_.clone().unwrap_or_default()),
                json!(n),
                json!(age),
            ]
        }
        Object::Service(s) => service_cells(s, name, age),
        Object::Endpoints(e) => vec![json!(name), json!(endpoints(e)), json!(age)],
        Object::EndpointSlice(s) => slice_cells(s, name, age),
        Object::ServiceAccount(a) => {
            let n = a.secrets.as_ref().map_or(0, Vec::len);
            vec![json!(name), json!(n), json!(age)]
        }
        Object::PersistentVolumeClaim(c) => claim_cells(c, name, age, deleting),
        Object::PersistentVolume(v) => volume_cells(v, name, age, deleting),
        Object::Lease(l) => {
            let holder = l.spec.as_ref().and_then(|s| s.holder_identity.clone());
            vec![json!(name), json!(holder.unwrap_or_default()), json!(age)]
        }
        _ => vec![json!(name), json!(age)],
    };
    json!({ "cells": cells })
}
