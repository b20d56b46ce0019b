//! One exec/attach session, whatever carries it: the simulated process ([`crate::runtime::process`])
//! driven through a [`Channels`] transport (WebSocket channels in [`super::exec_ws`], SPDY
//! streams in [`super::exec_spdy`]), then the exit Status (`docs/protocols.md` §3.2).
//!
//! Output goes to stdout/stderr (everything on stdout with a tty, `\n` → `\r\n` like a pty;
//! stderr dropped when the client did not ask for it). [`Store::cut_streams`] ends a running
//! session without a Status: the transport is dropped as it is.
//!
//! With a tty the process starts once the client's first terminal size has arrived (at most
//! [`FIRST_SIZE_WAIT`]; stdin that comes first ends the wait and is kept), so it starts on a
//! terminal of that size, as a runtime sizes the exec's console before it starts the process;
//! later sizes go to the process as they come (`docs/protocols.md` §3.5). The process reads
//! and writes the container instance's writable layer ([`Store::container_fs`]).

use k8s_openapi::api::core::v1::Pod;
use serde_json::{Value, json};

use std::collections::VecDeque;
use std::time::Duration;

use super::Protocol;
use crate::api::store::Store;
use crate::runtime::fs::LayerKey;
use crate::runtime::process::{Action, start};
use crate::runtime::stty::WinSize;
use crate::runtime::userland::ContainerView;
use crate::runtime::{hex_id, is_running};

/// Exec/attach options from the query (`stdin`, `stdout`, `stderr`, `tty`, `command…`).
#[derive(Debug, Clone)]
pub(super) struct Opts {
    pub stdin: bool,
    pub stdout: bool,
    pub stderr: bool,
    pub tty: bool,
    pub command: Vec<String>,
}

/// What the client sent.
#[derive(Debug)]
pub(super) enum Input {
    /// Bytes for the process' stdin.
    Stdin(Vec<u8>),
    /// stdin reached its end.
    StdinEof,
    /// The terminal was resized.
    Resize(WinSize),
    /// Something to ignore.
    Other,
    /// The client went away.
    Gone,
}

/// A transport of the exec channels. Channel numbers are the WebSocket ones: 1 stdout,
/// 2 stderr.
pub(super) trait Channels: Send {
    /// Signals that the session is established (WebSocket: the one-byte frame `[channel]`,
    /// channel = the lowest writable one). `false` when the client is gone.
    fn open(&mut self, channel: u8) -> impl Future<Output = bool> + Send;
    /// Writes `data` on stdout (1) or stderr (2). `false` when the client is gone.
    fn send(&mut self, channel: u8, data: &[u8]) -> impl Future<Output = bool> + Send;
    /// The next thing the client sent.
    fn recv(&mut self) -> impl Future<Output = Input> + Send;
    /// Ends the session, with the Status body (`None`: nothing on the error channel).
    fn finish(self, status: Option<Vec<u8>>) -> impl Future<Output = ()> + Send;
}

/// The Status written on the error channel, by protocol (see `docs/protocols.md` §3.2).
pub(super) enum Ending {
    Exit {
        code: i32,
        argv: Vec<String>,
    },
    /// An error after which the kubelet writes an InternalError; `text` is the kubelet's error.
    Internal(String),
    /// The apiserver's stream translator (v5) could not open the kubelet's stream (a container
    /// that is not running): its own InternalError around `text`, the prefix once.
    Upgrade(String),
    /// The client went away: nothing to write.
    Gone,
}

fn internal_status(err: &str) -> Value {
    json!({
        "metadata": {}, "status": "Failure", "message": format!("Internal error occurred: {err}"),
        "reason": "InternalError", "details": {"causes": [{"message": err}]}, "code": 500
    })
}

/// The error channel's body for `ending` under `protocol`: JSON Status (v4/v5), the failure
/// message as text (v1: nothing on success). `None` for [`Ending::Gone`].
pub(super) fn status_body(protocol: Protocol, ending: Ending) -> Option<Vec<u8>> {
    let status = match ending {
        Ending::Gone => return None,
        Ending::Exit { code: 0, .. } => json!({"metadata": {}, "status": "Success"}),
        Ending::Exit { code, argv } => {
            let inner = if protocol == Protocol::V5 {
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
        Ending::Upgrade(err) => internal_status(&err),
        Ending::Internal(err) => {
            if protocol == Protocol::V5 {
                // The apiserver's translator wraps the kubelet's InternalError once more.
                internal_status(&format!("Internal error occurred: {err}"))
            } else {
                internal_status(&err)
            }
        }
    };
    if protocol == Protocol::V1 {
        return match status["status"].as_str() {
            Some("Success") => None,
            _ => status["message"].as_str().map(|m| m.as_bytes().to_vec()),
        };
    }
    serde_json::to_vec(&status).ok()
}

/// How long a tty session waits for the client's first terminal size before it starts the
/// process on a `0 0` terminal (kubectl and kube-rs send the size right after the upgrade).
pub(super) const FIRST_SIZE_WAIT: Duration = Duration::from_millis(500);

/// The writable layer's key of `container` in `pod`: its current `containerID`.
fn layer_key(pod: &Pod, container: &str) -> LayerKey {
    let id = pod
        .status
        .iter()
        .flat_map(|s| {
            [
                &s.init_container_statuses,
                &s.container_statuses,
                &s.ephemeral_container_statuses,
            ]
        })
        .flat_map(|l| l.iter().flatten())
        .find(|s| s.name == container)
        .and_then(|s| s.container_id.clone())
        .unwrap_or_default();
    (
        pod.metadata.namespace.clone().unwrap_or_default(),
        pod.metadata.name.clone().unwrap_or_default(),
        container.to_owned(),
        id,
    )
}

/// One session on `ch`: open signal, the process, the Status (see the module doc).
pub(super) struct Session<C> {
    pub ch: C,
    pub protocol: Protocol,
    pub tty: bool,
    pub stderr: bool,
}

impl<C: Channels> Session<C> {
    /// Writes process output on `channel` (1 stdout, 2 stderr) as the options say (see the
    /// module docs). `false` when the client is gone.
    pub(super) async fn output(&mut self, channel: u8, data: &[u8]) -> bool {
        if self.tty {
            let mut crlf = Vec::with_capacity(data.len() + 8);
            for &b in data {
                if b == b'\n' {
                    crlf.push(b'\r');
                }
                crlf.push(b);
            }
            return self.ch.send(1, &crlf).await;
        }
        if channel == 2 && !self.stderr {
            return true;
        }
        self.ch.send(channel, data).await
    }

    /// Runs actions, writes into the layer of `fs`; `Some(code)` when the process exited.
    async fn perform(
        &mut self,
        actions: Vec<Action>,
        fs: &(Store, LayerKey),
    ) -> Result<Option<i32>, ()> {
        for a in actions {
            let ok = match a {
                Action::Write(change) => {
                    fs.0.container_fs().apply(&fs.1, change);
                    true
                }
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

    /// Runs the session to its end.
    pub async fn run(
        mut self,
        store: Store,
        pod: Pod,
        container: String,
        opts: Opts,
        attach: bool,
    ) {
        let open = if opts.stdout {
            1
        } else if opts.stderr {
            2
        } else {
            3
        };
        if !self.ch.open(open).await {
            return;
        }
        let mut cut = store.stream_cuts();
        let mut ending = tokio::select! {
            ending = self.drive(&store, &pod, &container, &opts, attach) => ending,
            // `Store::cut_streams`: drop the transport (no Status, no close).
            _ = cut.changed() => return,
        };
        if let (true, Ending::Exit { code, argv }) = (attach, &mut ending) {
            // The kubelet's attach reports Success whatever the process' exit code. An attached
            // shell (non-empty argv) was the container's PID 1: its exit ends the instance.
            if !argv.is_empty() {
                super::attach::pid1_exited(&store, &pod, &container, *code).await;
            }
            *code = 0;
        }
        if matches!(ending, Ending::Gone) {
            return;
        }
        let body = status_body(self.protocol, ending);
        self.ch.finish(body).await;
    }

    /// Waits for the first terminal size (see the module doc); what else arrived meanwhile is
    /// pushed to `early`. `None` when the client sent none in time, `Err` when it left.
    async fn first_size(&mut self, early: &mut VecDeque<Input>) -> Result<Option<WinSize>, ()> {
        let deadline = tokio::time::Instant::now() + FIRST_SIZE_WAIT;
        loop {
            match tokio::time::timeout_at(deadline, self.ch.recv()).await {
                Err(_) => return Ok(None),
                Ok(Input::Resize(size)) => return Ok(Some(size)),
                Ok(Input::Other) => {}
                Ok(Input::Gone) => return Err(()),
                Ok(other) => {
                    early.push_back(other);
                    return Ok(None);
                }
            }
        }
    }

    async fn drive(
        &mut self,
        store: &Store,
        pod: &Pod,
        container: &str,
        opts: &Opts,
        attach: bool,
    ) -> Ending {
        if !is_running(pod, container) {
            return Ending::Upgrade(format!(
                "unable to upgrade connection: container not found ({container:?})"
            ));
        }
        let Some(view) = ContainerView::new(pod, container) else {
            return Ending::Internal(format!("container not found ({container:?})"));
        };
        let fs = (store.clone(), layer_key(pod, container));
        let view = view
            .with_pod_refs(pod, &crate::kubelet::config_sources(store))
            .with_layer(store.container_fs().snapshot(&fs.1));
        let argv = if attach {
            super::attach::attach_argv(pod, &view)
        } else {
            Some(opts.command.clone())
        };
        let mut early = VecDeque::new();
        let terminal = match (opts.tty, &argv) {
            (true, Some(_)) => match self.first_size(&mut early).await {
                Ok(size) => Some(size.unwrap_or_default()),
                Err(()) => return Ending::Gone,
            },
            _ => None,
        };
        let (mut process, argv) = match argv {
            None => return self.follow_output(store, pod, container).await,
            Some(argv) => match start(&view, &argv, terminal) {
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
            match self.perform(std::mem::take(&mut actions), &fs).await {
                Err(()) => return Ending::Gone,
                Ok(Some(code)) => return Ending::Exit { code, argv },
                Ok(None) => {}
            }
            let input = match early.pop_front() {
                Some(input) => input,
                None => self.ch.recv().await,
            };
            match input {
                Input::Stdin(b) => actions = proc_.input(&b),
                Input::StdinEof => actions = proc_.eof(),
                Input::Resize(size) => proc_.resize(size),
                Input::Other => {}
                Input::Gone => return Ending::Gone,
            }
        }
    }

    /// Attach to a process that reads no stdin and writes nothing: wait for the client to leave.
    pub(super) async fn hold(&mut self) -> Ending {
        while !matches!(self.ch.recv().await, Input::Gone) {}
        Ending::Gone
    }
}
