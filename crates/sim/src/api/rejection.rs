//! The framework's own plain-text rejections (a path segment that is not valid UTF-8 after
//! percent-decoding, a body that is too large, a wrong content type) turned into `metav1.Status`
//! bodies with the matching reason ([`statusify`]), so every error kubectl or kube-rs sees is a
//! Status (`docs/protocols.md` §1.4).

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::status::ApiError;

/// Largest framework rejection text copied into a Status message (bytes).
const MAX_REJECTION_TEXT: usize = 4096;

fn reason(code: StatusCode) -> &'static str {
    match code.as_u16() {
        400 => "BadRequest",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        406 => "NotAcceptable",
        409 => "Conflict",
        413 => "RequestEntityTooLarge",
        415 => "UnsupportedMediaType",
        422 => "Invalid",
        429 => "TooManyRequests",
        500 => "InternalError",
        503 => "ServiceUnavailable",
        504 => "Timeout",
        _ => "Unknown",
    }
}

/// Response extension marking an error body that must reach the client as written: the
/// kubelet's plain-text refusals that kube-apiserver's upgrade-aware proxy passes through
/// (`docs/protocols.md` §3.5).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Verbatim;

/// Middleware: an error response (4xx/5xx) without a JSON body becomes a Status with the same
/// code, a reason for it and the rejection text as message. Successful and JSON answers pass
/// through untouched (streams are never buffered), and so do responses marked [`Verbatim`].
pub async fn statusify(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let code = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(code.is_client_error() || code.is_server_error())
        || is_json
        || resp.extensions().get::<Verbatim>().is_some()
    {
        return resp;
    }
    let text = match axum::body::to_bytes(resp.into_body(), MAX_REJECTION_TEXT).await {
        Ok(b) if !b.is_empty() => String::from_utf8_lossy(&b).trim().to_string(),
        _ => code.canonical_reason().unwrap_or("error").to_string(),
    };
    ApiError {
        code: code.as_u16(),
        reason: reason(code),
        message: text,
    }
    .into_response()
}
