//! `pods/log` over a WebSocket (`--log-transport websocket`), for proxies that pass only
//! WebSockets: the same URL and query as the HTTP GET kube-rs makes, sent through the same
//! `kube::Client` with the upgrade headers (as kube-rs upgrades exec/attach), so a kubeconfig that
//! works over HTTP works here too (the same credentials, exec plugins included, TLS and proxy).
//! The frames' bytes become a [`LogBody`] for the same [`LineBatcher`]
//! (`crate::cluster::logs::LineBatcher`) the HTTP body feeds.
//!
//! Wire facts (`docs/protocols.md` §2; apimachinery `wsstream.Reader`): the client offers
//! `binary.k8s.io` (binary frames, raw bytes) and/or `base64.binary.k8s.io` (text frames, base64
//! of the bytes); the server picks the first offer it supports. A zero-length first frame is the
//! server's keep-alive and carries nothing; frame boundaries do not follow lines; a close frame
//! with code 1000 ends the log. A refused upgrade (4xx/5xx) carries the usual `Status`, mapped to
//! [`LogError::Server`] as over HTTP.
//!
//! `kube::Client::connect` cannot be used as it is: it overwrites `Sec-WebSocket-Protocol` with
//! the exec channels and rejects any other answer (`docs/protocols.md` §3.4). So the upgrade is
//! sent with `Client::send` (the client's whole middleware: base URL, credentials, TLS, proxy),
//! checked here as `connect` checks it, and taken over with `hyper::upgrade::on`.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use futures::{StreamExt as _, TryStreamExt as _};
use http::{HeaderValue, Request, StatusCode, header};
use hyper_util::rt::TokioIo;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::LogParams;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::client::generate_key;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::logs::{LogBody, LogError, open};

/// Which transport reads `pods/log` (`--log-transport`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogTransport {
    /// The streaming HTTP GET kubectl makes (default).
    #[default]
    Http,
    /// The same GET upgraded to a WebSocket (`binary.k8s.io` / `base64.binary.k8s.io`).
    Websocket,
}

/// A `pods/log` WebSocket subprotocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WsSubprotocol {
    /// `binary.k8s.io`: binary frames carrying the raw log bytes.
    Binary,
    /// `base64.binary.k8s.io`: text frames carrying the base64 of the log bytes.
    Base64,
}

impl WsSubprotocol {
    /// The name sent in `Sec-WebSocket-Protocol`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            WsSubprotocol::Binary => "binary.k8s.io",
            WsSubprotocol::Base64 => "base64.binary.k8s.io",
        }
    }
}

/// Opens `pods/log` WebSockets for one namespace through a `kube::Client`.
#[derive(Clone)]
pub struct WsLogClient {
    client: kube::Client,
    namespace: String,
    offers: Vec<WsSubprotocol>,
}

impl std::fmt::Debug for WsLogClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WsLogClient")
            .field("namespace", &self.namespace)
            .field("offers", &self.offers)
            .finish_non_exhaustive()
    }
}

impl WsLogClient {
    /// A client reading pods in `namespace` through `client` (its server, credentials, TLS and
    /// proxy); offers `binary.k8s.io` then `base64.binary.k8s.io`.
    #[must_use]
    pub fn new(client: kube::Client, namespace: &str) -> WsLogClient {
        WsLogClient {
            client,
            namespace: namespace.to_owned(),
            offers: vec![WsSubprotocol::Binary, WsSubprotocol::Base64],
        }
    }

    /// The same client offering only `offers`, in this order (the server takes the first it
    /// supports).
    #[must_use]
    pub fn with_subprotocols(mut self, offers: Vec<WsSubprotocol>) -> WsLogClient {
        self.offers = offers;
        self
    }

    /// Opens `GET …/namespaces/{ns}/pods/{pod}/log?{params}` as a WebSocket and returns its bytes
    /// as a body. Errors: [`LogError::Server`] with the server's `Status` when it refuses the
    /// upgrade (404 unknown pod, the kubelet's 400s, 401/403 …), else [`LogError::Transport`]
    /// (the request could not be sent, or the answer is not a valid upgrade, RFC 6455 §4.1).
    pub async fn open(&self, pod: &str, params: &LogParams) -> Result<LogBody, LogError> {
        let base = <Pod as kube::Resource>::url_path(&(), Some(&self.namespace));
        let req = kube::core::Request::new(base)
            .logs(pod, params)
            .map_err(|e| LogError::Transport(e.to_string()))?;
        let (mut parts, body) = req.into_parts();
        let key = generate_key();
        let h = &mut parts.headers;
        h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
        h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        h.insert(
            header::SEC_WEBSOCKET_VERSION,
            HeaderValue::from_static("13"),
        );
        h.insert(
            header::SEC_WEBSOCKET_KEY,
            transport(HeaderValue::from_str(&key))?,
        );
        let offers: Vec<&str> = self.offers.iter().map(|p| p.name()).collect();
        if !offers.is_empty() {
            let v = transport(HeaderValue::from_str(&offers.join(", ")))?;
            h.insert(header::SEC_WEBSOCKET_PROTOCOL, v);
        }
        let request = Request::from_parts(parts, kube::client::Body::from(body));
        let res = self.client.send(request).await?;
        let status = res.status();
        if status.is_client_error() || status.is_server_error() {
            let body = res.into_body().collect_bytes().await.unwrap_or_default();
            return Err(refused(status, &body));
        }
        if status != StatusCode::SWITCHING_PROTOCOLS {
            return Err(LogError::Transport(format!(
                "log WebSocket upgrade answered {status}"
            )));
        }
        verify(res.headers(), &key, &offers)?;
        let upgraded = hyper::upgrade::on(res)
            .await
            .map_err(|e| LogError::Transport(format!("log WebSocket upgrade: {e}")))?;
        let ws = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Client, None).await;
        Ok(body_of(ws))
    }
}

fn transport<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<T, LogError> {
    r.map_err(|e| LogError::Transport(e.to_string()))
}

/// Checks a `101` answer (RFC 6455 §4.1): `Upgrade: websocket`, `Sec-WebSocket-Accept` derived
/// from `key`, and a subprotocol among `offers` (none when none was offered).
fn verify(h: &http::HeaderMap, key: &str, offers: &[&str]) -> Result<(), LogError> {
    let bad = |what: &str| {
        Err(LogError::Transport(format!(
            "log WebSocket upgrade: {what}"
        )))
    };
    let upgrade = h.get(header::UPGRADE).and_then(|v| v.to_str().ok());
    if !upgrade.is_some_and(|v| v.eq_ignore_ascii_case("websocket")) {
        return bad("the answer's Upgrade header is not websocket");
    }
    let accept = h
        .get(header::SEC_WEBSOCKET_ACCEPT)
        .map(HeaderValue::as_bytes);
    if accept != Some(derive_accept_key(key.as_bytes()).as_bytes()) {
        return bad("Sec-WebSocket-Accept does not match the key");
    }
    let chosen = h
        .get(header::SEC_WEBSOCKET_PROTOCOL)
        .and_then(|v| v.to_str().ok());
    match chosen {
        None if offers.is_empty() => Ok(()),
        Some(p) if offers.contains(&p) => Ok(()),
        other => bad(&format!(
            "the server chose subprotocol {other:?}, offered {offers:?}"
        )),
    }
}

/// The `Status` of a refused upgrade, or its bare code and text.
fn refused(code: StatusCode, body: &[u8]) -> LogError {
    let status: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let field = |k: &str| status.get(k).and_then(|v| v.as_str()).map(str::to_owned);
    let text = String::from_utf8_lossy(body).trim().to_owned();
    LogError::Server {
        code: code.as_u16(),
        reason: field("reason").unwrap_or_else(|| code.canonical_reason().unwrap_or("").to_owned()),
        message: field("message").unwrap_or(if text.is_empty() {
            code.to_string()
        } else {
            text
        }),
    }
}

/// The log bytes the frames of `ws` carry, as a body.
fn body_of<S>(ws: WebSocketStream<S>) -> LogBody
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let frames = futures::stream::unfold(Some(ws), |state| async move {
        let mut ws = state?;
        loop {
            let item = match ws.next().await? {
                // Binary frames carry raw bytes (`binary.k8s.io`), text frames base64
                // (`base64.binary.k8s.io`); empty ones are the server's keep-alive.
                Ok(Message::Binary(b)) if b.is_empty() => continue,
                Ok(Message::Binary(b)) => Ok(b),
                Ok(Message::Text(t)) if t.is_empty() => continue,
                Ok(Message::Text(t)) => base64::engine::general_purpose::STANDARD
                    .decode(t.as_bytes())
                    .map(Bytes::from)
                    .map_err(|e| {
                        io::Error::new(io::ErrorKind::InvalidData, format!("base64 frame: {e}"))
                    }),
                Ok(Message::Close(frame)) => {
                    // Answer the close; the log ended normally unless the code says otherwise.
                    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
                    return match frame {
                        Some(f) if f.code != CloseCode::Normal => Some((
                            Err(io::Error::other(format!(
                                "the server closed the log WebSocket with code {}: {}",
                                u16::from(f.code),
                                f.reason
                            ))),
                            None,
                        )),
                        _ => None,
                    };
                }
                Ok(_) => continue,
                Err(e) => Err(io::Error::other(e)),
            };
            let next = item.is_ok().then_some(ws);
            return Some((item, next));
        }
    });
    Box::pin(Box::pin(frames).into_async_read())
}

/// Where log streams are read from: kube-rs's HTTP GET or a [`WsLogClient`].
#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // one per stream, cloned once per stream start
pub enum LogSource {
    /// `Api::log_stream` (the streaming HTTP GET).
    Http(Api<Pod>),
    /// The WebSocket upgrade of the same GET.
    WebSocket(Arc<WsLogClient>),
}

impl std::fmt::Debug for LogSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogSource::Http(_) => f.write_str("LogSource::Http"),
            LogSource::WebSocket(c) => f.debug_tuple("LogSource::WebSocket").field(c).finish(),
        }
    }
}

impl LogSource {
    /// The source for `transport` reading the pods of `namespace` through `client`.
    #[must_use]
    pub fn new(transport: LogTransport, client: &kube::Client, namespace: &str) -> LogSource {
        match transport {
            LogTransport::Http => LogSource::Http(Api::namespaced(client.clone(), namespace)),
            LogTransport::Websocket => {
                LogSource::WebSocket(Arc::new(WsLogClient::new(client.clone(), namespace)))
            }
        }
    }

    /// Opens the log of `pod` with `params`. Errors: as [`open`] / [`WsLogClient::open`].
    pub async fn open(&self, pod: &str, params: &LogParams) -> Result<LogBody, LogError> {
        match self {
            LogSource::Http(api) => open(api, pod, params).await,
            LogSource::WebSocket(c) => c.open(pod, params).await,
        }
    }
}
