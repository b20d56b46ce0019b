//! The streaming transports of the simulated API server and kubelet: `pods/exec`, `pods/attach`
//! and `pods/portforward` over WebSocket and SPDY/3.1. What runs at the other end (processes,
//! shells, listeners) is the simulated runtime ([`crate::runtime`]).
//!
//! Wire protocol: `docs/protocols.md` §3 (exec/attach channel protocol v5/v4/v1, the one-byte
//! open frame, Status on channel 3, `[255,0]` stdin close, resize) and §4.3 (port-forward v4 with
//! the 2-byte little-endian port preamble). The simulator plays both the apiserver and the
//! kubelet: offers of `v5.channel.k8s.io` get the apiserver's stream translator behaviour
//! (errors after the upgrade, doubled `Internal error occurred: ` prefixes), other offers the
//! kubelet's (errors before the upgrade).
//!
//! SPDY/3.1 ([`crate::spdy`]) is served where real kubectl needs it (§3.3, §4.1–§4.2):
//! exec/attach for kubectl 1.27–1.29 and the SPDY fallback of later ones (`POST` + `Upgrade:
//! SPDY/3.1`, `v4.channel.k8s.io`, one stream per channel: `exec_spdy.rs`), and every kubectl's
//! port-forward, natively (≤ 1.30) or tunnelled in WebSocket binary messages (1.31+,
//! `SPDY/3.1+portforward.k8s.io`): `portforward_spdy.rs`, `tunnel.rs`. The exec/attach session
//! itself is transport-agnostic (`channels.rs`); `exec_ws.rs` is its WebSocket transport.

mod attach;
mod attach_output;
mod channels;
mod exec;
mod exec_spdy;
mod exec_ws;
mod portforward;
mod portforward_spdy;
mod tunnel;

use axum::Router;
use axum::http::HeaderMap;
use axum::routing::get;
use k8s_openapi::api::core::v1::Pod;

use crate::api::find_pod;
use crate::api::status::ApiError;
use crate::api::store::Store;

/// The routes of this module, merged into the main router by `routes::router`.
pub(crate) fn routes() -> Router<Store> {
    Router::new()
        .route(
            "/api/v1/namespaces/{ns}/pods/{name}/exec",
            get(exec::exec).post(exec::exec),
        )
        .route(
            "/api/v1/namespaces/{ns}/pods/{name}/attach",
            get(exec::attach).post(exec::attach),
        )
        .route(
            "/api/v1/namespaces/{ns}/pods/{name}/portforward",
            get(portforward::portforward).post(portforward::portforward),
        )
}

/// A negotiated channel subprotocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// `v5.channel.k8s.io`: v4 plus client→server `[255, ch]` half-close.
    V5,
    /// `v4.channel.k8s.io`: JSON Status on the error channel.
    V4,
    /// `channel.k8s.io` or no subprotocol: plain-text errors.
    V1,
}

impl Protocol {
    /// The header value to echo (`None` for "no subprotocol").
    pub fn name(self) -> &'static str {
        match self {
            Protocol::V5 => "v5.channel.k8s.io",
            Protocol::V4 => "v4.channel.k8s.io",
            Protocol::V1 => "channel.k8s.io",
        }
    }
}

/// Picks the first offered subprotocol in the client's order that `supported` contains.
/// `Ok(None)` when the client offered none (the "" protocol). Errors: 400 like the wsstream
/// handshake when nothing matches.
pub(crate) fn negotiate(
    headers: &HeaderMap,
    supported: &[Protocol],
) -> Result<Option<Protocol>, ApiError> {
    let offered: Vec<String> = headers
        .get_all(http::header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if offered.is_empty() {
        return Ok(None);
    }
    offered
        .iter()
        .find_map(|o| supported.iter().copied().find(|p| p.name() == o))
        .map(Some)
        .ok_or_else(|| {
            let names: Vec<&str> = supported.iter().map(|p| p.name()).collect();
            ApiError::bad_request(format!(
                "unable to upgrade: unable to negotiate protocol: client supports {offered:?}, server supports {names:?}"
            ))
        })
}

/// The apiserver's checks before a stream reaches the kubelet (`streamLocation`): the container
/// (as for logs), then `pod P does not have a host assigned`.
pub(crate) fn stream_target(pod: &Pod, container: Option<&str>) -> Result<String, ApiError> {
    let c = crate::api::logs::resolve_container(pod, container)?;
    host_assigned(pod)?;
    Ok(c)
}

/// 400 `pod P does not have a host assigned` when `spec.nodeName` is empty.
pub(crate) fn host_assigned(pod: &Pod) -> Result<(), ApiError> {
    let node = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .unwrap_or("");
    if node.is_empty() {
        return Err(ApiError::bad_request(format!(
            "pod {} does not have a host assigned",
            pod.metadata.name.as_deref().unwrap_or("")
        )));
    }
    Ok(())
}
