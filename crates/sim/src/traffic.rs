//! What the simulated API server has served: requests and response-body bytes, counted by a
//! middleware around every route, so a benchmark can say what a client costs the cluster
//! (`Simulator::traffic`). Streams (watches, log follows) are counted as their chunks leave;
//! upgraded connections (exec, attach, port-forward) count as one request and their handshake.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;

#[derive(Debug, Default)]
struct Counters {
    requests: AtomicU64,
    watches: AtomicU64,
    bytes: AtomicU64,
}

/// Shared counters of one simulator's traffic; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    counters: Arc<Counters>,
}

/// A reading of [`Traffic`]: totals since the simulator started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TrafficReading {
    /// HTTP requests received (every route, errors included).
    pub requests: u64,
    /// Of those, `watch=true` requests (each one long-lived stream).
    pub watches: u64,
    /// Response-body bytes sent (before TLS), streams included.
    pub bytes: u64,
}

impl TrafficReading {
    /// What was served between `earlier` and this reading.
    #[must_use]
    pub fn since(self, earlier: TrafficReading) -> TrafficReading {
        TrafficReading {
            requests: self.requests.saturating_sub(earlier.requests),
            watches: self.watches.saturating_sub(earlier.watches),
            bytes: self.bytes.saturating_sub(earlier.bytes),
        }
    }
}

impl Traffic {
    /// The totals so far.
    #[must_use]
    pub fn reading(&self) -> TrafficReading {
        let c = &self.counters;
        TrafficReading {
            requests: c.requests.load(Ordering::Relaxed),
            watches: c.watches.load(Ordering::Relaxed),
            bytes: c.bytes.load(Ordering::Relaxed),
        }
    }
}

fn is_watch(req: &Request) -> bool {
    req.uri().query().is_some_and(|q| {
        q.split('&')
            .any(|kv| kv == "watch=true" || kv == "watch=1" || kv == "watch")
    })
}

/// Middleware: counts the request, then the response body's bytes as they are sent.
pub async fn count(State(traffic): State<Traffic>, req: Request, next: Next) -> Response {
    let counters = traffic.counters.clone();
    counters.requests.fetch_add(1, Ordering::Relaxed);
    if is_watch(&req) {
        counters.watches.fetch_add(1, Ordering::Relaxed);
    }
    let resp = next.run(req).await;
    if resp.status() == StatusCode::SWITCHING_PROTOCOLS {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    // A body of known size is counted whole and sent as it is (its framing unchanged).
    if let Some(len) = http_body::Body::size_hint(&body).exact() {
        counters.bytes.fetch_add(len, Ordering::Relaxed);
        return Response::from_parts(parts, body);
    }
    let counted = body.into_data_stream().inspect(move |chunk| {
        if let Ok(bytes) = chunk {
            counters
                .bytes
                .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        }
    });
    Response::from_parts(parts, Body::from_stream(counted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_since_an_earlier_one_is_the_difference() {
        let a = TrafficReading {
            requests: 3,
            watches: 1,
            bytes: 100,
        };
        let b = TrafficReading {
            requests: 10,
            watches: 2,
            bytes: 4100,
        };
        assert_eq!(
            b.since(a),
            TrafficReading {
                requests: 7,
                watches: 1,
                bytes: 4000
            }
        );
    }
}
