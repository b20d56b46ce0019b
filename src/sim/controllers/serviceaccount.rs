//! The ServiceAccounts controller and the root-CA publisher of kube-controller-manager
//! (`pkg/controller/serviceaccount/serviceaccounts_controller.go`,
//! `pkg/controller/certificates/rootcacertpublisher/publisher.go`): every namespace gets a
//! `default` ServiceAccount and a `kube-root-ca.crt` ConfigMap (key `ca.crt`), which the
//! `kube-api-access-*` volume of every admitted pod projects (`docs/controllers.md`
//! §ServiceAccounts). The namespaces are the stored Namespace objects, `default`, and every
//! namespace a pod lives in (the simulator serves namespaces it never stored). Objects that
//! exist are left as they are; deleting one brings it back at the next pass.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use k8s_openapi::api::core::v1::{ConfigMap, ServiceAccount};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::sim::api::admission::service_account::ROOT_CA_CONFIGMAP;
use crate::sim::api::object::{Object, Resource};
use crate::sim::api::store::Store;

/// The annotation the publisher writes on `kube-root-ca.crt` (its text, from the publisher).
pub const ROOT_CA_DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/// The `ca.crt` the simulator publishes: a placeholder PEM block (the simulated API server's
/// own CA is not known to the controllers; nothing in the simulator verifies with it).
pub const SIMULATED_CA: &str =
    "-----BEGIN CERTIFICATE-----\nc2ltdWxhdGVkIGNsdXN0ZXIgQ0E=\n-----END CERTIFICATE-----\n";

/// The namespaces the controller serves (see the module docs).
fn namespaces(store: &Store) -> BTreeSet<String> {
    let mut out = BTreeSet::from(["default".to_string()]);
    for o in store.list(Resource::Namespaces, None).0 {
        if o.meta().deletion_timestamp.is_none()
            && let Some(n) = o.meta().name.clone()
        {
            out.insert(n);
        }
    }
    for o in store.list(Resource::Pods, None).0 {
        out.insert(o.namespace().to_string());
    }
    out.remove("");
    out
}

fn meta(ns: &str, name: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.to_string()),
        namespace: Some(ns.to_string()),
        ..Default::default()
    }
}

/// The `kube-root-ca.crt` ConfigMap of namespace `ns`.
pub fn root_ca(ns: &str) -> ConfigMap {
    let mut m = meta(ns, ROOT_CA_CONFIGMAP);
    m.annotations = Some(BTreeMap::from([(
        "kubernetes.io/description".to_string(),
        ROOT_CA_DESCRIPTION.to_string(),
    )]));
    ConfigMap {
        metadata: m,
        data: Some(BTreeMap::from([(
            "ca.crt".to_string(),
            SIMULATED_CA.to_string(),
        )])),
        ..Default::default()
    }
}

/// One pass: creates what is missing.
pub(crate) fn sync(store: &Store) {
    for ns in namespaces(store) {
        if store
            .object(Resource::ServiceAccounts, &ns, "default")
            .is_none()
        {
            let sa = ServiceAccount {
                metadata: meta(&ns, "default"),
                ..Default::default()
            };
            if let Err(e) = store.create_object(Object::ServiceAccount(Arc::new(sa))) {
                tracing::debug!("serviceaccount controller: {ns}/default: {e}");
            }
        }
        if store
            .object(Resource::ConfigMaps, &ns, ROOT_CA_CONFIGMAP)
            .is_none()
            && let Err(e) = store.create_object(Object::ConfigMap(Arc::new(root_ca(&ns))))
        {
            tracing::debug!("root-ca publisher: {ns}: {e}");
        }
    }
}
