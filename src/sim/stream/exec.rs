//! `pods/exec` and `pods/attach` over WebSocket (`notes/protocols.md` §3); what attach connects
//! to is [`super::attach`].
//!
//! Before the upgrade: 404 for a missing pod, the apiserver's 400 container/host messages,
//! 400 `you must specify at least one command for the container` (exec without `command`).
//! After the upgrade the server writes the one-byte open frame (`[1]`, `[2]` without stdout,
//! `[3]` without either), runs the simulated process ([`super::commands`]), writes its output on
//! channels 1/2 (everything on 1 with a tty, `\n` → `\r\n` like a pty), then the Status on
//! channel 3 and a close frame 1000. [`Store::cut_streams`] drops a running session's connection
//! instead (no Status, no close frame). Client frames: `[0]+stdin`, `[255,0]` stdin EOF (v5),
//! `[4]+{"Width":…,"Height":…}` (with or without trailing newline; an interactive shell keeps the
//! last size for `stty size`).

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use k8s_openapi::api::core::v1::Pod;
use serde_json::{Value, json};

use super::commands::{Action, start};
use super::stty::WinSize;
use super::userland::ContainerView;
use super::{Protocol, find_pod, hex_id, is_running, negotiate, stream_target};
use crate::sim::query::Query;
use crate::sim::status::ApiError;
use crate::sim::store::Store;

/// Exec/attach options from the query (`stdin`, `stdout`, `stderr`, `tty`, `command…`).
#[derive(Debug, Clone)]
struct Opts {
    stdin: bool,
    stdout: bool,
    stderr: bool,
    tty: bool,
    command: Vec<String>,
}

type Upgrade = Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>;

/// `GET|POST …/pods/{name}/exec`.
pub(crate) async fn exec(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
    ws: Upgrade,
) -> Response {
    serve(store, ns, name, q, headers, ws, false).unwrap_or_else(IntoResponse::into_response)
}

/// `GET|POST …/pods/{name}/attach`.
pub(crate) async fn attach(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
    ws: Upgrade,
) -> Response {
    serve(store, ns, name, q, headers, ws, true).unwrap_or_else(IntoResponse::into_response)
}

fn serve(
    store: Store,
    ns: String,
    name: String,
    q: Option<String>,
    headers: HeaderMap,
    ws: Upgrade,
    attach: bool,
) -> Result<Response, ApiError> {
    let q = Query::parse(q.as_deref());
    let pod = find_pod(&store, &ns, &name)?;
    let container = stream_target(&pod, q.get("container"))?;
    let opts = Opts {
        stdin: q.flag("stdin")?,
        stdout: q.flag("stdout")?,
        stderr: q.flag("stderr")?,
        tty: q.flag("tty")?,
        command: q.all("command").into_iter().map(str::to_string).collect(),
    };
    if !attach && opts.command.is_empty() {
        return Err(ApiError::bad_request(
            "you must specify at least one command for the container",
        ));
    }
    if !(opts.stdin || opts.stdout || opts.stderr) {
        return Err(ApiError::bad_request(
            "you must specify at least 1 of stdin, stdout, stderr",
        ));
    }
    let protocol = negotiate(&headers, &[Protocol::V5, Protocol::V4, Protocol::V1])?;
    let protocol = protocol.unwrap_or(Protocol::V1);
    let Ok(mut ws) = ws else {
        return Err(ApiError::bad_request("Upgrade request required"));
    };
    if protocol != Protocol::V5 && !is_running(&pod, &container) {
        // The kubelet refuses before upgrading; the apiserver's proxy passes its 500 through.
        return Ok((
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("container not found ({container:?})"),
        )
            .into_response());
    }
    if let Ok(v) = http::HeaderValue::from_str(protocol.name())
        && headers.contains_key(http::header::SEC_WEBSOCKET_PROTOCOL)
    {
        ws.set_selected_protocol(v);
    }
    Ok(ws.on_upgrade(move |socket| async move {
        let session = Session {
            socket,
            protocol,
            tty: opts.tty,
            stderr: opts.stderr,
        };
        session.run(store, pod, container, opts, attach).await;
    }))
}

struct Session {
    socket: WebSocket,
    protocol: Protocol,
    tty: bool,
    stderr: bool,
}

/// The Status written on channel 3, by protocol (see `notes/protocols.md` §3.2).
enum Ending {
    Exit {
        code: i32,
        argv: Vec<String>,
    },
    /// An error after which the kubelet writes an InternalError; `text` is the kubelet's error.
    Internal(String),
    /// The client went away: nothing to write.
    Gone,
}

fn internal_status(err: &str) -> Value {
    json!({
        "metadata": {}, "status": "Failure", "message": format!("Internal error occurred: {err}"),
        "reason": "InternalError", "details": {"causes": [{"message": err}]}, "code": 500
    })
}

impl Session {
    async fn send(&mut self, channel: u8, data: &[u8]) -> bool {
        let mut frame = Vec::with_capacity(data.len() + 1);
        frame.push(channel);
        frame.extend_from_slice(data);
        self.socket
            .send(Message::Binary(Bytes::from(frame)))
            .await
            .is_ok()
    }

    async fn output(&mut self, channel: u8, data: &[u8]) -> bool {
        if self.tty {
            let mut crlf = Vec::with_capacity(data.len() + 8);
            for &b in data {
                if b == b'\n' {
                    crlf.push(b'\r');
                }
                crlf.push(b);
            }
            return self.send(1, &crlf).await;
        }
        if channel == 2 && !self.stderr {
            return true;
        }
        self.send(channel, data).await
    }

    /// Runs actions; `Some(code)` when the process exited.
    async fn perform(&mut self, actions: Vec<Action>) -> Result<Option<i32>, ()> {
        for a in actions {
            let ok = match a {
                Action::Stdout(b) => self.output(1, &b).await,
                Action::Stderr(b) => self.output(2, &b).await,
                Action::Sleep(d) => {
                    tokio::time::sleep(d.unsigned_abs()).await;
                    true
                }
                Action::Exit(code) => return Ok(Some(code)),
            };
            if !ok {
                return Err(());
            }
        }
        Ok(None)
    }

    async fn run(mut self, store: Store, pod: Pod, container: String, opts: Opts, attach: bool) {
        let open = if opts.stdout {
            1
        } else if opts.stderr {
            2
        } else {
            3
        };
        if !self.send(open, &[]).await {
            return;
        }
        let mut cut = store.stream_cuts();
        let mut ending = tokio::select! {
            ending = self.drive(&pod, &container, &opts, attach) => ending,
            // `Store::cut_streams`: drop the socket (no Status, no close frame).
            _ = cut.changed() => return,
        };
        if let (true, Ending::Exit { code, .. }) = (attach, &mut ending) {
            // The kubelet's attach reports Success whatever the process' exit code.
            super::attach::mark_ephemeral_exit(&store, &pod, &container, *code);
            *code = 0;
        }
        self.finish(ending).await;
    }

    async fn drive(&mut self, pod: &Pod, container: &str, opts: &Opts, attach: bool) -> Ending {
        if !is_running(pod, container) {
            return Ending::Internal(format!(
                "unable to upgrade connection: container not found ({container:?})"
            ));
        }
        let Some(view) = ContainerView::new(pod, container) else {
            return Ending::Internal(format!("container not found ({container:?})"));
        };
        let argv = if attach {
            super::attach::attach_argv(pod, &view)
        } else {
            Some(opts.command.clone())
        };
        let (mut process, argv) = match argv {
            None => return self.hold().await,
            Some(argv) => match start(&view, &argv, opts.tty) {
                Ok(p) => (p, argv),
                Err(nf) => {
                    let id = hex_id(&format!(
                        "{}/{container}/{argv:?}/{}",
                        view.pod,
                        rand::random::<u64>()
                    ));
                    return Ending::Internal(format!(
                        "error executing command in container: {}",
                        nf.runtime_message(&id)
                    ));
                }
            },
        };
        let proc_ = &mut process;
        let mut actions = proc_.begin();
        if !opts.stdin {
            actions.extend(proc_.eof());
        }
        loop {
            match self.perform(std::mem::take(&mut actions)).await {
                Err(()) => return Ending::Gone,
                Ok(Some(code)) => return Ending::Exit { code, argv },
                Ok(None) => {}
            }
            let Some(Ok(msg)) = self.socket.recv().await else {
                return Ending::Gone;
            };
            match msg {
                Message::Binary(b) => match b.first() {
                    Some(0) => actions = proc_.input(&b[1..]),
                    Some(255) if b.get(1) == Some(&0) => actions = proc_.eof(),
                    Some(4) => {
                        if let Some(size) = WinSize::parse(&b[1..]) {
                            proc_.resize(size);
                        }
                    }
                    _ => {}
                },
                Message::Close(_) => {
                    if self.protocol == Protocol::V5 {
                        return Ending::Gone;
                    }
                    // v4 clients close the socket to signal stdin EOF (§3.4).
                    actions = proc_.eof();
                }
                _ => {}
            }
        }
    }

    /// Attach to a process that reads no stdin and writes nothing: wait for the client to leave.
    async fn hold(&mut self) -> Ending {
        while let Some(Ok(msg)) = self.socket.recv().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
        Ending::Gone
    }

    async fn finish(mut self, ending: Ending) {
        let status = match ending {
            Ending::Gone => return,
            Ending::Exit { code: 0, .. } => json!({"metadata": {}, "status": "Success"}),
            Ending::Exit { code, argv } => {
                let inner = if self.protocol == Protocol::V5 {
                    format!("command terminated with exit code {code}")
                } else {
                    format!(
                        "error executing command [{}], exit code {code}",
                        argv.join(" ")
                    )
                };
                json!({
                    "metadata": {}, "status": "Failure",
                    "message": format!("command terminated with non-zero exit code: {inner}"),
                    "reason": "NonZeroExitCode",
                    "details": {"causes": [{"reason": "ExitCode", "message": code.to_string()}]}
                })
            }
            Ending::Internal(err) => {
                if self.protocol == Protocol::V5 {
                    // The apiserver's translator wraps the kubelet's InternalError once more.
                    internal_status(&format!("Internal error occurred: {err}"))
                } else {
                    internal_status(&err)
                }
            }
        };
        let body = if self.protocol == Protocol::V1 {
            match status["status"].as_str() {
                Some("Success") => None,
                _ => status["message"].as_str().map(|m| m.as_bytes().to_vec()),
            }
        } else {
            serde_json::to_vec(&status).ok()
        };
        if let Some(body) = body {
            let _ = self.send(3, &body).await;
        }
        let _ = self
            .socket
            .send(Message::Close(Some(CloseFrame {
                code: 1000,
                reason: "".into(),
            })))
            .await;
        // Closing handshake: keep reading (and ignoring) until the client closes, so frames it
        // sends meanwhile (kube-rs' `[255,0]`) do not hit a dead socket before it reads the
        // Status. Bounded at 2 s.
        let drain = async { while let Some(Ok(_)) = self.socket.recv().await {} };
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), drain).await;
    }
}
