//! A WebSocket as a byte stream, for SPDY tunnelled in WebSocket binary messages (kubectl
//! 1.31+ port-forward, subprotocol `SPDY/3.1+portforward.k8s.io`, `docs/protocols.md` §4.2):
//! the client's binary messages are concatenated (their boundaries mean nothing, one SYN_STREAM
//! may arrive in eight messages) and each write of the SPDY session goes out as one binary
//! message.
//!
//! The SPDY session runs on [`WsIo`] directly. Copies per byte, client to pod: the WebSocket
//! layer unmasks the frame into the message it owns; [`WsIo::poll_read`] copies it into the
//! session's frame buffer (the only copy here). Pod to client: the session encodes a batch of
//! frames (up to its `WRITE_BATCH`) into its buffer and writes it once; [`WsIo::poll_write`]
//! copies it into the message (the WebSocket layer takes ownership of a `Bytes`) and the
//! WebSocket layer frames it into its write buffer. A duplex pipe between the two, as before,
//! cost one more copy each way and two task wake-ups per message (`cargo bench --bench stream`).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use bytes::{Buf, Bytes};
use futures::{Sink, Stream};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The WebSocket of a tunnelled session as `AsyncRead + AsyncWrite`: reads yield the binary
/// messages' bytes in order (text, ping and pong are not part of the tunnel; pings are answered
/// by the WebSocket layer); the client's close or a broken connection reads as the end of the
/// stream. Each write sends one binary message; shutdown sends a close frame 1000.
pub(crate) struct WsIo {
    socket: WebSocket,
    /// The unread rest of the last binary message.
    pending: Bytes,
    /// The client closed, or the connection broke: every further read is the end.
    read_done: bool,
    /// The close frame was queued.
    closing: bool,
}

impl WsIo {
    pub(crate) fn new(socket: WebSocket) -> Self {
        WsIo {
            socket,
            pending: Bytes::new(),
            read_done: false,
            closing: false,
        }
    }
}

fn broken(e: axum::Error) -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, e)
}

impl AsyncRead for WsIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        // kubectl writes a SPDY DATA frame's 8-byte header and its payload as two messages:
        // one read takes every message already received, up to the buffer's room, so the
        // session decodes whole frames rather than waking once per message.
        let start = buf.filled().len();
        loop {
            if !this.pending.is_empty() {
                let n = this.pending.len().min(buf.remaining());
                buf.put_slice(&this.pending[..n]);
                this.pending.advance(n);
                if buf.remaining() == 0 {
                    return Poll::Ready(Ok(()));
                }
            }
            if this.read_done {
                return Poll::Ready(Ok(()));
            }
            // After the client's close frame the next poll sends the WebSocket layer's reply
            // and then ends the stream (`None`).
            match Pin::new(&mut this.socket).poll_next(cx) {
                Poll::Ready(Some(Ok(Message::Binary(b)))) => this.pending = b,
                Poll::Ready(Some(Ok(_))) => {}
                Poll::Ready(None | Some(Err(_))) => this.read_done = true,
                Poll::Pending if buf.filled().len() > start => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl AsyncWrite for WsIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let mut socket = Pin::new(&mut this.socket);
        ready!(socket.as_mut().poll_ready(cx)).map_err(broken)?;
        socket
            .start_send(Message::Binary(Bytes::copy_from_slice(data)))
            .map_err(broken)?;
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().socket)
            .poll_flush(cx)
            .map_err(broken)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let mut socket = Pin::new(&mut this.socket);
        if !this.closing {
            ready!(socket.as_mut().poll_ready(cx)).map_err(broken)?;
            socket
                .as_mut()
                .start_send(Message::Close(Some(CloseFrame {
                    code: 1000,
                    reason: "".into(),
                })))
                .map_err(broken)?;
            this.closing = true;
        }
        socket.poll_flush(cx).map_err(broken)
    }
}
