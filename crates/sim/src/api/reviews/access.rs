//! `SelfSubjectAccessReview` (`authorization.k8s.io/v1`): may the caller do one thing?
//!
//! Request: `spec.resourceAttributes {namespace, verb, group, resource, subresource, name}` or
//! `spec.nonResourceAttributes {path, verb}` (exactly one). Answer: the same object with
//! `status {allowed, reason?}`, 201 Created. The decision is the request filter's
//! ([`crate::api::auth::denies`]): a resource request is allowed unless the deny list
//! refuses `(verb, resource[/subresource])`; the API group and the object's name do not narrow
//! a deny entry. An allowed answer carries RBAC's reason ([`super::allowed_reason`]); a refused
//! one carries none and no `denied: true`, because RBAC never denies, it only has no opinion
//! (`plugin/pkg/auth/authorizer/rbac/rbac.go` returns `DecisionNoOpinion` with an empty
//! reason), which kubectl prints as a bare `no`. Non-resource requests are allowed for `get`
//! (the discovery and health paths every authenticated user may read) and refused otherwise.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use axum::http::HeaderMap;

use super::{AUTHORIZATION, Deny, answered, protobuf, request_spec};
use crate::api::auth::denies;
use crate::api::status::{ApiError, json_response};

/// The decision for one set of attributes: `(allowed, reason)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Whether the request would be allowed.
    pub allowed: bool,
    /// RBAC's reason (empty when refused).
    pub reason: String,
}

/// Decides `verb` on `resource` (with `subresource`, empty if none) under `deny`.
pub fn decide(
    deny: &[(String, String)],
    verb: &str,
    resource: &str,
    subresource: &str,
) -> Decision {
    let full = if subresource.is_empty() {
        resource.to_string()
    } else {
        format!("{resource}/{subresource}")
    };
    let allowed = !denies(deny, verb, &full);
    Decision {
        allowed,
        reason: if allowed {
            super::allowed_reason()
        } else {
            String::new()
        },
    }
}

/// The `status` of a review of `spec`. Errors: 422 when neither or both attribute sets are
/// given, worded as the API server's validation
/// (`pkg/apis/authorization/validation/validation.go`).
pub fn status_of(deny: &[(String, String)], spec: &Value) -> Result<Value, ApiError> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let decision = match (
        spec.get("resourceAttributes"),
        spec.get("nonResourceAttributes"),
    ) {
        (Some(r), None) => decide(
            deny,
            &text(r, "verb"),
            &text(r, "resource"),
            &text(r, "subresource"),
        ),
        (None, Some(n)) => {
            let allowed = text(n, "verb") == "get";
            Decision {
                allowed,
                reason: if allowed {
                    super::allowed_reason()
                } else {
                    String::new()
                },
            }
        }
        (r, _) => {
            let which = if r.is_some() { "both" } else { "neither" };
            return Err(ApiError {
                code: 422,
                reason: "Invalid",
                message: format!(
                    "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes: Invalid value: {which}: exactly one of nonResourceAttributes or resourceAttributes must be specified"
                ),
            });
        }
    };
    let mut status = json!({"allowed": decision.allowed});
    if !decision.reason.is_empty() {
        status["reason"] = json!(decision.reason);
    }
    Ok(status)
}

/// `POST …/selfsubjectaccessreviews`: the review with its `status`, 201 Created. Errors: 400
/// for a body that does not decode (JSON or protobuf, by `h`'s `Content-Type`), 422 as
/// [`status_of`].
pub fn review(deny: &Deny, h: &HeaderMap, body: &[u8]) -> Response {
    let answer = request_spec(h, body, protobuf::Review::Access).and_then(|spec| {
        let status = status_of(deny, &spec)?;
        Ok(answered(
            "SelfSubjectAccessReview",
            &format!("{AUTHORIZATION}/v1"),
            Some(&spec),
            status,
        ))
    });
    match answer {
        Ok(v) => json_response(StatusCode::CREATED, &v),
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deny(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(v, r)| ((*v).to_string(), (*r).to_string()))
            .collect()
    }

    #[test]
    fn a_denied_pair_is_refused_without_a_reason() {
        let d = deny(&[("create", "pods/exec")]);
        let spec = json!({"resourceAttributes": {"namespace": "default", "verb": "create", "resource": "pods", "subresource": "exec", "name": "web"}});
        assert_eq!(
            status_of(&d, &spec).expect("valid"),
            json!({"allowed": false})
        );
        let get = json!({"resourceAttributes": {"namespace": "default", "verb": "get", "resource": "pods"}});
        assert_eq!(
            status_of(&d, &get).expect("valid"),
            json!({"allowed": true, "reason": "RBAC: allowed by ClusterRoleBinding \"podscope-sim\" of ClusterRole \"podscope-sim\" to User \"podscope-sim\""})
        );
    }

    #[test]
    fn every_verb_is_refused_when_one_is() {
        let d = deny(&[("create", "pods/exec")]);
        assert!(!decide(&d, "*", "pods", "exec").allowed);
        assert!(decide(&d, "*", "pods", "").allowed);
        assert!(!decide(&d, "*", "*", "").allowed);
    }

    #[test]
    fn neither_attribute_set_is_invalid() {
        let e = status_of(&[], &json!({})).expect_err("invalid");
        assert_eq!((e.code, e.reason), (422, "Invalid"));
        let n = json!({"nonResourceAttributes": {"path": "/healthz", "verb": "get"}});
        assert_eq!(status_of(&[], &n).expect("valid")["allowed"], true);
    }
}
