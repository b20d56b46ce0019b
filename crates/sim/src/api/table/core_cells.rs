//! The cells of the core kinds' Tables that take more than a field: Services (`printService`:
//! cluster IP, external IPs, ports), Endpoints (`formatEndpoints`), EndpointSlices
//! (`formatDiscoveryPorts`, `formatDiscoveryEndpoints`), PVCs and PVs
//! (`printPersistentVolumeClaim`, `printPersistentVolume`) in
//! `pkg/printers/internalversion/printers.go`.

use k8s_openapi::api::core::v1::{Endpoints, PersistentVolume, PersistentVolumeClaim, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use serde_json::{Value, json};

pub(super) fn service_cells(s: &Service, name: String, age: String) -> Vec<Value> {
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
pub(super) fn endpoints(e: &Endpoints) -> String {
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

pub(super) fn slice_cells(s: &EndpointSlice, name: String, age: String) -> Vec<Value> {
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

pub(super) fn claim_cells(
    c: &PersistentVolumeClaim,
    name: String,
    age: String,
    deleting: bool,
) -> Vec<Value> {
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

pub(super) fn volume_cells(
    v: &PersistentVolume,
    name: String,
    age: String,
    deleting: bool,
) -> Vec<Value> {
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
