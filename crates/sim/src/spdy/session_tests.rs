//! Unit tests of the server session over an in-memory pipe, playing the client with the same
//! codec: SYN_REPLY per stream, DATA both ways with `FIN`, PING echo, WINDOW_UPDATE for
//! consumed data, bad stream ids, RST_STREAM from the peer, GOAWAY on garbage.

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

use super::frame::{self, FLAG_FIN, Frame, goaway, rst};
use super::headers::{Deflater, Headers, Inflater};
use super::session::Session;
use super::stream::UPDATE_STEP;

struct Client {
    io: DuplexStream,
    buf: BytesMut,
    deflater: Deflater,
    inflater: Inflater,
}

impl Client {
    fn new() -> (Client, Session) {
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let client = Client {
            io: ours,
            buf: BytesMut::new(),
            deflater: Deflater::new(),
            inflater: Inflater::new(),
        };
        (client, Session::serve(theirs))
    }

    async fn send(&mut self, f: Frame) {
        let mut out = BytesMut::new();
        frame::encode(&f, &mut out);
        self.io.write_all(&out).await.expect("writes");
    }

    async fn syn(&mut self, id: u32, pairs: &[(&str, &str)]) {
        let block = Bytes::from(self.deflater.compress(&Headers::from_pairs(pairs)));
        self.send(Frame::SynStream {
            stream_id: id,
            associated_to: 0,
            priority: 0,
            flags: 0,
            block,
        })
        .await;
    }

    /// The next frame from the server (within 5 s); `None` at EOF.
    async fn next(&mut self) -> Option<Frame> {
        loop {
            if let Some(f) = frame::decode(&mut self.buf).expect("valid frame") {
                return Some(f);
            }
            let n = tokio::time::timeout(Duration::from_secs(5), self.io.read_buf(&mut self.buf))
                .await
                .expect("a frame within 5 s")
                .expect("reads");
            if n == 0 {
                return None;
            }
        }
    }
}

#[tokio::test]
async fn streams_are_answered_and_carry_data_both_ways() {
    let (mut c, mut s) = Client::new();
    c.syn(1, &[("streamType", "data"), ("port", "80")]).await;
    let mut stream = s.accept().await.expect("a stream");
    assert_eq!((stream.id, stream.headers.get("port")), (1, Some("80")));
    let Some(Frame::SynReply {
        stream_id: 1,
        block,
        ..
    }) = c.next().await
    else {
        panic!("no SYN_REPLY");
    };
    assert_eq!(
        c.inflater.decompress(&block).expect("inflates"),
        Headers::default()
    );
    c.send(Frame::Data {
        stream_id: 1,
        flags: FLAG_FIN,
        data: Bytes::from_static(b"ping"),
    })
    .await;
    assert_eq!(stream.reader.read().await.as_deref(), Some(&b"ping"[..]));
    assert_eq!(stream.reader.read().await, None, "FIN ends the reader");
    stream.writer.write(b"pong").await.expect("writes");
    stream.writer.close().await.expect("closes");
    assert!(stream.writer.write(b"late").await.is_err());
    let frames = [c.next().await, c.next().await];
    assert_eq!(
        frames,
        [
            Some(Frame::Data {
                stream_id: 1,
                flags: 0,
                data: Bytes::from_static(b"pong")
            }),
            Some(Frame::Data {
                stream_id: 1,
                flags: FLAG_FIN,
                data: Bytes::new()
            })
        ]
    );
    s.close(Duration::from_millis(100)).await;
    assert_eq!(
        c.next().await,
        Some(Frame::GoAway {
            last_good_stream_id: 1,
            status: goaway::OK
        })
    );
    assert_eq!(c.next().await, None, "write side shut");
}

#[tokio::test]
async fn pings_from_the_client_are_echoed_and_bad_ids_reset() {
    let (mut c, mut s) = Client::new();
    c.send(Frame::Ping { id: 7 }).await;
    assert_eq!(c.next().await, Some(Frame::Ping { id: 7 }));
    c.send(Frame::Ping { id: 2 }).await; // "our" parity: a reply, not echoed
    c.syn(2, &[("streamtype", "error")]).await;
    assert_eq!(
        c.next().await,
        Some(Frame::RstStream {
            stream_id: 2,
            status: rst::PROTOCOL_ERROR
        })
    );
    c.syn(5, &[("streamtype", "error")]).await;
    let _reply = c.next().await;
    c.syn(3, &[("streamtype", "error")]).await;
    assert_eq!(
        c.next().await,
        Some(Frame::RstStream {
            stream_id: 3,
            status: rst::PROTOCOL_ERROR
        })
    );
    let stream = s.accept().await.expect("stream 5");
    assert_eq!(stream.id, 5);
    c.send(Frame::RstStream {
        stream_id: 5,
        status: rst::CANCEL,
    })
    .await;
    let mut reader = stream.reader;
    assert_eq!(reader.read().await, None, "reset ends the reader");
    assert!(stream.writer.write(b"x").await.is_err(), "and the writer");
}

#[tokio::test]
async fn consumed_data_earns_window_updates() {
    let (mut c, mut s) = Client::new();
    c.syn(1, &[("streamtype", "data")]).await;
    let mut stream = s.accept().await.expect("a stream");
    let _reply = c.next().await;
    let chunk = Bytes::from(vec![7u8; 8 * 1024]);
    let total = 3 * UPDATE_STEP as usize;
    for _ in 0..total / chunk.len() {
        c.send(Frame::Data {
            stream_id: 1,
            flags: 0,
            data: chunk.clone(),
        })
        .await;
    }
    let mut read = 0;
    while read < total {
        read += stream.reader.read().await.expect("data").len();
    }
    let (mut per_stream, mut session) = (0, 0);
    while per_stream < total || session < total {
        match c.next().await {
            Some(Frame::WindowUpdate {
                stream_id: 1,
                delta,
            }) => per_stream += delta as usize,
            Some(Frame::WindowUpdate {
                stream_id: 0,
                delta,
            }) => session += delta as usize,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!((per_stream, session), (total, total));
}

#[tokio::test]
async fn garbage_ends_the_session_with_goaway() {
    let (mut c, mut s) = Client::new();
    c.io.write_all(&[0x80, 2, 0, 1, 0, 0, 0, 0])
        .await
        .expect("writes");
    assert_eq!(
        c.next().await,
        Some(Frame::GoAway {
            last_good_stream_id: 0,
            status: goaway::PROTOCOL_ERROR
        })
    );
    assert_eq!(c.next().await, None);
    assert!(s.accept().await.is_none());
}
