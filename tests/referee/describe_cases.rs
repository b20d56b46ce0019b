//! `describe_pod` of every case fixture (`assets/cases/*/pod.json` + `events.json`, at the
//! case's snapshot time): the whole text as a snapshot (`tests/referee/describe_sim.rs` proves the same
//! pods' text equal to real kubectl 1.27 … 1.33, so a snapshot records kubectl's layout), and the
//! layout details a fixture shows: a termination message under Last State, a signal, a status
//! reason and message, the Node of an unscheduled pod, repeated events' ages.

use crate::common;
use common::cases::expected;
use common::cluster::{case, case_dirs, case_name};
use k8s_openapi::api::core::v1::Pod;
use podscope::model::EventSummary;
use podscope::model::describe::describe_pod;
use podscope::sim::load_fixture;

/// Our describe text of case `dir` at its snapshot time, the fixture's events in the order the
/// API server lists them (by name), which is the order kubectl's sort starts from.
fn describe_case(dir: &std::path::Path, edit: impl FnOnce(&mut Pod)) -> String {
    let fx = load_fixture(dir).expect("fixture loads");
    let mut pod = fx.pod.clone();
    edit(&mut pod);
    let mut listed: Vec<_> = fx.events.iter().collect();
    listed.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let events: Vec<EventSummary> = listed.into_iter().map(EventSummary::from_event).collect();
    describe_pod(&pod, &events, expected(&case_name(dir)).now)
}

/// Whether `want` appear in `text` as consecutive lines.
fn has_run(text: &str, want: &[&str]) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.windows(want.len()).any(|w| w == want)
}

#[test]
fn every_case_describes_as_its_snapshot() {
    for dir in case_dirs() {
        let text = describe_case(&dir, |_| {});
        insta::assert_snapshot!(format!("describe_{}", case_name(&dir)), text);
    }
}

#[test]
fn a_termination_message_sits_between_reason_and_exit_code() {
    let text = describe_case(&case("08-"), |_| {});
    assert!(
        has_run(
            &text,
            &[
                "    Last State:     Terminated",
                "      Reason:       Error",
                "      Message:      Failed to fetch /opt/app/conf/runtime.yml. statusCode=403",
                "      Exit Code:    1",
            ]
        ),
        "{text}"
    );
}

#[test]
fn a_signal_follows_the_exit_code() {
    let text = describe_case(&case("04-"), |pod| {
        let st = pod.status.as_mut().expect("status");
        let cs = st.container_statuses.as_mut().expect("container statuses");
        let last = cs[0].last_state.as_mut().expect("last state");
        last.terminated.as_mut().expect("terminated").signal = Some(9);
    });
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "      Exit Code:    137")
        .unwrap_or_else(|| panic!("no exit code line in\n{text}"));
    assert_eq!(lines[at + 1], "      Signal:       9", "{text}");
    assert!(lines[at + 2].starts_with("      Started:      "), "{text}");
}

#[test]
fn an_evicted_pod_shows_its_reason_and_message() {
    let text = describe_case(&case("23-"), |_| {});
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"Status:           Failed"), "{text}");
    assert!(lines.contains(&"Reason:           Evicted"), "{text}");
    assert!(
        lines.iter().any(|l| l.starts_with("Message:          ")),
        "{text}"
    );
}

#[test]
fn an_unscheduled_pod_has_no_node_and_an_empty_ip() {
    let text = describe_case(&case("34-"), |_| {});
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"Node:             <none>"), "{text}");
    assert!(lines.contains(&"IP:               "), "{text}");
    assert!(lines.contains(&"IPs:              <none>"), "{text}");
}
