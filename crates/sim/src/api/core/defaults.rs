//! The API server's defaults for the core objects, applied on every write
//! (`pkg/apis/core/v1/defaults.go`, the Secret conversion that folds `stringData` into
//! `data`), and what the registries allocate on create (a Service's `clusterIP` and
//! `nodePort`s, `pkg/registry/core/service/storage`); see `docs/core-api.md` §2.

use std::collections::BTreeSet;
use std::net::Ipv4Addr;
use std::sync::Arc;

use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::{
    NamespaceSpec, NamespaceStatus, PersistentVolumeClaimStatus, PersistentVolumeStatus,
    ServiceStatus,
};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use crate::api::object::Object;

/// The service CIDR ClusterIPs come from (kube-apiserver's default `--service-cluster-ip-range`
/// as kind and kubeadm set it): `10.96.0.0/12`.
pub const SERVICE_CIDR: (Ipv4Addr, u8) = (Ipv4Addr::new(10, 96, 0, 0), 12);
/// The first address of [`SERVICE_CIDR`], which the `kubernetes` Service in `default` holds.
pub const KUBERNETES_SERVICE_IP: Ipv4Addr = Ipv4Addr::new(10, 96, 0, 1);
/// The NodePort range (`--service-node-port-range` default `30000-32767`).
pub const NODE_PORTS: std::ops::RangeInclusive<i32> = 30000..=32767;

/// Fills the defaults of one write of a core object: Namespaces `spec.finalizers:
/// [kubernetes]`, the `kubernetes.io/metadata.name` label, `status.phase: Active` when unset;
/// Secrets `stringData` merged into `data` (base64 on the wire; `stringData` wins) and
/// removed, `type: Opaque`; Services `type: ClusterIP`, `sessionAffinity: None`,
/// `internalTrafficPolicy: Cluster` (not for ExternalName), `externalTrafficPolicy: Cluster`
/// (NodePort and LoadBalancer), `allocateLoadBalancerNodePorts: true` (LoadBalancer), each
/// port's `protocol: TCP` and `targetPort` = `port`; Endpoints ports' `protocol: TCP`; PVCs
/// `volumeMode: Filesystem`, `status.phase: Pending`; PVs `persistentVolumeReclaimPolicy:
/// Retain`, `volumeMode: Filesystem`, `status.phase: Available` (the simulator has no PV
/// controller to move it from Pending). Other kinds are left alone.
pub fn apply(obj: &mut Object) {
    match obj {
        Object::Namespace(n) => {
            let n = Arc::make_mut(n);
            let name = n.metadata.name.clone().unwrap_or_default();
            n.metadata
                .labels
                .get_or_insert_with(Default::default)
                .insert("kubernetes.io/metadata.name".into(), name);
            let spec = n.spec.get_or_insert_with(NamespaceSpec::default);
            if spec.finalizers.is_none() {
                spec.finalizers = Some(vec!["kubernetes".into()]);
            }
            n.status
                .get_or_insert_with(NamespaceStatus::default)
                .phase
                .get_or_insert_with(|| "Active".into());
        }
        Object::Secret(s) => {
            let s = Arc::make_mut(s);
            if let Some(strings) = s.string_data.take() {
                let data = s.data.get_or_insert_with(Default::default);
                for (k, v) in strings {
                    data.insert(k, ByteString(v.into_bytes()));
                }
            }
            s.type_.get_or_insert_with(|| "Opaque".into());
        }
        Object::Service(s) => service(Arc::make_mut(s)),
        Object::Endpoints(e) => {
            for subset in Arc::make_mut(e).subsets.iter_mut().flatten() {
                for p in subset.ports.iter_mut().flatten() {
                    p.protocol.get_or_insert_with(|| "TCP".into());
                }
            }
        }
        Object::PersistentVolumeClaim(c) => {
            let c = Arc::make_mut(c);
            c.spec
                .get_or_insert_with(Default::default)
                .volume_mode
                .get_or_insert_with(|| "Filesystem".into());
            c.status
                .get_or_insert_with(PersistentVolumeClaimStatus::default)
                .phase
                .get_or_insert_with(|| "Pending".into());
        }
        Object::PersistentVolume(v) => {
            let v = Arc::make_mut(v);
            let spec = v.spec.get_or_insert_with(Default::default);
            spec.persistent_volume_reclaim_policy
                .get_or_insert_with(|| "Retain".into());
            spec.volume_mode.get_or_insert_with(|| "Filesystem".into());
            v.status
                .get_or_insert_with(PersistentVolumeStatus::default)
                .phase
                .get_or_insert_with(|| "Available".into());
        }
        _ => {}
    }
}

fn service(s: &mut k8s_openapi::api::core::v1::Service) {
    let spec = s.spec.get_or_insert_with(Default::default);
    let kind = spec.type_.get_or_insert_with(|| "ClusterIP".into()).clone();
    spec.session_affinity.get_or_insert_with(|| "None".into());
    if kind != "ExternalName" {
        spec.internal_traffic_policy
            .get_or_insert_with(|| "Cluster".into());
    }
    if kind == "NodePort" || kind == "LoadBalancer" {
        spec.external_traffic_policy
            .get_or_insert_with(|| "Cluster".into());
    }
    if kind == "LoadBalancer" {
        spec.allocate_load_balancer_node_ports.get_or_insert(true);
    }
    for p in spec.ports.iter_mut().flatten() {
        p.protocol.get_or_insert_with(|| "TCP".into());
        let unset = match &p.target_port {
            None => true,
            Some(IntOrString::Int(0)) => true,
            Some(IntOrString::String(s)) => s.is_empty(),
            Some(IntOrString::Int(_)) => false,
        };
        if unset {
            p.target_port = Some(IntOrString::Int(p.port));
        }
    }
    if s.status.is_none() {
        s.status = Some(ServiceStatus {
            load_balancer: Some(Default::default()),
            ..ServiceStatus::default()
        });
    }
}

/// What a Service create allocates, given the addresses and node ports the stored Services
/// hold: a `clusterIP` (the lowest free address of [`SERVICE_CIDR`] after the `kubernetes`
/// Service's, unless the body names one or `None` — headless), `clusterIPs`, `ipFamilies:
/// [IPv4]`, `ipFamilyPolicy: SingleStack`, and a `nodePort` from [`NODE_PORTS`] for each port
/// of a NodePort or LoadBalancer Service that has none. ExternalName Services get nothing.
pub fn allocate(obj: &mut Object, used_ips: &BTreeSet<String>, used_ports: &BTreeSet<i32>) {
    let Object::Service(s) = obj else { return };
    let spec = Arc::make_mut(s).spec.get_or_insert_with(Default::default);
    let kind = spec.type_.clone().unwrap_or_default();
    if kind == "ExternalName" {
        return;
    }
    let ip = match spec.cluster_ip.as_deref().filter(|ip| !ip.is_empty()) {
        Some(ip) => ip.to_string(),
        None => free_ip(used_ips),
    };
    spec.cluster_ip = Some(ip.clone());
    spec.cluster_ips.get_or_insert_with(|| vec![ip]);
    spec.ip_families.get_or_insert_with(|| vec!["IPv4".into()]);
    spec.ip_family_policy
        .get_or_insert_with(|| "SingleStack".into());
    if kind == "NodePort" || kind == "LoadBalancer" {
        let mut taken = used_ports.clone();
        for p in spec.ports.iter_mut().flatten() {
            if p.node_port.is_none_or(|n| n == 0)
                && let Some(n) = NODE_PORTS.clone().find(|n| !taken.contains(n))
            {
                p.node_port = Some(n);
                taken.insert(n);
            }
        }
    }
}

/// The lowest address of [`SERVICE_CIDR`] above [`KUBERNETES_SERVICE_IP`] (kept for the
/// `kubernetes` Service) that no Service holds.
fn free_ip(used: &BTreeSet<String>) -> String {
    let (net, bits) = SERVICE_CIDR;
    let base = u32::from(net);
    let size = 1u32 << (32 - u32::from(bits));
    (2..size - 1)
        .map(|i| Ipv4Addr::from(base + i).to_string())
        .find(|ip| !used.contains(ip))
        .unwrap_or_default()
}

/// On an update, the allocated fields a body left out are kept from the stored Service (the
/// registry's `patchAllocatedValues`): `clusterIP`, `clusterIPs`, `ipFamilies`,
/// `ipFamilyPolicy` and each port's `nodePort` (matched by port number).
pub fn keep_allocated(new: &mut Object, old: &Object) {
    let (Object::Service(n), Object::Service(o)) = (new, old) else {
        return;
    };
    let Some(old_spec) = o.spec.as_ref() else {
        return;
    };
    let spec = Arc::make_mut(n).spec.get_or_insert_with(Default::default);
    if spec.cluster_ip.as_deref().is_none_or(str::is_empty) {
        spec.cluster_ip.clone_from(&old_spec.cluster_ip);
    }
    if spec.cluster_ips.as_ref().is_none_or(Vec::is_empty) {
        spec.cluster_ips.clone_from(&old_spec.cluster_ips);
    }
    if spec.ip_families.as_ref().is_none_or(Vec::is_empty) {
        spec.ip_families.clone_from(&old_spec.ip_families);
    }
    if spec.ip_family_policy.is_none() {
        spec.ip_family_policy.clone_from(&old_spec.ip_family_policy);
    }
    for p in spec.ports.iter_mut().flatten() {
        if p.node_port.is_none_or(|n| n == 0) {
            p.node_port = old_spec
                .ports
                .iter()
                .flatten()
                .find(|q| q.port == p.port)
                .and_then(|q| q.node_port);
        }
    }
}
