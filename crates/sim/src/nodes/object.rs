//! The simulated node's objects, as its kubelet registers and posts them (`docs/nodes.md` §4):
//! the Node (labels, `spec.podCIDR`, capacity/allocatable, addresses, `nodeInfo`,
//! `daemonEndpoints`, the four conditions) and its Lease in `kube-node-lease`. Pure builders;
//! [`super`] writes them.
//!
//! Facts from `pkg/kubelet/nodestatus/setters.go` (condition reasons and messages, the
//! addresses), `pkg/kubelet/kubelet_node_status.go` (the labels of a new node) and
//! `pkg/kubelet/nodelease` (the Lease: 40 s duration, renewed every 10 s).

use std::collections::BTreeMap;

use jiff::Timestamp;
use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::api::core::v1::{
    DaemonEndpoint, Node, NodeAddress, NodeCondition, NodeDaemonEndpoints, NodeSpec, NodeStatus,
    NodeSystemInfo,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, OwnerReference, Time};

use crate::kubelet::KubeletConfig;

/// `status.nodeInfo.kubeletVersion` and `kubeProxyVersion`: the simulator's Kubernetes
/// version, [`crate::KUBERNETES_VERSION`] (its `/version` says the same).
pub const KUBELET_VERSION: &str = crate::KUBERNETES_VERSION;
/// The namespace of the nodes' Leases.
pub const LEASE_NAMESPACE: &str = "kube-node-lease";
/// `spec.leaseDurationSeconds` of a node's Lease (the kubelet's default).
pub const LEASE_SECONDS: i32 = 40;
/// The memory the kubelet's default hard eviction threshold keeps free
/// (`memory.available<100Mi`); allocatable memory is the capacity less it.
pub const EVICTION_THRESHOLD: &str = "100Mi";

/// The node's capacity: 4 CPUs, 8148204Ki of memory, ~100 GB of disk, 110 pods.
const CAPACITY: [(&str, &str); 6] = [
    ("cpu", "4"),
    ("ephemeral-storage", "102626232Ki"),
    ("hugepages-1Gi", "0"),
    ("hugepages-2Mi", "0"),
    ("memory", "8148204Ki"),
    ("pods", "110"),
];
/// Allocatable: memory less [`EVICTION_THRESHOLD`] (102400Ki), storage less the default
/// `nodefs.available<10%`.
pub const ALLOCATABLE: [(&str, &str); 6] = [
    ("cpu", "4"),
    ("ephemeral-storage", "94580335255"),
    ("hugepages-1Gi", "0"),
    ("hugepages-2Mi", "0"),
    ("memory", "8045804Ki"),
    ("pods", "110"),
];

/// One of the kubelet's conditions: `(type, status, reason, message)`.
pub type ConditionText = (&'static str, &'static str, &'static str, &'static str);

/// The kubelet's four conditions of a healthy node, in the order it posts them.
pub const HEALTHY: [ConditionText; 4] = [
    (
        "MemoryPressure",
        "False",
        "KubeletHasSufficientMemory",
        "kubelet has sufficient memory available",
    ),
    (
        "DiskPressure",
        "False",
        "KubeletHasNoDiskPressure",
        "kubelet has no disk pressure",
    ),
    (
        "PIDPressure",
        "False",
        "KubeletHasSufficientPID",
        "kubelet has sufficient PID available",
    ),
    (
        "Ready",
        "True",
        "KubeletReady",
        "kubelet is posting ready status",
    ),
];

/// `MemoryPressure` while the memory signal is past its threshold.
pub const MEMORY_PRESSURE: ConditionText = (
    "MemoryPressure",
    "True",
    "KubeletHasInsufficientMemory",
    "kubelet has insufficient memory available",
);

fn quantities(list: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
    list.iter()
        .map(|(k, v)| ((*k).to_string(), Quantity((*v).to_string())))
        .collect()
}

/// `spec.podCIDR` of the node: the /16 its pod addresses come from (`kubelet::ip`):
/// `10.244.` or `10.244.0.` → `10.244.0.0/16`.
#[must_use]
pub fn pod_cidr(prefix: &str) -> String {
    let octets: Vec<&str> = prefix.trim_end_matches('.').split('.').collect();
    match octets.as_slice() {
        [a, b, ..] => format!("{a}.{b}.0.0/16"),
        _ => "10.244.0.0/16".to_string(),
    }
}

/// A condition written at `now`, its transition at `since`.
#[must_use]
pub fn condition(c: ConditionText, now: Timestamp, since: Timestamp) -> NodeCondition {
    NodeCondition {
        type_: c.0.into(),
        status: c.1.into(),
        reason: Some(c.2.into()),
        message: Some(c.3.into()),
        last_heartbeat_time: Some(Time(now)),
        last_transition_time: Some(Time(since)),
    }
}

/// A stable hex id of `parts` (32 digits), for machineID/systemUUID/bootID.
fn hex_id(parts: &[&str]) -> String {
    crate::kubelet::hex256(parts)[..32].to_string()
}

/// The Node the kubelet of `cfg` registers at `now`: healthy, schedulable.
#[must_use]
pub fn node(cfg: &KubeletConfig, now: Timestamp) -> Node {
    let name = cfg.node_name.as_str();
    let labels: BTreeMap<String, String> = [
        ("beta.kubernetes.io/arch", "amd64"),
        ("beta.kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", "amd64"),
        ("kubernetes.io/hostname", name),
        ("kubernetes.io/os", "linux"),
        ("node-role.kubernetes.io/control-plane", ""),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let annotations: BTreeMap<String, String> = [
        ("node.alpha.kubernetes.io/ttl", "0"),
        (
            "volumes.kubernetes.io/controller-managed-attach-detach",
            "true",
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let machine = hex_id(&["machine", name]);
    let uuid = hex_id(&["system", name]);
    let uuid = format!(
        "{}-{}-{}-{}-{}",
        &uuid[..8],
        &uuid[8..12],
        &uuid[12..16],
        &uuid[16..20],
        &uuid[20..32]
    );
    let boot = hex_id(&["boot", name, &now.to_string()]);
    let boot = format!(
        "{}-{}-{}-{}-{}",
        &boot[..8],
        &boot[8..12],
        &boot[12..16],
        &boot[16..20],
        &boot[20..32]
    );
    Node {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            labels: Some(labels),
            annotations: Some(annotations),
            ..ObjectMeta::default()
        },
        spec: Some(NodeSpec {
            pod_cidr: Some(pod_cidr(&cfg.pod_cidr_prefix)),
            pod_cidrs: Some(vec![pod_cidr(&cfg.pod_cidr_prefix)]),
            ..NodeSpec::default()
        }),
        status: Some(NodeStatus {
            addresses: Some(vec![
                NodeAddress {
                    type_: "InternalIP".into(),
                    address: cfg.host_ip.clone(),
                },
                NodeAddress {
                    type_: "Hostname".into(),
                    address: name.to_string(),
                },
            ]),
            capacity: Some(quantities(&CAPACITY)),
            allocatable: Some(quantities(&ALLOCATABLE)),
            conditions: Some(HEALTHY.iter().map(|c| condition(*c, now, now)).collect()),
            daemon_endpoints: Some(NodeDaemonEndpoints {
                kubelet_endpoint: Some(DaemonEndpoint { port: 10250 }),
            }),
            node_info: Some(NodeSystemInfo {
                architecture: "amd64".into(),
                boot_id: boot,
                container_runtime_version: "containerd://1.7.24".into(),
                kernel_version: "6.8.0-49-generic".into(),
                kube_proxy_version: KUBELET_VERSION.into(),
                kubelet_version: KUBELET_VERSION.into(),
                machine_id: machine,
                operating_system: "linux".into(),
                os_image: "Ubuntu 24.04.1 LTS".into(),
                system_uuid: uuid,
                ..NodeSystemInfo::default()
            }),
            phase: None,
            ..NodeStatus::default()
        }),
    }
}

/// The node's Lease (`kube-node-lease/<node>`), held by the node, renewed at `now`, owned by
/// the Node of `node_uid`.
#[must_use]
pub fn lease(node_name: &str, node_uid: &str, now: Timestamp) -> Lease {
    Lease {
        metadata: ObjectMeta {
            name: Some(node_name.to_string()),
            namespace: Some(LEASE_NAMESPACE.to_string()),
            owner_references: Some(vec![OwnerReference {
                api_version: "v1".into(),
                kind: "Node".into(),
                name: node_name.to_string(),
                uid: node_uid.to_string(),
                ..OwnerReference::default()
            }]),
            ..ObjectMeta::default()
        },
        spec: Some(LeaseSpec {
            holder_identity: Some(node_name.to_string()),
            lease_duration_seconds: Some(LEASE_SECONDS),
            renew_time: Some(MicroTime(now)),
            ..LeaseSpec::default()
        }),
    }
}
