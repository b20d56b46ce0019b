//! `pods/portforward` over the WebSocket channel protocol (`docs/protocols.md` §4.3, the
//! kube-rs path): `?ports=8080,9090` (repeated and comma-separated; the kubelet's `port` too),
//! subprotocol `v4.channel.k8s.io` (or none). Port `i` uses data channel `2i` and error channel
//! `2i+1`; right after the upgrade each channel carries the port as 2 little-endian bytes. Each
//! port is dialled once at the start: a listener ([`crate::runtime::listeners`], [`crate::runtime::serve`]) gets
//! the bytes, a port nobody listens on gets the kubelet's "connection refused" text on its error
//! channel. When every port's connection has ended the server sends a close frame.
//! [`Store::cut_streams`] drops the connection instead, with no close frame.
//!
//! kubectl's requests (no `ports` query) are served over SPDY ([`super::portforward_spdy`]):
//! `POST` with `Upgrade: SPDY/3.1`, or a WebSocket offering `SPDY/3.1+portforward.k8s.io`
//! whose binary messages carry the SPDY bytes ([`super::tunnel`]).

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Path, Request, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

use super::portforward_spdy;
use super::{Protocol, find_pod, host_assigned, negotiate};
use crate::api::query::Query;
use crate::api::status::ApiError;
use crate::api::store::Store;
use crate::runtime::listeners::{listeners, refused_message};
use crate::runtime::serve::serve;
use crate::spdy::upgrade::{
    accept as accept_spdy, is_spdy_upgrade, negotiate as negotiate_spdy, offered_protocols,
};

/// Buffer of each in-process connection, bytes.
const PIPE: usize = 256 * 1024;

/// `GET|POST …/pods/{name}/portforward`: SPDY (native or tunnelled) for kubectl, else the
/// WebSocket channel protocol.
pub(crate) async fn portforward(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    req: Request,
) -> Response {
    if is_spdy_upgrade(req.headers()) {
        return spdy(store, ns, name, req).unwrap_or_else(IntoResponse::into_response);
    }
    let (mut parts, _) = req.into_parts();
    let q = parts.uri.query().map(str::to_string);
    let headers = parts.headers.clone();
    let ws = WebSocketUpgrade::from_request_parts(&mut parts, &store).await;
    if offers_tunnel(&headers) {
        return tunnel(store, ns, name, ws).unwrap_or_else(IntoResponse::into_response);
    }
    match prepare(&store, &ns, &name, q.as_deref(), &headers) {
        Err(e) => e.into_response(),
        Ok((ports, protocol)) => match ws {
            Err(_) => ApiError::bad_request("Upgrade request required").into_response(),
            Ok(mut ws) => {
                if let (Some(p), Ok(v)) =
                    (protocol, http::HeaderValue::from_str(Protocol::V4.name()))
                {
                    let _ = p;
                    ws.set_selected_protocol(v);
                }
                ws.on_upgrade(move |socket| run(store, ns, name, ports, socket))
            }
        },
    }
}

/// Whether a WebSocket request offers the SPDY tunnelling subprotocol.
fn offers_tunnel(headers: &HeaderMap) -> bool {
    headers
        .get_all(http::header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim() == portforward_spdy::TUNNEL_PROTOCOL)
}

/// `POST` + `Upgrade: SPDY/3.1`, `X-Stream-Protocol-Version: portforward.k8s.io` (Appendix
/// A.8). Errors: 404 pod, 400 no host, 400 another protocol offered.
fn spdy(store: Store, ns: String, name: String, req: Request) -> Result<Response, ApiError> {
    let pod = find_pod(&store, &ns, &name)?;
    host_assigned(&pod)?;
    let offered = offered_protocols(req.headers());
    if !offered.is_empty() && negotiate_spdy(&offered, &[portforward_spdy::PROTOCOL]).is_none() {
        return Err(ApiError::bad_request(format!(
            "unable to upgrade: unable to negotiate protocol: client supports {offered:?}, server supports [\"{}\"]",
            portforward_spdy::PROTOCOL
        )));
    }
    tracing::debug!("pods/portforward {ns}/{name}: SPDY/3.1 upgrade");
    accept_spdy(req, portforward_spdy::PROTOCOL, move |io| async move {
        portforward_spdy::run(store, ns, name, io).await;
    })
    .ok_or_else(|| ApiError::bad_request("Upgrade request required"))
}

/// WebSocket with subprotocol `SPDY/3.1+portforward.k8s.io` (Appendix A.9): SPDY in binary
/// messages. Errors: 404 pod, 400 no host, 400 not a WebSocket request.
fn tunnel(
    store: Store,
    ns: String,
    name: String,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let pod = find_pod(&store, &ns, &name)?;
    host_assigned(&pod)?;
    let Ok(ws) = ws else {
        return Err(ApiError::bad_request("Upgrade request required"));
    };
    // The WebSocket layer zeroes its read buffer's free room, up to the read buffer size,
    // before every read from the connection. A read returns at most what TLS has decrypted (16
    // KiB records) and kubectl sends each SPDY frame's header and payload as two messages, so
    // the default 128 KiB zeroed eight times what a read could bring; 32 KiB holds two records.
    let mut ws = ws.read_buffer_size(TUNNEL_READ_BUFFER);
    tracing::debug!("pods/portforward {ns}/{name}: SPDY/3.1 tunnelled in WebSocket");
    ws.set_selected_protocol(http::HeaderValue::from_static(
        portforward_spdy::TUNNEL_PROTOCOL,
    ));
    // The session runs on the WebSocket itself (`tunnel::WsIo`); when it ends, the WebSocket is
    // dropped: after the client's close (answered by the WebSocket layer), or without a close
    // frame on a cut.
    Ok(ws.on_upgrade(move |socket| async move {
        portforward_spdy::run(store, ns, name, super::tunnel::WsIo::new(socket)).await;
    }))
}

/// Parses and checks the request. Errors: 404 pod, 400 no host, 400 bad or missing ports.
fn prepare(
    store: &Store,
    ns: &str,
    name: &str,
    q: Option<&str>,
    headers: &HeaderMap,
) -> Result<(Vec<u16>, Option<Protocol>), ApiError> {
    let pod = find_pod(store, ns, name)?;
    host_assigned(&pod)?;
    let q = Query::parse(q);
    let mut ports = Vec::new();
    for s in q
        .all("ports")
        .into_iter()
        .chain(q.all("port"))
        .flat_map(|v| v.split(','))
    {
        let s = s.trim();
        let p: u16 = s
            .parse()
            .map_err(|e| ApiError::bad_request(format!("unable to parse {s:?} as a port: {e}")))?;
        if p == 0 {
            return Err(ApiError::bad_request(format!("port {s:?} must be > 0")));
        }
        ports.push(p);
    }
    if ports.is_empty() {
        return Err(ApiError::bad_request(
            "query parameter \"port\" is required",
        ));
    }
    let protocol = negotiate(headers, &[Protocol::V4])?;
    Ok((ports, protocol))
}

/// The tunnel's WebSocket read buffer, bytes (see [`tunnel`]).
const TUNNEL_READ_BUFFER: usize = 32 * 1024;

/// Bytes read from a pod-side connection per frame.
const READ_BYTES: usize = 64 * 1024;

fn frame(channel: usize, data: &[u8]) -> Message {
    let mut v = Vec::with_capacity(data.len() + 1);
    v.push(u8::try_from(channel).unwrap_or(u8::MAX));
    v.extend_from_slice(data);
    Message::Binary(Bytes::from(v))
}

async fn run(
    store: Store,
    ns: String,
    name: String,
    ports: Vec<u16>,
    socket: axum::extract::ws::WebSocket,
) {
    let mut cut = store.stream_cuts();
    let (mut sink, mut stream) = socket.split();
    for (i, p) in ports.iter().enumerate() {
        let le = p.to_le_bytes();
        if sink.send(frame(2 * i, &le)).await.is_err()
            || sink.send(frame(2 * i + 1, &le)).await.is_err()
        {
            return;
        }
    }
    let pod = store.pod(&ns, &name);
    let open = pod.as_ref().map(listeners).unwrap_or_default();
    // Output of the in-pod connections towards the client: (channel, bytes), empty = EOF.
    let (tx, mut rx) = mpsc::channel::<(usize, Vec<u8>)>(64);
    // Client bytes per port go through an unbounded queue to a writer task, so reading the
    // WebSocket never waits on a slow in-pod reader (kube-rs multiplexes both directions in one
    // loop; blocking here would deadlock a full-duplex transfer).
    let mut writers: Vec<Option<mpsc::UnboundedSender<Bytes>>> = Vec::new();
    let mut live = 0usize;
    for (i, port) in ports.iter().enumerate() {
        let found = open.iter().find(|(p, _)| p == port).map(|(_, l)| l.clone());
        match (found, &pod) {
            (Some(listener), Some(pod)) => {
                let (ours, theirs) = tokio::io::duplex(PIPE);
                tokio::spawn(serve(store.clone(), pod.clone(), listener, theirs));
                let (mut r, mut w) = tokio::io::split(ours);
                let (wtx, mut wrx) = mpsc::unbounded_channel::<Bytes>();
                tokio::spawn(async move {
                    while let Some(b) = wrx.recv().await {
                        if w.write_all(&b).await.is_err() {
                            return;
                        }
                    }
                    let _ = w.shutdown().await;
                });
                writers.push(Some(wtx));
                live += 1;
                let tx = tx.clone();
                tokio::spawn(async move {
                    // Each read lands in a buffer that already holds the channel byte, so the
                    // frame is sent without another copy.
                    let channel = u8::try_from(2 * i).unwrap_or(u8::MAX);
                    loop {
                        let mut v = vec![0u8; 1 + READ_BYTES];
                        v[0] = channel;
                        match r.read(&mut v[1..]).await {
                            Ok(0) | Err(_) => {
                                let _ = tx.send((2 * i, Vec::new())).await;
                                break;
                            }
                            Ok(n) => {
                                v.truncate(1 + n);
                                if tx.send((2 * i, v)).await.is_err() {
                                    break;
                                }
                            }
                        }
                    }
                });
            }
            (_, pod) => {
                writers.push(None);
                let msg = match pod {
                    Some(pod) => refused_message(pod, *port),
                    None => format!("pod not found ({name:?})"),
                };
                if sink.send(frame(2 * i + 1, msg.as_bytes())).await.is_err() {
                    return;
                }
            }
        }
    }
    drop(tx);
    let to_client = tokio::spawn(async move {
        while live > 0 {
            let Some((_, data)) = rx.recv().await else {
                break;
            };
            if data.is_empty() {
                live -= 1;
                continue;
            }
            // `data` is a whole frame (channel byte first); queue what else is ready and flush
            // once, so TLS records and writes carry several frames.
            if sink.feed(Message::Binary(Bytes::from(data))).await.is_err() {
                return;
            }
            while let Ok((_, more)) = rx.try_recv() {
                if more.is_empty() {
                    live -= 1;
                    continue;
                }
                if sink.feed(Message::Binary(Bytes::from(more))).await.is_err() {
                    return;
                }
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
        // `close` sends our Close frame, or, when the client closed first, flushes the reply
        // tungstenite queued on reading theirs: either way the closing handshake completes.
        let _ = sink.close().await;
    });
    loop {
        let msg = tokio::select! {
            msg = stream.next() => match msg {
                Some(Ok(msg)) => msg,
                _ => break,
            },
            _ = cut.changed() => {
                // `Store::cut_streams`: drop both halves of the socket, no close frame.
                to_client.abort();
                return;
            }
        };
        match msg {
            Message::Binary(b) if b.len() > 1 => {
                let ch = usize::from(b[0]);
                if ch % 2 == 0
                    && let Some(slot) = writers.get_mut(ch / 2)
                    && slot.as_ref().is_some_and(|w| w.send(b.slice(1..)).is_err())
                {
                    *slot = None;
                }
            }
            Message::Close(_) => break,
            _ => {}
        }
    }
    // Dropping the queues lets each writer task flush and shut its side down.
    drop(writers);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), to_client).await;
}
