//! The kubelet driver's read of the ConfigMaps, Secrets and Services it hands the pure model
//! before each pass ([`super::config_refs::ConfigSources`]; `docs/kubelet-references.md`).

use k8s_openapi::api::core::v1::{ConfigMap, Secret};

use super::config_refs::ConfigSources;
use crate::api::object::{Object, Resource};
use crate::api::store::Store;

fn key(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> (String, String) {
    (
        meta.namespace.clone().unwrap_or_default(),
        meta.name.clone().unwrap_or_default(),
    )
}

/// A ConfigMap's keys: `data` and `binaryData` (bytes as UTF-8, lossy).
fn config_map_data(cm: &ConfigMap) -> std::collections::BTreeMap<String, String> {
    let mut out = cm.data.clone().unwrap_or_default();
    for (k, v) in cm.binary_data.iter().flatten() {
        out.insert(k.clone(), String::from_utf8_lossy(&v.0).into_owned());
    }
    out
}

/// A Secret's keys: `data` (decoded, UTF-8 lossy) and `stringData` when a write left it.
fn secret_data(s: &Secret) -> std::collections::BTreeMap<String, String> {
    let mut out: std::collections::BTreeMap<String, String> = s
        .data
        .iter()
        .flatten()
        .map(|(k, v)| (k.clone(), String::from_utf8_lossy(&v.0).into_owned()))
        .collect();
    for (k, v) in s.string_data.iter().flatten() {
        out.insert(k.clone(), v.clone());
    }
    out
}

/// Every stored Service as cluster DNS and kube-proxy see it: its `clusterIP` (`None` when
/// headless) and the addresses of the ready endpoints of its EndpointSlices.
fn services(store: &Store) -> crate::runtime::loops::Services {
    use crate::controllers::endpointslice::SERVICE_NAME_LABEL;
    let mut out = crate::runtime::loops::Services::new();
    for o in store.list(Resource::Services, None).0 {
        if let Object::Service(s) = o {
            let ip = s.spec.as_ref().and_then(|sp| sp.cluster_ip.clone());
            let view = crate::runtime::loops::ServiceView {
                cluster_ip: ip.filter(|ip| !ip.is_empty() && ip != "None"),
                ready_addresses: Vec::new(),
            };
            out.insert(key(&s.metadata), view);
        }
    }
    for o in store.list(Resource::EndpointSlices, None).0 {
        let Object::EndpointSlice(slice) = o else {
            continue;
        };
        let ns = slice.metadata.namespace.clone().unwrap_or_default();
        let Some(svc) = slice
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(SERVICE_NAME_LABEL))
        else {
            continue;
        };
        let Some(view) = out.get_mut(&(ns, svc.clone())) else {
            continue;
        };
        for e in slice.endpoints.iter().flatten() {
            let ready = e.conditions.as_ref().and_then(|c| c.ready).unwrap_or(true);
            if ready {
                view.ready_addresses.extend(e.addresses.iter().cloned());
            }
        }
    }
    out
}

/// Every stored ConfigMap, Secret and Service.
pub(crate) fn sources(store: &Store) -> ConfigSources {
    let mut out = ConfigSources::default();
    for o in store.list(Resource::ConfigMaps, None).0 {
        if let Object::ConfigMap(cm) = o {
            out.config_maps
                .insert(key(&cm.metadata), config_map_data(&cm));
        }
    }
    for o in store.list(Resource::Secrets, None).0 {
        if let Object::Secret(s) = o {
            out.secrets.insert(key(&s.metadata), secret_data(&s));
        }
    }
    out.services = services(store);
    out
}
