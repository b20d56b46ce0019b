//! One SPDY stream as the application sees it: the headers of the peer's SYN_STREAM, a reader
//! of the peer's DATA (ends at its `FIN` or RST_STREAM) and a writer of ours (DATA, `FIN`,
//! RST_STREAM). The session has already answered the SYN_STREAM with a SYN_REPLY.
//!
//! Flow control (SPDY/3.1 §2.6.8): each stream and the session start with a 64 KiB receive
//! window; the reader sends WINDOW_UPDATE for what the application has taken, in steps of
//! [`UPDATE_STEP`], so a peer that honours windows never stalls. The writer does not hold back
//! for the peer's window: like the kubelet's SPDY library it relies on the transport's own
//! backpressure (kubectl's SPDY library sends no WINDOW_UPDATE).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use bytes::Bytes;
use tokio::sync::mpsc;

use super::frame::{FLAG_FIN, Frame};
use super::headers::Headers;

/// The initial receive window of a stream and of the session, bytes (SPDY/3.1).
pub const INITIAL_WINDOW: u32 = 64 * 1024;
/// Consumed bytes that trigger a WINDOW_UPDATE, per stream and per session, bytes.
pub const UPDATE_STEP: u32 = INITIAL_WINDOW / 2;
/// Largest DATA frame the writer sends, bytes.
pub const MAX_DATA_FRAME: usize = 32 * 1024;

/// What the application and the reader task queue for the writer task, in wire order.
#[derive(Debug)]
pub(super) enum Out {
    /// A frame to write as is.
    Frame(Frame),
    /// A SYN_REPLY with an empty header block (compressed by the writer, which owns the
    /// outgoing zlib stream).
    Reply { stream_id: u32 },
    /// The peer reset this stream: drop our DATA for it from now on.
    PeerReset(u32),
    /// Flush, close the write side of the transport and stop.
    Shutdown,
}

/// State shared by a stream's reader, its writer and the session's reader task.
#[derive(Debug, Default)]
pub(super) struct Shared {
    /// The peer sent RST_STREAM, or the session ended.
    pub reset: AtomicBool,
    /// Our side sent `FIN` or RST_STREAM.
    pub local_closed: AtomicBool,
}

/// Session-wide count of consumed bytes not yet acknowledged by a WINDOW_UPDATE on stream 0.
#[derive(Debug, Default)]
pub(super) struct SessionCredit(AtomicU32);

impl SessionCredit {
    /// Adds `n` consumed bytes; returns the delta to announce when a step is reached.
    pub fn add(&self, n: u32) -> Option<u32> {
        let total = self.0.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        if total < UPDATE_STEP {
            return None;
        }
        let taken = self.0.swap(0, Ordering::Relaxed);
        (taken > 0).then_some(taken)
    }
}

/// A stream the peer opened: its SYN_STREAM headers, a reader and a writer.
#[derive(Debug)]
pub struct Stream {
    /// Stream id (odd: opened by a client).
    pub id: u32,
    /// The SYN_STREAM headers, e.g. `streamtype: data`, `port: 8080`, `requestid: 0`.
    pub headers: Headers,
    /// The peer's DATA.
    pub reader: StreamReader,
    /// Our DATA.
    pub writer: StreamWriter,
}

/// Reads the peer's DATA of one stream.
#[derive(Debug)]
pub struct StreamReader {
    pub(super) id: u32,
    pub(super) rx: mpsc::UnboundedReceiver<Bytes>,
    pub(super) out: mpsc::Sender<Out>,
    pub(super) unacked: u32,
    pub(super) session: Arc<SessionCredit>,
}

impl StreamReader {
    /// The next DATA payload (never empty); `None` after the peer's `FIN`, its RST_STREAM or
    /// the end of the session. Taking data sends the WINDOW_UPDATEs it earns.
    pub async fn read(&mut self) -> Option<Bytes> {
        let data = self.rx.recv().await?;
        let n = u32::try_from(data.len()).unwrap_or(u32::MAX);
        self.unacked = self.unacked.saturating_add(n);
        if self.unacked >= UPDATE_STEP {
            let delta = std::mem::take(&mut self.unacked);
            let _ = self
                .out
                .send(Out::Frame(Frame::WindowUpdate {
                    stream_id: self.id,
                    delta,
                }))
                .await;
        }
        if let Some(delta) = self.session.add(n) {
            let _ = self
                .out
                .send(Out::Frame(Frame::WindowUpdate {
                    stream_id: 0,
                    delta,
                }))
                .await;
        }
        Some(data)
    }
}

/// The write side was closed: by us (`FIN`/reset), by the peer's RST_STREAM, or the session
/// ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("SPDY stream closed")]
pub struct Closed;

/// Writes our side of one stream. Clones share the stream.
#[derive(Debug, Clone)]
pub struct StreamWriter {
    pub(super) id: u32,
    pub(super) out: mpsc::Sender<Out>,
    pub(super) shared: Arc<Shared>,
}

impl StreamWriter {
    /// The stream id.
    pub fn id(&self) -> u32 {
        self.id
    }

    fn check(&self) -> Result<(), Closed> {
        if self.shared.reset.load(Ordering::Relaxed)
            || self.shared.local_closed.load(Ordering::Relaxed)
        {
            return Err(Closed);
        }
        Ok(())
    }

    /// Sends `data` as DATA frames of at most [`MAX_DATA_FRAME`] bytes; waits while the
    /// session's outgoing queue is full. Errors: [`Closed`].
    pub async fn write(&self, data: &[u8]) -> Result<(), Closed> {
        self.write_bytes(Bytes::copy_from_slice(data)).await
    }

    /// Like [`StreamWriter::write`] for bytes the caller owns: the frames share them rather
    /// than copy them (the port-forward relay reads the pod's bytes into a buffer it hands
    /// over). Errors: [`Closed`].
    pub async fn write_bytes(&self, mut data: Bytes) -> Result<(), Closed> {
        while !data.is_empty() {
            self.check()?;
            let chunk = data.split_to(data.len().min(MAX_DATA_FRAME));
            let frame = Frame::Data {
                stream_id: self.id,
                flags: 0,
                data: chunk,
            };
            self.out.send(Out::Frame(frame)).await.map_err(|_| Closed)?;
        }
        Ok(())
    }

    /// Ends our side with an empty DATA frame carrying `FIN`. Errors: [`Closed`] (already
    /// closed or reset).
    pub async fn close(&self) -> Result<(), Closed> {
        self.check()?;
        self.shared.local_closed.store(true, Ordering::Relaxed);
        let frame = Frame::Data {
            stream_id: self.id,
            flags: FLAG_FIN,
            data: Bytes::new(),
        };
        self.out.send(Out::Frame(frame)).await.map_err(|_| Closed)
    }

    /// Aborts the stream with RST_STREAM `status` (see [`super::frame::rst`]).
    pub async fn reset(&self, status: u32) {
        if self.shared.local_closed.swap(true, Ordering::Relaxed) {
            return;
        }
        let _ = self
            .out
            .send(Out::Frame(Frame::RstStream {
                stream_id: self.id,
                status,
            }))
            .await;
    }
}
