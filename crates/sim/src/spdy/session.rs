//! The server side of a SPDY/3.1 session over any byte stream (an upgraded HTTP/1.1 connection,
//! or the bytes tunnelled in WebSocket binary messages, `docs/protocols.md` §4.2).
//!
//! Two tasks share the transport: the reader decodes frames, answers each SYN_STREAM from the
//! peer with a SYN_REPLY and hands the stream to [`Session::accept`], routes DATA to the
//! streams' readers, echoes the peer's PINGs, and stops taking streams after a GOAWAY; the
//! writer owns the outgoing zlib stream and writes what the reader and the streams queue, in
//! order. Stream ids from the peer must be odd and increasing (else RST_STREAM
//! `PROTOCOL_ERROR`); a corrupt frame or header block ends the session with GOAWAY
//! `PROTOCOL_ERROR`. Dropping the [`Session`] drops the connection at once (no GOAWAY): that is
//! how `Store::cut_streams` cuts SPDY streams.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::frame::{self, FLAG_FIN, Frame, goaway, rst};
use super::headers::{Deflater, Headers, Inflater};
use super::stream::{Out, SessionCredit, Shared, Stream, StreamReader, StreamWriter};

/// Frames queued for the writer before senders wait.
const QUEUE: usize = 64;
/// Bytes the writer gathers before one write to the transport.
const WRITE_BATCH: usize = 256 * 1024;

/// A running server session. Dropping it aborts both tasks and so the connection.
#[derive(Debug)]
pub struct Session {
    accept: mpsc::UnboundedReceiver<Stream>,
    out: mpsc::Sender<Out>,
    last_stream: Arc<AtomicU32>,
    reader: JoinHandle<()>,
    writer: JoinHandle<()>,
}

impl Session {
    /// Starts serving `io` as the server of a SPDY/3.1 session (the client opens streams).
    pub fn serve<IO>(io: IO) -> Session
    where
        IO: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (r, w) = tokio::io::split(io);
        let (out, out_rx) = mpsc::channel(QUEUE);
        let (accept_tx, accept) = mpsc::unbounded_channel();
        let last_stream = Arc::new(AtomicU32::new(0));
        let reader = tokio::spawn(read_loop(r, out.clone(), accept_tx, last_stream.clone()));
        let writer = tokio::spawn(write_loop(w, out_rx));
        Session {
            accept,
            out,
            last_stream,
            reader,
            writer,
        }
    }

    /// The next stream the peer opens; `None` once the peer has closed the connection (or sent
    /// garbage).
    pub async fn accept(&mut self) -> Option<Stream> {
        self.accept.recv().await
    }

    /// Ends the session politely: GOAWAY `OK`, everything queued so far flushed, the write side
    /// of the transport shut down; then waits up to `linger` for the peer to close its side
    /// (closing first could make the kernel reset the connection and lose our last frames).
    pub async fn close(mut self, linger: Duration) {
        let last_good_stream_id = self.last_stream.load(Ordering::Relaxed);
        let _ = self
            .out
            .send(Out::Frame(Frame::GoAway {
                last_good_stream_id,
                status: goaway::OK,
            }))
            .await;
        let _ = self.out.send(Out::Shutdown).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), &mut self.writer).await;
        let _ = tokio::time::timeout(linger, &mut self.reader).await;
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.reader.abort();
        self.writer.abort();
    }
}

/// The reader task's view of one stream.
struct Entry {
    /// Where the peer's DATA goes; `None` after its FIN or RST.
    tx: Option<mpsc::UnboundedSender<Bytes>>,
    shared: Arc<Shared>,
}

struct Reader {
    out: mpsc::Sender<Out>,
    accept: mpsc::UnboundedSender<Stream>,
    inflater: Inflater,
    streams: HashMap<u32, Entry>,
    last_stream: Arc<AtomicU32>,
    credit: Arc<SessionCredit>,
    going_away: bool,
}

/// What the reader does after a frame.
enum Next {
    Continue,
    Stop,
}

async fn read_loop<R: AsyncRead + Unpin>(
    mut r: R,
    out: mpsc::Sender<Out>,
    accept: mpsc::UnboundedSender<Stream>,
    last_stream: Arc<AtomicU32>,
) {
    let mut me = Reader {
        out,
        accept,
        inflater: Inflater::new(),
        streams: HashMap::new(),
        last_stream,
        credit: Arc::new(SessionCredit::default()),
        going_away: false,
    };
    let mut buf = BytesMut::with_capacity(64 * 1024);
    loop {
        loop {
            match frame::decode(&mut buf) {
                Ok(Some(f)) => {
                    tracing::trace!("SPDY in: {f:?}");
                    if let Next::Stop = me.handle(f).await {
                        return me.end().await;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::debug!("SPDY session: {e}");
                    me.fail().await;
                    return me.end().await;
                }
            }
        }
        match r.read_buf(&mut buf).await {
            Ok(0) | Err(_) => return me.end().await,
            Ok(_) => {}
        }
    }
}

impl Reader {
    async fn send(&self, frame: Frame) {
        let _ = self.out.send(Out::Frame(frame)).await;
    }

    /// GOAWAY `PROTOCOL_ERROR` and shut the transport.
    async fn fail(&self) {
        self.send(Frame::GoAway {
            last_good_stream_id: self.last_stream.load(Ordering::Relaxed),
            status: goaway::PROTOCOL_ERROR,
        })
        .await;
        let _ = self.out.send(Out::Shutdown).await;
    }

    /// The peer is gone: every stream's reader sees its end, writers fail.
    async fn end(self) {
        for e in self.streams.values() {
            e.shared.reset.store(true, Ordering::Relaxed);
        }
    }

    async fn handle(&mut self, f: Frame) -> Next {
        match f {
            Frame::SynStream {
                stream_id,
                flags,
                block,
                ..
            } => {
                let Ok(headers) = self.inflater.decompress(&block) else {
                    self.fail().await;
                    return Next::Stop;
                };
                self.open(stream_id, flags & FLAG_FIN != 0, headers).await;
            }
            Frame::SynReply { block, .. } | Frame::Headers { block, .. } => {
                // Never expected from a client, but the zlib stream must stay in step.
                let in_step = self.inflater.decompress(&block).is_ok();
                if !in_step {
                    self.fail().await;
                    return Next::Stop;
                }
            }
            Frame::Data {
                stream_id,
                flags,
                data,
            } => self.data(stream_id, flags & FLAG_FIN != 0, data).await,
            Frame::RstStream { stream_id, .. } => {
                if let Some(e) = self.streams.get_mut(&stream_id) {
                    e.tx = None;
                    e.shared.reset.store(true, Ordering::Relaxed);
                    let _ = self.out.send(Out::PeerReset(stream_id)).await;
                }
            }
            Frame::Ping { id } if id % 2 == 1 => self.send(Frame::Ping { id }).await,
            Frame::GoAway { .. } => self.going_away = true,
            // Our own pings' echoes, settings, window updates (the writer does not hold back
            // for the peer's window, see `stream`), unknown control frames.
            _ => {}
        }
        Next::Continue
    }

    async fn open(&mut self, id: u32, fin: bool, headers: Headers) {
        let last = self.last_stream.load(Ordering::Relaxed);
        if id.is_multiple_of(2) || id <= last {
            self.send(Frame::RstStream {
                stream_id: id,
                status: rst::PROTOCOL_ERROR,
            })
            .await;
            return;
        }
        self.last_stream.store(id, Ordering::Relaxed);
        if self.going_away {
            self.send(Frame::RstStream {
                stream_id: id,
                status: rst::REFUSED_STREAM,
            })
            .await;
            return;
        }
        // Forget streams both sides have finished with.
        self.streams.retain(|_, e| {
            e.tx.is_some()
                || !(e.shared.local_closed.load(Ordering::Relaxed)
                    || e.shared.reset.load(Ordering::Relaxed))
        });
        let (tx, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared::default());
        self.streams.insert(
            id,
            Entry {
                tx: (!fin).then_some(tx),
                shared: shared.clone(),
            },
        );
        let _ = self.out.send(Out::Reply { stream_id: id }).await;
        let stream = Stream {
            id,
            headers,
            reader: StreamReader {
                id,
                rx,
                out: self.out.clone(),
                unacked: 0,
                session: self.credit.clone(),
            },
            writer: StreamWriter {
                id,
                out: self.out.clone(),
                shared,
            },
        };
        if self.accept.send(stream).is_err() {
            // Nobody accepts streams any more.
            self.send(Frame::RstStream {
                stream_id: id,
                status: rst::REFUSED_STREAM,
            })
            .await;
        }
    }

    async fn data(&mut self, id: u32, fin: bool, data: Bytes) {
        let n = u32::try_from(data.len()).unwrap_or(u32::MAX);
        let Some(e) = self.streams.get_mut(&id) else {
            if id > self.last_stream.load(Ordering::Relaxed) {
                self.send(Frame::RstStream {
                    stream_id: id,
                    status: rst::INVALID_STREAM,
                })
                .await;
            }
            self.discarded(n).await;
            return;
        };
        let delivered = match &e.tx {
            Some(tx) if !data.is_empty() => tx.send(data).is_ok(),
            _ => false,
        };
        if fin {
            e.tx = None;
        }
        if !delivered {
            self.discarded(n).await;
        }
    }

    /// Data nobody will read still counts against the session window: give it back.
    async fn discarded(&self, n: u32) {
        if n == 0 {
            return;
        }
        if let Some(delta) = self.credit.add(n) {
            self.send(Frame::WindowUpdate {
                stream_id: 0,
                delta,
            })
            .await;
        }
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(mut w: W, mut rx: mpsc::Receiver<Out>) {
    let mut deflater = Deflater::new();
    let mut buf = BytesMut::with_capacity(64 * 1024);
    let mut reset = std::collections::HashSet::new();
    while let Some(first) = rx.recv().await {
        let mut next = Some(first);
        let mut shutdown = false;
        while let Some(o) = next.take() {
            tracing::trace!("SPDY out: {o:?}");
            match o {
                Out::Frame(Frame::Data { stream_id, .. }) if reset.contains(&stream_id) => {}
                Out::Frame(f) => frame::encode(&f, &mut buf),
                Out::Reply { stream_id } => {
                    let block = Bytes::from(deflater.compress(&Headers::default()));
                    let reply = Frame::SynReply {
                        stream_id,
                        flags: 0,
                        block,
                    };
                    frame::encode(&reply, &mut buf);
                }
                Out::PeerReset(id) => {
                    reset.insert(id);
                }
                Out::Shutdown => {
                    shutdown = true;
                    break;
                }
            }
            if buf.len() >= WRITE_BATCH {
                break;
            }
            next = rx.try_recv().ok();
        }
        if !buf.is_empty() {
            if w.write_all(&buf).await.is_err() || w.flush().await.is_err() {
                return;
            }
            buf.clear();
        }
        if shutdown {
            break;
        }
    }
    let _ = w.shutdown().await;
}
