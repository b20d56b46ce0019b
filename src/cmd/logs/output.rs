//! Output of `podscope logs`: per-stream line formatting (prefix, timestamp stripping,
//! de-duplication, terminal safety) into one buffer per batch, and the writer thread that owns
//! stdout (locked once, buffered, flushed per batch) and interleaves markers on stderr.

use std::io::{self, BufWriter, Write};
use std::thread::JoinHandle;

use tokio::sync::mpsc;

use crate::cluster::logs::RawBatch;
use crate::model::log::{terminal_safe, timestamp_token};
use crate::model::log_resume::{ResumeFilter, ResumeTracker};

/// What the writer thread writes.
#[derive(Debug)]
pub enum Out {
    /// Bytes for stdout (complete lines, except possibly the very last line of a stream).
    Stdout(Vec<u8>),
    /// One line for stderr (a marker or a message), written after stdout is flushed.
    Stderr(String),
}

/// Sending side of the writer; a failed send means stdout is gone (e.g. a closed pipe).
pub type OutTx = mpsc::Sender<Out>;

/// Starts the writer thread. It ends when every sender is dropped; its result is the first
/// write error (a closed pipe shows up as `BrokenPipe`).
pub fn spawn_writer() -> (OutTx, JoinHandle<io::Result<()>>) {
    let (tx, mut rx) = mpsc::channel::<Out>(64);
    let handle = std::thread::spawn(move || -> io::Result<()> {
        let stdout = io::stdout();
        let mut w = BufWriter::with_capacity(1 << 16, stdout.lock());
        while let Some(first) = rx.blocking_recv() {
            let mut next = Some(first);
            while let Some(item) = next {
                match item {
                    Out::Stdout(bytes) => w.write_all(&bytes)?,
                    Out::Stderr(line) => {
                        w.flush()?;
                        let mut err = io::stderr().lock();
                        writeln!(err, "{line}")?;
                    }
                }
                next = rx.try_recv().ok();
            }
            w.flush()?;
        }
        w.flush()
    });
    (tx, handle)
}

/// How the lines of one stream are written.
#[derive(Debug, Clone, Default)]
pub struct LineFormat {
    /// Written before every line: `[pod/NAME/CONTAINER] ` with `--prefix`, else empty.
    pub prefix: Vec<u8>,
    /// The server adds timestamps the user did not ask for (requested for following): cut them.
    pub strip_timestamps: bool,
    /// Stdout is a terminal: neutralise escapes except colour ([`terminal_safe`]).
    pub terminal: bool,
}

impl LineFormat {
    /// `true` when a batch can be written exactly as it came.
    fn passthrough(&self) -> bool {
        self.prefix.is_empty() && !self.strip_timestamps && !self.terminal
    }
}

/// Formats `batch` for stdout: drops lines `filter` says were already written, records the
/// timestamps of written lines in `tracker` (when following), applies `fmt`. Returns the bytes
/// and the number of lines written. A batch that passes through unchanged is moved, not copied.
pub fn format_batch(
    fmt: &LineFormat,
    batch: RawBatch,
    filter: &mut ResumeFilter,
    tracker: Option<&mut ResumeTracker>,
) -> (Vec<u8>, usize) {
    if fmt.passthrough() && !filter.active() && tracker.is_none() {
        let n = batch.len();
        return (batch.data, n);
    }
    let mut tracker = tracker;
    let terminated_last = batch.data.last() == Some(&b'\n');
    let count = batch.len();
    let mut out = Vec::with_capacity(batch.data.len() + count * fmt.prefix.len());
    let mut written = 0;
    for (i, line) in batch.lines().enumerate() {
        let token = timestamp_token(line);
        if filter.active() {
            let ts = token
                .and_then(|(t, _)| std::str::from_utf8(t).ok())
                .and_then(|t| t.parse().ok());
            if !filter.keep(ts) {
                continue;
            }
        }
        if let (Some(tr), Some((t, _))) = (tracker.as_deref_mut(), token) {
            tr.observe(t);
        }
        out.extend_from_slice(&fmt.prefix);
        let body = match token {
            Some((_, start)) if fmt.strip_timestamps => &line[start..],
            _ => line,
        };
        if fmt.terminal {
            out.extend_from_slice(terminal_safe(&String::from_utf8_lossy(body)).as_bytes());
        } else {
            out.extend_from_slice(body);
        }
        if i + 1 < count || terminated_last {
            out.push(b'\n');
        }
        written += 1;
    }
    (out, written)
}
