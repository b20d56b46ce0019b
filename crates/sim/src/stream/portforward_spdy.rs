//! `pods/portforward` over SPDY/3.1, kubectl's protocol `portforward.k8s.io`
//! (`docs/protocols.md` §4.1–§4.2), whether the session runs on the upgraded HTTP/1.1
//! connection or tunnelled in WebSocket binary messages ([`super::tunnel`]).
//!
//! Per local connection kubectl opens an `error` stream, then a `data` stream, both with
//! headers `streamtype`, `port` and `requestid` (streams of one request are paired by
//! `requestid`; without it a data stream pairs with the stream two ids before it, as the
//! kubelet does for old clients). The data stream is connected to the listener on that port
//! ([`crate::runtime::listeners`], served by [`crate::runtime::serve`], the same as the WebSocket path), looked
//! up when the connection arrives; when the pod side ends, the server sends `FIN` on the data
//! stream and then on the error stream. A port nobody listens on gets the kubelet's refused
//! text ([`refused_message`]) on the error stream, which kubectl prints as `an error occurred
//! forwarding L -> R: <text>`. [`Store::cut_streams`] drops the connection (no GOAWAY).

use std::collections::HashMap;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::task::JoinSet;

use crate::api::store::Store;
use crate::runtime::listeners::{listeners, refused_message};
use crate::runtime::serve::serve;
use crate::spdy::frame::rst;
use crate::spdy::{Session, Stream};

/// The SPDY stream protocol name (`X-Stream-Protocol-Version`).
pub(crate) const PROTOCOL: &str = "portforward.k8s.io";
/// The WebSocket subprotocol of the tunnelled variant.
pub(crate) const TUNNEL_PROTOCOL: &str = "SPDY/3.1+portforward.k8s.io";

/// Buffer of each in-process connection, bytes.
const PIPE: usize = 256 * 1024;
/// Bytes read from a pod-side connection per DATA write.
const READ_BYTES: usize = 32 * 1024;

#[derive(Default)]
struct Pending {
    error: Option<Stream>,
    data: Option<Stream>,
}

/// Serves one port-forward SPDY session on `io` for pod `ns/name` until the client leaves or
/// the store cuts streams ([`Store::cut_streams`]: the caller then drops the transport without
/// a goodbye).
pub(crate) async fn run<IO>(store: Store, ns: String, name: String, io: IO)
where
    IO: AsyncRead + AsyncWrite + Send + 'static,
{
    let mut cut = store.stream_cuts();
    let mut session = Session::serve(io);
    let mut pending: HashMap<String, Pending> = HashMap::new();
    // Dropping the set (on a cut) aborts every connection's task with the session.
    let mut conns = JoinSet::new();
    loop {
        let stream = tokio::select! {
            s = session.accept() => s,
            _ = cut.changed() => return,
            Some(_) = conns.join_next(), if !conns.is_empty() => continue,
        };
        let Some(stream) = stream else {
            return;
        };
        let kind = stream.headers.get("streamtype").unwrap_or("").to_string();
        let key = match (stream.headers.get("requestid"), kind.as_str()) {
            (Some(id), _) => id.to_string(),
            (None, "data") => stream.id.saturating_sub(2).to_string(),
            (None, _) => stream.id.to_string(),
        };
        let slot = pending.entry(key.clone()).or_default();
        match kind.as_str() {
            "error" => slot.error = Some(stream),
            "data" => slot.data = Some(stream),
            _ => {
                // The kubelet rejects unknown stream types.
                stream.writer.reset(rst::PROTOCOL_ERROR).await;
                continue;
            }
        }
        if slot.error.is_some()
            && slot.data.is_some()
            && let Some(Pending {
                error: Some(error),
                data: Some(data),
            }) = pending.remove(&key)
        {
            conns.spawn(connection(
                store.clone(),
                ns.clone(),
                name.clone(),
                error,
                data,
            ));
        }
    }
}

/// The remote port of a request: the data stream's `port` header (else the error stream's).
/// Errors: the kubelet's texts for a missing or unparsable port.
fn port_of(error: &Stream, data: &Stream) -> Result<u16, String> {
    let Some(p) = data
        .headers
        .get("port")
        .or_else(|| error.headers.get("port"))
    else {
        return Err("\"port\" header is required".to_string());
    };
    match p.parse::<u16>() {
        Ok(n) if n > 0 => Ok(n),
        Ok(_) => Err(format!("port {p:?} must be > 0")),
        Err(e) => Err(format!("unable to parse {p:?} as a port: {e}")),
    }
}

/// One forwarded connection: dial the pod's listener, copy both ways, then `FIN` the data and
/// error streams; or write why not on the error stream.
async fn connection(store: Store, ns: String, name: String, error: Stream, data: Stream) {
    let port = port_of(&error, &data);
    let pod = store.pod(&ns, &name);
    let found = match (&port, &pod) {
        (Ok(port), Some(pod)) => listeners(pod)
            .into_iter()
            .find(|(p, _)| p == port)
            .map(|(_, l)| l),
        _ => None,
    };
    let Stream {
        reader: mut from_client,
        writer: to_client,
        ..
    } = data;
    match (found, pod, port) {
        (Some(listener), Some(pod), Ok(_)) => {
            let (ours, theirs) = tokio::io::duplex(PIPE);
            tokio::spawn(serve(store, pod, listener, theirs));
            let (mut r, mut w) = tokio::io::split(ours);
            // Client → pod runs on its own; the connection is over when the pod side ends.
            let up = tokio::spawn(async move {
                while let Some(b) = from_client.read().await {
                    if w.write_all(&b).await.is_err() {
                        break;
                    }
                }
                let _ = w.shutdown().await;
            });
            // Each read lands in a buffer the DATA frame then owns (no copy into the frame);
            // `read_buf` does not zero the room it reads into.
            let mut buf = bytes::BytesMut::new();
            loop {
                buf.reserve(READ_BYTES);
                match r.read_buf(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if to_client.write_bytes(buf.split().freeze()).await.is_err() {
                            break;
                        }
                    }
                }
            }
            let _ = to_client.close().await;
            up.abort();
        }
        (_, pod, port) => {
            let msg = match (pod, port) {
                (_, Err(e)) => e,
                (Some(pod), Ok(port)) => refused_message(&pod, port),
                (None, Ok(_)) => format!("pod not found ({name:?})"),
            };
            let _ = error.writer.write(msg.as_bytes()).await;
            let _ = to_client.close().await;
        }
    }
    let _ = error.writer.close().await;
}
