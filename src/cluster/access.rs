//! The access check behind the footer's greyed keys: one `SelfSubjectAccessReview` per guarded
//! key (`app::access::Guarded`: `create pods/exec`, `patch pods/ephemeralcontainers`, `create
//! pods/portforward`), POSTed concurrently to `authorization.k8s.io/v1` for the target's
//! namespace, answered as one `Msg::AccessChecked` (`docs/permissions.md`).
//!
//! A review that itself fails (403 on `selfsubjectaccessreviews`, 404 on a server without the
//! API, a network error) leaves that key [`Permission::Unknown`] and is logged (`--log-file`):
//! the key then works as without a check.

use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
};
use kube::Api;
use kube::api::PostParams;
use tokio::sync::mpsc::Sender;
use tokio_util::task::AbortOnDropHandle;

use crate::app::Msg;
use crate::app::access::{Guarded, Permission, Permissions};

/// The review of `key` on pods in `namespace` (no name: the answer is about every pod there).
#[must_use]
pub fn review_for(key: Guarded, namespace: &str) -> SelfSubjectAccessReview {
    SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(ResourceAttributes {
                namespace: Some(namespace.to_owned()),
                verb: Some(key.verb().to_owned()),
                group: Some(String::new()),
                resource: Some("pods".to_owned()),
                subresource: Some(key.subresource().to_owned()),
                ..ResourceAttributes::default()
            }),
            ..SelfSubjectAccessReviewSpec::default()
        },
        ..SelfSubjectAccessReview::default()
    }
}

/// Asks one review; `Unknown` (logged) when the review itself fails.
async fn ask(api: &Api<SelfSubjectAccessReview>, key: Guarded, namespace: &str) -> Permission {
    match api
        .create(&PostParams::default(), &review_for(key, namespace))
        .await
    {
        Ok(answer) => match answer.status {
            Some(status) if status.allowed => Permission::Allowed,
            Some(status) => Permission::Denied {
                reason: status.reason.unwrap_or_default(),
            },
            None => {
                tracing::warn!(
                    "access review of {} pods/{} in {namespace}: no status in the answer; the key stays enabled",
                    key.verb(),
                    key.subresource()
                );
                Permission::Unknown
            }
        },
        Err(e) => {
            tracing::warn!(
                "access review of {} pods/{} in {namespace} failed: {e}; the key stays enabled",
                key.verb(),
                key.subresource()
            );
            Permission::Unknown
        }
    }
}

/// Asks the three reviews for `namespace` concurrently.
pub async fn check(client: kube::Client, namespace: &str) -> Permissions {
    let api: Api<SelfSubjectAccessReview> = Api::all(client);
    let (exec, debug, forward) = tokio::join!(
        ask(&api, Guarded::Exec, namespace),
        ask(&api, Guarded::Debug, namespace),
        ask(&api, Guarded::Forward, namespace),
    );
    Permissions {
        namespace: namespace.to_owned(),
        exec,
        debug,
        forward,
    }
}

/// [`check`] as a task whose answer goes into the loop's channel as `Msg::AccessChecked`.
pub async fn check_into(client: kube::Client, namespace: String, tx: Sender<Msg>) {
    let permissions = check(client, &namespace).await;
    let _ = tx.send(Msg::AccessChecked(permissions)).await;
}

/// The session's side of the check: the namespace last asked about and the task asking (dropped,
/// it is aborted). Asks once per namespace: again only when the target moves to another one.
#[derive(Debug, Default)]
pub struct AccessCheck {
    asked: Option<String>,
    task: Option<AbortOnDropHandle<()>>,
}

impl AccessCheck {
    /// Starts [`check_into`] for `namespace` unless it was the last one asked about.
    pub fn ask(&mut self, client: &kube::Client, namespace: &str, tx: &Sender<Msg>) {
        if self.asked.as_deref() == Some(namespace) {
            return;
        }
        self.asked = Some(namespace.to_owned());
        self.task = Some(AbortOnDropHandle::new(tokio::spawn(check_into(
            client.clone(),
            namespace.to_owned(),
            tx.clone(),
        ))));
    }
}
