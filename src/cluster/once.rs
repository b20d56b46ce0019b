//! One-shot reads: the preflight GET before the TUI starts, and the `--once` snapshot.

use k8s_openapi::api::core::v1::{Event, Pod};
use kube::Api;
use kube::api::ListParams;

use super::config::{Target, describe_error};
use super::watch::events_selector;
use crate::model::{EventSummary, PodSummary};

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

/// Reads the pod and its events (newest first) for `--once`.
///
/// # Errors
/// [`ReadError::NotFound`] when the pod does not exist; [`ReadError::Other`] otherwise.
pub async fn read_snapshot(target: &Target) -> Result<(PodSummary, Vec<EventSummary>), ReadError> {
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
    Ok((summary, events))
}
