//! `pods/log?follow=true`: streams the new lines of one running container instance and ends the
//! response when that instance stops, as the kubelet does (`docs/protocols.md` §2.4). It never
//! continues into a restarted instance. `limitBytes` caps the whole stream. The bytes come from
//! one task ([`spawn`]) whichever transport carries them: the chunked HTTP body
//! ([`http_response`]) or WebSocket frames (`super::websocket`).

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use futures::StreamExt as _;
use k8s_openapi::api::core::v1::Pod;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::format_timestamp;
use crate::api::status::ApiError;
use crate::api::store::{LogLine, Store};

/// What one follow request reads.
pub(crate) struct Follow {
    pub(crate) namespace: String,
    pub(crate) pod: String,
    pub(crate) container_id: String,
    /// The log cursor after the lines already rendered.
    pub(crate) cursor: u64,
    pub(crate) timestamps: bool,
    /// Bytes left to send (`limitBytes`), `None` for no limit.
    pub(crate) limit: Option<usize>,
}

/// Whether the container instance `id` of `pod` is running.
pub(crate) fn instance_running(pod: &Pod, id: &str) -> bool {
    let Some(st) = pod.status.as_ref() else {
        return false;
    };
    [
        &st.init_container_statuses,
        &st.container_statuses,
        &st.ephemeral_container_statuses,
    ]
    .into_iter()
    .flat_map(|l| l.iter().flatten())
    .any(|c| {
        c.container_id.as_deref() == Some(id)
            && c.state.as_ref().is_some_and(|s| s.running.is_some())
    })
}

fn format(lines: &[LogLine], timestamps: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lines {
        if timestamps {
            out.extend_from_slice(format_timestamp(l.time).as_bytes());
            out.push(b' ');
        }
        out.extend_from_slice(l.text.as_bytes());
        out.push(b'\n');
    }
    out
}

/// Starts following: a task sends `initial` (already rendered with tail/since options), then each
/// batch of new lines of the instance, and ends the channel when the instance stops, the
/// simulator shuts down, `limitBytes` is used up or the receiver is dropped. Chunks are never
/// empty. Both transports read this one channel ([`http_response`], `super::websocket`).
pub(crate) fn spawn(store: Store, mut f: Follow, initial: Vec<u8>) -> mpsc::Receiver<Bytes> {
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    if let Some(limit) = f.limit.as_mut() {
        *limit = limit.saturating_sub(initial.len());
    }
    tokio::spawn(async move {
        let mut activity = store.activity();
        let mut shutdown = store.shutdown_signal();
        if !initial.is_empty() && tx.send(Bytes::from(initial)).await.is_err() {
            return;
        }
        loop {
            if f.limit == Some(0) {
                return;
            }
            // Check before reading: lines are appended before the status shows the stop, so a
            // stop seen here has all its lines in the read below.
            let running = store
                .pod(&f.namespace, &f.pod)
                .is_some_and(|p| instance_running(&p, &f.container_id));
            let (lines, cursor) = store.logs_since(&f.namespace, &f.pod, &f.container_id, f.cursor);
            f.cursor = cursor;
            if !lines.is_empty() {
                let mut chunk = format(&lines, f.timestamps);
                if let Some(limit) = f.limit.as_mut() {
                    chunk.truncate(*limit);
                    *limit -= chunk.len();
                }
                if !chunk.is_empty() && tx.send(Bytes::from(chunk)).await.is_err() {
                    return;
                }
            }
            if !running {
                return;
            }
            tokio::select! {
                r = activity.changed() => if r.is_err() { return },
                _ = shutdown.changed() => return,
                () = tx.closed() => return,
            }
        }
    });
    rx
}

/// The HTTP response of a follow request: `200 text/plain`, chunked, ending with the channel.
/// A zero-length chunk goes first so the headers are sent before any log data.
pub(crate) fn http_response(rx: mpsc::Receiver<Bytes>) -> Result<Response, ApiError> {
    let body = futures::stream::once(async { Bytes::new() })
        .chain(ReceiverStream::new(rx))
        .map(Ok::<Bytes, Infallible>);
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from_stream(body))
        .map_err(|e| ApiError {
            code: 500,
            reason: "InternalError",
            message: e.to_string(),
        })
}
