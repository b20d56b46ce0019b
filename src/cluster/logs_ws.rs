//! `pods/log` over a WebSocket (`--log-transport websocket`), for proxies that pass only
//! WebSockets: the same URL and query as the HTTP GET kube-rs makes, upgraded with
//! tokio-tungstenite; the frames' bytes become a [`LogBody`] for the same [`LineBatcher`]
//! (`crate::cluster::logs::LineBatcher`) the HTTP body feeds.
//!
//! Wire facts (`docs/protocols.md` §2; apimachinery `wsstream.Reader`): the client offers
//! `binary.k8s.io` (binary frames, raw bytes) and/or `base64.binary.k8s.io` (text frames, base64
//! of the bytes); the server picks the first offer it supports. A zero-length first frame is the
//! server's keep-alive and carries nothing; frame boundaries do not follow lines; a close frame
//! with code 1000 ends the log. A refused upgrade (4xx/5xx) carries the usual `Status`, mapped to
//! [`LogError::Server`] as over HTTP.
//!
//! Credentials and TLS come from the resolved `kube::Config` ([`super::ws_auth`]: CA data or
//! file, insecure-skip-tls-verify, bearer token / token file, basic auth, client certificates,
//! impersonation); exec plugins, auth providers and `proxy-url` are refused with a message.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use futures::{StreamExt as _, TryStreamExt as _};
use http::{HeaderMap, HeaderValue, header};
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::LogParams;
use rustls::ClientConfig;
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::logs::{LogBody, LogError, open};
use super::ws_auth::{WsAuthError, request_headers, tls_config};

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

/// Opens `pods/log` WebSockets for one namespace of one cluster.
#[derive(Clone)]
pub struct WsLogClient {
    /// `http`/`https`, host and port, and the server's path prefix (no trailing `/`).
    scheme: String,
    host: String,
    port: u16,
    prefix: String,
    namespace: String,
    tls: Option<(Arc<ClientConfig>, ServerName<'static>)>,
    headers: HeaderMap,
    offers: Vec<WsSubprotocol>,
    connect_timeout: Option<Duration>,
}

impl std::fmt::Debug for WsLogClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WsLogClient")
            .field(
                "server",
                &format!(
                    "{}://{}:{}{}",
                    self.scheme, self.host, self.port, self.prefix
                ),
            )
            .field("namespace", &self.namespace)
            .field("offers", &self.offers)
            .finish_non_exhaustive()
    }
}

impl WsLogClient {
    /// A client for `config`'s server and credentials, reading pods in `namespace`; offers
    /// `binary.k8s.io` then `base64.binary.k8s.io`. Errors: credentials or TLS settings this
    /// transport cannot use (see the module docs), one line each.
    pub fn new(config: &kube::Config, namespace: &str) -> Result<WsLogClient, WsAuthError> {
        if config.proxy_url.is_some() {
            return Err(WsAuthError(
                "--log-transport websocket does not support proxy-url; use --log-transport http"
                    .into(),
            ));
        }
        let url = &config.cluster_url;
        let scheme = url.scheme_str().unwrap_or("https").to_owned();
        let host = url
            .host()
            .ok_or_else(|| WsAuthError(format!("server {url} has no host")))?
            .to_owned();
        let tls_on = scheme == "https";
        let port = url.port_u16().unwrap_or(if tls_on { 443 } else { 80 });
        let tls = if tls_on {
            Some(tls_config(config, &host)?)
        } else {
            None
        };
        Ok(WsLogClient {
            scheme,
            host,
            port,
            prefix: url.path().trim_end_matches('/').to_owned(),
            namespace: namespace.to_owned(),
            tls,
            headers: request_headers(config)?,
            offers: vec![WsSubprotocol::Binary, WsSubprotocol::Base64],
            connect_timeout: config.connect_timeout,
        })
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
    /// upgrade (404 unknown pod, the kubelet's 400s, 401/403 …), else [`LogError::Transport`].
    pub async fn open(&self, pod: &str, params: &LogParams) -> Result<LogBody, LogError> {
        let base = <Pod as kube::Resource>::url_path(&(), Some(&self.namespace));
        let req = kube::core::Request::new(base)
            .logs(pod, params)
            .map_err(|e| LogError::Transport(e.to_string()))?;
        let ws_scheme = if self.tls.is_some() { "wss" } else { "ws" };
        let url = format!(
            "{ws_scheme}://{}:{}{}{}",
            self.host,
            self.port,
            self.prefix,
            req.uri()
        );
        let mut request = url
            .as_str()
            .into_client_request()
            .map_err(|e| LogError::Transport(format!("log WebSocket request {url}: {e}")))?;
        for (k, v) in &self.headers {
            request.headers_mut().append(k, v.clone());
        }
        let offers: Vec<&str> = self.offers.iter().map(|p| p.name()).collect();
        if !offers.is_empty() {
            let v = HeaderValue::from_str(&offers.join(", "))
                .map_err(|e| LogError::Transport(e.to_string()))?;
            request
                .headers_mut()
                .insert(header::SEC_WEBSOCKET_PROTOCOL, v);
        }
        let connect = async {
            let host = self.host.trim_start_matches('[').trim_end_matches(']');
            let tcp = tokio::net::TcpStream::connect((host, self.port)).await?;
            let _ = tcp.set_nodelay(true);
            Ok::<_, io::Error>(tcp)
        };
        let tcp = match self.connect_timeout {
            Some(t) => tokio::time::timeout(t, connect)
                .await
                .map_err(|_| LogError::Transport(format!("connecting to {url} timed out")))?,
            None => connect.await,
        }
        .map_err(|e| LogError::Transport(format!("connecting to {url}: {e}")))?;
        match &self.tls {
            Some((cfg, name)) => {
                let tls = tokio_rustls::TlsConnector::from(cfg.clone())
                    .connect(name.clone(), tcp)
                    .await
                    .map_err(|e| LogError::Transport(format!("TLS with {url}: {e}")))?;
                handshake(request, tls).await
            }
            None => handshake(request, tcp).await,
        }
    }
}

/// The `Status` of a refused upgrade, or its bare code and text.
fn refused(resp: &tungstenite::handshake::client::Response) -> LogError {
    let code = resp.status().as_u16();
    let body = resp.body().as_deref().unwrap_or_default();
    let status: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let field = |k: &str| status.get(k).and_then(|v| v.as_str()).map(str::to_owned);
    let text = String::from_utf8_lossy(body).trim().to_owned();
    LogError::Server {
        code,
        reason: field("reason")
            .unwrap_or_else(|| resp.status().canonical_reason().unwrap_or("").to_owned()),
        message: field("message").unwrap_or(if text.is_empty() {
            resp.status().to_string()
        } else {
            text
        }),
    }
}

async fn handshake<S>(
    request: tungstenite::handshake::client::Request,
    io: S,
) -> Result<LogBody, LogError>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (ws, _resp) = match tokio_tungstenite::client_async(request, io).await {
        Ok(ok) => ok,
        Err(tungstenite::Error::Http(resp)) => return Err(refused(&resp)),
        Err(e) => return Err(LogError::Transport(format!("log WebSocket handshake: {e}"))),
    };
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
    Ok(Box::pin(Box::pin(frames).into_async_read()))
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
    /// The source for `transport`: `api` itself for HTTP, a [`WsLogClient`] built from `config`
    /// for the pods of `api`'s namespace otherwise. Errors: see [`WsLogClient::new`].
    pub fn new(
        transport: LogTransport,
        api: Api<Pod>,
        config: &kube::Config,
        namespace: &str,
    ) -> Result<LogSource, WsAuthError> {
        Ok(match transport {
            LogTransport::Http => LogSource::Http(api),
            LogTransport::Websocket => {
                LogSource::WebSocket(Arc::new(WsLogClient::new(config, namespace)?))
            }
        })
    }

    /// Opens the log of `pod` with `params`. Errors: as [`open`] / [`WsLogClient::open`].
    pub async fn open(&self, pod: &str, params: &LogParams) -> Result<LogBody, LogError> {
        match self {
            LogSource::Http(api) => open(api, pod, params).await,
            LogSource::WebSocket(c) => c.open(pod, params).await,
        }
    }
}
