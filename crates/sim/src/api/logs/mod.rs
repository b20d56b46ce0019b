//! `GET /api/v1/namespaces/{ns}/pods/{name}/log`: the apiserver's container validation and the
//! kubelet's container-instance selection with their exact 400 messages (`docs/protocols.md` §2).
//!
//! `follow=true` on a running container instance streams its new lines and ends when that
//! instance stops ([`follow`]); otherwise it sends what there is and ends. A WebSocket upgrade
//! on the same URL gets the same answer in WebSocket frames ([`websocket`]).

pub(crate) mod follow;
pub(crate) mod websocket;

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use tokio::sync::mpsc;

use crate::api::query::Query;
use crate::api::status::ApiError;
use crate::api::store::{LogLine, Store};

/// Names of all containers in `VisitContainers` order: init, regular, ephemeral.
fn container_names(pod: &Pod) -> Vec<String> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    let init = spec
        .init_containers
        .iter()
        .flatten()
        .map(|c| c.name.clone());
    let main = spec.containers.iter().map(|c| c.name.clone());
    let eph = spec
        .ephemeral_containers
        .iter()
        .flatten()
        .map(|c| c.name.clone());
    init.chain(main).chain(eph).collect()
}

/// The apiserver's `validateContainer`: resolves the container name or fails with 400
/// `a container name must be specified for pod P, choose one of: [a b]` /
/// `container X is not valid for pod P` / `pod P does not have a container`.
pub fn resolve_container(pod: &Pod, requested: Option<&str>) -> Result<String, ApiError> {
    let pod_name = pod.metadata.name.as_deref().unwrap_or("");
    let names = container_names(pod);
    match requested.filter(|c| !c.is_empty()) {
        Some(c) if names.iter().any(|n| n == c) => Ok(c.to_string()),
        Some(c) => Err(ApiError::bad_request(format!(
            "container {c} is not valid for pod {pod_name}"
        ))),
        None => {
            let main: Vec<&str> = pod
                .spec
                .iter()
                .flat_map(|s| s.containers.iter())
                .map(|c| c.name.as_str())
                .collect();
            match main.as_slice() {
                [one] => Ok((*one).to_string()),
                [] => Err(ApiError::bad_request(format!(
                    "pod {pod_name} does not have a container"
                ))),
                _ => Err(ApiError::bad_request(format!(
                    "a container name must be specified for pod {pod_name}, choose one of: [{}]",
                    names.join(" ")
                ))),
            }
        }
    }
}

fn find_status<'a>(pod: &'a Pod, container: &str) -> Option<&'a ContainerStatus> {
    let status = pod.status.as_ref()?;
    [
        &status.init_container_statuses,
        &status.container_statuses,
        &status.ephemeral_container_statuses,
    ]
    .into_iter()
    .flat_map(|l| l.iter().flatten())
    .find(|s| s.name == container)
}

/// The kubelet's `validateContainerLogStatus`: which container instance (`containerID`) to read.
/// Errors are the kubelet's texts (sent as 400 BadRequest), names `%q`-quoted.
pub fn select_instance(pod: &Pod, container: &str, previous: bool) -> Result<String, ApiError> {
    let pod_name = pod.metadata.name.as_deref().unwrap_or("");
    let err = |what: &str| {
        Err(ApiError::bad_request(format!(
            "container {container:?} in pod {pod_name:?} {what}"
        )))
    };
    let Some(status) = find_status(pod, container) else {
        return err("is not available");
    };
    let state = status.state.clone().unwrap_or_default();
    let last = status
        .last_state
        .as_ref()
        .and_then(|l| l.terminated.as_ref());
    let last_id = last
        .and_then(|t| t.container_id.clone())
        .filter(|i| !i.is_empty());
    if previous {
        return last_id.ok_or_else(|| {
            ApiError::bad_request(format!(
                "previous terminated container {container:?} in pod {pod_name:?} not found"
            ))
        });
    }
    if state.running.is_some() {
        return Ok(status.container_id.clone().unwrap_or_default());
    }
    if let Some(t) = &state.terminated {
        return match t.container_id.clone().filter(|i| !i.is_empty()).or(last_id) {
            Some(id) => Ok(id),
            None => err("is terminated"),
        };
    }
    if last.is_some() {
        return last_id.map_or_else(|| err("is terminated"), Ok);
    }
    if let Some(w) = &state.waiting {
        return match w.reason.as_deref().unwrap_or("") {
            "ErrImagePull" => err("is waiting to start: image can't be pulled"),
            "ImagePullBackOff" => err("is waiting to start: trying and failing to pull image"),
            reason => err(&format!("is waiting to start: {reason}")),
        };
    }
    err("is waiting to start - no logs yet")
}

/// The CRI timestamp as the kubelet prints it: RFC 3339 with exactly 9 fractional digits.
pub fn format_timestamp(t: Timestamp) -> String {
    format!(
        "{}.{:09}Z",
        t.strftime("%Y-%m-%dT%H:%M:%S"),
        t.subsec_nanosecond()
    )
}

/// Applies `tailLines` (first), `sinceSeconds`/`sinceTime`, `timestamps` and `limitBytes`.
pub(crate) fn render(lines: &[LogLine], q: &Query, now: Timestamp) -> Result<Vec<u8>, ApiError> {
    let since_seconds = q.number("sinceSeconds")?;
    let since_time = q.get("sinceTime").filter(|s| !s.is_empty());
    if since_seconds.is_some() && since_time.is_some() {
        return Err(ApiError::bad_request(
            "at most one of `sinceTime` or `sinceSeconds` may be specified",
        ));
    }
    let since =
        match (since_seconds, since_time) {
            (Some(0), _) => {
                return Err(ApiError::bad_request(
                    "sinceSeconds: Invalid value: 0: must be greater than 0",
                ));
            }
            (Some(s), _) => {
                let secs = i64::try_from(s).unwrap_or(i64::MAX);
                Some(
                    now.checked_sub(SignedDuration::from_secs(secs))
                        .unwrap_or(Timestamp::MIN),
                )
            }
            (None, Some(t)) => Some(t.parse::<Timestamp>().map_err(|_| {
                ApiError::bad_request(format!("invalid value for sinceTime: {t:?}"))
            })?),
            (None, None) => None,
        };
    let tail = q
        .number("tailLines")?
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let limit = q.number("limitBytes")?;
    if limit == Some(0) {
        return Err(ApiError::bad_request(
            "limitBytes: Invalid value: 0: must be greater than 0",
        ));
    }
    let timestamps = q.flag("timestamps")?;
    q.flag("follow")?;
    let skip = tail.map_or(0, |t| lines.len().saturating_sub(t));
    let mut out = Vec::new();
    for l in lines[skip..]
        .iter()
        .filter(|l| since.is_none_or(|s| l.time >= s))
    {
        if timestamps {
            out.extend_from_slice(format_timestamp(l.time).as_bytes());
            out.push(b' ');
        }
        out.extend_from_slice(l.text.as_bytes());
        out.push(b'\n');
    }
    if let Some(limit) = limit.map(|l| usize::try_from(l).unwrap_or(usize::MAX)) {
        out.truncate(limit);
    }
    Ok(out)
}

/// The bytes one log request answers, whichever transport carries them (the HTTP body of
/// [`serve`] or the WebSocket frames of `websocket`).
pub(crate) enum LogBytes {
    /// Everything there is: not following, or the instance is not running.
    Whole(Vec<u8>),
    /// `follow=true` on a running instance: the rendered lines so far, then its new lines until
    /// it stops (the channel ends then; see [`follow::spawn`]). Chunks are never empty.
    Follow(mpsc::Receiver<Bytes>),
}

/// Validates one log request and opens its bytes: the apiserver's and kubelet's checks, in
/// their order. Errors (before any byte is sent): 404 `pods "P" not found`, 400 with the
/// messages above.
pub(crate) fn open(store: &Store, ns: &str, name: &str, q: &Query) -> Result<LogBytes, ApiError> {
    let pod = store
        .pod(ns, name)
        .ok_or_else(|| ApiError::not_found("pods", name))?;
    let container = resolve_container(&pod, q.get("container"))?;
    let previous = q.flag("previous")?;
    // Validate the options before looking at the node, as the apiserver does.
    render(&[], q, store.now())?;
    let unbound = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .is_none_or(str::is_empty);
    if unbound {
        return Ok(LogBytes::Whole(Vec::new()));
    }
    let id = select_instance(&pod, &container, previous)?;
    let (lines, cursor) = store.logs_since(ns, name, &id, 0);
    let body = render(&lines, q, store.now())?;
    if q.flag("follow")? && !previous && follow::instance_running(&pod, &id) {
        let opts = follow::Follow {
            namespace: ns.to_string(),
            pod: name.to_string(),
            container_id: id,
            cursor,
            timestamps: q.flag("timestamps")?,
            limit: q
                .number("limitBytes")?
                .map(|l| usize::try_from(l).unwrap_or(usize::MAX)),
        };
        return Ok(LogBytes::Follow(follow::spawn(store.clone(), opts, body)));
    }
    Ok(LogBytes::Whole(body))
}

/// Serves one log request over plain HTTP: `200 text/plain` with the bytes of [`open`]
/// (chunked while following). Errors: those of [`open`].
pub(crate) fn serve(store: &Store, ns: &str, name: &str, q: &Query) -> Result<Response, ApiError> {
    let body = match open(store, ns, name, q)? {
        LogBytes::Follow(rx) => return follow::http_response(rx),
        LogBytes::Whole(body) => body,
    };
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from(body))
        .map_err(|e| ApiError {
            code: 500,
            reason: "InternalError",
            message: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_digit_timestamps() {
        let t: Timestamp = "2025-01-01T00:04:59.000000001Z".parse().expect("valid");
        assert_eq!(format_timestamp(t), "2025-01-01T00:04:59.000000001Z");
        let t: Timestamp = "2025-01-01T00:04:59Z".parse().expect("valid");
        assert_eq!(format_timestamp(t), "2025-01-01T00:04:59.000000000Z");
    }
}
