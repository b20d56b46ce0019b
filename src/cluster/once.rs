//! One-shot reads: the preflight GET before the TUI starts, and the `--once` snapshot.

use k8s_openapi::api::core::v1::{Event, Pod};
use kube::Api;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind, ListParams};

use super::config::{Target, describe_error};
use super::watch::events_selector;
use crate::model::deletion::OwnerStatus;
use crate::model::{EventSummary, OwnerRef, PodSummary};

/// Why a one-shot read failed; `Display` is the one line to print.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The pod does not exist (kubectl's wording).
    #[error("pods \"{name}\" not found in namespace \"{namespace}\"")]
    NotFound {
        /// Namespace searched.
        namespace: String,
        /// Pod name.
        name: String,
    },
    /// Any other failure: RBAC denial, unreachable server, malformed answer.
    #[error("{0}")]
    Other(String),
}

/// GETs the pod once. `Ok(None)` when it does not exist (the TUI then waits for it);
/// an error for 401/403, an unreachable server or a malformed answer.
///
/// # Errors
/// [`ReadError::Other`] with a line naming verb, resource and namespace.
pub async fn preflight(target: &Target) -> Result<Option<Pod>, ReadError> {
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
    match api.get_opt(&target.pod).await {
        Ok(p) => Ok(p),
        Err(e) => Err(ReadError::Other(format!(
            "{} (server {})",
            describe_error(&e, "get", "pods", &target.namespace),
            target.server
        ))),
    }
}

/// Reads the pod, its events (newest first) and, for a pod held by finalizers, whether its owner
/// still exists ([`check_owner`]; `Unknown` when not needed), for `--once`.
///
/// # Errors
/// [`ReadError::NotFound`] when the pod does not exist; [`ReadError::Other`] otherwise.
pub async fn read_snapshot(
    target: &Target,
) -> Result<(PodSummary, Vec<EventSummary>, OwnerStatus), ReadError> {
    let pod = preflight(target)
        .await?
        .ok_or_else(|| ReadError::NotFound {
            namespace: target.namespace.clone(),
            name: target.pod.clone(),
        })?;
    let summary = PodSummary::from_pod(&pod);
    let api: Api<Event> = Api::namespaced(target.client.clone(), &target.namespace);
    let lp = ListParams::default().fields(&events_selector(
        &summary.name,
        &summary.namespace,
        &summary.uid,
    ));
    let events = api
        .list(&lp)
        .await
        .map_err(|e| ReadError::Other(describe_error(&e, "list", "events", &target.namespace)))?;
    let mut events: Vec<EventSummary> = events.items.iter().map(EventSummary::from_event).collect();
    crate::model::event::sort_newest_first(&mut events);
    let owner = match crate::model::deletion::owner_check_needed(&summary) {
        Some(o) => check_owner(target.client.clone(), &summary.namespace, o).await,
        None => OwnerStatus::Unknown,
    };
    Ok((summary, events, owner))
}

/// GETs the owner `owner` of a pod in `namespace` once, to tell whether a pod held by its
/// finalizers still has someone to remove them. The resource is derived from `apiVersion` and
/// `kind` the way kube-rs guesses plurals (`Job` → `batch/v1` `jobs`).
///
/// Returns [`OwnerStatus::Gone`] on 404 or when the object found has another `uid` (the owner
/// was re-created), [`OwnerStatus::Failed`] with a line naming verb, resource and namespace for
/// any other error (RBAC, transport).
pub async fn check_owner(client: kube::Client, namespace: &str, owner: &OwnerRef) -> OwnerStatus {
    let (group, version) = match owner.api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", owner.api_version.as_str()),
    };
    let gvk = GroupVersionKind::gvk(group, version, &owner.kind);
    let resource = ApiResource::from_gvk(&gvk);
    let api: Api<DynamicObject> = Api::namespaced_with(client, namespace, &resource);
    match api.get_opt(&owner.name).await {
        Ok(None) => OwnerStatus::Gone,
        Ok(Some(obj)) if obj.metadata.uid.as_deref() == Some(owner.uid.as_str()) => {
            OwnerStatus::Exists
        }
        Ok(Some(_)) => OwnerStatus::Gone,
        Err(e) => OwnerStatus::Failed(
            crate::model::sanitize::sanitize(&describe_error(
                &e,
                "get",
                &resource.plural,
                namespace,
            ))
            .into_owned(),
        ),
    }
}

/// Whether namespace `namespace` exists: `Some(false)` on 404, `None` when the GET fails (RBAC
/// often forbids reading namespaces; then nothing can be said).
pub async fn check_namespace(client: kube::Client, namespace: &str) -> Option<bool> {
    let api: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client);
    api.get_opt(namespace)
        .await
        .ok()
        .map(|found| found.is_some())
}
