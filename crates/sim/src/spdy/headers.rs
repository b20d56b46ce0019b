//! SPDY/3 name/value header blocks (spec §2.6.10) and their zlib compression (§2.6.10.1).
//!
//! Uncompressed block: a 32-bit pair count, then per pair a 32-bit name length, the name
//! (lowercase), a 32-bit value length and the value (several values joined by NUL); integers
//! big-endian. Each direction of a session has one zlib stream, started with the SPDY/3
//! [`DICTIONARY`] and flushed with `Z_SYNC_FLUSH` after every block, so every frame's block
//! decodes on its own but only in order. kubectl's blocks start `78 f9 e3 c6 a7 c2`
//! (`docs/protocols.md` §4.2): a zlib header announcing the dictionary.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use super::dictionary::DICTIONARY;

/// Largest uncompressed header block accepted, bytes (kubectl's are ~100).
pub const MAX_BLOCK: usize = 256 * 1024;

/// Decoded headers in wire order; names are lowercase (`streamtype`, `port`, `requestid`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl Headers {
    /// The first value of `name` (compared case-insensitively), e.g. `get("streamType")`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Headers from `(name, value)` pairs; names are lowercased as SPDY requires.
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Self {
        Headers(
            pairs
                .iter()
                .map(|(n, v)| (n.to_ascii_lowercase(), (*v).to_string()))
                .collect(),
        )
    }
}

/// Why a header block could not be read. Either ends the session (the zlib streams are out of
/// step after it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// The zlib stream is corrupt or uses a dictionary other than SPDY/3's.
    #[error("header block does not inflate: {0}")]
    Inflate(String),
    /// The block inflates to more than [`MAX_BLOCK`] bytes.
    #[error("header block larger than {MAX_BLOCK} bytes")]
    TooLarge,
    /// Counts or lengths run past the end of the block, or a name or value is not UTF-8.
    #[error("malformed header block")]
    Malformed,
}

/// Serialises `headers` as an uncompressed block.
pub fn encode_block(headers: &Headers) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(headers.0.len() as u32).to_be_bytes());
    for (n, v) in &headers.0 {
        for s in [n, v] {
            out.extend_from_slice(&(s.len() as u32).to_be_bytes());
            out.extend_from_slice(s.as_bytes());
        }
    }
    out
}

/// Parses an uncompressed block. Errors: [`HeaderError::Malformed`].
pub fn decode_block(raw: &[u8]) -> Result<Headers, HeaderError> {
    fn take<'a>(raw: &mut &'a [u8], n: usize) -> Result<&'a [u8], HeaderError> {
        if raw.len() < n {
            return Err(HeaderError::Malformed);
        }
        let (head, rest) = raw.split_at(n);
        *raw = rest;
        Ok(head)
    }
    fn word(raw: &mut &[u8]) -> Result<usize, HeaderError> {
        let b = take(raw, 4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
    fn text(raw: &mut &[u8]) -> Result<String, HeaderError> {
        let n = word(raw)?;
        let b = take(raw, n)?;
        String::from_utf8(b.to_vec()).map_err(|_| HeaderError::Malformed)
    }
    let mut raw = raw;
    let count = word(&mut raw)?;
    let mut pairs = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        let name = text(&mut raw)?;
        let value = text(&mut raw)?;
        pairs.push((name, value));
    }
    Ok(Headers(pairs))
}

/// The compressing side of one direction of a session.
pub struct Deflater(Compress);

impl std::fmt::Debug for Deflater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Deflater")
    }
}

impl Default for Deflater {
    fn default() -> Self {
        Self::new()
    }
}

impl Deflater {
    /// A zlib stream primed with the SPDY/3 dictionary: its first block starts `78 f9 e3 c6 a7
    /// c2` like kubectl's.
    pub fn new() -> Self {
        let mut c = Compress::new(Compression::default(), true);
        // Only fails on a stream that has already produced output, which this one has not.
        let _ = c.set_dictionary(DICTIONARY);
        Deflater(c)
    }

    /// Compresses `headers` as the next block of this stream (sync-flushed, so the frame's
    /// block is complete on its own).
    pub fn compress(&mut self, headers: &Headers) -> Vec<u8> {
        let raw = encode_block(headers);
        let mut out = Vec::with_capacity(raw.len() + 64);
        let mut pos = 0;
        loop {
            let before = self.0.total_in();
            let status = self
                .0
                .compress_vec(&raw[pos..], &mut out, FlushCompress::Sync);
            pos += (self.0.total_in() - before) as usize;
            let room = out.len() < out.capacity();
            match status {
                Ok(Status::Ok | Status::BufError) if pos >= raw.len() && room => break,
                Ok(_) => out.reserve(out.capacity().max(64)),
                // compress_vec only fails on a corrupt stream state; give the peer what exists.
                Err(_) => break,
            }
        }
        out
    }
}

/// The decompressing side of one direction of a session.
pub struct Inflater(Decompress);

impl std::fmt::Debug for Inflater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Inflater")
    }
}

impl Default for Inflater {
    fn default() -> Self {
        Self::new()
    }
}

impl Inflater {
    /// A zlib reader that supplies the SPDY/3 dictionary when the stream asks for it (a stream
    /// without a dictionary id is read too).
    pub fn new() -> Self {
        Inflater(Decompress::new(true))
    }

    /// Inflates the next compressed block of this stream and parses it. Errors:
    /// [`HeaderError`]; the stream is unusable afterwards.
    pub fn decompress(&mut self, block: &[u8]) -> Result<Headers, HeaderError> {
        let mut out = Vec::with_capacity(block.len() * 4 + 64);
        let mut pos = 0;
        loop {
            let (before_in, before_out) = (self.0.total_in(), self.0.total_out());
            let res = self
                .0
                .decompress_vec(&block[pos..], &mut out, FlushDecompress::Sync);
            pos += (self.0.total_in() - before_in) as usize;
            let progressed = self.0.total_out() > before_out || self.0.total_in() > before_in;
            match res {
                Err(e) if e.needs_dictionary().is_some() => {
                    self.0
                        .set_dictionary(DICTIONARY)
                        .map_err(|e| HeaderError::Inflate(e.to_string()))?;
                }
                Err(e) => return Err(HeaderError::Inflate(e.to_string())),
                Ok(Status::StreamEnd) => break,
                Ok(_) if pos >= block.len() && out.len() < out.capacity() => break,
                Ok(_) if !progressed && out.len() < out.capacity() => {
                    return Err(HeaderError::Inflate("no progress".into()));
                }
                Ok(_) => {
                    if out.len() > MAX_BLOCK {
                        return Err(HeaderError::TooLarge);
                    }
                    out.reserve(out.capacity().max(256));
                }
            }
        }
        if out.len() > MAX_BLOCK {
            return Err(HeaderError::TooLarge);
        }
        decode_block(&out)
    }
}
