//! A WebSocket as a byte stream, for SPDY tunnelled in WebSocket binary messages (kubectl
//! 1.31+ port-forward, subprotocol `SPDY/3.1+portforward.k8s.io`, `docs/protocols.md` §4.2):
//! the client's binary messages are concatenated (their boundaries mean nothing, one SYN_STREAM
//! may arrive in eight messages) and whatever the server writes goes out as binary messages.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use bytes::BytesMut;
use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

/// Bytes read from the server side per binary message.
const CHUNK: usize = 64 * 1024;

/// Copies between `socket` and `io` (the other end of a duplex pipe the SPDY session runs on)
/// until both directions end: the client's close (or disconnect) ends `io`'s input; the end of
/// `io`'s output sends a close frame 1000.
pub(crate) async fn pump(socket: WebSocket, io: DuplexStream) {
    let (mut sink, mut stream) = socket.split();
    let (mut r, mut w) = tokio::io::split(io);
    let inbound = async move {
        while let Some(Ok(msg)) = stream.next().await {
            match msg {
                Message::Binary(b) => {
                    let written = w.write_all(&b).await;
                    if written.is_err() {
                        break;
                    }
                }
                Message::Close(_) => break,
                // Text is not part of the tunnel; pings are answered by the WebSocket layer.
                _ => {}
            }
        }
        let _ = w.shutdown().await;
    };
    let outbound = async move {
        // Each read lands in a buffer the message then owns (`split().freeze()`), no copy.
        let mut buf = BytesMut::with_capacity(CHUNK);
        loop {
            buf.reserve(CHUNK);
            match r.read_buf(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let msg = Message::Binary(buf.split().freeze());
                    if sink.send(msg).await.is_err() {
                        return;
                    }
                }
            }
        }
        let _ = sink
            .send(Message::Close(Some(CloseFrame {
                code: 1000,
                reason: "".into(),
            })))
            .await;
    };
    tokio::join!(inbound, outbound);
}
