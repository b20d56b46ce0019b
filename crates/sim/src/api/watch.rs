//! Watch streams: chunked, newline-terminated `{"type","object"}` events (see
//! `docs/protocols.md` §1.3–1.6).
//!
//! `resourceVersion` absent or `0` → synthetic ADDED for the current state, then live changes;
//! `resourceVersion=N` → history after N, or HTTP 200 with one ERROR 410 Expired event if N is
//! older than the kept history; `allowWatchBookmarks=true` → a BOOKMARK every
//! [`BOOKMARK_INTERVAL`], and one 2 s before a `timeoutSeconds` deadline when that comes sooner
//! ([`next_bookmark`]); `timeoutSeconds` ends the stream cleanly;
//! `sendInitialEvents=true` → initial ADDED, then a BOOKMARK annotated `k8s.io/initial-events-end`.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;
use tokio_stream::wrappers::ReceiverStream;

use super::object::{Object, Resource};
use super::query::Query;
use super::select::Selector;
use super::status::ApiError;
use super::store::{Change, ChangeType, Store};
use super::table;

/// How often a watch with `allowWatchBookmarks=true` gets a BOOKMARK: once a minute, as
/// kube-apiserver's watch cache schedules them (its `bookmarkFrequency`, `docs/protocols.md`
/// §1.9).
pub const BOOKMARK_INTERVAL: Duration = Duration::from_secs(60);

/// How long before a watch's `timeoutSeconds` deadline the last BOOKMARK goes out.
const BOOKMARK_BEFORE_DEADLINE: Duration = Duration::from_secs(2);

/// When the next BOOKMARK is due after `now`: [`BOOKMARK_INTERVAL`] later, or
/// [`BOOKMARK_BEFORE_DEADLINE`] before the deadline when that is sooner; none once that moment
/// has passed (the cacher's `nextBookmarkTime`).
fn next_bookmark(now: Instant, deadline: Option<Instant>) -> Option<Instant> {
    let beat = now + BOOKMARK_INTERVAL;
    let Some(before) = deadline.and_then(|d| d.checked_sub(BOOKMARK_BEFORE_DEADLINE)) else {
        return Some(beat).filter(|_| deadline.is_none());
    };
    match before.cmp(&beat) {
        std::cmp::Ordering::Less => Some(before).filter(|b| *b > now),
        _ => Some(beat),
    }
}

/// What one watch request asked for.
struct WatchSpec {
    resource: Resource,
    namespace: Option<String>,
    selector: Selector,
    as_table: bool,
    bookmarks: bool,
    initial_end_bookmark: bool,
    timeout: Option<Duration>,
    /// The group/version shape objects are sent in when it is not the stored one.
    shape: Option<Shape>,
}

/// Another group/version's view of a stored kind, for a watch through that group (the
/// `events.k8s.io/v1` Events are the stored core/v1 ones, `docs/core-api.md` §5).
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    /// The `kind` of BOOKMARK objects.
    pub kind: &'static str,
    /// The `apiVersion` of BOOKMARK objects.
    pub api_version: &'static str,
    /// The stored object in that shape.
    pub convert: fn(&Object) -> Value,
}

impl WatchSpec {
    fn selects(&self, obj: &Object) -> bool {
        obj.resource() == self.resource
            && self
                .namespace
                .as_deref()
                .is_none_or(|n| obj.namespace() == n)
            && self.selector.matches(obj)
    }

    /// The event to send for `change` (selector enter/leave become ADDED/DELETED), if any.
    fn translate(&self, change: &Change) -> Option<(ChangeType, Object)> {
        let now_in = self.selects(&change.object);
        let was_in = change.previous.as_ref().is_some_and(|p| self.selects(p));
        let t = match (change.change_type, was_in, now_in) {
            (ChangeType::Added, _, true) => ChangeType::Added,
            (ChangeType::Modified, true, true) => ChangeType::Modified,
            (ChangeType::Modified, false, true) => ChangeType::Added,
            (ChangeType::Modified, true, false) => ChangeType::Deleted,
            (ChangeType::Deleted, w, n) if w || n => ChangeType::Deleted,
            _ => return None,
        };
        Some((t, change.object.clone()))
    }
}

/// Starts a watch response. Errors (before any byte is sent): 400 for malformed parameters or
/// `sendInitialEvents=true` without `allowWatchBookmarks=true`.
pub(crate) fn serve(
    store: Store,
    resource: Resource,
    namespace: Option<String>,
    selector: Selector,
    q: &Query,
    as_table: bool,
) -> Result<Response, ApiError> {
    serve_shaped(store, resource, namespace, selector, q, as_table, None)
}

/// [`serve`], each object sent in `shape` when one is given (not for Tables). Errors as
/// [`serve`].
pub(crate) fn serve_shaped(
    store: Store,
    resource: Resource,
    namespace: Option<String>,
    selector: Selector,
    q: &Query,
    as_table: bool,
    shape: Option<Shape>,
) -> Result<Response, ApiError> {
    let bookmarks = q.flag("allowWatchBookmarks")?;
    let send_initial = q.flag("sendInitialEvents")?;
    if send_initial && !bookmarks {
        return Err(ApiError::bad_request(
            "sendInitialEvents is forbidden for watch unless allowWatchBookmarks=true",
        ));
    }
    let since = match q.get("resourceVersion") {
        None | Some("") | Some("0") => None,
        Some(_) if send_initial => None,
        Some(v) => Some(
            v.parse::<u64>()
                .map_err(|_| ApiError::bad_request(format!("invalid resource version: {v}")))?,
        ),
    };
    let timeout = q.number("timeoutSeconds")?.map(Duration::from_secs);
    let spec = WatchSpec {
        resource,
        namespace,
        selector,
        as_table,
        bookmarks,
        initial_end_bookmark: send_initial,
        timeout,
        shape,
    };
    let (tx, rx) = mpsc::channel::<Result<Bytes, Infallible>>(64);
    tokio::spawn(run(store, spec, since, tx));
    let body = Body::from_stream(ReceiverStream::new(rx));
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
        .map_err(|e| ApiError {
            code: 500,
            reason: "InternalError",
            message: e.to_string(),
        })
}

fn line(value: &Value) -> Bytes {
    let mut text = serde_json::to_string(value).unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    Bytes::from(text)
}

fn event_line(spec: &WatchSpec, t: ChangeType, obj: &Object, rv: u64, store: &Store) -> Bytes {
    let object = if spec.as_table {
        table::table(spec.resource, std::slice::from_ref(obj), rv, store.now())
    } else if let Some(shape) = spec.shape {
        (shape.convert)(obj)
    } else {
        obj.to_json()
    };
    line(&json!({"type": t.as_str(), "object": object}))
}

fn bookmark_line(spec: &WatchSpec, rv: u64, initial_end: bool) -> Bytes {
    let mut metadata = json!({"resourceVersion": rv.to_string()});
    if initial_end {
        metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    let (kind, api_version) = match spec.shape {
        Some(shape) => (shape.kind, shape.api_version),
        None => (spec.resource.kind(), spec.resource.api_version()),
    };
    line(
        &json!({"type": "BOOKMARK", "object": {"kind": kind, "apiVersion": api_version, "metadata": metadata}}),
    )
}

async fn run(
    store: Store,
    spec: WatchSpec,
    since: Option<u64>,
    tx: mpsc::Sender<Result<Bytes, Infallible>>,
) {
    let mut shutdown = store.shutdown_signal();
    if *shutdown.borrow_and_update() {
        return;
    }
    let start = store.watch_start(spec.resource, spec.namespace.as_deref(), since);
    let mut rx = start.rx;
    let mut last_rv = start.current_rv;
    let initial = match start.initial {
        Ok(changes) => changes,
        Err(expired) => {
            let _ = tx
                .send(Ok(line(
                    &json!({"type": "ERROR", "object": expired.to_status()}),
                )))
                .await;
            return;
        }
    };
    // Empty body write first so headers go out before the first event.
    if tx.send(Ok(Bytes::new())).await.is_err() {
        return;
    }
    for change in &initial {
        if let Some((t, obj)) = spec.translate(change) {
            let rv = change.rv.max(1);
            if tx
                .send(Ok(event_line(&spec, t, &obj, rv, &store)))
                .await
                .is_err()
            {
                return;
            }
        }
    }
    if spec.initial_end_bookmark
        && tx
            .send(Ok(bookmark_line(&spec, last_rv, true)))
            .await
            .is_err()
    {
        return;
    }
    let deadline = spec.timeout.map(|t| Instant::now() + t);
    let mut bookmark_at = next_bookmark(Instant::now(), deadline);
    loop {
        let out = tokio::select! {
            received = rx.recv() => match received {
                Ok(change) => {
                    last_rv = last_rv.max(change.rv);
                    match spec.translate(&change) {
                        Some((t, obj)) => event_line(&spec, t, &obj, change.rv, &store),
                        None => continue,
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let status = ApiError::expired(last_rv, store.resource_version()).to_status();
                    let _ = tx.send(Ok(line(&json!({"type": "ERROR", "object": status})))).await;
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            () = sleep_until_opt(bookmark_at), if spec.bookmarks => {
                bookmark_at = next_bookmark(Instant::now(), deadline);
                bookmark_line(&spec, last_rv, false)
            }
            () = sleep_until_opt(deadline) => return,
            _ = shutdown.changed() => return,
            () = tx.closed() => return,
        };
        if tx.send(Ok(out)).await.is_err() {
            return;
        }
    }
}

async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}
