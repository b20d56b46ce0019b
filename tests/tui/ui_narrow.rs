//! Nothing that matters is cut at 60×20 and 80×24: the header's fields flow onto further lines,
//! a long status line and a long connection error wrap onto the rows they need.

use crate::common;
use common::{cases, render, rows, text};
use podscope::app::msg::ShellEnd;
use podscope::app::{Msg, update};

/// The screen's rows read as one run of words (wrapped text joined again).
fn words(backend: &ratatui::backend::TestBackend) -> String {
    rows(backend)
        .iter()
        .map(|r| r.trim())
        .collect::<Vec<_>>()
        .join(" ")
}

const CASE: &str = "04-crashloop-oomkilled-jvm";

#[test]
fn header_fields_flow_onto_a_second_line() {
    let s = cases::state(CASE, false);
    for (w, h) in [(60, 20), (80, 24)] {
        let backend = render(&s, w, h);
        let screen = text(&backend);
        for field in [
            "STATUS CrashLoopBackOff",
            "READY 0/1",
            "RESTARTS 5 (70s ago)",
            "AGE 10m",
            "phase Running",
            "QoS Burstable",
            "node node-a4",
            "IP 10.244.4.17",
        ] {
            assert!(screen.contains(field), "{w}×{h}: no `{field}` in\n{screen}");
        }
        insta::assert_snapshot!(format!("header@{w}x{h}"), backend);
    }
}

#[test]
fn a_long_status_line_wraps_in_full() {
    let mut s = cases::state(CASE, false);
    let error =
        "error: unable to upgrade connection: container not found (\"hello\") in pod coord-2_data";
    update(
        &mut s,
        Msg::ShellExited {
            container: "coord".to_owned(),
            result: ShellEnd::Failed(error.to_owned()),
        },
    );
    for (w, h) in [(60, 20), (80, 24)] {
        let backend = render(&s, w, h);
        let all = words(&backend);
        assert!(
            all.contains(&format!("shell failed: {error}")),
            "{w}×{h}:\n{}",
            text(&backend)
        );
        insta::assert_snapshot!(format!("status-line@{w}x{h}"), backend);
    }
}

#[test]
fn a_long_connection_error_wraps_in_full() {
    let mut s = cases::state(CASE, false);
    let error =
        "watch pods \"coord-2\": client error (Connect): invalid peer certificate: UnknownIssuer";
    update(&mut s, Msg::PodWatchFailed(error.to_owned()));
    for (w, h) in [(60, 20), (80, 24)] {
        let backend = render(&s, w, h);
        let all = words(&backend);
        assert!(
            all.contains(&format!("reconnecting: {error}")),
            "{w}×{h}:\n{}",
            text(&backend)
        );
        assert!(all.contains("AGE 10m"), "{}", text(&backend));
        insta::assert_snapshot!(format!("connection-error@{w}x{h}"), backend);
    }
}
