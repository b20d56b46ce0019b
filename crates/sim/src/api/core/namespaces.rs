//! Namespaces as the API server and the controller manager keep them (`docs/core-api.md` §3):
//! the four that exist at start, the NamespaceLifecycle admission on creates
//! (`plugin/pkg/admission/namespace/lifecycle`), and the namespace controller
//! (`pkg/controller/namespace`): a Namespace being deleted has its content deleted, then its
//! `spec.finalizers` emptied, which removes it. Beside it, what the service-account and
//! root-CA controllers put in every active namespace: the `default` ServiceAccount and the
//! `kube-root-ca.crt` ConfigMap.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, ServiceAccount};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use tokio::sync::broadcast::error::RecvError;

use crate::api::object::{Object, Resource};
use crate::api::status::ApiError;
use crate::api::store::Store;
use crate::api::writes::delete_pod_gracefully;

/// The namespaces a cluster has at start, in name order.
pub const INITIAL: [&str; 4] = ["default", "kube-node-lease", "kube-public", "kube-system"];

/// The namespaces the lifecycle admission refuses to delete (`kube-node-lease` may go).
pub const UNDELETABLE: [&str; 3] = ["default", "kube-public", "kube-system"];

/// The ConfigMap the root-CA publisher keeps in every namespace (`ca.crt`).
pub const ROOT_CA_CONFIGMAP: &str = "kube-root-ca.crt";

/// 403 `namespaces "default" is forbidden: this namespace may not be deleted`.
pub fn undeletable(name: &str) -> ApiError {
    ApiError {
        code: 403,
        reason: "Forbidden",
        message: format!("namespaces {name:?} is forbidden: this namespace may not be deleted"),
    }
}

/// Creates the [`INITIAL`] namespaces (Active, labelled). Errors: the store's (409 when one
/// exists already).
pub fn seed(store: &Store) -> Result<(), ApiError> {
    for name in INITIAL {
        ensure(store, name)?;
    }
    Ok(())
}

/// Creates the Namespace `name` unless it exists (what a fixture or scenario in another
/// namespace needs before its objects load). Errors: the store's.
pub fn ensure(store: &Store, name: &str) -> Result<(), ApiError> {
    if name.is_empty() || store.object(Resource::Namespaces, "", name).is_some() {
        return Ok(());
    }
    let ns = Namespace {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            ..ObjectMeta::default()
        },
        ..Namespace::default()
    };
    store
        .create_object(Object::Namespace(Arc::new(ns)))
        .map(|_| ())
}

/// The namespace of a collection create (`POST /api/v1/namespaces/{ns}/{plural}` or
/// `POST /apis/{group}/{version}/namespaces/{ns}/{plural}`), if `path` is one.
fn create_target(path: &str) -> Option<&str> {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match parts.as_slice() {
        ["api", _, "namespaces", ns, _] | ["apis", _, _, "namespaces", ns, _] => Some(ns),
        _ => None,
    }
}

/// The NamespaceLifecycle admission as middleware: a create in a namespace that does not
/// exist is 404 `namespaces "x" not found`; in one being deleted, 403 Forbidden
/// `<plural> "<name>" is forbidden: unable to create new content in namespace x because it is
/// being terminated`. Other requests pass.
pub async fn lifecycle(State(store): State<Store>, req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let Some(ns) = create_target(req.uri().path()).map(str::to_string) else {
        return next.run(req).await;
    };
    match store.object(Resource::Namespaces, "", &ns) {
        None => ApiError::not_found("namespaces", &ns).into_response(),
        Some(n) if n.meta().deletion_timestamp.is_some() => {
            let plural = req
                .uri()
                .path()
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string();
            let (parts, body) = req.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX)
                .await
                .unwrap_or_default();
            let name = serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|v| v["metadata"]["name"].as_str().map(str::to_string))
                .unwrap_or_default();
            drop(parts);
            ApiError {
                code: 403,
                reason: "Forbidden",
                message: format!(
                    "{plural} {name:?} is forbidden: unable to create new content in namespace {ns} because it is being terminated"
                ),
            }
            .into_response()
        }
        Some(_) => next.run(req).await,
    }
}

/// Runs the namespace controller until the store shuts down; `ca_pem` is what
/// `kube-root-ca.crt` holds (the serving CA, empty over plain HTTP).
pub async fn run(store: Store, ca_pem: String) {
    let mut changes = store.subscribe();
    let mut shutdown = store.shutdown_signal();
    reconcile_all(&store, &ca_pem);
    loop {
        if *shutdown.borrow_and_update() {
            return;
        }
        tokio::select! {
            r = changes.recv() => match r {
                Ok(change) => {
                    let o = &change.object;
                    match o.resource() {
                        Resource::Events => {}
                        Resource::Namespaces => reconcile(&store, o.name(), &ca_pem),
                        r if r.namespaced() && terminating(&store, o.namespace()) => {
                            reconcile(&store, o.namespace(), &ca_pem);
                        }
                        _ => {}
                    }
                }
                Err(RecvError::Lagged(_)) => reconcile_all(&store, &ca_pem),
                Err(RecvError::Closed) => return,
            },
            _ = shutdown.changed() => return,
        }
    }
}

fn terminating(store: &Store, ns: &str) -> bool {
    store
        .object(Resource::Namespaces, "", ns)
        .is_some_and(|n| n.meta().deletion_timestamp.is_some())
}

fn reconcile_all(store: &Store, ca_pem: &str) {
    let (all, _) = store.list(Resource::Namespaces, None);
    for n in all {
        reconcile(store, n.name(), ca_pem);
    }
}

/// One namespace: an active one gets its `default` ServiceAccount and `kube-root-ca.crt`
/// ConfigMap; one being deleted has its content deleted (pods gracefully, each once), and
/// when nothing is left, its `spec.finalizers` emptied (which removes it).
fn reconcile(store: &Store, ns: &str, ca_pem: &str) {
    let Some(obj) = store.object(Resource::Namespaces, "", ns) else {
        return;
    };
    if obj.meta().deletion_timestamp.is_none() {
        let log = |r: Result<Object, ApiError>| {
            if let Err(e) = r
                && e.code != 409
            {
                tracing::warn!("namespace controller: {}", e.message);
            }
        };
        if store
            .object(Resource::ServiceAccounts, ns, "default")
            .is_none()
        {
            log(
                store.create_object(Object::ServiceAccount(Arc::new(ServiceAccount {
                    metadata: named(ns, "default"),
                    ..ServiceAccount::default()
                }))),
            );
        }
        if store
            .object(Resource::ConfigMaps, ns, ROOT_CA_CONFIGMAP)
            .is_none()
        {
            let mut meta = named(ns, ROOT_CA_CONFIGMAP);
            meta.annotations = Some(
                [(
                    "kubernetes.io/description".to_string(),
                    "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.".to_string(),
                )]
                .into(),
            );
            log(store.create_object(Object::ConfigMap(Arc::new(ConfigMap {
                metadata: meta,
                data: Some([("ca.crt".to_string(), ca_pem.to_string())].into()),
                ..ConfigMap::default()
            }))));
        }
        return;
    }
    let mut left = 0;
    for res in Resource::ALL.into_iter().filter(|r| r.namespaced()) {
        let (objects, _) = store.list(res, Some(ns));
        left += objects.len();
        for o in objects {
            let name = o.name().to_string();
            let r = match res {
                Resource::Pods if o.meta().deletion_timestamp.is_some() => continue,
                Resource::Pods => delete_pod_gracefully(store, ns, &name, None).map(|_| ()),
                Resource::Events => store.delete_event(ns, &name).map(|_| ()),
                _ if o.meta().deletion_timestamp.is_some() => continue,
                _ => store.delete_object(res, ns, &name).map(|_| ()),
            };
            if let Err(e) = r
                && e.code != 404
            {
                tracing::warn!("namespace controller: {}", e.message);
            }
        }
    }
    if left > 0 {
        return;
    }
    let r = store.update_object(Resource::Namespaces, "", ns, |o| {
        if let Object::Namespace(n) = o
            && let Some(spec) = Arc::make_mut(n).spec.as_mut()
        {
            spec.finalizers = Some(Vec::new());
        }
        Ok(())
    });
    if let Err(e) = r {
        tracing::warn!("namespace controller: {}", e.message);
    }
}

fn named(ns: &str, name: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.to_string()),
        namespace: Some(ns.to_string()),
        ..ObjectMeta::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_are_recognised_by_path() {
        assert_eq!(create_target("/api/v1/namespaces/x/pods"), Some("x"));
        assert_eq!(
            create_target("/apis/apps/v1/namespaces/y/deployments"),
            Some("y")
        );
        assert_eq!(create_target("/api/v1/namespaces/x/pods/p/exec"), None);
        assert_eq!(create_target("/api/v1/namespaces"), None);
    }
}
