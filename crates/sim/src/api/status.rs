//! `metav1.Status` error bodies, exactly as the API server writes them.
//!
//! Shape: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":…,"reason":…,"code":…}`
//! (see `docs/protocols.md` §1.4 and §2.3).

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// An API error: HTTP code, `reason` (e.g. `NotFound`) and human `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status code, also written as `code` in the body.
    pub code: u16,
    /// `metav1.StatusReason`, e.g. `NotFound`, `BadRequest`, `Expired`, `MethodNotAllowed`.
    pub reason: &'static str,
    /// The message kubectl prints after `Error from server (<reason>): `.
    pub message: String,
}

impl ApiError {
    /// 404 NotFound for a named object: message `<resource> "<name>" not found` (e.g. `pods "x" not found`).
    pub fn not_found(resource: &str, name: &str) -> Self {
        Self {
            code: 404,
            reason: "NotFound",
            message: format!("{resource} \"{name}\" not found"),
        }
    }

    /// 404 NotFound for an unknown path, worded like the API server's catch-all.
    pub fn no_route() -> Self {
        Self {
            code: 404,
            reason: "NotFound",
            message: "the server could not find the requested resource".to_string(),
        }
    }

    /// 400 BadRequest with the given message.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self {
            code: 400,
            reason: "BadRequest",
            message: message.into(),
        }
    }

    /// 410 Expired: `too old resource version: <requested> (<oldest kept - 1>)`.
    pub fn expired(requested: u64, oldest: u64) -> Self {
        Self {
            code: 410,
            reason: "Expired",
            message: format!("too old resource version: {requested} ({oldest})"),
        }
    }

    /// 405 MethodNotAllowed, as the API server answers a verb a resource does not support.
    pub fn method_not_allowed(method: &str) -> Self {
        Self {
            code: 405,
            reason: "MethodNotAllowed",
            message: format!(
                "the server does not allow this method on the requested resource ({method})"
            ),
        }
    }

    /// 409 AlreadyExists: `<resource> "<name>" already exists`.
    pub fn already_exists(resource: &str, name: &str) -> Self {
        Self {
            code: 409,
            reason: "AlreadyExists",
            message: format!("{resource} \"{name}\" already exists"),
        }
    }

    /// 409 Conflict for a stale `metadata.resourceVersion` (or a failed precondition):
    /// `Operation cannot be fulfilled on <resource> "<name>": <why>`.
    pub fn conflict(resource: &str, name: &str, why: &str) -> Self {
        Self {
            code: 409,
            reason: "Conflict",
            message: format!("Operation cannot be fulfilled on {resource} \"{name}\": {why}"),
        }
    }

    /// 422 Invalid: `<Kind> "<name>" is invalid: <cause>` (several causes as `[a, b]`), as the
    /// API server's field validation reports it.
    pub fn invalid(kind: &str, name: &str, causes: &[String]) -> Self {
        let detail = match causes {
            [one] => one.clone(),
            many => format!("[{}]", many.join(", ")),
        };
        Self {
            code: 422,
            reason: "Invalid",
            message: format!("{kind} \"{name}\" is invalid: {detail}"),
        }
    }

    /// 415 UnsupportedMediaType for a PATCH content type the server does not know.
    pub fn unsupported_media_type(content_type: &str) -> Self {
        Self {
            code: 415,
            reason: "UnsupportedMediaType",
            message: format!(
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got {content_type:?})"
            ),
        }
    }

    /// The `metav1.Status` JSON object for this error.
    pub fn to_status(&self) -> Value {
        json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.reason, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = StatusCode::from_u16(self.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        json_response(code, &self.to_status())
    }
}

/// A JSON response with `Content-Type: application/json`.
pub fn json_response(code: StatusCode, body: &Value) -> Response {
    let text = serde_json::to_string(body).unwrap_or_else(|_| "{}".to_string());
    (code, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}
