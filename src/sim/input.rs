//! Bad client input → `metav1.Status` answers, never a panic or a bare text body.
//!
//! - [`decode_object`] / [`decode_patch`]: JSON request bodies (for the write routes) decoded
//!   with the failing field's path in the 400 BadRequest message.
//! - [`statusify`]: a middleware turning the framework's own plain-text rejections (a path
//!   segment that is not valid UTF-8 after percent-decoding, a body that is too large, a wrong
//!   content type) into Status bodies with the matching reason, so every error kubectl or kube-rs
//!   sees is a Status.

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::status::ApiError;

/// Largest framework rejection text copied into a Status message (bytes).
const MAX_REJECTION_TEXT: usize = 4096;

/// Decodes a JSON body into `T` (e.g. a `Pod`). Errors: 400 BadRequest with
/// - malformed JSON: `couldn't get version/kind; json parse error: <serde message>`
///   (kube-apiserver's wording for bodies it cannot even read the kind of);
/// - well-formed JSON of the wrong shape: `<kind> in version "v1" cannot be handled as a <kind>:
///   <field path>: <serde message>`, e.g. `Pod in version "v1" cannot be handled as a Pod:
///   spec.containers: invalid type: string "x", expected a sequence`.
pub fn decode_object<T: DeserializeOwned>(kind: &str, body: &[u8]) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
    })?;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        ApiError::bad_request(format!(
            "{kind} in version \"v1\" cannot be handled as a {kind}: {path}: {}",
            e.into_inner()
        ))
    })
}

/// Decodes a JSON (merge, strategic-merge or JSON-patch) patch body. Errors: 400 BadRequest
/// `error decoding patch: <serde message>` for malformed JSON [derived wording].
pub fn decode_patch(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))
}

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

/// Middleware: an error response (4xx/5xx) without a JSON body becomes a Status with the same
/// code, a reason for it and the rejection text as message. Successful and JSON answers pass
/// through untouched (streams are never buffered).
pub async fn statusify(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let code = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(code.is_client_error() || code.is_server_error()) || is_json {
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

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::Pod;

    #[test]
    fn malformed_json_is_a_bad_request() {
        let e = decode_object::<Pod>("Pod", b"{\"kind\": ").expect_err("malformed");
        assert_eq!((e.code, e.reason), (400, "BadRequest"));
        assert!(
            e.message
                .starts_with("couldn't get version/kind; json parse error: EOF"),
            "{}",
            e.message
        );
    }

    #[test]
    fn wrong_shape_names_the_field_path() {
        let body = br#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":"nope"}}"#;
        let e = decode_object::<Pod>("Pod", body).expect_err("wrong shape");
        assert_eq!(e.code, 400);
        assert!(
            e.message
                .starts_with("Pod in version \"v1\" cannot be handled as a Pod: spec.containers: invalid type: string \"nope\""),
            "{}",
            e.message
        );
        let ok: Pod = decode_object(
            "Pod",
            br#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}"#,
        )
        .expect("valid pod");
        assert_eq!(ok.metadata.name.as_deref(), Some("x"));
    }

    #[test]
    fn bad_patch_is_a_bad_request() {
        let e = decode_patch(b"[{\"op\":").expect_err("malformed");
        assert_eq!(e.code, 400);
        assert!(e.message.starts_with("error decoding patch: "));
    }
}
