//! Log lines: the kubelet's `timestamps=true` prefix, CRI records, safe text with colour kept as
//! data, and the bounded [`LogBuffer`] (`docs/protocols.md` §2.2, §2.5).
//!
//! Resuming a stream after a restart (de-duplication) and the restart marker text live in
//! [`crate::log_resume`].

use std::borrow::Cow;
use std::collections::VecDeque;

use jiff::Timestamp;

use super::sanitize::sanitize;

mod merge;
pub use merge::Inserted;

/// Default capacity of a [`LogBuffer`] in lines (`--log-lines N`).
pub const DEFAULT_LOG_LINES: usize = 100_000;

/// What a [`LogLine`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// A line the container wrote (stdout and stderr interleaved, as the kubelet serves them).
    Log,
    /// A line podscope inserted: a restart marker, lost instances, a stream error.
    Marker,
    /// A pod event shown inline.
    Event,
}

/// An ANSI SGR (colour/style) sequence removed from a line, kept as data for rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgrMark {
    /// Byte offset in [`LogLine::text`] where the sequence stood.
    pub at: usize,
    /// The parameters between `ESC [` and `m`, e.g. `1;31` or `` (reset), digits `;` `:` only.
    pub params: String,
}

/// One line of a container's log as podscope keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// The container's `name`.
    pub container: String,
    /// The instance: the container's `restartCount` while that instance ran.
    pub instance: i32,
    /// The kubelet's timestamp of the line (`timestamps=true`), `None` for lines without one.
    pub ts: Option<Timestamp>,
    /// The text without the line break and without the timestamp, safe to draw: SGR colour
    /// sequences are moved to [`LogLine::sgr`], every other control character or escape is
    /// replaced by a visible stand-in ([`crate::sanitize`]).
    pub text: String,
    /// The colour sequences removed from `text`, in order (empty for most lines).
    pub sgr: Vec<SgrMark>,
    /// Log line, marker or event.
    pub kind: LineKind,
}

impl LogLine {
    /// Builds a [`LineKind::Log`] line from one raw line as served with `timestamps=true`
    /// (without its `\n`; a trailing `\r` is dropped as part of a CRLF break).
    #[must_use]
    pub fn from_raw(container: &str, instance: i32, raw: &str) -> LogLine {
        let (ts, rest) = parse_line(raw);
        let rest = rest.strip_suffix('\r').unwrap_or(rest);
        let (text, sgr) = split_sgr(rest);
        LogLine {
            container: container.to_owned(),
            instance,
            ts,
            text,
            sgr,
            kind: LineKind::Log,
        }
    }

    /// A line podscope inserts (`kind` is `Marker` or `Event`); `text` is sanitised.
    #[must_use]
    pub fn note(
        container: &str,
        instance: i32,
        ts: Option<Timestamp>,
        kind: LineKind,
        text: &str,
    ) -> LogLine {
        LogLine {
            container: container.to_owned(),
            instance,
            ts,
            text: sanitize(text).into_owned(),
            sgr: Vec::new(),
            kind,
        }
    }
}

/// Parses the timestamp the kubelet puts before each line with `timestamps=true`
/// (`2025-01-01T00:04:59.000000001Z line one`: RFC 3339, normally exactly 9 fractional digits,
/// then one space), or the first field of a CRI record. Any fraction width (0–9 digits) and a
/// numeric offset are accepted. Returns the rest of the line after the single separating space;
/// `(None, raw)` when the line does not start with a valid timestamp.
#[must_use]
pub fn parse_line(raw: &str) -> (Option<Timestamp>, &str) {
    match split_timestamp(raw.as_bytes()) {
        Some((ts, rest)) => (Some(ts), &raw[rest..]),
        None => (None, raw),
    }
}

/// Byte-level [`parse_line`]: the timestamp and the offset where the text starts.
/// Lines from the server need not be UTF-8; only the prefix must be.
#[must_use]
pub fn split_timestamp(raw: &[u8]) -> Option<(Timestamp, usize)> {
    let (token, rest) = timestamp_token(raw)?;
    let token = std::str::from_utf8(token).ok()?;
    let ts: Timestamp = token.parse().ok()?;
    Some((ts, rest))
}

/// The bytes of a leading timestamp-shaped token (`YYYY-MM-DDT…`, up to the first space) and the
/// offset after the space, without parsing it. Cheap enough to run on every line.
#[must_use]
pub fn timestamp_token(raw: &[u8]) -> Option<(&[u8], usize)> {
    // `YYYY-MM-DDTHH:MM:SSZ` is the shortest form (20 bytes).
    let shaped = raw.len() >= 20
        && raw[..4].iter().all(u8::is_ascii_digit)
        && raw[4] == b'-'
        && raw[7] == b'-'
        && matches!(raw[10], b'T' | b't');
    if !shaped {
        return None;
    }
    // 35 bytes is the longest form (9 digits and a `+hh:mm` offset).
    let end = raw.iter().take(36).position(|&b| b == b' ');
    match end {
        Some(i) => Some((&raw[..i], i + 1)),
        None if raw.len() <= 35 => Some((raw, raw.len())),
        None => None,
    }
}

/// Which stream a CRI record came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CriStream {
    /// `stdout`.
    Stdout,
    /// `stderr`.
    Stderr,
}

/// One record of a CRI log file: `<timestamp> <stream> <tag> <content>` (`docs/protocols.md` §2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CriRecord<'a> {
    /// RFC 3339 (nano) time of the record.
    pub ts: Timestamp,
    /// `stdout` or `stderr`.
    pub stream: CriStream,
    /// Tag `P`: partial, to be joined with the following records up to one tagged `F`.
    pub partial: bool,
    /// The content without the line break.
    pub content: &'a str,
}

/// Parses one CRI log file record, e.g. `2016-10-06T00:17:09.669794202Z stdout P log content 1`.
/// Tags may be `:`-separated; only the first is used. `None` if the record is malformed.
#[must_use]
pub fn parse_cri(raw: &str) -> Option<CriRecord<'_>> {
    let (ts, rest) = parse_line(raw);
    let ts = ts?;
    let (stream, rest) = rest.split_once(' ')?;
    let stream = match stream {
        "stdout" => CriStream::Stdout,
        "stderr" => CriStream::Stderr,
        _ => return None,
    };
    let (tags, content) = rest.split_once(' ').unwrap_or((rest, ""));
    let partial = match tags.split(':').next() {
        Some("P") => true,
        Some("F") => false,
        _ => return None,
    };
    Some(CriRecord {
        ts,
        stream,
        partial,
        content,
    })
}

/// Splits `s` into safe text and the SGR sequences (`ESC [ params m`, params of digits, `;`, `:`)
/// it contained. Everything else (other CSI, OSC, C0/C1 controls, DEL) is neutralised by
/// [`sanitize`], so the returned text contains no control character at all.
#[must_use]
pub fn split_sgr(s: &str) -> (String, Vec<SgrMark>) {
    if !s.contains('\u{1b}') {
        return (sanitize(s).into_owned(), Vec::new());
    }
    let mut text = String::with_capacity(s.len());
    let mut marks = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find('\u{1b}') {
        let after = &rest[i + 1..];
        let sgr_len = after.strip_prefix('[').and_then(|p| {
            let n = p
                .bytes()
                .take_while(|b| b.is_ascii_digit() || *b == b';' || *b == b':')
                .count();
            (p.as_bytes().get(n) == Some(&b'm')).then_some(n)
        });
        match sgr_len {
            Some(n) => {
                text.push_str(&sanitize(&rest[..i]));
                marks.push(SgrMark {
                    at: text.len(),
                    params: after[1..=n].to_owned(),
                });
                rest = &after[n + 2..];
            }
            None => {
                // Not colour: keep the ESC so sanitize turns it into a visible `␛`.
                text.push_str(&sanitize(&rest[..=i]));
                rest = after;
            }
        }
    }
    text.push_str(&sanitize(rest));
    (text, marks)
}

/// Makes one log line safe to write to a terminal while keeping its colour: SGR sequences
/// (`ESC [ params m`) are written as they were, every other control character or escape is
/// neutralised as in [`split_sgr`] (bidirectional overrides included). Borrowed when the line has
/// nothing to neutralise.
#[must_use]
pub fn terminal_safe(s: &str) -> Cow<'_, str> {
    if !s.chars().any(super::sanitize::is_neutralised) {
        return Cow::Borrowed(s);
    }
    let (text, marks) = split_sgr(s);
    let mut out = String::with_capacity(text.len() + 8 * marks.len());
    let mut at = 0;
    for m in &marks {
        out.push_str(&text[at..m.at]);
        out.push_str("\u{1b}[");
        out.push_str(&m.params);
        out.push('m');
        at = m.at;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// Cuts `text` for display to at most `max_bytes` bytes (at a character boundary) and says how
/// much is hidden: `…` + ` [N bytes more]`. Returns it borrowed when it fits. Nothing is dropped
/// from the buffer; this is only what one screen row shows.
#[must_use]
pub fn display_truncate(text: &str, max_bytes: usize) -> Cow<'_, str> {
    if text.len() <= max_bytes {
        return Cow::Borrowed(text);
    }
    let mut cut = max_bytes;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    Cow::Owned(format!(
        "{}… [{} bytes more]",
        &text[..cut],
        text.len() - cut
    ))
}

/// The log lines kept for display: at most `capacity` lines, oldest evicted first, and a count
/// of evicted lines so the view can say how many are gone. Lines of any length are
/// kept whole.
#[derive(Debug, Clone)]
pub struct LogBuffer {
    lines: VecDeque<LogLine>,
    capacity: usize,
    evicted: u64,
}

impl Default for LogBuffer {
    fn default() -> Self {
        LogBuffer::new(DEFAULT_LOG_LINES)
    }
}

impl LogBuffer {
    /// An empty buffer holding at most `capacity` lines (at least 1).
    #[must_use]
    pub fn new(capacity: usize) -> LogBuffer {
        LogBuffer {
            lines: VecDeque::new(),
            capacity: capacity.max(1),
            evicted: 0,
        }
    }

    /// Appends one line, evicting the oldest when full.
    pub fn push(&mut self, line: LogLine) {
        if self.lines.len() == self.capacity {
            self.lines.pop_front();
            self.evicted += 1;
        }
        self.lines.push_back(line);
    }

    /// Appends lines in order (see [`LogBuffer::push`]).
    pub fn extend(&mut self, lines: impl IntoIterator<Item = LogLine>) {
        for l in lines {
            self.push(l);
        }
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> &VecDeque<LogLine> {
        &self.lines
    }

    /// Number of lines kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no line is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The capacity in lines.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How many lines were evicted since the buffer was created or cleared.
    #[must_use]
    pub fn evicted(&self) -> u64 {
        self.evicted
    }

    /// Drops all lines and resets the eviction counter.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.evicted = 0;
    }
}
