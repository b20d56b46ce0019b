//! The usage block of the container detail at 80×24 and 120×40: a leak climbing toward the
//! memory limit (samples shaped as metrics-server writes them), its sparkline, the shares of
//! the request and the limit, the QoS class computed in the header, and the `memory-near-limit`
//! warning still on screen; requests and limits without metrics and the one line without the metrics API.

use crate::common;
use crate::usage_support;
use common::{render, rows, text};
use podscope::app::{Msg, update};
use podscope::model::usage::MetricsApi;
use podscope::ui::theme::Theme;
use usage_support::{attached, leaking};

#[test]
fn a_leak_climbing_to_the_limit() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = attached(Theme::monochrome());
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
    let mut s = attached(Theme::monochrome());
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
