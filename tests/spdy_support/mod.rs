//! A small SPDY/3.1 client for the SPDY tests, built from the simulator's own codec
//! (`podscope::sim::spdy`): TLS to the simulator, the `Upgrade: SPDY/3.1` POST, the WebSocket
//! tunnel (`SPDY/3.1+portforward.k8s.io`, writes split like kubectl's first SYN_STREAM), stream
//! bookkeeping per id, and one forwarded GET through an error/data stream pair.
#![allow(dead_code)]

use std::collections::HashMap;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures::{SinkExt, StreamExt};
use podscope::sim::Simulator;
use podscope::sim::spdy::Headers;
use podscope::sim::spdy::frame::{self, FLAG_FIN, Frame};
use podscope::sim::spdy::headers::{Deflater, Inflater};
use rustls::pki_types::ServerName;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

pub type Tls = tokio_rustls::client::TlsStream<tokio::net::TcpStream>;
pub type Ws = tokio_tungstenite::WebSocketStream<Tls>;

/// hello's port-forward path.
pub const FORWARD: &str = "/api/v1/namespaces/default/pods/hello/portforward";

pub async fn tls(sim: &Simulator) -> Tls {
    let host = sim.url().trim_start_matches("https://").to_owned();
    let tcp = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connects");
    let name = ServerName::try_from("127.0.0.1").expect("name");
    super::common::sim::connector(sim)
        .connect(name, tcp)
        .await
        .expect("TLS handshake")
}

/// `POST path` upgrading to SPDY/3.1 offering `protocols`; the response head and the stream.
pub async fn upgrade(sim: &Simulator, path: &str, protocols: &[&str]) -> (String, Tls) {
    let mut s = tls(sim).await;
    let offers: String = protocols
        .iter()
        .map(|p| format!("X-Stream-Protocol-Version: {p}\r\n"))
        .collect();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nContent-Length: 0\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n{offers}\r\n",
        sim.token().expect("token")
    );
    s.write_all(req.as_bytes()).await.expect("writes");
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let b = s.read_u8().await.expect("response head");
        head.push(b);
    }
    (String::from_utf8_lossy(&head).into_owned(), s)
}

/// The transport under the SPDY bytes.
pub enum Wire {
    /// Raw SPDY bytes on the upgraded TLS connection.
    Tls(Box<Tls>),
    /// SPDY in binary messages; `split` cuts each write like kubectl's first SYN_STREAM.
    Ws(Box<Ws>),
}

#[derive(Default, Debug)]
pub struct StreamState {
    pub replied: bool,
    pub data: Vec<u8>,
    pub fin: bool,
}

/// A SPDY client: opens streams, sends DATA, collects what the server sends per stream.
pub struct Client {
    pub wire: Wire,
    pub buf: BytesMut,
    pub deflater: Deflater,
    pub inflater: Inflater,
    pub next_id: u32,
    pub streams: HashMap<u32, StreamState>,
    pub window_updates: u64,
    pub goaway: bool,
    pub eof: bool,
    /// A WebSocket close frame arrived.
    pub ws_closed: bool,
}

impl Client {
    pub fn new(wire: Wire) -> Self {
        Client {
            wire,
            buf: BytesMut::new(),
            deflater: Deflater::new(),
            inflater: Inflater::new(),
            next_id: 1,
            streams: HashMap::new(),
            window_updates: 0,
            goaway: false,
            eof: false,
            ws_closed: false,
        }
    }

    pub async fn write(&mut self, f: &Frame, split: &[usize]) {
        let mut out = BytesMut::new();
        frame::encode(f, &mut out);
        match &mut self.wire {
            Wire::Tls(s) => s.write_all(&out).await.expect("writes"),
            Wire::Ws(ws) => {
                let mut rest = out.freeze();
                for n in split {
                    let part = rest.split_to((*n).min(rest.len()));
                    ws.send(Message::Binary(part)).await.expect("sends");
                }
                if !rest.is_empty() {
                    ws.send(Message::Binary(rest)).await.expect("sends");
                }
            }
        }
    }

    /// Opens a stream with `headers`; its id.
    pub async fn open(&mut self, headers: &[(&str, &str)]) -> u32 {
        let id = self.next_id;
        self.next_id += 2;
        let block = Bytes::from(self.deflater.compress(&Headers::from_pairs(headers)));
        let syn = Frame::SynStream {
            stream_id: id,
            associated_to: 0,
            priority: 0,
            flags: 0,
            block,
        };
        // kubectl's first tunnelled SYN_STREAM came as 2+2+4+4+4+1+1 bytes, then the block.
        self.write(&syn, &[2, 2, 4, 4, 4, 1, 1]).await;
        self.streams.entry(id).or_default();
        id
    }

    pub async fn send(&mut self, id: u32, data: &[u8], fin: bool) {
        let f = Frame::Data {
            stream_id: id,
            flags: if fin { FLAG_FIN } else { 0 },
            data: Bytes::copy_from_slice(data),
        };
        self.write(&f, &[]).await;
    }

    /// Reads one frame (10 s at most) and records it; `false` at the end of the connection.
    pub async fn pump(&mut self) -> bool {
        loop {
            if let Some(f) = frame::decode(&mut self.buf).expect("valid frame") {
                match f {
                    Frame::SynReply {
                        stream_id, block, ..
                    } => {
                        self.inflater.decompress(&block).expect("reply headers");
                        self.streams.entry(stream_id).or_default().replied = true;
                    }
                    Frame::Data {
                        stream_id,
                        flags,
                        data,
                    } => {
                        let s = self.streams.entry(stream_id).or_default();
                        s.data.extend_from_slice(&data);
                        s.fin |= flags & FLAG_FIN != 0;
                    }
                    Frame::WindowUpdate { stream_id: 0, .. } => {}
                    Frame::WindowUpdate { delta, .. } => self.window_updates += u64::from(delta),
                    Frame::GoAway { .. } => self.goaway = true,
                    other => panic!("unexpected {other:?}"),
                }
                return true;
            }
            let read = async {
                match &mut self.wire {
                    Wire::Tls(s) => s.read_buf(&mut self.buf).await.unwrap_or(0),
                    Wire::Ws(ws) => loop {
                        match ws.next().await {
                            Some(Ok(Message::Binary(b))) => {
                                self.buf.extend_from_slice(&b);
                                break b.len();
                            }
                            Some(Ok(Message::Close(_))) => {
                                self.ws_closed = true;
                                break 0;
                            }
                            None | Some(Err(_)) => break 0,
                            Some(Ok(_)) => {}
                        }
                    },
                }
            };
            let n = tokio::time::timeout(Duration::from_secs(10), read)
                .await
                .expect("the server answers within 10 s");
            if n == 0 {
                self.eof = true;
                return false;
            }
        }
    }

    /// Pumps until stream `id` has ended (`FIN`); its data.
    pub async fn until_fin(&mut self, id: u32) -> Vec<u8> {
        while !self.streams.get(&id).is_some_and(|s| s.fin) {
            assert!(self.pump().await, "connection ended before FIN on {id}");
        }
        assert!(self.streams[&id].replied, "SYN_REPLY before data");
        self.streams[&id].data.clone()
    }
}

/// One forwarded GET through a new error/data stream pair; (error text, HTTP response).
pub async fn forward_get(
    c: &mut Client,
    request_id: &str,
    port: &str,
    path: &str,
) -> (String, String) {
    let error = c
        .open(&[
            ("streamType", "error"),
            ("port", port),
            ("requestID", request_id),
        ])
        .await;
    c.send(error, b"", true).await;
    let data = c
        .open(&[
            ("streamType", "data"),
            ("port", port),
            ("requestID", request_id),
        ])
        .await;
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    c.send(data, req.as_bytes(), false).await;
    let resp = c.until_fin(data).await;
    let err = c.until_fin(error).await;
    (
        String::from_utf8_lossy(&err).into_owned(),
        String::from_utf8_lossy(&resp).into_owned(),
    )
}

/// A WebSocket offering `SPDY/3.1+portforward.k8s.io` to hello's port-forward (the selected
/// subprotocol checked), as a SPDY client.
pub async fn tunnel(sim: &Simulator) -> Client {
    let host = sim.url().trim_start_matches("https://").to_owned();
    let mut req = format!("wss://{host}{FORWARD}")
        .into_client_request()
        .expect("request");
    let h = req.headers_mut();
    let bearer = format!("Bearer {}", sim.token().expect("token"));
    h.insert("authorization", bearer.parse().expect("header"));
    h.insert(
        "sec-websocket-protocol",
        "SPDY/3.1+portforward.k8s.io".parse().expect("header"),
    );
    let (ws, resp) = tokio_tungstenite::client_async(req, tls(sim).await)
        .await
        .expect("handshake");
    assert_eq!(
        resp.headers()
            .get("sec-websocket-protocol")
            .and_then(|v| v.to_str().ok()),
        Some("SPDY/3.1+portforward.k8s.io")
    );
    Client::new(Wire::Ws(Box::new(ws)))
}
