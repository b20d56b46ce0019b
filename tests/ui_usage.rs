//! The usage block of the container detail at 80×24 and 120×40: a leak climbing toward the
//! memory limit (samples shaped as metrics-server writes them), its sparkline, the shares of
//! the request and the limit, the QoS class computed in the header, and the `memory-near-limit` warning still on
//! screen; requests and limits without metrics and the one line without the metrics API.

mod common;

use common::{render, rows, text};
use k8s_openapi::api::core::v1::Pod;
use podscope::app::{Msg, State, update};
use podscope::model::PodSummary;
use podscope::model::usage::{MetricsApi, PodMetrics};
use podscope::ui::theme::Theme;
use serde_json::json;

/// `built::pod()` with `app` requesting 100m/256Mi, limited to 500m/512Mi, attached at 12:00.
fn attached() -> State {
    let mut p = common::built::pod();
    p["spec"]["containers"][0]["resources"] = json!({
        "requests": {"cpu": "100m", "memory": "256Mi"},
        "limits": {"cpu": "500m", "memory": "512Mi"}
    });
    let pod: Pod = serde_json::from_value(p).expect("a Pod");
    let now = common::built::now();
    let mut s = State::new("default", "web", now, Theme::monochrome());
    update(&mut s, Msg::Tick(now));
    update(
        &mut s,
        Msg::PodApplied(Box::new(PodSummary::from_pod(&pod))),
    );
    s
}

/// 20 windows of 15 s up to 12:00:00: memory from 338Mi rising 7Mi a window to 471Mi, CPU
/// around 12m.
fn leaking(s: &mut State) {
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

#[test]
fn a_leak_climbing_to_the_limit() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = attached();
        leaking(&mut s);
        let backend = render(&s, w, h);
        let screen = rows(&backend);
        let memory = screen
            .iter()
            .find(|r| r.contains("Memory     471Mi"))
            .unwrap_or_else(|| panic!("the memory line at {w}x{h}:\n{}", text(&backend)));
        assert!(
            memory.contains("req 256Mi (184%)") && memory.contains("lim 512Mi (92%)"),
            "{memory}"
        );
        let spark: Vec<char> = memory.chars().filter(|c| ('▁'..='█').contains(c)).collect();
        assert!(spark.len() >= 4, "a sparkline: {memory}");
        assert!(
            spark.windows(2).all(|p| p[0] <= p[1]) && spark.first() < spark.last(),
            "rising: {memory}"
        );
        let cpu = screen
            .iter()
            .find(|r| r.contains("CPU        12m"))
            .expect("cpu line");
        assert!(
            cpu.contains("req 100m (12%)") && cpu.contains("lim 500m (2%)"),
            "{cpu}"
        );
        assert!(
            text(&backend).contains("memory 471Mi of limit 512Mi (92%), rising"),
            "the warning stays on screen at {w}x{h}:\n{}",
            text(&backend)
        );
        insta::assert_snapshot!(format!("leak@{w}x{h}"), backend);
    }
}

#[test]
fn requests_and_limits_without_metrics() {
    let mut s = attached();
    update(&mut s, Msg::MetricsStatus(MetricsApi::Absent));
    let screen = text(&render(&s, 120, 40));
    assert!(
        screen.contains("Resources  req cpu 100m, memory 256Mi  lim cpu 500m, memory 512Mi"),
        "{screen}"
    );
    assert!(
        screen.contains("Usage      metrics: not available (no metrics.k8s.io on this cluster)"),
        "{screen}"
    );
    assert!(
        screen.contains("QoS Burstable"),
        "computed without status.qosClass: {screen}"
    );
}
