//! The EndpointSlice and Endpoints controllers (`pkg/controller/endpointslice`,
//! `pkg/controller/endpoint`): for every Service with a `selector`, one EndpointSlice and the
//! legacy Endpoints object listing the selected pods that have an IP (`docs/controllers.md`
//! §EndpointSlices).
//!
//! The slice is named `<service>-<5 characters>` (stable per Service uid), labelled
//! `kubernetes.io/service-name` and `endpointslice.kubernetes.io/managed-by:
//! endpointslice-controller.k8s.io` (plus the Service's own labels), owned by the Service,
//! `addressType: IPv4`. Each endpoint is one pod: `addresses: [podIP]`, `conditions`
//! (`ready`: Ready and not terminating, or always with `publishNotReadyAddresses`; `serving`:
//! Ready; `terminating`: `deletionTimestamp` set), `nodeName`, `targetRef`. Ports come from
//! the Service's ports, `targetPort` resolved against the pod's container ports when it is a
//! name (a pod without that port is left out). Pods that finished (Succeeded/Failed) are never
//! endpoints. The Endpoints object has the same pods as `addresses` (ready) and
//! `notReadyAddresses`, terminating pods left out. A Service with no endpoints has a slice with
//! `endpoints: []` and no ports, and an Endpoints object without `subsets`.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::core::v1::{
    EndpointAddress, EndpointPort, EndpointSubset, Endpoints, ObjectReference, Pod, Service,
};
use k8s_openapi::api::discovery::v1::{
    Endpoint, EndpointConditions, EndpointPort as SlicePort, EndpointSlice,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::pods::{NAME_ALPHABET, is_ready, is_terminal, is_terminating};
use crate::api::object::{Object, Resource};
use crate::api::store::Store;

/// The label naming a slice's Service.
pub const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";
/// The label naming the controller that manages a slice.
pub const MANAGED_BY_LABEL: &str = "endpointslice.kubernetes.io/managed-by";
/// This controller's value of [`MANAGED_BY_LABEL`].
pub const MANAGED_BY: &str = "endpointslice-controller.k8s.io";

/// Whether `pod` is selected by the Service's `selector` (every pair present in its labels).
fn selects(selector: &BTreeMap<String, String>, pod: &Pod) -> bool {
    let labels = pod.metadata.labels.as_ref();
    selector
        .iter()
        .all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v))
}

/// Five name characters derived from the Service's uid, so the slice keeps its name.
fn suffix(uid: &str) -> String {
    let mut h = uid.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    (0..5)
        .map(|_| {
            let c = NAME_ALPHABET[(h % NAME_ALPHABET.len() as u64) as usize];
            h /= NAME_ALPHABET.len() as u64;
            char::from(c)
        })
        .collect()
}

/// The port `target` means on `pod`: a number as is, a name looked up in its containers' ports.
fn resolve_port(target: &IntOrString, pod: &Pod) -> Option<i32> {
    match target {
        IntOrString::Int(n) => Some(*n),
        IntOrString::String(name) => pod
            .spec
            .as_ref()?
            .containers
            .iter()
            .flat_map(|c| c.ports.iter().flatten())
            .find(|p| p.name.as_deref() == Some(name.as_str()))
            .map(|p| p.container_port),
    }
}

/// One selected pod with its resolved ports.
struct Member<'a> {
    pod: &'a Pod,
    ip: String,
    ports: Vec<(Option<String>, i32, String)>,
}

fn members<'a>(svc: &Service, pods: &'a [Pod]) -> Vec<Member<'a>> {
    let ns = svc.metadata.namespace.as_deref().unwrap_or("");
    let Some(spec) = svc.spec.as_ref() else {
        return Vec::new();
    };
    let Some(selector) = spec.selector.as_ref().filter(|s| !s.is_empty()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    'pods: for pod in pods {
        if pod.metadata.namespace.as_deref() != Some(ns) || !selects(selector, pod) {
            continue;
        }
        if is_terminal(pod) {
            continue;
        }
        let Some(ip) = pod.status.as_ref().and_then(|s| s.pod_ip.clone()) else {
            continue;
        };
        let mut ports = Vec::new();
        for p in spec.ports.iter().flatten() {
            let target = p.target_port.clone().unwrap_or(IntOrString::Int(p.port));
            let Some(port) = resolve_port(&target, pod) else {
                continue 'pods;
            };
            let protocol = p.protocol.clone().unwrap_or_else(|| "TCP".into());
            ports.push((p.name.clone(), port, protocol));
        }
        out.push(Member { pod, ip, ports });
    }
    out
}

fn target_ref(pod: &Pod) -> ObjectReference {
    ObjectReference {
        kind: Some("Pod".into()),
        namespace: pod.metadata.namespace.clone(),
        name: pod.metadata.name.clone(),
        uid: pod.metadata.uid.clone(),
        ..Default::default()
    }
}

fn owner(svc: &Service) -> OwnerReference {
    OwnerReference {
        api_version: "v1".into(),
        kind: "Service".into(),
        name: svc.metadata.name.clone().unwrap_or_default(),
        uid: svc.metadata.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// The EndpointSlice the controller keeps for `svc` (a Service with a selector) over `pods`.
pub fn desired_slice(svc: &Service, pods: &[Pod]) -> EndpointSlice {
    let name = svc.metadata.name.clone().unwrap_or_default();
    let uid = svc.metadata.uid.clone().unwrap_or_default();
    let publish_not_ready = svc
        .spec
        .as_ref()
        .and_then(|s| s.publish_not_ready_addresses)
        .unwrap_or(false);
    let mut labels = svc.metadata.labels.clone().unwrap_or_default();
    labels.insert(SERVICE_NAME_LABEL.into(), name.clone());
    labels.insert(MANAGED_BY_LABEL.into(), MANAGED_BY.into());
    let members = members(svc, pods);
    let endpoints: Vec<Endpoint> = members
        .iter()
        .map(|m| {
            let ready = is_ready(m.pod);
            let terminating = is_terminating(m.pod);
            Endpoint {
                addresses: vec![m.ip.clone()],
                conditions: Some(EndpointConditions {
                    ready: Some(publish_not_ready || (ready && !terminating)),
                    serving: Some(ready),
                    terminating: Some(terminating),
                }),
                node_name: m.pod.spec.as_ref().and_then(|s| s.node_name.clone()),
                target_ref: Some(target_ref(m.pod)),
                ..Default::default()
            }
        })
        .collect();
    let ports = members.first().map(|m| {
        m.ports
            .iter()
            .map(|(name, port, protocol)| SlicePort {
                name: Some(name.clone().unwrap_or_default()),
                port: Some(*port),
                protocol: Some(protocol.clone()),
                ..Default::default()
            })
            .collect()
    });
    EndpointSlice {
        metadata: ObjectMeta {
            name: Some(format!("{name}-{}", suffix(&uid))),
            namespace: svc.metadata.namespace.clone(),
            labels: Some(labels),
            owner_references: Some(vec![owner(svc)]),
            ..Default::default()
        },
        address_type: "IPv4".into(),
        endpoints: Some(endpoints),
        ports,
    }
}

/// The legacy Endpoints object for `svc` over `pods` (same name as the Service).
pub fn desired_endpoints(svc: &Service, pods: &[Pod]) -> Endpoints {
    let publish_not_ready = svc
        .spec
        .as_ref()
        .and_then(|s| s.publish_not_ready_addresses)
        .unwrap_or(false);
    let members: Vec<Member<'_>> = members(svc, pods)
        .into_iter()
        .filter(|m| !is_terminating(m.pod))
        .collect();
    let address = |m: &Member<'_>| EndpointAddress {
        ip: m.ip.clone(),
        node_name: m.pod.spec.as_ref().and_then(|s| s.node_name.clone()),
        target_ref: Some(target_ref(m.pod)),
        ..Default::default()
    };
    let ready: Vec<EndpointAddress> = members
        .iter()
        .filter(|m| publish_not_ready || is_ready(m.pod))
        .map(address)
        .collect();
    let not_ready: Vec<EndpointAddress> = members
        .iter()
        .filter(|m| !(publish_not_ready || is_ready(m.pod)))
        .map(address)
        .collect();
    let subsets = members.first().map(|m| {
        vec![EndpointSubset {
            addresses: (!ready.is_empty()).then_some(ready),
            not_ready_addresses: (!not_ready.is_empty()).then_some(not_ready),
            ports: Some(
                m.ports
                    .iter()
                    .map(|(name, port, protocol)| EndpointPort {
                        name: name.clone(),
                        port: *port,
                        protocol: Some(protocol.clone()),
                        ..Default::default()
                    })
                    .collect(),
            ),
        }]
    });
    Endpoints {
        metadata: ObjectMeta {
            name: svc.metadata.name.clone(),
            namespace: svc.metadata.namespace.clone(),
            labels: svc.metadata.labels.clone(),
            ..Default::default()
        },
        subsets,
    }
}

fn typed<T: Clone>(store: &Store, resource: Resource, f: fn(&Object) -> Option<&T>) -> Vec<T> {
    store
        .list(resource, None)
        .0
        .iter()
        .filter_map(|o| f(o).cloned())
        .collect()
}

/// Creates the object, or writes its labels, ownerReferences and content over the stored one
/// (a no-op when they are equal: the store writes nothing).
fn upsert(store: &Store, obj: Object) {
    let resource = obj.resource();
    let ns = obj.namespace().to_string();
    let name = obj.meta().name.clone().unwrap_or_default();
    let result = if store.object(resource, &ns, &name).is_none() {
        store.create_object(obj).map(|_| ())
    } else {
        store
            .update_object(resource, &ns, &name, |stored| {
                let mut new = obj;
                let meta = stored.meta().clone();
                let m = new.meta_mut();
                m.annotations = meta.annotations;
                m.finalizers = meta.finalizers;
                *stored = new;
                Ok(())
            })
            .map(|_| ())
    };
    if let Err(e) = result {
        tracing::debug!("endpointslice controller: {resource:?} {ns}/{name}: {e}");
    }
}

/// One pass against the store: every selector Service's slice and Endpoints made current;
/// managed slices of Services that are gone deleted (their Endpoints too).
pub(crate) fn sync(store: &Store) {
    let services: Vec<Service> = typed(store, Resource::Services, |o| match o {
        Object::Service(s) => Some(s.as_ref()),
        _ => None,
    });
    let pods: Vec<Pod> = typed(store, Resource::Pods, |o| match o {
        Object::Pod(p) => Some(p.as_ref()),
        _ => None,
    });
    let mut wanted = std::collections::HashSet::new();
    for svc in &services {
        let has_selector = svc
            .spec
            .as_ref()
            .and_then(|s| s.selector.as_ref())
            .is_some_and(|s| !s.is_empty());
        if !has_selector || svc.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let slice = desired_slice(svc, &pods);
        wanted.insert((
            slice.metadata.namespace.clone().unwrap_or_default(),
            slice.metadata.name.clone().unwrap_or_default(),
        ));
        upsert(store, Object::EndpointSlice(Arc::new(slice)));
        upsert(
            store,
            Object::Endpoints(Arc::new(desired_endpoints(svc, &pods))),
        );
    }
    for o in store.list(Resource::EndpointSlices, None).0 {
        let managed = o
            .meta()
            .labels
            .as_ref()
            .and_then(|l| l.get(MANAGED_BY_LABEL))
            .is_some_and(|v| v == MANAGED_BY);
        let key = (
            o.namespace().to_string(),
            o.meta().name.clone().unwrap_or_default(),
        );
        if managed && !wanted.contains(&key) {
            let _ = store.delete_object(Resource::EndpointSlices, &key.0, &key.1);
            let svc = o
                .meta()
                .labels
                .as_ref()
                .and_then(|l| l.get(SERVICE_NAME_LABEL))
                .cloned()
                .unwrap_or_default();
            if !services.iter().any(|s| {
                s.metadata.namespace.as_deref() == Some(&key.0)
                    && s.metadata.name.as_deref() == Some(&svc)
            }) {
                let _ = store.delete_object(Resource::Endpoints, &key.0, &svc);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svc() -> Service {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "web", "namespace": "default", "uid": "u-1"},
            "spec": {"selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": "http"}]}
        }))
        .expect("service")
    }

    fn pod(name: &str, ip: &str, ready: bool) -> Pod {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"), "labels": {"app": "web"}},
            "spec": {"nodeName": "sim-node-1", "containers": [{"name": "c", "ports": [{"name": "http", "containerPort": 8080}]}]},
            "status": {"phase": "Running", "podIP": ip, "conditions": [{"type": "Ready", "status": if ready {"True"} else {"False"}}]}
        }))
        .expect("pod")
    }

    #[test]
    fn slice_lists_each_pod_with_its_readiness_and_the_named_port() {
        let pods = [pod("a", "10.244.1.2", true), pod("b", "10.244.1.3", false)];
        let s = desired_slice(&svc(), &pods);
        assert!(
            s.metadata
                .name
                .as_deref()
                .is_some_and(|n| n.starts_with("web-") && n.len() == 9)
        );
        let ready: Vec<(String, Option<bool>)> = s
            .endpoints
            .iter()
            .flatten()
            .map(|e| {
                (
                    e.addresses[0].clone(),
                    e.conditions.as_ref().and_then(|c| c.ready),
                )
            })
            .collect();
        assert_eq!(
            ready,
            vec![
                ("10.244.1.2".to_string(), Some(true)),
                ("10.244.1.3".to_string(), Some(false))
            ]
        );
        assert_eq!(s.ports.as_ref().map(|p| p[0].port), Some(Some(8080)));
        let e = desired_endpoints(&svc(), &pods);
        let subset = &e.subsets.as_ref().expect("subsets")[0];
        assert_eq!(subset.addresses.as_ref().map(Vec::len), Some(1));
        assert_eq!(
            subset
                .not_ready_addresses
                .as_ref()
                .map(|a| a[0].ip.as_str()),
            Some("10.244.1.3")
        );
    }

    #[test]
    fn no_pods_no_ports() {
        let s = desired_slice(&svc(), &[]);
        assert_eq!(s.endpoints, Some(Vec::new()));
        assert!(s.ports.is_none());
        assert!(desired_endpoints(&svc(), &[]).subsets.is_none());
    }
}
