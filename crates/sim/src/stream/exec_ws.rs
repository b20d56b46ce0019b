//! exec/attach channels over WebSocket (`docs/protocols.md` §3.2): frames whose first byte is
//! the channel. Server → client (always binary): the one-byte open frame, `[1]+stdout`,
//! `[2]+stderr`, `[3]+Status`, then a close frame 1000. Client → server: `[0]+stdin`, `[255,0]`
//! stdin EOF (v5), `[4]+{"Width":…,"Height":…}` (with or without trailing newline); a v4/v1
//! client closes the socket to signal stdin EOF, a v5 client's close means it left.
//!
//! Text frames from the client count as binary ones (the first byte of their UTF-8 payload is
//! the channel): apimachinery's `wsstream` reads every data frame into bytes whatever its
//! opcode, and the Python client sends a `str` as a text frame `chr(channel) + data`
//! (§3.2).

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use bytes::Bytes;

use super::Protocol;
use super::channels::{Channels, Input};
use crate::runtime::stty::WinSize;

/// A WebSocket carrying the exec channels under `protocol`.
pub(super) struct WsChannels {
    pub socket: WebSocket,
    pub protocol: Protocol,
}

impl WsChannels {
    async fn frame(&mut self, channel: u8, data: &[u8]) -> bool {
        let mut frame = Vec::with_capacity(data.len() + 1);
        frame.push(channel);
        frame.extend_from_slice(data);
        self.socket
            .send(Message::Binary(Bytes::from(frame)))
            .await
            .is_ok()
    }
}

impl Channels for WsChannels {
    async fn open(&mut self, channel: u8) -> bool {
        self.frame(channel, &[]).await
    }

    async fn send(&mut self, channel: u8, data: &[u8]) -> bool {
        self.frame(channel, data).await
    }

    async fn recv(&mut self) -> Input {
        let Some(Ok(msg)) = self.socket.recv().await else {
            return Input::Gone;
        };
        match msg {
            Message::Binary(b) => frame_input(&b),
            Message::Text(t) => frame_input(t.as_bytes()),
            // v4 clients close the socket to signal stdin EOF (§3.4).
            Message::Close(_) if self.protocol != Protocol::V5 => Input::StdinEof,
            Message::Close(_) => Input::Gone,
            _ => Input::Other,
        }
    }

    async fn finish(mut self, status: Option<Vec<u8>>) {
        if let Some(body) = status {
            let _ = self.frame(3, &body).await;
        }
        let _ = self
            .socket
            .send(Message::Close(Some(CloseFrame {
                code: 1000,
                reason: "".into(),
            })))
            .await;
        // Closing handshake: keep reading (and ignoring) until the client closes, so frames it
        // sends meanwhile (kube-rs' `[255,0]`) do not hit a dead socket before it reads the
        // Status. Bounded at 2 s.
        let drain = async { while let Some(Ok(_)) = self.socket.recv().await {} };
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), drain).await;
    }
}

/// What one client data frame (binary or text) carries, by its first byte.
fn frame_input(b: &[u8]) -> Input {
    match b.first() {
        Some(0) => Input::Stdin(b[1..].to_vec()),
        Some(255) if b.get(1) == Some(&0) => Input::StdinEof,
        Some(4) => WinSize::parse(&b[1..]).map_or(Input::Other, Input::Resize),
        _ => Input::Other,
    }
}
