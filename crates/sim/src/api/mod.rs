//! The simulated Kubernetes API server: HTTP routes and discovery ([`routes`]), OpenAPI
//! ([`openapi`]), authentication ([`auth`]), the object store and its change history
//! ([`store`]), watches ([`watch`]), server-side Tables ([`table`]), selectors ([`select`]),
//! query strings ([`query`]), request bodies ([`decode`]) and the framework's rejections
//! ([`rejection`]), writes ([`writes`], [`admission`],
//! [`patch`], [`ephemeral`], [`pod_update`], [`collection_writes`]), server-side apply and `managedFields`
//! ([`apply`]), list pages ([`paging`]), `pods/log` ([`logs`]), the core objects around a pod
//! ([`core`]), the access reviews ([`reviews`]) and `metav1.Status` errors ([`status`]). Every
//! answer follows the wire protocol of `docs/protocols.md`.

pub(crate) mod admission;
pub(crate) mod apiservices;
pub(crate) mod apply;
pub(crate) mod auth;
pub(crate) mod collection_writes;
pub(crate) mod core;
pub(crate) mod decode;
pub(crate) mod ephemeral;
pub(crate) mod label_selector;
pub(crate) mod logs;
pub(crate) mod object;
pub(crate) mod openapi;
pub(crate) mod paging;
pub(crate) mod patch;
pub(crate) mod pod_update;
pub(crate) mod query;
pub(crate) mod rejection;
pub(crate) mod resource;
pub(crate) mod reviews;
pub(crate) mod routes;
pub(crate) mod select;
pub(crate) mod status;
pub(crate) mod store;
pub(crate) mod table;
pub(crate) mod watch;
pub(crate) mod workloads;
pub(crate) mod writes;

use k8s_openapi::api::core::v1::Pod;

use status::ApiError;
use store::Store;

/// Finds the pod: 404 `pods "x" not found`.
pub(crate) fn find_pod(store: &Store, ns: &str, name: &str) -> Result<Pod, ApiError> {
    store
        .pod(ns, name)
        .ok_or_else(|| ApiError::not_found("pods", name))
}
