//! `SelfSubjectReview` (`authentication.k8s.io`): who the caller is. Served at `v1` (what
//! kubectl 1.28 and later ask first), `v1beta1` (kubectl 1.27's first choice) and `v1alpha1`
//! (every kubectl's last fallback after a 404), as kubectl's `pkg/cmd/auth/whoami.go` tries
//! them. The answer is `status.userInfo {username, groups}`: [`crate::api::auth::USER`]
//! in [`crate::api::auth::GROUPS`], 201 Created.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::{AUTHENTICATION, answered};
use crate::api::auth::{GROUPS, USER};
use crate::api::status::{ApiError, json_response};

/// The versions the review is served at.
pub const VERSIONS: [&str; 3] = ["v1", "v1beta1", "v1alpha1"];

/// `POST /apis/authentication.k8s.io/{version}/selfsubjectreviews`. Errors: 404 for another
/// version (the API server's catch-all).
pub async fn review(Path(version): Path<String>) -> Response {
    if !VERSIONS.contains(&version.as_str()) {
        return ApiError::no_route().into_response();
    }
    let status = json!({"userInfo": {"username": USER, "groups": GROUPS}});
    let out = answered(
        "SelfSubjectReview",
        &format!("{AUTHENTICATION}/{version}"),
        None,
        status,
    );
    json_response(StatusCode::CREATED, &out)
}
