//! One port of `pods/portforward` over a WebSocket, the client end (`docs/protocols.md` §4.3):
//! channel 0 carries the port's data and channel 1 its error text; the first frame on each
//! channel is the port number (2 bytes, little-endian), after the channel byte.
//!
//! kube-rs' `Portforwarder` speaks the same protocol, but reads the local side 4 KiB at a time
//! and flushes every frame through a one-slot channel, so a bulk transfer moved in 4 KiB
//! WebSocket frames, each its own TLS record and write: 69 % of a direct loopback connection on
//! `cargo bench --bench stream`. Here the upgrade is still kube-rs' (`Client::connect`: the
//! client's credentials, TLS, proxy and its `Status` errors), and the frames are ours:
//!
//! - **to the pod**: up to [`FRAME_BYTES`] (64 KiB) read from the pipe straight into the frame's
//!   buffer after its channel byte (one copy: socket → frame; tungstenite masks it into its
//!   write buffer), sent with one flush per frame;
//! - **from the pod**: each frame's payload written into the pipe as it arrives (a slice of the
//!   frame, no copy);
//! - the pipe between this task and the forwarded socket's copy is [`PIPE_BYTES`] (256 KiB) each
//!   way: room for four frames, so neither direction waits on the other's scheduling.
//!
//! The two directions run concurrently: a direction blocked on a full socket never stops the
//! other (a full-duplex echo would otherwise deadlock). The pod's side ending ends the task.

use bytes::{BufMut, BytesMut};
use futures::{SinkExt as _, StreamExt as _};
use k8s_openapi::api::core::v1::Pod;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _, DuplexStream};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::{self, Message};

/// The largest data frame sent to the pod, in bytes of payload.
pub const FRAME_BYTES: usize = 64 * 1024;

/// Bytes buffered each way in the pipe between the forwarded socket and the WebSocket.
pub const PIPE_BYTES: usize = 256 * 1024;

/// How a port's WebSocket ended badly.
#[derive(Debug, thiserror::Error)]
pub enum PortForwardError {
    /// Reading the WebSocket failed (the connection was cut without a close frame).
    #[error("failed to receive a WebSocket message: {0}")]
    Receive(#[source] tungstenite::Error),
    /// Writing the WebSocket failed.
    #[error("failed to send a WebSocket message: {0}")]
    Send(#[source] tungstenite::Error),
    /// The server broke the protocol (a wrong port in a first frame, an unknown channel).
    #[error("port-forward protocol: {0}")]
    Protocol(String),
    /// The pipe to the forwarded socket failed.
    #[error("port-forward pipe: {0}")]
    Pipe(#[source] std::io::Error),
}

/// One forwarded port: the data stream, the error channel's text, and the task's ending.
pub struct PortStream {
    /// The pod's port as a byte stream; end-of-file when the pod's side or the WebSocket ended.
    pub stream: DuplexStream,
    /// The error channel's text (at most one), or `None` once the WebSocket ended without one.
    pub error: oneshot::Receiver<String>,
    /// The WebSocket task: `Err` when it ended badly.
    pub task: tokio::task::JoinHandle<Result<(), PortForwardError>>,
}

/// Opens `pods/portforward?ports=<port>` on pod `name` through `api`'s client and starts the
/// frames' task.
///
/// # Errors
/// As `kube::Client::connect`: the request could not be built or sent, or the server refused
/// the upgrade (`kube::Error::Api` with its `Status`: 403, 404, the kubelet's refusals).
pub async fn open(api: &kube::Api<Pod>, name: &str, port: u16) -> Result<PortStream, kube::Error> {
    let namespace = api.namespace().unwrap_or("default").to_owned();
    let req = kube::core::Request::new(<Pod as kube::Resource>::url_path(&(), Some(&namespace)))
        .portforward(name, &[port])
        .map_err(kube::Error::BuildRequest)?;
    let ws = api.clone().into_client().connect(req).await?.into_stream();
    let (stream, pipe) = tokio::io::duplex(PIPE_BYTES);
    let (error_tx, error) = oneshot::channel();
    let task = tokio::spawn(run(ws, port, pipe, error_tx));
    Ok(PortStream {
        stream,
        error,
        task,
    })
}

/// The frames of one port until both sides ended.
async fn run<S>(
    ws: tokio_tungstenite::WebSocketStream<S>,
    port: u16,
    pipe: DuplexStream,
    error_tx: oneshot::Sender<String>,
) -> Result<(), PortForwardError>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let (mut sink, mut frames) = ws.split();
    let (mut from_local, mut to_local) = tokio::io::split(pipe);
    // The local side's end-of-file: the pod's data is no longer wanted (kube-rs and kubectl
    // end the exchange there too).
    let (local_done_tx, mut local_done) = oneshot::channel::<()>();
    let to_pod = async {
        let mut frame = BytesMut::with_capacity(FRAME_BYTES + 1);
        loop {
            frame.reserve(FRAME_BYTES + 1);
            frame.put_u8(0);
            let n = (&mut from_local)
                .take(FRAME_BYTES as u64)
                .read_buf(&mut frame)
                .await
                .map_err(PortForwardError::Pipe)?;
            if n == 0 {
                break;
            }
            sink.send(Message::Binary(frame.split().freeze()))
                .await
                .map_err(PortForwardError::Send)?;
        }
        let _ = local_done_tx.send(());
        // A close after the server's own close fails harmlessly.
        let _ = sink.send(Message::Close(None)).await;
        Ok(())
    };
    let from_pod = async {
        let mut error_tx = Some(error_tx);
        let mut initialized = [false, false];
        let mut shut = false;
        let mut local_heard = false;
        loop {
            let frame = tokio::select! {
                f = frames.next() => f,
                r = &mut local_done, if !local_heard => {
                    local_heard = true;
                    if r.is_ok() {
                        shut = true;
                        let _ = to_local.shutdown().await;
                    }
                    continue;
                }
            };
            let bytes = match frame {
                None | Some(Ok(Message::Close(_))) => break,
                Some(Err(e)) => return Err(PortForwardError::Receive(e)),
                Some(Ok(Message::Binary(b))) if b.len() > 1 => b,
                Some(Ok(_)) => continue,
            };
            let channel = usize::from(bytes[0]);
            let payload = bytes.slice(1..);
            if channel > 1 {
                return Err(PortForwardError::Protocol(format!(
                    "unknown channel {channel}"
                )));
            }
            if !initialized[channel] {
                let got = <[u8; 2]>::try_from(&payload[..])
                    .ok()
                    .map(u16::from_le_bytes);
                if got != Some(port) {
                    return Err(PortForwardError::Protocol(format!(
                        "the first frame of channel {channel} names port {got:?}, not {port}"
                    )));
                }
                initialized[channel] = true;
            } else if channel == 1 {
                if let Some(tx) = error_tx.take() {
                    let _ = tx.send(String::from_utf8_lossy(&payload).into_owned());
                }
            } else if !shut {
                to_local
                    .write_all(&payload)
                    .await
                    .map_err(PortForwardError::Pipe)?;
            }
        }
        if !shut {
            let _ = to_local.shutdown().await;
        }
        Ok(())
    };
    // The pod's side decides: once it ended (a close frame, or a cut), the task ends and drops
    // the pipe, so the forwarded socket sees end-of-file even while its client is silent. A
    // send failing before that is the expected race with a closing server, unless the pod's
    // side ended cleanly.
    tokio::pin!(to_pod, from_pod);
    let mut to_pod_ended: Option<Result<(), PortForwardError>> = None;
    loop {
        tokio::select! {
            r = &mut from_pod => {
                return match (r, to_pod_ended) {
                    (Ok(()), Some(Err(e @ (PortForwardError::Pipe(_) | PortForwardError::Protocol(_))))) => Err(e),
                    (r, _) => r,
                };
            }
            r = &mut to_pod, if to_pod_ended.is_none() => to_pod_ended = Some(r),
        }
    }
}
