//! The GETs and label-selected LISTs of resolution, with 404 and 403 told apart.

use std::fmt::Debug;

use k8s_openapi::NamespaceResourceScope;
use kube::api::ListParams;
use kube::{Api, Resource};
use serde::de::DeserializeOwned;

use super::ResolveError;
use crate::cluster::config::describe_error;
use crate::model::sanitize::sanitize;
use crate::model::workload::WorkloadRef;

/// A GET's answer when it was not an error to stop at.
#[derive(Debug, Clone)]
pub(crate) enum Got<T> {
    /// The object.
    Found(T),
    /// 403: what was refused, one line (`cannot get deployments.apps "web": forbidden (…)`).
    Refused(String),
}

impl<T> Got<T> {
    /// The found object mapped by `f`.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> Got<U> {
        match self {
            Got::Found(t) => Got::Found(f(t)),
            Got::Refused(r) => Got::Refused(r),
        }
    }
}

/// Why a LIST failed.
#[derive(Debug, Clone)]
pub(crate) enum ListError {
    /// 403, one line naming verb, resource and namespace.
    Forbidden(String),
    /// Anything else.
    Other(String),
}

/// The reason of a 403 (`User "u" cannot get resource …`), without the `NAME is forbidden: `
/// the API server puts before it.
fn reason(message: &str) -> &str {
    message
        .split_once("is forbidden: ")
        .map_or(message, |(_, r)| r)
}

/// `cannot get deployments.apps "web": forbidden (User "u" cannot get resource …)`.
pub(crate) fn refused(group_resource: &str, name: &str, message: &str) -> String {
    sanitize(&format!(
        "cannot get {group_resource} \"{name}\": forbidden ({})",
        reason(message).trim()
    ))
    .into_owned()
}

/// GETs the workload `w` of type `K` in `namespace`.
///
/// # Errors
/// [`ResolveError::NotFound`] in kubectl's words on 404, [`ResolveError::Other`] for anything but
/// 403 (which is [`Got::Refused`]).
pub(crate) async fn get<K>(
    client: &kube::Client,
    namespace: &str,
    w: &WorkloadRef,
) -> Result<Got<K>, ResolveError>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + DeserializeOwned
        + Debug,
{
    let api: Api<K> = Api::namespaced(client.clone(), namespace);
    match api.get_opt(&w.name).await {
        Ok(Some(obj)) => Ok(Got::Found(obj)),
        Ok(None) => Err(ResolveError::NotFound(w.not_found())),
        Err(kube::Error::Api(s)) if s.code == 403 => Ok(Got::Refused(refused(
            &w.kind.group_resource(),
            &w.name,
            &s.message,
        ))),
        Err(e) => Err(ResolveError::Other(describe_error(
            &e,
            "get",
            &w.kind.group_resource(),
            namespace,
        ))),
    }
}

fn list_error(e: &kube::Error, plural: &str, namespace: &str) -> ListError {
    let line = describe_error(e, "list", plural, namespace);
    match e {
        kube::Error::Api(s) if s.code == 403 => ListError::Forbidden(line),
        _ => ListError::Other(line),
    }
}

/// LISTs the `K`s of `namespace` that `selector` matches (never called with an empty selector).
///
/// # Errors
/// [`ListError`] with a line naming verb, resource and namespace.
pub(crate) async fn list<K>(
    client: &kube::Client,
    namespace: &str,
    selector: &str,
) -> Result<Vec<K>, ListError>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + DeserializeOwned
        + Debug,
{
    if selector.trim().is_empty() {
        return Ok(Vec::new());
    }
    let api: Api<K> = Api::namespaced(client.clone(), namespace);
    match api.list(&ListParams::default().labels(selector)).await {
        Ok(list) => Ok(list.items),
        Err(e) => Err(list_error(&e, &K::plural(&()), namespace)),
    }
}

/// LISTs every `K` of `namespace` (a CronJob's Jobs, which no label ties to it; never pods).
///
/// # Errors
/// As [`list`].
pub(crate) async fn list_all<K>(client: &kube::Client, namespace: &str) -> Result<Vec<K>, ListError>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + DeserializeOwned
        + Debug,
{
    let api: Api<K> = Api::namespaced(client.clone(), namespace);
    match api.list(&ListParams::default()).await {
        Ok(list) => Ok(list.items),
        Err(e) => Err(list_error(&e, &K::plural(&()), namespace)),
    }
}
