//! The kubelet driver's read of the ConfigMaps and Secrets it hands the pure model before each
//! pass ([`super::config_refs::ConfigSources`]; `docs/kubelet-references.md`).

use k8s_openapi::api::core::v1::{ConfigMap, Secret};

use super::config_refs::ConfigSources;
use crate::sim::api::object::{Object, Resource};
use crate::sim::api::store::Store;

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

/// Every stored ConfigMap and Secret.
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
    out
}
