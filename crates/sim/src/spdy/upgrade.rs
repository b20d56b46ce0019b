//! The HTTP/1.1 upgrade to SPDY/3.1 as the Kubernetes `httpstream` handshake does it
//! (`docs/protocols.md` Appendix A.4 and A.8): the client sends `POST` with `Connection:
//! Upgrade`, `Upgrade: SPDY/3.1` and one `X-Stream-Protocol-Version` header per protocol it
//! speaks; the server answers `101 Switching Protocols` with `Connection: Upgrade`,
//! `Upgrade: SPDY/3.1` and the chosen `X-Stream-Protocol-Version`, after which the connection
//! carries SPDY frames.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use hyper_util::rt::TokioIo;

/// The `Upgrade` token.
pub const SPDY_31: &str = "SPDY/3.1";
/// Header carrying the offered / chosen stream protocol.
pub const PROTOCOL_HEADER: &str = "X-Stream-Protocol-Version";

/// The upgraded connection handed to the session.
pub type Upgraded = TokioIo<hyper::upgrade::Upgraded>;

/// Whether the request asks to upgrade to SPDY/3.1 (`Upgrade` names it, case-insensitively).
pub fn is_spdy_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::UPGRADE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case(SPDY_31))
}

/// The offered `X-Stream-Protocol-Version` values in the client's order (repeated headers,
/// comma-separated lists both accepted).
pub fn offered_protocols(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all(PROTOCOL_HEADER)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The first offered protocol (client order) that `supported` contains; `None` when nothing
/// matches.
pub fn negotiate<'a>(offered: &[String], supported: &[&'a str]) -> Option<&'a str> {
    offered
        .iter()
        .find_map(|o| supported.iter().copied().find(|s| s == o))
}

/// Answers `req` with 101 (`protocol` echoed in `X-Stream-Protocol-Version`) and runs `serve`
/// on the upgraded connection in a new task once hyper hands it over. `None` when the request
/// cannot be upgraded (no upgrade machinery attached, e.g. HTTP/2).
pub fn accept<F, Fut>(mut req: Request, protocol: &str, serve: F) -> Option<Response>
where
    F: FnOnce(Upgraded) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let on_upgrade = req.extensions_mut().remove::<hyper::upgrade::OnUpgrade>()?;
    tokio::spawn(async move {
        match on_upgrade.await {
            Ok(io) => serve(TokioIo::new(io)).await,
            Err(e) => tracing::debug!("SPDY upgrade failed: {e}"),
        }
    });
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = resp.headers_mut();
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    h.insert(header::UPGRADE, HeaderValue::from_static(SPDY_31));
    if let Ok(v) = HeaderValue::from_str(protocol) {
        h.insert(PROTOCOL_HEADER, v);
    }
    Some(resp)
}
