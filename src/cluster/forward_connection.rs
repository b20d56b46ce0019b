//! One forwarded connection: the pod is fetched by name, the remote port resolved against its
//! `containerPorts` (main containers, then native sidecars), one `pods/portforward` WebSocket
//! opened ([`super::portforward_ws`], `docs/protocols.md` §4.3), and the bytes copied both ways
//! with `copy_bidirectional_with_sizes` (64 KiB buffers, the WebSocket frame size), counted and published
//! every 250 ms through [`Shared::update`]. It reads the wall clock (it is IO) to date the
//! moment the pod first answers.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::FutureExt;
use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

use super::forward::Shared;
use super::portforward_ws::PortForwardError;
use crate::model::forward::RemotePort;

/// How long a finished copy waits for the WebSocket task to say how it ended. It answers at
/// once after a clean close or a cut; the bound is for a starved machine (2 s was not enough for
/// a test under a load average of 10), and a connection that ended cleanly never waits.
const JOIN_WAIT: Duration = Duration::from_secs(10);

/// `first_eof` values: neither side has ended, the local client's, the pod's.
const NO_EOF: u8 = 0;
const LOCAL_EOF: u8 = 1;
const POD_EOF: u8 = 2;

/// Copy buffer per direction: 64 KiB, the largest WebSocket frame sent
/// ([`super::portforward_ws::FRAME_BYTES`]): one read of the local socket fills at most one frame.
const COPY_BUFFER_BYTES: usize = 64 * 1024;

/// Resolves the remote port against the pod, kubectl's messages on failure: `unable to forward
/// port because pod is not running. Current status=…`, `Pod 'x' does not have a named port 'y'`.
pub fn resolve(pod: &Pod, name: &str, remote: &RemotePort) -> Result<u16, String> {
    let phase = pod
        .status
        .as_ref()
        .and_then(|s| s.phase.clone())
        .unwrap_or_default();
    if phase != "Running" {
        return Err(format!(
            "unable to forward port because pod is not running. Current status={phase}"
        ));
    }
    match remote {
        RemotePort::Number(n) => Ok(*n),
        RemotePort::Name(port) => pod
            .spec
            .iter()
            .flat_map(|s| {
                let sidecars = s
                    .init_containers
                    .iter()
                    .flatten()
                    .filter(|c| c.restart_policy.as_deref() == Some("Always"));
                s.containers.iter().chain(sidecars)
            })
            .flat_map(|c| c.ports.iter().flatten())
            .find(|p| p.name.as_deref() == Some(port.as_str()))
            .and_then(|p| u16::try_from(p.container_port).ok())
            .ok_or_else(|| format!("Pod '{name}' does not have a named port '{port}'")),
    }
}

/// Carries `sock` (connection `number` of forward `i`) to the remote port on the pod until either
/// side closes. The first bytes from the pod mark the connection as working
/// (`ForwardStatus::connection_worked`, at the wall-clock instant they arrived). Errors: the
/// text kubectl would print (the API's message, kubectl's "pod is not running" / "does not have
/// a named port", or the text on the port's error channel).
#[allow(
    clippy::disallowed_methods,
    reason = "a connection's success is stamped when it happens (an IO adapter owns that time)"
)]
pub(super) async fn forward_one(
    shared: &Shared,
    i: usize,
    number: u64,
    remote: &RemotePort,
    sock: TcpStream,
) -> Result<(), String> {
    let name = shared.pod_name();
    let pod = shared.api.get(&name).await.map_err(|e| match e {
        kube::Error::Api(s) => s.message.clone(),
        other => super::config::one_line(&other),
    })?;
    let port = resolve(&pod, &name, remote)?;
    shared.update(i, |s| s.remote_port = Some(port));
    let pf = super::portforward_ws::open(&shared.api, &name, port)
        .await
        .map_err(|e| match e {
            kube::Error::Api(s) if s.code == 403 => {
                super::forbidden::explain_connect(&s.message, &shared.api, "portforward")
            }
            kube::Error::Api(s) => s.message.clone(),
            other => super::config::one_line(&other),
        })?;
    // Which side reached end-of-file first: the local client closing its side first ends the
    // exchange on purpose; the pod side first, followed by a transport error, is a loss.
    let first_eof = Arc::new(AtomicU8::new(NO_EOF));
    let mut upstream = Counted {
        inner: pf.stream,
        read: Arc::new(AtomicU64::new(0)),
        written: Arc::new(AtomicU64::new(0)),
        first_write: None,
        eof: (first_eof.clone(), POD_EOF),
    };
    let mut error = pf.error.map(Result::ok).fuse();
    // The WebSocket's task: it fails when the connection is cut (no close frame), while the
    // copy would only see the upstream end as an ordinary EOF.
    let join = pf
        .task
        .map(|r| r.unwrap_or_else(|e| Err(PortForwardError::Pipe(std::io::Error::other(e)))));
    tokio::pin!(join);
    let mut joined = false;
    let in_bytes = Arc::new(AtomicU64::new(0));
    let out_bytes = Arc::new(AtomicU64::new(0));
    let (answered_tx, mut answered) = oneshot::channel();
    let mut local = Counted {
        inner: sock,
        read: out_bytes.clone(),
        written: in_bytes.clone(),
        first_write: Some(answered_tx),
        eof: (first_eof.clone(), LOCAL_EOF),
    };
    let mut published = (0u64, 0u64);
    let publish = |published: &mut (u64, u64)| {
        let now = (
            in_bytes.load(Ordering::Relaxed),
            out_bytes.load(Ordering::Relaxed),
        );
        let (din, dout) = (now.0 - published.0, now.1 - published.1);
        if din + dout > 0 {
            shared.update(i, |s| {
                s.bytes_in += din;
                s.bytes_out += dout;
            });
        }
        *published = now;
    };
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    let mut error_done = false;
    let mut answered_done = false;
    let outcome = {
        let copy = tokio::io::copy_bidirectional_with_sizes(
            &mut local,
            &mut upstream,
            COPY_BUFFER_BYTES,
            COPY_BUFFER_BYTES,
        );
        tokio::pin!(copy);
        loop {
            tokio::select! {
                biased;
                r = &mut join, if !joined => {
                    joined = true;
                    if let Some(lost) = r.err().and_then(|e| lost_connection(&e))
                        && first_eof.load(Ordering::Relaxed) != LOCAL_EOF
                    {
                        break Err(lost);
                    }
                }
                _ = &mut copy => {
                    // The error text may be queued behind the end of the data stream.
                    match (&mut error).now_or_never() {
                        Some(Some(text)) if !error_done => break Err(text),
                        _ => break Ok(()),
                    }
                }
                r = &mut answered, if !answered_done => {
                    answered_done = true;
                    if r.is_ok() {
                        shared.update(i, |s| s.connection_worked(number, Timestamp::now()));
                    }
                }
                e = &mut error, if !error_done => {
                    error_done = true;
                    if let Some(text) = e {
                        break Err(text);
                    }
                }
                _ = tick.tick() => publish(&mut published),
            }
        }
    };
    publish(&mut published);
    drop(upstream);
    if !joined {
        // The task drops its pipe ends (our upstream EOF) a moment before it reports how it
        // ended: a copy that ends on that EOF must still hear about a cut connection.
        // When the local client closed its side before the pod's side ended, the exchange was
        // over: a transport error after that (a server that drops the socket without a clean
        // close) is not a loss.
        let ended = tokio::time::timeout(JOIN_WAIT, join).await;
        if let (Ok(()), Ok(Err(e))) = (&outcome, ended)
            && first_eof.load(Ordering::Relaxed) != LOCAL_EOF
            && let Some(lost) = lost_connection(&e)
        {
            return Err(lost);
        }
    }
    outcome
}

/// `lost connection to pod: …` (kubectl's words) when the port-forward task failed reading the
/// WebSocket, i.e. the connection was cut; `None` for the other endings (a close frame, or
/// kube-rs' own close sent after the server's, which fails harmlessly).
fn lost_connection(e: &impl std::fmt::Display) -> Option<String> {
    let detail = super::exec::transport_detail(e);
    detail
        .starts_with("failed to receive a WebSocket message")
        .then(|| format!("lost connection to pod: {detail}"))
}

/// A stream that counts bytes read and written, says when it was first written to and when
/// its peer closed its side (a read of end-of-file).
struct Counted<S> {
    inner: S,
    read: Arc<AtomicU64>,
    written: Arc<AtomicU64>,
    /// Fired by the first non-empty write (the pod's first bytes reaching the local client).
    first_write: Option<oneshot::Sender<()>>,
    /// `(first, side)`: a read that reaches end-of-file stores `side` in `first` unless another
    /// side got there before.
    eof: (Arc<AtomicU8>, u8),
}

impl<S: AsyncRead + Unpin> AsyncRead for Counted<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        let n = buf.filled().len() - before;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        if matches!(r, Poll::Ready(Ok(()))) && n == 0 && buf.remaining() > 0 {
            let (first, side) = &self.eof;
            let _ = first.compare_exchange(NO_EOF, *side, Ordering::Relaxed, Ordering::Relaxed);
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Counted<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = &r {
            self.written.fetch_add(*n as u64, Ordering::Relaxed);
            if *n > 0
                && let Some(tx) = self.first_write.take()
            {
                let _ = tx.send(());
            }
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::lost_connection;

    #[test]
    fn only_a_failed_read_is_a_lost_connection() {
        let cut = "failed to receive a WebSocket message: IO error: peer closed connection without sending TLS close_notify: https://docs.rs/rustls/latest/rustls/manual/_03_howto/index.html#unexpected-eof";
        assert_eq!(
            lost_connection(&cut).as_deref(),
            Some(
                "lost connection to pod: failed to receive a WebSocket message: IO error: peer closed connection without sending TLS close_notify"
            )
        );
        let late_close =
            "failed to send a WebSocket message: Trying to work with closed connection";
        assert_eq!(lost_connection(&late_close), None);
    }
}
