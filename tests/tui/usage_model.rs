//! Usage against requests and limits, from PodMetrics shaped as metrics-server writes them:
//! quantities and QoS, the history `update` keeps, the `memory-near-limit` warning with its rate
//! and time left, the OOMKilled finding quoting the last sample (case 04), and the `--once`
//! JSON fields.

use crate::common;
use k8s_openapi::api::core::v1::Pod;
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::PodSummary;
use podscope::model::diagnosis::Severity;
use podscope::model::resources::qos_class;
use podscope::model::usage::{MetricsApi, PodMetrics};
use podscope::ui::theme::Theme;
use serde_json::{Value, json};

/// A PodMetrics as metrics-server writes it: CPU in nanocores, memory in Ki.
fn metrics_body(pod: &str, at: &str, containers: &[(&str, u64, u64)]) -> String {
    json!({
        "kind": "PodMetrics",
        "apiVersion": "metrics.k8s.io/v1beta1",
        "metadata": {"name": pod, "namespace": "default", "creationTimestamp": at, "labels": {"app": "web"}},
        "timestamp": at,
        "window": "15s",
        "containers": containers.iter().map(|(name, nanocores, ki)| json!({
            "name": name,
            "usage": {"cpu": format!("{nanocores}n"), "memory": format!("{ki}Ki")}
        })).collect::<Vec<_>>(),
    })
    .to_string()
}

fn read(s: &mut State, body: &str) -> Vec<Cmd> {
    let m = PodMetrics::from_json(body).expect("PodMetrics");
    update(s, Msg::PodMetricsRead(Box::new(m)))
}

/// `built::pod()` with `app` requesting 100m/256Mi and limited to 500m/512Mi.
fn limited() -> Value {
    let mut p = common::built::pod();
    p["spec"]["containers"][0]["resources"] = json!({
        "requests": {"cpu": "100m", "memory": "256Mi"},
        "limits": {"cpu": "500m", "memory": "512Mi"}
    });
    p
}

fn summary(p: &Value) -> PodSummary {
    let pod: Pod = serde_json::from_value(p.clone()).expect("a Pod");
    PodSummary::from_pod(&pod)
}

fn attached(p: &Value) -> (State, Vec<Cmd>) {
    let now = common::built::now();
    let mut s = State::new("default", "web", now, Theme::monochrome());
    update(&mut s, Msg::Tick(now));
    let cmds = update(&mut s, Msg::PodApplied(Box::new(summary(p))));
    (s, cmds)
}

/// 8 samples, 15 s apart up to 12:00:00, memory rising 2Mi each (8Mi/min) to 471Mi.
fn rising(s: &mut State) {
    for i in 0..8u64 {
        let at =
            jiff::Timestamp::from_second(1_740_830_400 - 15 * (7 - i64::try_from(i).expect("i")))
                .expect("ts")
                .to_string();
        let mi = 457 + 2 * i;
        read(
            s,
            &metrics_body(
                "web",
                &at,
                &[("app", 12_000_000 + i * 1_000_000, mi * 1024)],
            ),
        );
    }
}

#[test]
fn qos_is_computed_as_the_api_server_does() {
    let mut p = limited();
    assert_eq!(qos_class(&summary(&p)), "Burstable");
    p["spec"]["containers"][0]["resources"]["requests"] = json!({"cpu": "0.5", "memory": "512Mi"});
    assert_eq!(qos_class(&summary(&p)), "Guaranteed", "0.5 equals 500m");
    p["spec"]["containers"][0]["resources"] = json!({});
    assert_eq!(qos_class(&summary(&p)), "BestEffort");
    p["status"]["qosClass"] = json!("Burstable");
    assert_eq!(qos_class(&summary(&p)), "Burstable", "status.qosClass wins");
}

#[test]
fn the_poll_is_asked_once_per_target_and_samples_are_kept() {
    let (mut s, cmds) = attached(&limited());
    assert_eq!(
        cmds.iter()
            .filter(|c| matches!(c, Cmd::PollMetrics))
            .count(),
        1
    );
    let again = update(&mut s, Msg::PodApplied(Box::new(summary(&limited()))));
    assert!(!again.iter().any(|c| matches!(c, Cmd::PollMetrics)));
    let body = metrics_body("web", "2025-03-01T11:59:45Z", &[("app", 2_398_029, 14_624)]);
    read(&mut s, &body);
    assert_eq!(s.target.usage.api, MetricsApi::Served);
    let last = s.target.usage.history.last("app").expect("a sample");
    assert_eq!((last.cpu_millicores, last.memory_bytes), (3, 14_624 * 1024));
    s.dirty = false;
    read(&mut s, &body);
    assert!(!s.dirty, "the same window read twice changes nothing");
}

#[test]
fn forbidden_is_said_once_and_absent_is_one_line() {
    let (mut s, _) = attached(&limited());
    let refusal = "pods.metrics.k8s.io \"web\" is forbidden: User \"dev\" cannot get resource \"pods\" in API group \"metrics.k8s.io\" in the namespace \"default\"";
    update(
        &mut s,
        Msg::MetricsStatus(MetricsApi::Forbidden(refusal.into())),
    );
    assert_eq!(
        s.target.notice.as_deref(),
        Some(format!("metrics: forbidden ({refusal})").as_str())
    );
    s.target.notice = None;
    update(
        &mut s,
        Msg::MetricsStatus(MetricsApi::Forbidden(refusal.into())),
    );
    assert_eq!(s.target.notice, None, "said once");
    assert_eq!(
        MetricsApi::Absent.line().as_deref(),
        Some("metrics: not available (no metrics.k8s.io on this cluster)")
    );
}

#[test]
fn memory_near_the_limit_warns_with_the_rate_and_the_time_left() {
    let (mut s, _) = attached(&limited());
    rising(&mut s);
    let f = s
        .target
        .diagnosis
        .iter()
        .find(|f| f.rule == "memory-near-limit")
        .expect("the warning");
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.container.as_deref(), Some("app"));
    assert_eq!(
        f.headline,
        "memory 471Mi of limit 512Mi (92%), rising 8Mi/min: an OOM kill is likely within ~5 min"
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e == "metrics.k8s.io: working set 471Mi at 12:00:00 (window 15s)"),
        "{:?}",
        f.evidence
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e == "8 samples since 11:58:15: 457Mi → 471Mi")
    );
}

#[test]
fn below_ninety_percent_there_is_no_warning() {
    let (mut s, _) = attached(&limited());
    read(
        &mut s,
        &metrics_body(
            "web",
            "2025-03-01T12:00:00Z",
            &[("app", 1_000_000, 460 * 1024)],
        ),
    );
    assert!(
        !s.target
            .diagnosis
            .iter()
            .any(|f| f.rule == "memory-near-limit")
    );
}

#[test]
fn a_fast_climb_warns_below_ninety_percent_when_the_limit_comes_before_two_more_samples() {
    // The oomkilled scenario at 15 s windows: 409Mi, then 452Mi (88 %), rising ~172Mi/min —
    // the kill comes ~21 s later, before a sample could show 90 %.
    let (mut s, _) = attached(&limited());
    for (at, mi) in [("11:59:45", 409), ("12:00:00", 452)] {
        read(
            &mut s,
            &metrics_body(
                "web",
                &format!("2025-03-01T{at}Z"),
                &[("app", 1_000_000, mi * 1024)],
            ),
        );
    }
    let f = s
        .target
        .diagnosis
        .iter()
        .find(|f| f.rule == "memory-near-limit")
        .expect("the warning at 88 %");
    assert_eq!(
        f.headline,
        "memory 452Mi of limit 512Mi (88%), rising 172Mi/min: an OOM kill is likely within ~21s"
    );
}

#[test]
fn the_oom_finding_quotes_the_last_sample_before_the_kill() {
    let case = "04-crashloop-oomkilled-jvm";
    let mut s = common::cases::state(case, true);
    // The instance ran 07:18:20–07:19:05; samples every 15 s, the last 15 s before the kill.
    for (at, mi) in [("07:18:35", 300), ("07:18:50", 509)] {
        let body = metrics_body(
            "coord-2",
            &format!("2024-06-03T{at}Z"),
            &[("coord", 480_000_000, mi * 1024)],
        );
        read(&mut s, &body);
    }
    let f = s
        .target
        .diagnosis
        .iter()
        .find(|f| f.rule == "oom-killed")
        .expect("the OOM finding");
    assert!(
        f.evidence.iter().any(|e| e
            == "metrics.k8s.io: last seen 509Mi of 512Mi (99%) at 07:18:50, 15s before the kill"),
        "{:?}",
        f.evidence
    );
}

#[test]
fn once_json_carries_usage_and_resources() {
    let pod = summary(&limited());
    let body = metrics_body(
        "web",
        "2025-03-01T12:00:00Z",
        &[("app", 12_000_000, 34 * 1024)],
    );
    let m = PodMetrics::from_json(&body).expect("PodMetrics");
    let now = common::built::now();
    let owner = podscope::model::deletion::OwnerStatus::Unknown;
    let mut doc = podscope::cmd::once::to_json(&pod, &[], &owner, &[], now);
    assert_eq!(doc["containers"][0]["usage"], Value::Null);
    assert_eq!(
        doc["containers"][0]["resources"],
        json!({"requests": {"cpu": "100m", "memory": "256Mi"}, "limits": {"cpu": "500m", "memory": "512Mi"}})
    );
    podscope::cmd::once::json::add_usage(&mut doc, Some(&m));
    assert_eq!(
        doc["containers"][0]["usage"],
        json!({"cpu": "12m", "memory": "34Mi", "cpuMillicores": 12, "memoryBytes": 35_651_584, "window": "15s", "timestamp": "2025-03-01T12:00:00Z"})
    );
    let text = podscope::cmd::once::text::to_text_with_usage(&pod, &[], &owner, &[], Some(&m), now);
    assert!(
        text.contains(
            "    Resources:  requests cpu 100m, memory 256Mi; limits cpu 500m, memory 512Mi\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("    Usage:      cpu 12m (12% of request, 2% of limit), memory 34Mi (13% of request, 7% of limit)  (window 15s at 2025-03-01T12:00:00Z)\n"),
        "{text}"
    );
}
