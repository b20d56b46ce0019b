//! The pod's usage from the metrics API (`Cmd::PollMetrics`, `docs/usage.md`): the API has no
//! watch, so the poll is one probe of the group, then one GET of the pod's PodMetrics per
//! window, for as long as the target lasts (the session drops the task on a switch or a
//! re-created pod).
//!
//! - probe `GET /apis/metrics.k8s.io/v1beta1`: 404 or 503 → `MetricsApi::Absent` (no
//!   metrics-server; the aggregated API is missing or unavailable) and no polling; 403 →
//!   `Forbidden`, said once, no polling;
//! - `GET /apis/metrics.k8s.io/v1beta1/namespaces/NS/pods/NAME`: 200 → `Msg::PodMetricsRead`;
//!   404 → no sample yet (a pod just started, or not running), asked again next window; 403 →
//!   `Forbidden` and the poll ends; 503 and transport errors are logged and asked again;
//! - the next GET waits the response's `window`, clamped to [`MIN_INTERVAL`]..[`MAX_INTERVAL`]
//!   ([`DEFAULT_INTERVAL`] before the first answer).

use std::time::Duration;

use super::target_tx::TargetTx;
use crate::app::Msg;
use crate::model::sanitize::sanitize;
use crate::model::usage::{MetricsApi, PodMetrics};

/// The group-version's discovery path.
pub const GROUP_PATH: &str = "/apis/metrics.k8s.io/v1beta1";
/// metrics-server's default resolution, the poll's interval until a window is known.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(15);
/// The shortest interval between two GETs, whatever the window says.
pub const MIN_INTERVAL: Duration = Duration::from_secs(1);
/// The longest interval between two GETs.
pub const MAX_INTERVAL: Duration = Duration::from_secs(60);

/// What one GET of the pod's PodMetrics said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// A window's samples.
    Metrics(Box<PodMetrics>),
    /// 404: no metrics for the pod (yet).
    NoSample,
    /// The group is not served (404 of the group, 503).
    Absent,
    /// 403, with the server's reason.
    Forbidden(String),
    /// Anything else, one line.
    Failed(String),
}

/// The path of the PodMetrics of `namespace/name`.
#[must_use]
pub fn pod_path(namespace: &str, name: &str) -> String {
    format!("{GROUP_PATH}/namespaces/{namespace}/pods/{name}")
}

/// The time to wait before the next GET after a window of `window`.
#[must_use]
pub fn interval(window: Option<Duration>) -> Duration {
    window
        .filter(|w| !w.is_zero())
        .unwrap_or(DEFAULT_INTERVAL)
        .clamp(MIN_INTERVAL, MAX_INTERVAL)
}

async fn get(client: &kube::Client, path: &str) -> Result<String, (Option<u16>, String)> {
    let request = http::Request::get(path)
        .body(Vec::new())
        .map_err(|e| (None, e.to_string()))?;
    client.request_text(request).await.map_err(|e| match e {
        kube::Error::Api(s) => (Some(s.code), sanitize(&s.message).into_owned()),
        other => (None, super::config::one_line(&other)),
    })
}

/// Probes whether the cluster serves `metrics.k8s.io/v1beta1` (one GET of its discovery).
pub async fn probe(client: &kube::Client) -> MetricsApi {
    match get(client, GROUP_PATH).await {
        Ok(_) => MetricsApi::Served,
        Err((Some(404 | 503), _)) => MetricsApi::Absent,
        Err((Some(403), reason)) => MetricsApi::Forbidden(reason),
        Err((code, why)) => MetricsApi::Failed(match code {
            Some(c) => format!("{c}: {why}"),
            None => why,
        }),
    }
}

/// One GET of the PodMetrics of `namespace/name`.
pub async fn read(client: &kube::Client, namespace: &str, name: &str) -> Read {
    match get(client, &pod_path(namespace, name)).await {
        Ok(body) => match PodMetrics::from_json(&body) {
            Ok(m) => Read::Metrics(Box::new(m)),
            Err(e) => Read::Failed(sanitize(&e).into_owned()),
        },
        Err((Some(404), _)) => Read::NoSample,
        Err((Some(503), _)) => Read::Absent,
        Err((Some(403), reason)) => Read::Forbidden(reason),
        Err((code, why)) => Read::Failed(match code {
            Some(c) => format!("{c}: {why}"),
            None => why,
        }),
    }
}

/// Probes, then polls the pod's PodMetrics once per window, sending `Msg::MetricsStatus` and
/// `Msg::PodMetricsRead` through `tx`; returns when the group is absent, the read is refused
/// or the receiver is gone.
pub async fn poll(client: kube::Client, namespace: String, name: String, tx: TargetTx) {
    let api = probe(&client).await;
    let served = api == MetricsApi::Served;
    if tx.send(Msg::MetricsStatus(api)).await.is_err() || !served {
        return;
    }
    let mut window = None;
    loop {
        let msg = match read(&client, &namespace, &name).await {
            Read::Metrics(m) => {
                window = Some(m.window);
                Some(Msg::PodMetricsRead(m))
            }
            Read::NoSample => None,
            Read::Absent => {
                tracing::info!(pod = %name, "metrics API unavailable (503); asking again");
                None
            }
            Read::Forbidden(reason) => {
                let _ = tx
                    .send(Msg::MetricsStatus(MetricsApi::Forbidden(reason)))
                    .await;
                return;
            }
            Read::Failed(why) => {
                tracing::warn!(pod = %name, %why, "PodMetrics read failed; asking again");
                None
            }
        };
        if let Some(msg) = msg
            && tx.send(msg).await.is_err()
        {
            return;
        }
        tokio::time::sleep(interval(window)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_follows_the_window_within_bounds() {
        assert_eq!(interval(None), DEFAULT_INTERVAL);
        assert_eq!(interval(Some(Duration::ZERO)), DEFAULT_INTERVAL);
        assert_eq!(
            interval(Some(Duration::from_millis(15_012))),
            Duration::from_millis(15_012)
        );
        assert_eq!(interval(Some(Duration::from_millis(10))), MIN_INTERVAL);
        assert_eq!(interval(Some(Duration::from_secs(600))), MAX_INTERVAL);
        assert_eq!(
            pod_path("default", "web"),
            "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/web"
        );
    }
}
