//! RBAC refusals (403 Forbidden) of the streaming subresources, said so that the verb, the
//! resource and the namespace are always named, as in kubectl's Forbidden message.
//!
//! The API server's authorization filter words a refusal `pods "web" is forbidden: User "u"
//! cannot get resource "pods/exec" in API group "" in the namespace "shop"`. Since Kubernetes
//! 1.35 (`AuthorizePodWebsocketUpgradeCreatePermission`, on by default) the WebSocket upgrade of
//! `pods/exec`, `pods/attach` and `pods/portforward`, a GET and so authorized as `get`, is
//! checked for `create` as well, inside the handler; that refusal carries the RBAC authorizer's
//! reason, which is empty: `pods "web" is forbidden: `. [`explain`] completes such a message.
//! [`check_connect`] finds a refused connect before anything is bound or started.

use k8s_openapi::api::core::v1::Pod;
use kube::Api;

/// `message` as it is when it already says why, else (a Forbidden with an empty reason, i.e.
/// the API server's extra `create` check of a connect) completed with `cannot VERB resource
/// "RESOURCE" in API group "" in the namespace "NS"`.
///
/// `verb` is the RBAC verb (`create`), `resource` with its subresource (`pods/exec`).
#[must_use]
pub fn explain(message: &str, verb: &str, resource: &str, namespace: &str) -> String {
    let trimmed = message.trim_end();
    if trimmed.ends_with("is forbidden:") {
        format!(
            "{trimmed} cannot {verb} resource \"{resource}\" in API group \"\" in the namespace \"{namespace}\""
        )
    } else {
        message.to_owned()
    }
}

/// The namespace of `api`'s requests (`default` for a cluster-wide `Api`, which this module is
/// never given).
fn namespace(api: &Api<Pod>) -> &str {
    api.namespace().unwrap_or("default")
}

/// [`explain`] for a connect (`create`) of `pods/{subresource}` through `api`.
#[must_use]
pub fn explain_connect(message: &str, api: &Api<Pod>, subresource: &str) -> String {
    explain(
        message,
        "create",
        &format!("pods/{subresource}"),
        namespace(api),
    )
}

/// Whether connecting to `pods/{subresource}` (`exec`, `attach`, `portforward`) of `pod` would
/// be refused, found without connecting: a GET without an upgrade is authorized as the upgrade
/// is (`get`, then `create`) and then answered 400 `Upgrade request required` (the simulator:
/// 400 for the missing query), so nothing runs, is dialled or bound in the pod.
///
/// # Errors
/// The refusal, one line ([`explain`]ed). Any other answer counts as allowed: its cause shows up
/// again on the real connect.
pub async fn check_connect(api: &Api<Pod>, pod: &str, subresource: &str) -> Result<(), String> {
    let url = format!("{}/{pod}/{subresource}", api.resource_url());
    let Ok(request) = http::Request::get(url).body(Vec::new()) else {
        return Ok(());
    };
    match api.clone().into_client().request_text(request).await {
        Err(kube::Error::Api(s)) if s.code == 403 => {
            Err(explain_connect(&s.message, api, subresource))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::explain;

    #[test]
    fn an_empty_reason_is_completed_and_a_full_one_kept() {
        assert_eq!(
            explain(
                "pods \"hello\" is forbidden: ",
                "create",
                "pods/exec",
                "default"
            ),
            "pods \"hello\" is forbidden: cannot create resource \"pods/exec\" in API group \"\" in the namespace \"default\""
        );
        let full = "pods \"hello\" is forbidden: User \"u\" cannot get resource \"pods/exec\" in API group \"\" in the namespace \"default\"";
        assert_eq!(explain(full, "create", "pods/exec", "default"), full);
    }
}
