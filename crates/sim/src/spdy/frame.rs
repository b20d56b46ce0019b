//! SPDY/3.1 frame codec: the 8-byte frame header and the payload of each frame type the
//! server reads or writes (SPDY/3 spec §2.2–§2.6; SPDY/3.1 adds session-level WINDOW_UPDATE on
//! stream 0). Header blocks stay compressed here; [`super::headers`] turns them into
//! name/value pairs. `docs/protocols.md` §4.2 has a captured first frame:
//! `8003 0001 0000003e 00000001 00000000 00 00 <52-byte block>` (SYN_STREAM, stream 1).
//!
//! Wire layout (all integers big-endian):
//! - control frame: `1` bit, 15-bit version (3), 16-bit type, 8-bit flags, 24-bit length,
//!   payload;
//! - data frame: `0` bit, 31-bit stream id, 8-bit flags (`FIN` = 1), 24-bit length, payload.

use bytes::{Buf, BufMut, Bytes, BytesMut};

/// The only protocol version served (the `version` field of control frames).
pub const VERSION: u16 = 3;
/// Frame header size, bytes.
pub const HEADER_LEN: usize = 8;
/// Largest payload a 24-bit length field allows, bytes.
pub const MAX_LENGTH: usize = 0xFF_FFFF;

/// `FIN` flag (data, SYN_STREAM, SYN_REPLY, HEADERS): the sender's half of the stream ends.
pub const FLAG_FIN: u8 = 0x01;
/// `UNIDIRECTIONAL` flag of SYN_STREAM: the recipient must not send on the stream.
pub const FLAG_UNIDIRECTIONAL: u8 = 0x02;
/// `CLEAR_SETTINGS` flag of SETTINGS.
pub const FLAG_CLEAR_SETTINGS: u8 = 0x01;

/// RST_STREAM status codes (spec §2.4.2).
pub mod rst {
    /// Generic error, e.g. a SYN_STREAM with a bad stream id.
    pub const PROTOCOL_ERROR: u32 = 1;
    /// Frame for a stream that is not active.
    pub const INVALID_STREAM: u32 = 2;
    /// The stream was refused before any processing.
    pub const REFUSED_STREAM: u32 = 3;
    /// The stream is no longer needed.
    pub const CANCEL: u32 = 5;
    /// Generic internal error.
    pub const INTERNAL_ERROR: u32 = 6;
    /// The peer violated flow control.
    pub const FLOW_CONTROL_ERROR: u32 = 7;
}

/// GOAWAY status codes (spec §2.6.6).
pub mod goaway {
    /// Normal session teardown.
    pub const OK: u32 = 0;
    /// The peer violated the protocol.
    pub const PROTOCOL_ERROR: u32 = 1;
    /// Internal error.
    pub const INTERNAL_ERROR: u32 = 2;
}

/// SETTINGS id of the initial per-stream window (spec §2.6.4), bytes.
pub const SETTINGS_INITIAL_WINDOW_SIZE: u32 = 7;

/// One SETTINGS entry: 8-bit flags, 24-bit id, 32-bit value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// `FLAG_SETTINGS_PERSIST_VALUE` (1) / `FLAG_SETTINGS_PERSISTED` (2).
    pub flags: u8,
    /// Setting id, e.g. [`SETTINGS_INITIAL_WINDOW_SIZE`].
    pub id: u32,
    /// Its value.
    pub value: u32,
}

/// A decoded frame. Stream ids are 31-bit; `block`s are compressed name/value header blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// Type 1: the peer opens `stream_id` (odd from a client).
    SynStream {
        /// The new stream.
        stream_id: u32,
        /// Associated stream (server push; 0 otherwise).
        associated_to: u32,
        /// 3-bit priority, 0 = highest.
        priority: u8,
        /// `FLAG_FIN`, `FLAG_UNIDIRECTIONAL`.
        flags: u8,
        /// Compressed header block.
        block: Bytes,
    },
    /// Type 2: the answer to a SYN_STREAM.
    SynReply {
        /// The stream answered.
        stream_id: u32,
        /// `FLAG_FIN`.
        flags: u8,
        /// Compressed header block.
        block: Bytes,
    },
    /// Type 3: abnormal end of a stream; `status` from [`rst`].
    RstStream {
        /// The stream reset.
        stream_id: u32,
        /// Why.
        status: u32,
    },
    /// Type 4: session settings.
    Settings {
        /// `FLAG_CLEAR_SETTINGS`.
        flags: u8,
        /// The entries.
        entries: Vec<Setting>,
    },
    /// Type 6: liveness check; the receiver echoes a ping the peer started (a client's ids are
    /// odd, a server's even).
    Ping {
        /// Ping id.
        id: u32,
    },
    /// Type 7: the sender will accept no stream above `last_good_stream_id`.
    GoAway {
        /// Last stream id the sender processed.
        last_good_stream_id: u32,
        /// From [`goaway`].
        status: u32,
    },
    /// Type 8: more headers for a stream.
    Headers {
        /// The stream.
        stream_id: u32,
        /// `FLAG_FIN`.
        flags: u8,
        /// Compressed header block.
        block: Bytes,
    },
    /// Type 9: the sender may send `delta` more bytes on `stream_id` (0 = the session window,
    /// SPDY/3.1).
    WindowUpdate {
        /// Stream, or 0 for the session.
        stream_id: u32,
        /// Window increase, bytes (31-bit).
        delta: u32,
    },
    /// A data frame.
    Data {
        /// The stream.
        stream_id: u32,
        /// `FLAG_FIN`.
        flags: u8,
        /// Payload.
        data: Bytes,
    },
    /// A control frame type this server does not interpret (e.g. CREDENTIAL, type 10).
    Other {
        /// Frame type.
        kind: u16,
        /// Flags.
        flags: u8,
        /// Raw payload.
        payload: Bytes,
    },
}

/// Why bytes are not a valid frame. Either ends the session (GOAWAY PROTOCOL_ERROR).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// A control frame with a version other than 3.
    #[error("unsupported SPDY version {0}")]
    Version(u16),
    /// A control frame whose payload is too short or inconsistent for its type.
    #[error("malformed SPDY control frame of type {kind} ({len} payload bytes)")]
    Malformed {
        /// Frame type.
        kind: u16,
        /// Payload length.
        len: usize,
    },
}

const MASK31: u32 = 0x7FFF_FFFF;

impl Frame {
    /// Whether the frame carries `FLAG_FIN` (data, SYN_STREAM, SYN_REPLY, HEADERS).
    pub fn fin(&self) -> bool {
        match self {
            Frame::SynStream { flags, .. }
            | Frame::SynReply { flags, .. }
            | Frame::Headers { flags, .. }
            | Frame::Data { flags, .. } => flags & FLAG_FIN != 0,
            _ => false,
        }
    }
}

/// Takes one whole frame off the front of `buf`. `Ok(None)` when `buf` does not yet hold a
/// whole frame (nothing is consumed). Errors: [`FrameError`] (the frame's bytes are consumed).
pub fn decode(buf: &mut BytesMut) -> Result<Option<Frame>, FrameError> {
    if buf.len() < HEADER_LEN {
        return Ok(None);
    }
    let len = usize::from(buf[5]) << 16 | usize::from(buf[6]) << 8 | usize::from(buf[7]);
    if buf.len() < HEADER_LEN + len {
        return Ok(None);
    }
    let mut head = buf.split_to(HEADER_LEN);
    let mut p = buf.split_to(len).freeze();
    let first = head.get_u32();
    let flags = head[0];
    if first & 0x8000_0000 == 0 {
        return Ok(Some(Frame::Data {
            stream_id: first & MASK31,
            flags,
            data: p,
        }));
    }
    let version = ((first >> 16) & 0x7FFF) as u16;
    let kind = (first & 0xFFFF) as u16;
    if version != VERSION {
        return Err(FrameError::Version(version));
    }
    let bad = FrameError::Malformed { kind, len };
    let frame = match kind {
        1 => {
            if len < 10 {
                return Err(bad);
            }
            let stream_id = p.get_u32() & MASK31;
            let associated_to = p.get_u32() & MASK31;
            let priority = p.get_u8() >> 5;
            let _slot = p.get_u8();
            Frame::SynStream {
                stream_id,
                associated_to,
                priority,
                flags,
                block: p,
            }
        }
        2 | 8 => {
            if len < 4 {
                return Err(bad);
            }
            let stream_id = p.get_u32() & MASK31;
            if kind == 2 {
                Frame::SynReply {
                    stream_id,
                    flags,
                    block: p,
                }
            } else {
                Frame::Headers {
                    stream_id,
                    flags,
                    block: p,
                }
            }
        }
        3 | 7 | 9 if len != 8 => return Err(bad),
        3 => Frame::RstStream {
            stream_id: p.get_u32() & MASK31,
            status: p.get_u32(),
        },
        7 => Frame::GoAway {
            last_good_stream_id: p.get_u32() & MASK31,
            status: p.get_u32(),
        },
        9 => Frame::WindowUpdate {
            stream_id: p.get_u32() & MASK31,
            delta: p.get_u32() & MASK31,
        },
        4 => {
            if len < 4 {
                return Err(bad);
            }
            let n = p.get_u32() as usize;
            if p.len() != n.saturating_mul(8) {
                return Err(bad);
            }
            let entries = (0..n)
                .map(|_| {
                    let word = p.get_u32();
                    Setting {
                        flags: (word >> 24) as u8,
                        id: word & 0xFF_FFFF,
                        value: p.get_u32(),
                    }
                })
                .collect();
            Frame::Settings { flags, entries }
        }
        6 if len != 4 => return Err(bad),
        6 => Frame::Ping { id: p.get_u32() },
        _ => Frame::Other {
            kind,
            flags,
            payload: p,
        },
    };
    Ok(Some(frame))
}

fn control(out: &mut BytesMut, kind: u16, flags: u8, len: usize) {
    out.put_u16(0x8000 | VERSION);
    out.put_u16(kind);
    out.put_u8(flags);
    put_u24(out, len);
}

fn put_u24(out: &mut BytesMut, len: usize) {
    let len = len.min(MAX_LENGTH);
    out.put_u8((len >> 16) as u8);
    out.put_u8((len >> 8) as u8);
    out.put_u8(len as u8);
}

/// Appends `frame`'s wire bytes to `out`. Payloads longer than [`MAX_LENGTH`] are the caller's
/// bug (data is split into smaller frames by the session); the length field saturates.
pub fn encode(frame: &Frame, out: &mut BytesMut) {
    match frame {
        Frame::Data {
            stream_id,
            flags,
            data,
        } => {
            out.put_u32(stream_id & MASK31);
            out.put_u8(*flags);
            put_u24(out, data.len());
            out.put_slice(data);
        }
        Frame::SynStream {
            stream_id,
            associated_to,
            priority,
            flags,
            block,
        } => {
            control(out, 1, *flags, 10 + block.len());
            out.put_u32(stream_id & MASK31);
            out.put_u32(associated_to & MASK31);
            out.put_u8(priority << 5);
            out.put_u8(0);
            out.put_slice(block);
        }
        Frame::SynReply {
            stream_id,
            flags,
            block,
        }
        | Frame::Headers {
            stream_id,
            flags,
            block,
        } => {
            let kind = if matches!(frame, Frame::SynReply { .. }) {
                2
            } else {
                8
            };
            control(out, kind, *flags, 4 + block.len());
            out.put_u32(stream_id & MASK31);
            out.put_slice(block);
        }
        Frame::RstStream { stream_id, status } => {
            control(out, 3, 0, 8);
            out.put_u32(stream_id & MASK31);
            out.put_u32(*status);
        }
        Frame::Settings { flags, entries } => {
            control(out, 4, *flags, 4 + 8 * entries.len());
            out.put_u32(entries.len() as u32);
            for e in entries {
                out.put_u32(u32::from(e.flags) << 24 | (e.id & 0xFF_FFFF));
                out.put_u32(e.value);
            }
        }
        Frame::Ping { id } => {
            control(out, 6, 0, 4);
            out.put_u32(*id);
        }
        Frame::GoAway {
            last_good_stream_id,
            status,
        } => {
            control(out, 7, 0, 8);
            out.put_u32(last_good_stream_id & MASK31);
            out.put_u32(*status);
        }
        Frame::WindowUpdate { stream_id, delta } => {
            control(out, 9, 0, 8);
            out.put_u32(stream_id & MASK31);
            out.put_u32(delta & MASK31);
        }
        Frame::Other {
            kind,
            flags,
            payload,
        } => {
            control(out, *kind, *flags, payload.len());
            out.put_slice(payload);
        }
    }
}
