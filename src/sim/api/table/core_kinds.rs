//! The Tables of the core objects around a pod, with the columns and cells of kube-apiserver
//! 1.33's printers (`printNamespace`, `printConfigMap`, `printSecret`, `printService`,
//! `printEndpoints`, `printEndpointSlice`, `printServiceAccount`,
//! `printPersistentVolumeClaim`, `printPersistentVolume`, `printLease` in
//! `pkg/printers/internalversion/printers.go`); the priority-1 cells are always filled, as the
//! server generates the wide form. Nodes print Name and Age here until their own printer.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Endpoints, PersistentVolume, PersistentVolumeClaim, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use serde_json::{Value, json};

use super::column;
use crate::model::printer;
use crate::sim::api::object::{Object, Resource};

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

fn service_cells(s: &Service, name: String, age: String) -> Vec<Value> {
    let spec = s.spec.clone().unwrap_or_default();
    let kind = spec.type_.clone().unwrap_or_default();
    let internal = spec
        .cluster_ips
        .as_ref()
        .and_then(|ips| ips.first().cloned())
        .unwrap_or_else(|| "<none>".into());
    let external_ips = spec.external_ips.clone().unwrap_or_default();
    let lb: Vec<String> = s
        .status
        .as_ref()
        .and_then(|st| st.load_balancer.as_ref())
        .and_then(|lb| lb.ingress.as_ref())
        .into_iter()
        .flatten()
        .filter_map(|i| i.ip.clone().or_else(|| i.hostname.clone()))
        .collect();
    let external = match kind.as_str() {
        "ClusterIP" | "NodePort" if !external_ips.is_empty() => external_ips.join(","),
        "ClusterIP" | "NodePort" => "<none>".into(),
        "LoadBalancer" => {
            let all: Vec<String> = lb.into_iter().chain(external_ips).collect();
            if all.is_empty() {
                "<pending>".into()
            } else {
                all.join(",")
            }
        }
        "ExternalName" => spec.external_name.clone().unwrap_or_default(),
        _ => "<unknown>".into(),
    };
    let ports: Vec<String> = spec
        .ports
        .iter()
        .flatten()
        .map(|p| {
            let proto = p.protocol.clone().unwrap_or_default();
            match p.node_port.filter(|n| *n > 0) {
                Some(n) => format!("{}:{n}/{proto}", p.port),
                None => format!("{}/{proto}", p.port),
            }
        })
        .collect();
    let ports = if ports.is_empty() {
        "<none>".into()
    } else {
        ports.join(",")
    };
    let selector = spec
        .selector
        .as_ref()
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_else(|| "<none>".into());
    vec![
        json!(name),
        json!(kind),
        json!(internal),
        json!(external),
        json!(ports),
        json!(age),
        json!(selector),
    ]
}

/// At most three entries, then ` + N more...` (`listWithMoreString`); `empty` when none.
fn at_most_three(list: Vec<String>, empty: &str) -> String {
    let total = list.len();
    if total == 0 {
        return empty.to_string();
    }
    let shown = list.into_iter().take(3).collect::<Vec<_>>().join(",");
    if total > 3 {
        format!("{shown} + {} more...", total - 3)
    } else {
        shown
    }
}

/// `formatEndpoints`: `ip:port` for each address and port (the bare IP for a subset without
/// ports), `<none>` for no subsets.
fn endpoints(e: &Endpoints) -> String {
    let Some(subsets) = e.subsets.as_ref().filter(|s| !s.is_empty()) else {
        return "<none>".into();
    };
    let mut list = Vec::new();
    for ss in subsets {
        let addrs = ss.addresses.clone().unwrap_or_default();
        match ss.ports.as_ref().filter(|p| !p.is_empty()) {
            None => list.extend(addrs.iter().map(|a| a.ip.clone())),
            Some(ports) => {
                for p in ports {
                    for a in &addrs {
                        let ip = if a.ip.contains(':') {
                            format!("[{}]", a.ip)
                        } else {
                            a.ip.clone()
                        };
                        list.push(format!("{ip}:{}", p.port));
                    }
                }
            }
        }
    }
    at_most_three(list, "")
}

fn slice_cells(s: &EndpointSlice, name: String, age: String) -> Vec<Value> {
    let ports: Vec<String> = s
        .ports
        .iter()
        .flatten()
        .map(|p| match (p.port, &p.name) {
            (Some(n), _) => n.to_string(),
            (None, Some(n)) => n.clone(),
            (None, None) => "*".into(),
        })
        .collect();
    let addrs: Vec<String> = s
        .endpoints
        .iter()
        .flatten()
        .flat_map(|e| e.addresses.clone())
        .collect();
    vec![
        json!(name),
        json!(s.address_type),
        json!(at_most_three(ports, "<unset>")),
        json!(at_most_three(addrs, "<unset>")),
        json!(age),
    ]
}

/// `ReadWriteOnce` → `RWO` and so on, joined with commas (`GetAccessModesAsString`).
fn access_modes(modes: Option<&Vec<String>>) -> String {
    let mut out: Vec<&str> = Vec::new();
    for (long, short) in [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ] {
        if modes.is_some_and(|m| m.iter().any(|x| x == long)) {
            out.push(short);
        }
    }
    out.join(",")
}

fn storage_class(
    annotations: Option<&std::collections::BTreeMap<String, String>>,
    class: Option<&String>,
) -> String {
    annotations
        .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"))
        .or(class)
        .cloned()
        .unwrap_or_default()
}

fn claim_cells(c: &PersistentVolumeClaim, name: String, age: String, deleting: bool) -> Vec<Value> {
    let spec = c.spec.clone().unwrap_or_default();
    let status = c.status.clone().unwrap_or_default();
    let phase = if deleting {
        "Terminating".to_string()
    } else {
        status.phase.clone().unwrap_or_default()
    };
    let volume = spec.volume_name.clone().unwrap_or_default();
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        let cap = status
            .capacity
            .as_ref()
            .and_then(|c| c.get("storage"))
            .map(|q| q.0.clone())
            .unwrap_or_default();
        (cap, access_modes(status.access_modes.as_ref()))
    };
    vec![
        json!(name),
        json!(phase),
        json!(volume),
        json!(capacity),
        json!(modes),
        json!(storage_class(
            c.metadata.annotations.as_ref(),
            spec.storage_class_name.as_ref()
        )),
        json!(
            spec.volume_attributes_class_name
                .clone()
                .unwrap_or_else(|| "<unset>".into())
        ),
        json!(age),
        json!(spec.volume_mode.clone().unwrap_or_else(|| "<unset>".into())),
    ]
}

fn volume_cells(v: &PersistentVolume, name: String, age: String, deleting: bool) -> Vec<Value> {
    let spec = v.spec.clone().unwrap_or_default();
    let status = v.status.clone().unwrap_or_default();
    let phase = if deleting {
        "Terminating".to_string()
    } else {
        status.phase.clone().unwrap_or_default()
    };
    let capacity = spec
        .capacity
        .as_ref()
        .and_then(|c| c.get("storage"))
        .map(|q| q.0.clone())
        .unwrap_or_default();
    let claim = spec
        .claim_ref
        .as_ref()
        .map(|r| {
            format!(
                "{}/{}",
                r.namespace.clone().unwrap_or_default(),
                r.name.clone().unwrap_or_default()
            )
        })
        .unwrap_or_default();
    vec![
        json!(name),
        json!(capacity),
        json!(access_modes(spec.access_modes.as_ref())),
        json!(
            spec.persistent_volume_reclaim_policy
                .clone()
                .unwrap_or_default()
        ),
        json!(phase),
        json!(claim),
        json!(storage_class(
            v.metadata.annotations.as_ref(),
            spec.storage_class_name.as_ref()
        )),
        json!(
            spec.volume_attributes_class_name
                .clone()
                .unwrap_or_else(|| "<unset>".into())
        ),
        json!(status.reason.clone().unwrap_or_default()),
        json!(age),
        json!(spec.volume_mode.clone().unwrap_or_else(|| "<unset>".into())),
    ]
}
