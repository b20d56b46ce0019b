//! A pod whose container `app` requests 100m/256Mi and is limited to 500m/512Mi, attached at
//! 12:00, and PodMetrics samples (shaped as metrics-server writes them) of a leak climbing
//! toward the limit: the usage block's snapshots and the README's screenshot share them.

use k8s_openapi::api::core::v1::Pod;
use podscope::app::{Msg, State, update};
use podscope::model::PodSummary;
use podscope::model::usage::PodMetrics;
use podscope::ui::theme::Theme;
use serde_json::json;

/// `crate::common::built::pod()` with `app` requesting 100m/256Mi, limited to 500m/512Mi, attached at 12:00.
pub fn attached(theme: Theme) -> State {
    let mut p = crate::common::built::pod();
    p["spec"]["containers"][0]["resources"] = json!({
        "requests": {"cpu": "100m", "memory": "256Mi"},
        "limits": {"cpu": "500m", "memory": "512Mi"}
    });
    let pod: Pod = serde_json::from_value(p).expect("a Pod");
    let now = crate::common::built::now();
    let mut s = State::new("default", "web", now, theme);
    update(&mut s, Msg::Tick(now));
    update(
        &mut s,
        Msg::PodApplied(Box::new(PodSummary::from_pod(&pod))),
    );
    s
}

/// 20 windows of 15 s up to 12:00:00: memory from 338Mi rising 7Mi a window to 471Mi, CPU
/// around 12m.
pub fn leaking(s: &mut State) {
    for i in 0..20i64 {
        let at = jiff::Timestamp::from_second(1_740_830_400 - 15 * (19 - i)).expect("ts");
        let body = json!({
            "kind": "PodMetrics", "apiVersion": "metrics.k8s.io/v1beta1",
            "metadata": {"name": "web", "namespace": "default", "creationTimestamp": at.to_string()},
            "timestamp": at.to_string(), "window": "15s",
            "containers": [{"name": "app", "usage": {
                "cpu": format!("{}n", 9_000_000 + (i % 4) * 1_000_000),
                "memory": format!("{}Ki", (338 + 7 * i) * 1024)
            }}]
        });
        let m = PodMetrics::from_json(&body.to_string()).expect("PodMetrics");
        update(s, Msg::PodMetricsRead(Box::new(m)));
    }
}
