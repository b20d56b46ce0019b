//! A deleted pod's diagnosis: `pod-deleted` first, then the problems the pod had while it was
//! live (the DELETED event's pod, whose containers the deletion stopped, is not diagnosed afresh).

use crate::common;
use common::built::{crashlooping, now};
use k8s_openapi::api::core::v1::Pod;
use podscope::app::state::Connection;
use podscope::app::{Msg, State, update};
use podscope::model::PodSummary;
use podscope::model::diagnosis::Severity;
use podscope::ui::theme::Theme;
use serde_json::{Value, json};

fn summary(v: &Value) -> PodSummary {
    PodSummary::from_pod(&serde_json::from_value::<Pod>(v.clone()).expect("a Pod"))
}

#[test]
fn a_deleted_crashlooping_pod_keeps_its_exit_1_finding_after_pod_deleted() {
    let live = crashlooping("Error", 1, 3);
    let mut s = State::new("default", "web", now(), Theme::monochrome());
    update(&mut s, Msg::Tick(now()));
    update(&mut s, Msg::PodApplied(Box::new(summary(&live))));
    let live_rules: Vec<&str> = s.target.diagnosis.iter().map(|f| f.rule).collect();
    assert_eq!(
        s.target.diagnosis[0].severity,
        Severity::Error,
        "{live_rules:?}"
    );
    let exit_rule = s.target.diagnosis[0].rule;
    let exit_headline = s.target.diagnosis[0].headline.clone();
    assert!(exit_headline.contains("code 1"), "{exit_headline}");

    // The DELETED event: the kubelet stopped the container (exit 143) before the pod went away.
    let mut gone = live.clone();
    gone["metadata"]["deletionTimestamp"] = json!("2025-03-01T12:00:30Z");
    gone["metadata"]["deletionGracePeriodSeconds"] = json!(30);
    gone["status"]["containerStatuses"][0]["state"] = json!({"terminated": {
        "reason": "Error", "exitCode": 143, "startedAt": "2025-03-01T11:59:40Z",
        "finishedAt": "2025-03-01T12:00:01Z", "containerID": "containerd://def"}});
    let later = now() + jiff::SignedDuration::from_secs(5);
    update(&mut s, Msg::Tick(later));
    update(&mut s, Msg::PodDeleted(Box::new(summary(&gone))));
    let Connection::Deleted { at } = s.target.connection else {
        panic!("not deleted: {:?}", s.target.connection)
    };

    let rules: Vec<&str> = s.target.diagnosis.iter().map(|f| f.rule).collect();
    assert_eq!(
        rules,
        ["pod-deleted", exit_rule],
        "{:#?}",
        s.target.diagnosis
    );
    let first = &s.target.diagnosis[0];
    assert_eq!(first.severity, Severity::Info);
    let stamp = at.strftime("%H:%M:%SZ").to_string();
    assert_eq!(
        first.headline,
        format!("pod web was deleted at {stamp}: what is shown is its last state")
    );
    assert_eq!(s.target.diagnosis[1].headline, exit_headline);
    assert!(
        s.target
            .diagnosis
            .iter()
            .skip(1)
            .all(|f| f.severity != Severity::Info),
        "{:#?}",
        s.target.diagnosis
    );
    // Later ticks keep the same findings.
    update(
        &mut s,
        Msg::Tick(later + jiff::SignedDuration::from_secs(30)),
    );
    let again: Vec<&str> = s.target.diagnosis.iter().map(|f| f.rule).collect();
    assert_eq!(again, ["pod-deleted", exit_rule]);
}
