//! `pods/exec` and `pods/attach` (`docs/protocols.md` §3): the HTTP side. WebSocket requests
//! get the channel protocols ([`super::exec_ws`]); `POST` with `Upgrade: SPDY/3.1` (kubectl
//! 1.27–1.29, and 1.30+ after a failed WebSocket handshake) gets SPDY streams
//! ([`super::exec_spdy`]). Either way [`super::channels`] runs the session and what attach
//! connects to is [`super::attach`].
//!
//! Before the upgrade: 404 for a missing pod, the apiserver's 400 container/host messages,
//! 400 `you must specify at least one command for the container` (exec without `command`),
//! and, on the kubelet's paths (every protocol but WebSocket v5), a 500 `container not found`
//! for a container that is not running. After the upgrade the server runs the simulated
//! process ([`crate::runtime::process`]) and writes its output, then the Status on the error channel.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{FromRequestParts, Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use k8s_openapi::api::core::v1::Pod;

use super::channels::{Opts, Session};
use super::exec_ws::WsChannels;
use super::{Protocol, find_pod, negotiate, stream_target};
use crate::api::query::Query;
use crate::api::rejection::Verbatim;
use crate::api::status::ApiError;
use crate::api::store::Store;
use crate::runtime::is_running;
use crate::spdy::upgrade::is_spdy_upgrade;

/// `GET|POST …/pods/{name}/exec`.
pub(crate) async fn exec(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    req: Request,
) -> Response {
    serve(store, ns, name, req, false)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

/// `GET|POST …/pods/{name}/attach`.
pub(crate) async fn attach(
    State(store): State<Store>,
    Path((ns, name)): Path<(String, String)>,
    req: Request,
) -> Response {
    serve(store, ns, name, req, true)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

/// A checked request: the pod, the container and the options.
pub(super) struct Target {
    pub pod: Pod,
    pub container: String,
    pub opts: Opts,
}

/// The apiserver's checks, in its order. Errors: 404 pod, 400 container/host, 400 no command,
/// 400 no stream.
fn check(store: &Store, ns: &str, name: &str, q: &Query, attach: bool) -> Result<Target, ApiError> {
    let pod = find_pod(store, ns, name)?;
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
    Ok(Target {
        pod,
        container,
        opts,
    })
}

/// The kubelet refuses a container that is not running before upgrading: its CRI streaming
/// server answers 500 with the bare error text (`container not found ("NAME")`, no Status;
/// `pkg/kubelet/cri/streaming/errors.go` `WriteError`), and the apiserver's upgrade-aware proxy
/// passes that response through, so client-go's SPDY dialer (which finds no Status in it)
/// reports `unable to upgrade connection: container not found ("NAME")` (`docs/protocols.md` §3.5).
pub(super) fn not_running(t: &Target) -> Option<Response> {
    (!is_running(&t.pod, &t.container)).then(|| {
        let mut resp = (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(http::header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("container not found ({:?})", t.container),
        )
            .into_response();
        resp.extensions_mut().insert(Verbatim);
        resp
    })
}

async fn serve(
    store: Store,
    ns: String,
    name: String,
    req: Request,
    attach: bool,
) -> Result<Response, ApiError> {
    let q = Query::parse(req.uri().query());
    let target = check(&store, &ns, &name, &q, attach)?;
    if is_spdy_upgrade(req.headers()) {
        return super::exec_spdy::upgrade(store, req, target, attach);
    }
    let (mut parts, _) = req.into_parts();
    let headers: HeaderMap = parts.headers.clone();
    let ws = WebSocketUpgrade::from_request_parts(&mut parts, &store).await;
    let protocol = negotiate(&headers, &[Protocol::V5, Protocol::V4, Protocol::V1])?;
    let protocol = protocol.unwrap_or(Protocol::V1);
    let Ok(mut ws) = ws else {
        return Err(ApiError::bad_request("Upgrade request required"));
    };
    if protocol != Protocol::V5
        && let Some(refused) = not_running(&target)
    {
        return Ok(refused);
    }
    if let Ok(v) = http::HeaderValue::from_str(protocol.name())
        && headers.contains_key(http::header::SEC_WEBSOCKET_PROTOCOL)
    {
        ws.set_selected_protocol(v);
    }
    let Target {
        pod,
        container,
        opts,
    } = target;
    Ok(ws.on_upgrade(move |socket| async move {
        let session = Session {
            ch: WsChannels { socket, protocol },
            protocol,
            tty: opts.tty,
            stderr: opts.stderr,
        };
        session.run(store, pod, container, opts, attach).await;
    }))
}
