//! `pods/log` over a WebSocket upgrade, as kube-apiserver serves it to clients (and proxies)
//! that speak only WebSockets: the same URL, query parameters, container selection and error
//! texts as the plain HTTP answer ([`super`]), carried in WebSocket frames.
//!
//! Wire facts [src `k8s.io/apimachinery/pkg/util/httpstream/wsstream/stream.go` `Reader`,
//! `conn.go` `handshake`, `IsWebSocketRequest`; the apiserver's `StreamObject` upgrades when
//! `Upgrade: websocket` and `Connection: upgrade` are present]:
//! - Subprotocols: `binary.k8s.io` (and none at all): **binary** frames carrying the raw log
//!   bytes; `base64.binary.k8s.io`: **text** frames carrying the standard base64 (with padding)
//!   of the bytes. The server takes the client's offers in order and picks the first it knows;
//!   it echoes it in `Sec-WebSocket-Protocol` (nothing when none was offered).
//! - The stream starts with one zero-length frame of the negotiated kind (the apiserver's
//!   keep-alive "ping" message), then frames of at most [`FRAME_BYTES`] log bytes (the
//!   apiserver copies through a 2048-byte buffer). Frame boundaries do not follow lines.
//! - When the log ends (not following, or the followed instance stopped) the server sends a
//!   close frame with code 1000. Messages from the client are read and ignored.
//! - Errors found before the upgrade (unknown pod 404, container selection 400, the kubelet's
//!   400s, bad options) are the ordinary `Status` responses, exactly as over HTTP.
//! - Offers none of which is supported: 403 Forbidden (the apiserver writes a bare 403; the
//!   simulator adds the wsstream error text `requested protocol(s) are not supported: …` as the
//!   Status message) [derived].

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use tokio::sync::mpsc;

use crate::api::logs::{self, LogBytes};
use crate::api::query::Query;
use crate::api::status::ApiError;
use crate::api::store::Store;

/// The subprotocol with binary frames of raw log bytes.
pub const BINARY_PROTOCOL: &str = "binary.k8s.io";
/// The subprotocol with text frames of base64-encoded log bytes.
pub const BASE64_PROTOCOL: &str = "base64.binary.k8s.io";
/// Most log bytes in one frame (before base64), as the apiserver's 2048-byte copy buffer.
pub const FRAME_BYTES: usize = 2048;
/// How long the server waits for the client's close reply after its own close frame.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// How the negotiated subprotocol carries bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// Binary frames, raw bytes (`binary.k8s.io` or no subprotocol).
    Binary,
    /// Text frames, base64 (`base64.binary.k8s.io`).
    Base64,
}

/// `IsWebSocketRequest`: `Upgrade: websocket` (any case) and a `Connection` header listing
/// `upgrade`.
fn is_websocket_request(h: &HeaderMap) -> bool {
    let upgrade = h
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("websocket"));
    let connection = h.get_all(header::CONNECTION).iter().any(|v| {
        v.to_str().is_ok_and(|v| {
            v.split(',')
                .any(|t| t.trim().eq_ignore_ascii_case("upgrade"))
        })
    });
    upgrade && connection
}

/// Picks the first offered subprotocol the server supports: `Ok(None)` when none was offered
/// (binary), `Ok(Some(name))` to echo, 403 when every offer is unknown.
fn negotiate(h: &HeaderMap) -> Result<Option<(&'static str, Encoding)>, ApiError> {
    let offers: Vec<String> = h
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    if offers.is_empty() {
        return Ok(None);
    }
    for offer in &offers {
        match offer.as_str() {
            BINARY_PROTOCOL => return Ok(Some((BINARY_PROTOCOL, Encoding::Binary))),
            BASE64_PROTOCOL => return Ok(Some((BASE64_PROTOCOL, Encoding::Base64))),
            _ => {}
        }
    }
    Err(ApiError {
        code: 403,
        reason: "Forbidden",
        message: format!(
            "requested protocol(s) are not supported: [{}]; supports [ {BINARY_PROTOCOL} {BASE64_PROTOCOL}]",
            offers.join(" ")
        ),
    })
}

/// `GET …/pods/{name}/log`: a WebSocket upgrade when the request asks for one (see the module
/// docs), else the plain HTTP answer of [`logs::serve`].
pub(crate) async fn pod_log(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let q = Query::parse(q.as_deref());
    if !is_websocket_request(&headers) {
        return logs::serve(&store, &ns, &name, &q).unwrap_or_else(IntoResponse::into_response);
    }
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(rejection) => return rejection.into_response(),
    };
    // The apiserver opens the log (and reports its errors) before the WebSocket handshake.
    let bytes = match logs::open(&store, &ns, &name, &q) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let (upgrade, encoding) = match negotiate(&headers) {
        Ok(None) => (upgrade, Encoding::Binary),
        Ok(Some((name, encoding))) => (upgrade.protocols([name]), encoding),
        Err(e) => return e.into_response(),
    };
    upgrade.on_upgrade(move |socket| pump(socket, encoding, bytes))
}

/// Where the frames' bytes come from.
enum Source {
    Whole(Option<Vec<u8>>),
    Follow(mpsc::Receiver<Bytes>),
}

impl Source {
    async fn next(&mut self) -> Option<Bytes> {
        match self {
            Source::Whole(b) => b.take().map(Bytes::from),
            Source::Follow(rx) => rx.recv().await,
        }
    }
}

fn frame(encoding: Encoding, data: &[u8]) -> Message {
    match encoding {
        Encoding::Binary => Message::Binary(Bytes::copy_from_slice(data)),
        Encoding::Base64 => Message::Text(
            base64::engine::general_purpose::STANDARD
                .encode(data)
                .into(),
        ),
    }
}

/// Sends the empty first frame, the log bytes in frames of at most [`FRAME_BYTES`], then close
/// 1000. Stops quietly when the client closes or the connection breaks.
async fn pump(mut socket: WebSocket, encoding: Encoding, bytes: LogBytes) {
    let mut source = match bytes {
        LogBytes::Whole(b) => Source::Whole(Some(b)),
        LogBytes::Follow(rx) => Source::Follow(rx),
    };
    if socket.send(frame(encoding, &[])).await.is_err() {
        return;
    }
    loop {
        let chunk = tokio::select! {
            c = source.next() => c,
            m = socket.recv() => match m {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => continue,
            },
        };
        let Some(chunk) = chunk else { break };
        for part in chunk.chunks(FRAME_BYTES) {
            if socket.send(frame(encoding, part)).await.is_err() {
                return;
            }
        }
    }
    let close = CloseFrame {
        code: 1000,
        reason: "".into(),
    };
    if socket.send(Message::Close(Some(close))).await.is_err() {
        return;
    }
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        while let Some(Ok(m)) = socket.recv().await {
            if matches!(m, Message::Close(_)) {
                return;
            }
        }
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn upgrade_needs_both_headers() {
        assert!(is_websocket_request(&headers(&[
            ("upgrade", "WebSocket"),
            ("connection", "keep-alive, Upgrade")
        ])));
        assert!(!is_websocket_request(&headers(&[("upgrade", "websocket")])));
        assert!(!is_websocket_request(&headers(&[(
            "connection",
            "upgrade"
        )])));
    }

    #[test]
    fn first_supported_offer_wins() {
        let h = headers(&[(
            "sec-websocket-protocol",
            "v4.channel.k8s.io, base64.binary.k8s.io, binary.k8s.io",
        )]);
        assert_eq!(
            negotiate(&h).expect("supported"),
            Some((BASE64_PROTOCOL, Encoding::Base64))
        );
        assert_eq!(negotiate(&HeaderMap::new()).expect("none offered"), None);
        let e = negotiate(&headers(&[("sec-websocket-protocol", "v5.channel.k8s.io")]))
            .expect_err("unsupported");
        assert_eq!(e.code, 403);
        assert!(
            e.message
                .starts_with("requested protocol(s) are not supported: [v5.channel.k8s.io]")
        );
    }
}
