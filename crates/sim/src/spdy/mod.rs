//! A small SPDY/3.1 server, enough for kubectl's `port-forward` (always SPDY, natively or
//! tunnelled in WebSocket binary messages) and the `exec`/`attach` of kubectl 1.27–1.29
//! (`docs/protocols.md` §3.3, §4.1–§4.2). Written from the SPDY/3 and SPDY/3.1 drafts.
//!
//! - [`frame`]: the frame codec (SYN_STREAM, SYN_REPLY, RST_STREAM, SETTINGS, PING, GOAWAY,
//!   HEADERS, WINDOW_UPDATE, DATA with `FIN`).
//! - [`headers`]: name/value header blocks and their zlib compression with the SPDY/3
//!   [`dictionary`].
//! - [`session`]: one server session over a byte stream: stream bookkeeping, SYN_REPLY, PING
//!   echo, GOAWAY; [`stream`]: a stream's reader and writer, WINDOW_UPDATE for consumed data.
//! - [`upgrade`]: the HTTP/1.1 `Upgrade: SPDY/3.1` handshake.
//!
//! What uses it: `sim::stream` (`pods/portforward`, `pods/exec`, `pods/attach`).

pub mod dictionary;
pub mod frame;
pub mod headers;
pub mod session;
pub mod stream;
pub mod upgrade;

#[cfg(test)]
mod session_tests;
#[cfg(test)]
mod tests;

pub use headers::Headers;
pub use session::Session;
pub use stream::{Closed, Stream, StreamReader, StreamWriter};
