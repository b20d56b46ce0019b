//! The authorization and authentication reviews a client asks about itself, answered from the
//! same deny list the request filter enforces ([`super::auth`]; `docs/permissions.md`):
//!
//! - `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews` ([`access`]): may I do this
//!   one thing? (`kubectl auth can-i create pods/exec`);
//! - `POST /apis/authorization.k8s.io/v1/selfsubjectrulesreviews` ([`rules`]): everything I may
//!   do in a namespace (`kubectl auth can-i --list`);
//! - `POST /apis/authentication.k8s.io/{v1,v1beta1,v1alpha1}/selfsubjectreviews` ([`whoami`]):
//!   who am I (`kubectl auth whoami`; kubectl 1.27 asks `v1beta1`, then `v1alpha1` on a 404,
//!   1.28 and later ask `v1` first).
//!
//! Each is a create that stores nothing: the answer is the request with `status` filled in,
//! `201 Created`, as kube-apiserver's `pkg/registry/authorization/selfsubjectaccessreview`
//! REST storage does.

pub(crate) mod access;
pub(crate) mod protobuf;
pub(crate) mod rules;
pub(crate) mod whoami;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use axum::routing::post;
use serde_json::{Value, json};

use super::status::ApiError;

/// The API group of the access and rules reviews.
pub const AUTHORIZATION: &str = "authorization.k8s.io";
/// The API group of the self subject review.
pub const AUTHENTICATION: &str = "authentication.k8s.io";

/// The deny list the reviews answer from (the one [`super::auth::Access`] enforces).
pub type Deny = Arc<Vec<(String, String)>>;

/// The routes of the three reviews; merge into the main router (inside the auth layer, so a
/// denied `create selfsubjectaccessreviews` is itself refused with 403, as RBAC would).
pub fn router(deny: Deny) -> Router {
    let (ssar, ssrr) = (deny.clone(), deny);
    Router::new()
        .route(
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            post(move |h: HeaderMap, body: Bytes| async move { access::review(&ssar, &h, &body) }),
        )
        .route(
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
            post(move |h: HeaderMap, body: Bytes| async move { rules::review(&ssrr, &h, &body) }),
        )
        .route(
            "/apis/authentication.k8s.io/{version}/selfsubjectreviews",
            post(whoami::review),
        )
}

/// The `APIResource` entries discovery lists for `group` (`GET /apis/{group}/v1`): the reviews
/// are cluster-scoped and only created. Empty for other groups.
pub fn discovery_resources(group: &str) -> Vec<Value> {
    let entry = |name: &str, singular: &str, kind: &str| json!({"name": name, "singularName": singular, "namespaced": false, "kind": kind, "verbs": ["create"]});
    match group {
        AUTHORIZATION => vec![
            entry(
                "selfsubjectaccessreviews",
                "selfsubjectaccessreview",
                "SelfSubjectAccessReview",
            ),
            entry(
                "selfsubjectrulesreviews",
                "selfsubjectrulesreview",
                "SelfSubjectRulesReview",
            ),
        ],
        AUTHENTICATION => vec![entry(
            "selfsubjectreviews",
            "selfsubjectreview",
            "SelfSubjectReview",
        )],
        _ => Vec::new(),
    }
}

/// The `spec` of the review in the request body: JSON (kubectl up to 1.31, kube-rs), or
/// Kubernetes protobuf by its `Content-Type` ([`protobuf`]; kubectl 1.32 and later). A JSON
/// body without `spec` has an empty one. Errors: 400 BadRequest with the decoder's complaint.
fn request_spec(h: &HeaderMap, body: &[u8], review: protobuf::Review) -> Result<Value, ApiError> {
    let content_type = h
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.contains("protobuf") {
        return protobuf::spec(body, review);
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(v @ Value::Object(_)) => Ok(v.get("spec").cloned().unwrap_or_else(|| json!({}))),
        Ok(_) => Err(ApiError::bad_request(
            "the request body is not a JSON object",
        )),
        Err(e) => Err(ApiError::bad_request(format!(
            "the request body is not valid JSON: {e}"
        ))),
    }
}

/// The review as answered: `kind`/`apiVersion` of the group, the request's `spec`, fresh
/// metadata and `status`.
fn answered(kind: &str, api_version: &str, spec: Option<&Value>, status: Value) -> Value {
    let mut out =
        json!({"kind": kind, "apiVersion": api_version, "metadata": {}, "status": status});
    if let Some(spec) = spec {
        out["spec"] = spec.clone();
    }
    out
}

/// The reason an allowed request is given, worded as the RBAC authorizer words it
/// (`plugin/pkg/auth/authorizer/rbac/rbac.go`: `RBAC: allowed by` and the binding's
/// description).
pub fn allowed_reason() -> String {
    let role = super::auth::ROLE;
    let user = super::auth::USER;
    format!(
        "RBAC: allowed by ClusterRoleBinding \"{role}\" of ClusterRole \"{role}\" to User \"{user}\""
    )
}
