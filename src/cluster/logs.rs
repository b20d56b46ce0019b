//! Reading `pods/log` streams (`docs/protocols.md` §2): opening a request through kube-rs,
//! splitting the body into lines of any length, batching them, and the stream task that feeds
//! [`Msg::LogLines`] / [`Msg::LogStreamEnded`] to the loop.

use std::io;
use std::pin::Pin;
use std::time::Duration;

use futures::io::{AsyncBufRead, AsyncBufReadExt};
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::LogParams;
use tokio::time::Instant;

use super::logs_ws::LogSource;
use super::target_tx::TargetTx;
use crate::app::Msg;
use crate::model::log::LogLine;

/// Most lines in one batch.
pub const BATCH_LINES: usize = 1000;
/// Longest time a complete line waits in a batch before the batch is handed on.
pub const BATCH_WAIT: Duration = Duration::from_millis(50);

/// An open log response body.
pub type LogBody = Pin<Box<dyn AsyncBufRead + Send>>;

/// Why opening or reading a log failed, with the text to show.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The server answered with a `Status` (400 from the kubelet's or apiserver's checks, 404 for
    /// an unknown pod, 403 …). `message` is the server's text verbatim.
    #[error("{message}")]
    Server {
        /// HTTP code, e.g. 400.
        code: u16,
        /// `Status.reason`, e.g. `BadRequest`, `NotFound`.
        reason: String,
        /// `Status.message`, e.g. `previous terminated container "app" in pod "web" not found`.
        message: String,
    },
    /// The request could not be sent or the body broke off.
    #[error("{0}")]
    Transport(String),
}

impl From<kube::Error> for LogError {
    fn from(e: kube::Error) -> Self {
        match e {
            kube::Error::Api(s) => LogError::Server {
                code: s.code,
                reason: s.reason.clone(),
                message: s.message.clone(),
            },
            other => LogError::Transport(super::config::one_line(&other)),
        }
    }
}

/// Opens `GET …/pods/{pod}/log` with `params`. Errors: [`LogError::Server`] with the server's
/// message, or [`LogError::Transport`].
pub async fn open(api: &Api<Pod>, pod: &str, params: &LogParams) -> Result<LogBody, LogError> {
    let body = api.log_stream(pod, params).await?;
    Ok(Box::pin(body))
}

/// A run of complete lines read from a log body, in one buffer: `data` holds the lines with their
/// `\n`; `ends[i]` is the end offset (after the `\n`) of line `i`. Only the last line of the
/// last batch of a stream can lack its `\n` (the body ended mid-line, e.g. `limitBytes`).
#[derive(Debug, Default, Clone)]
pub struct RawBatch {
    /// The bytes of the lines, line breaks included.
    pub data: Vec<u8>,
    /// End offset of each line in `data`.
    pub ends: Vec<usize>,
}

impl RawBatch {
    /// Number of lines.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no line.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The lines without their `\n`.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let line = &self.data[start..end];
            start = end;
            line.strip_suffix(b"\n").unwrap_or(line)
        })
    }
}

/// Splits a log body into [`RawBatch`]es. No line length limit: a line is read until its `\n`
/// however long it is.
pub struct LineBatcher {
    body: LogBody,
    /// Bytes of an incomplete line carried into the next batch.
    carry: Vec<u8>,
    done: bool,
}

impl LineBatcher {
    /// Wraps an open body.
    #[must_use]
    pub fn new(body: LogBody) -> LineBatcher {
        LineBatcher {
            body,
            carry: Vec::new(),
            done: false,
        }
    }

    /// The next batch: up to `max_lines` lines, handed on `max_wait` after its first complete
    /// line at the latest (or as soon as the body ends). `Ok(None)` after the end of the body.
    ///
    /// # Errors
    /// The body broke off (connection reset, server gone); lines complete before the error were
    /// returned in earlier batches, an incomplete one is lost with the connection.
    pub async fn next_batch(
        &mut self,
        max_lines: usize,
        max_wait: Duration,
    ) -> io::Result<Option<RawBatch>> {
        if self.done {
            return Ok(None);
        }
        let mut batch = RawBatch {
            data: std::mem::take(&mut self.carry),
            ends: Vec::new(),
        };
        let mut deadline: Option<Instant> = None;
        loop {
            if batch.ends.len() >= max_lines {
                return Ok(Some(self.cut(batch)));
            }
            let chunk = if batch.ends.is_empty() {
                self.body.fill_buf().await?
            } else {
                let at = *deadline.get_or_insert_with(|| Instant::now() + max_wait);
                match tokio::time::timeout_at(at, self.body.fill_buf()).await {
                    Ok(r) => r?,
                    Err(_elapsed) => return Ok(Some(self.cut(batch))),
                }
            };
            if chunk.is_empty() {
                self.done = true;
                if batch.ends.last().copied().unwrap_or(0) < batch.data.len() {
                    batch.ends.push(batch.data.len());
                }
                return Ok((!batch.is_empty()).then_some(batch));
            }
            // Take at most up to the line that fills the batch, so `max_lines` holds.
            let room = max_lines - batch.ends.len();
            let mut take = chunk.len();
            let mut found = 0;
            for (i, &b) in chunk.iter().enumerate() {
                if b == b'\n' {
                    found += 1;
                    if found == room {
                        take = i + 1;
                        break;
                    }
                }
            }
            let base = batch.data.len();
            batch.data.extend_from_slice(&chunk[..take]);
            for (i, &b) in chunk[..take].iter().enumerate() {
                if b == b'\n' {
                    batch.ends.push(base + i + 1);
                }
            }
            self.body.consume_unpin(take);
        }
    }

    /// Moves the incomplete tail of `batch` into `carry` and returns the complete lines.
    fn cut(&mut self, mut batch: RawBatch) -> RawBatch {
        let complete = batch.ends.last().copied().unwrap_or(0);
        self.carry = batch.data.split_off(complete);
        batch
    }
}

/// What one stream task reads: which container instance, with which parameters.
#[derive(Debug, Clone)]
pub struct StreamSpec {
    /// Identifies the stream in the messages (chosen by the caller, unique per stream).
    pub stream: u64,
    /// The pod's `metadata.name`.
    pub pod: String,
    /// The container's `name`.
    pub container: String,
    /// The instance's `restartCount`, copied into every [`LogLine`].
    pub instance: i32,
    /// The request; `timestamps` should be `true` (the lines' times are parsed from it).
    pub params: LogParams,
}

/// Reads one log stream to its end and sends `Msg::LogLines` per batch, then one
/// `Msg::LogStreamEnded` (`reason` = `None` at a clean end, else the server's message or the
/// transport error), stamped by `tx`. Returns early when the receiver is gone.
pub async fn stream_task(api: Api<Pod>, spec: StreamSpec, tx: TargetTx) {
    stream_task_from(LogSource::Http(api), spec, tx).await;
}

/// [`stream_task`] reading from any [`LogSource`] (HTTP or WebSocket): the same batches and end
/// message whichever transport carries the bytes.
pub async fn stream_task_from(source: LogSource, spec: StreamSpec, tx: TargetTx) {
    let ended = |reason| Msg::LogStreamEnded {
        stream: spec.stream,
        reason,
    };
    let body = match source.open(&spec.pod, &spec.params).await {
        Ok(b) => b,
        Err(e) => {
            let _ = tx.send(ended(Some(e.to_string()))).await;
            return;
        }
    };
    let mut batcher = LineBatcher::new(body);
    loop {
        match batcher.next_batch(BATCH_LINES, BATCH_WAIT).await {
            Ok(Some(batch)) => {
                let lines = batch
                    .lines()
                    .map(|raw| {
                        LogLine::from_raw(
                            &spec.container,
                            spec.instance,
                            &String::from_utf8_lossy(raw),
                        )
                    })
                    .collect();
                let msg = Msg::LogLines {
                    stream: spec.stream,
                    lines,
                };
                if tx.send(msg).await.is_err() {
                    return;
                }
            }
            Ok(None) => {
                let _ = tx.send(ended(None)).await;
                return;
            }
            Err(e) => {
                let _ = tx
                    .send(ended(Some(format!("log stream broke off: {e}"))))
                    .await;
                return;
            }
        }
    }
}
