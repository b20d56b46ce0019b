//! exec/attach over SPDY/3.1, the kubelet's `remotecommand` streams (`docs/protocols.md` §3.3,
//! Appendix A.4): kubectl 1.27–1.29 `POST` with `Upgrade: SPDY/3.1` and offer
//! `v4.channel.k8s.io`, `v3…`, `v2…`, `channel.k8s.io` in `X-Stream-Protocol-Version`; the
//! server picks the first it knows in the client's order (v4 for kubectl).
//!
//! The client then opens one SPDY stream per channel, named by its `streamtype` header:
//! `error` first, then `stdin`, `stdout`, `stderr` (not with a tty) and `resize` (tty, v3+) as
//! the query asked. Once all have arrived (at most [`STREAMS_TIMEOUT`]) the process runs like
//! the WebSocket one ([`super::channels`]); at its end the server sends `FIN` on stdout and
//! stderr, writes the Status on the error stream (v4: the JSON `metav1.Status` kubectl turns
//! into `command terminated with exit code N`; v1–v3: the failure text), sends `FIN` on it and
//! closes the session. stdin's `FIN` is stdin EOF; resize carries one JSON
//! `{"Width":…,"Height":…}` per line.

use std::time::Duration;

use axum::extract::Request;
use axum::response::Response;
use bytes::Bytes;

use super::Protocol;
use super::channels::{Channels, Input, Session as ExecSession};
use super::exec::{Target, not_running};
use crate::api::status::ApiError;
use crate::api::store::Store;
use crate::runtime::stty::WinSize;
use crate::spdy::frame::rst;
use crate::spdy::upgrade::{accept, negotiate, offered_protocols};
use crate::spdy::{Session, StreamReader, StreamWriter};

/// The stream protocols served, with their version numbers.
const PROTOCOLS: [(&str, u8); 4] = [
    ("v4.channel.k8s.io", 4),
    ("v3.channel.k8s.io", 3),
    ("v2.channel.k8s.io", 2),
    ("channel.k8s.io", 1),
];

/// How long the client has to open every expected stream (the kubelet's stream creation
/// timeout is 30 s).
pub(super) const STREAMS_TIMEOUT: Duration = Duration::from_secs(30);

/// Answers the SPDY upgrade and runs the session once upgraded. Errors: 400 when none of the
/// offered protocols is served; 500 `container not found` (the kubelet, before upgrading).
pub(super) fn upgrade(
    store: Store,
    req: Request,
    target: Target,
    attach: bool,
) -> Result<Response, ApiError> {
    let offered = offered_protocols(req.headers());
    let names: Vec<&str> = PROTOCOLS.iter().map(|(n, _)| *n).collect();
    let chosen = if offered.is_empty() {
        Some("channel.k8s.io")
    } else {
        negotiate(&offered, &names)
    };
    let Some(chosen) = chosen else {
        return Err(ApiError::bad_request(format!(
            "unable to upgrade: unable to negotiate protocol: client supports {offered:?}, server supports {names:?}"
        )));
    };
    if let Some(refused) = not_running(&target) {
        return Ok(refused);
    }
    let version = PROTOCOLS
        .iter()
        .find(|(n, _)| *n == chosen)
        .map_or(1, |(_, v)| *v);
    tracing::debug!(
        "pods/{} {}/{}: SPDY/3.1 with {chosen}",
        if attach { "attach" } else { "exec" },
        target.pod.metadata.namespace.as_deref().unwrap_or(""),
        target.pod.metadata.name.as_deref().unwrap_or("")
    );
    accept(req, chosen, move |io| async move {
        let mut session = Session::serve(io);
        let Some(ch) = streams(&mut session, &target, version).await else {
            return;
        };
        let protocol = if version >= 4 {
            Protocol::V4
        } else {
            Protocol::V1
        };
        let Target {
            pod,
            container,
            opts,
        } = target;
        let exec = ExecSession {
            ch: ch.with(session),
            protocol,
            tty: opts.tty,
            stderr: opts.stderr,
        };
        exec.run(store, pod, container, opts, attach).await;
    })
    .ok_or_else(|| ApiError::bad_request("Upgrade request required"))
}

/// The streams of one session before it runs.
#[derive(Default)]
struct Streams {
    error: Option<StreamWriter>,
    stdin: Option<StreamReader>,
    stdout: Option<StreamWriter>,
    stderr: Option<StreamWriter>,
    resize: Option<StreamReader>,
}

impl Streams {
    fn with(self, session: Session) -> SpdyChannels {
        SpdyChannels {
            session,
            error: self.error,
            stdin: self.stdin,
            stdout: self.stdout,
            stderr: self.stderr,
            resize: self.resize,
            sizes: Vec::new(),
        }
    }
}

/// Accepts streams until every one the query implies has arrived. `None` when the client left
/// or took longer than [`STREAMS_TIMEOUT`].
async fn streams(session: &mut Session, target: &Target, version: u8) -> Option<Streams> {
    let o = &target.opts;
    let want = [
        ("error", true),
        ("stdin", o.stdin),
        ("stdout", o.stdout),
        ("stderr", o.stderr && !o.tty),
        ("resize", o.tty && version >= 3),
    ];
    let mut got = Streams::default();
    let collect = async {
        let mut missing = want.iter().filter(|(_, w)| *w).count();
        while missing > 0 {
            let s = session.accept().await?;
            let kind = s
                .headers
                .get("streamtype")
                .unwrap_or("")
                .to_ascii_lowercase();
            let expected = want.iter().any(|(k, w)| *w && *k == kind);
            let slot_taken = match kind.as_str() {
                "error" => got.error.replace(s.writer).is_some(),
                "stdin" => got.stdin.replace(s.reader).is_some(),
                "stdout" => got.stdout.replace(s.writer).is_some(),
                "stderr" => got.stderr.replace(s.writer).is_some(),
                "resize" => got.resize.replace(s.reader).is_some(),
                _ => {
                    s.writer.reset(rst::PROTOCOL_ERROR).await;
                    continue;
                }
            };
            if expected && !slot_taken {
                missing -= 1;
            }
        }
        Some(())
    };
    tokio::time::timeout(STREAMS_TIMEOUT, collect)
        .await
        .ok()??;
    Some(got)
}

/// The exec channels as SPDY streams.
pub(super) struct SpdyChannels {
    session: Session,
    error: Option<StreamWriter>,
    stdin: Option<StreamReader>,
    stdout: Option<StreamWriter>,
    stderr: Option<StreamWriter>,
    resize: Option<StreamReader>,
    /// Resize bytes not yet parsed (JSON objects, one per line).
    sizes: Vec<u8>,
}

async fn read_opt(r: &mut Option<StreamReader>) -> Option<Bytes> {
    match r {
        Some(r) => r.read().await,
        None => std::future::pending().await,
    }
}

impl SpdyChannels {
    /// The next complete resize message in `sizes`, if any.
    fn next_size(&mut self) -> Option<Option<WinSize>> {
        let end = self.sizes.iter().position(|b| *b == b'\n')?;
        let line: Vec<u8> = self.sizes.drain(..=end).collect();
        Some(WinSize::parse(&line))
    }
}

impl Channels for SpdyChannels {
    async fn open(&mut self, _channel: u8) -> bool {
        // SPDY has no open frame: the SYN_REPLYs already told the client.
        true
    }

    async fn send(&mut self, channel: u8, data: &[u8]) -> bool {
        let w = if channel == 2 {
            &self.stderr
        } else {
            &self.stdout
        };
        match w {
            Some(w) => w.write(data).await.is_ok(),
            None => true,
        }
    }

    async fn recv(&mut self) -> Input {
        if let Some(size) = self.next_size() {
            return size.map_or(Input::Other, Input::Resize);
        }
        tokio::select! {
            b = read_opt(&mut self.stdin) => match b {
                Some(b) => Input::Stdin(b.to_vec()),
                None => {
                    self.stdin = None;
                    Input::StdinEof
                }
            },
            b = read_opt(&mut self.resize) => {
                match b {
                    Some(b) => self.sizes.extend_from_slice(&b),
                    None => {
                        // A last size without a newline.
                        self.sizes.push(b'\n');
                        self.resize = None;
                    }
                }
                Input::Other
            }
            s = self.session.accept() => match s {
                // Streams after the start are not part of the protocol.
                Some(s) => {
                    s.writer.reset(rst::PROTOCOL_ERROR).await;
                    Input::Other
                }
                None => Input::Gone,
            },
        }
    }

    async fn finish(self, status: Option<Vec<u8>>) {
        for w in [&self.stdout, &self.stderr].into_iter().flatten() {
            let _ = w.close().await;
        }
        if let Some(error) = &self.error {
            if let Some(body) = status {
                let _ = error.write(&body).await;
            }
            let _ = error.close().await;
        }
        self.session.close(Duration::from_secs(2)).await;
    }
}
