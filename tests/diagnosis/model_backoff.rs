//! CrashLoopBackOff curve, waiting-message parsing and the countdown (`docs/protocols.md` §5), and
//! the simulated kubelet's message writers (`podscope::sim::kubelet`) pinned to the same captured
//! texts the client parses,
//! checked against §5.1's figures and the case fixtures' countdown statements.

use std::path::Path;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use podscope::model::backoff::{RESTARTING_SLACK, parse_waiting_message};
use podscope::model::{Backoff, BackoffCurve, BackoffSource, Countdown};
use podscope::sim::kubelet::{backoff_event_message, waiting_message};

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn ts(s: &str) -> Timestamp {
    s.parse().expect("valid timestamp")
}

#[test]
fn default_curve_waits_before_each_restart() {
    // §5.1: "Sequence of waits before restart n: 0, 10, 20, 40, 80, 160, 300, 300, … s."
    let want = [0, 10, 20, 40, 80, 160, 300, 300, 300];
    for (i, w) in want.iter().enumerate() {
        let n = u32::try_from(i + 1).expect("small");
        assert_eq!(
            BackoffCurve::DEFAULT.delay_before_restart(n),
            secs(*w),
            "restart {n}"
        );
    }
    assert_eq!(BackoffCurve::DEFAULT.delay_before_restart(1000), secs(300));
    // §5.1 reduced decay: "1s … 32s, 1m0s".
    let reduced: Vec<u64> = (1..=9)
        .map(|n| BackoffCurve::REDUCED.delay_before_restart(n).as_secs())
        .collect();
    assert_eq!(reduced, [0, 1, 2, 4, 8, 16, 32, 60, 60]);
}

#[test]
fn shown_backoff_heuristic() {
    // §5.1: "r=4 → 1m20s, r=5 → 2m40s, r≥6 → 5m0s".
    let c = BackoffCurve::DEFAULT;
    assert_eq!(c.shown_backoff(1), secs(10));
    assert_eq!(c.shown_backoff(2), secs(20));
    assert_eq!(c.shown_backoff(4), secs(80));
    assert_eq!(c.shown_backoff(5), secs(160));
    assert_eq!(c.shown_backoff(6), secs(300));
    assert_eq!(c.shown_backoff(i32::MAX), secs(300));
    assert_eq!(c.shown_backoff(0), secs(10));
    assert_eq!(BackoffCurve::REDUCED.shown_backoff(7), secs(60));
}

#[test]
fn waiting_message_round_trip() {
    let msg = waiting_message(
        "coord",
        "coord-2",
        "data",
        "d187afdb-2431-5e1c-bfc7-b4ce7c3596f8",
        secs(160),
    );
    // Verbatim from assets/cases/04-crashloop-oomkilled-jvm/pod.json.
    assert_eq!(
        msg,
        "back-off 2m40s restarting failed container=coord pod=coord-2_data(d187afdb-2431-5e1c-bfc7-b4ce7c3596f8)"
    );
    assert_eq!(
        parse_waiting_message(&msg),
        Some((secs(160), "coord".to_string()))
    );
    assert_eq!(
        backoff_event_message(
            "coord",
            "coord-2",
            "data",
            "d187afdb-2431-5e1c-bfc7-b4ce7c3596f8"
        ),
        // Verbatim from assets/cases/04-crashloop-oomkilled-jvm/events.json.
        "Back-off restarting failed container coord in pod coord-2_data(d187afdb-2431-5e1c-bfc7-b4ce7c3596f8)"
    );
}

#[test]
fn parse_waiting_message_variants() {
    let cases: &[(&str, Option<(u64, &str)>)] = &[
        (
            "back-off 5m0s restarting failed container=metrics pod=cache-master-0_shop(x)",
            Some((300_000, "metrics")),
        ),
        (
            "Back-off 10s restarting failed container=app pod=web_default(u)",
            Some((10_000, "app")),
        ),
        (
            "BACK-OFF 2.5s RESTARTING FAILED CONTAINER=app POD=web_default(u)",
            Some((2_500, "app")),
        ),
        (
            "back-off 1m30s restarting failed container=app pod=web_default(u)",
            Some((90_000, "app")),
        ),
        ("Back-off pulling image \"nginx:nope\"", None),
        (
            "back-off soon restarting failed container=app pod=web_default(u)",
            None,
        ),
        ("back-off 10s restarting failed container=app", None),
        ("back-off 10s restarting failed container= pod=x", None),
        ("", None),
    ];
    for (msg, want) in cases {
        let want = want.map(|(ms, c)| (Duration::from_millis(ms), c.to_string()));
        assert_eq!(parse_waiting_message(msg), want, "{msg:?}");
    }
}

fn status(v: serde_json::Value) -> ContainerStatus {
    serde_json::from_value(v).expect("status json")
}

#[test]
fn from_status_only_in_crashloopbackoff_and_estimates_without_message() {
    let fin = "2025-01-01T00:00:00Z";
    let ib = status(
        serde_json::json!({"name": "a", "restartCount": 0, "state": {"waiting": {"reason": "ImagePullBackOff"}}}),
    );
    assert_eq!(Backoff::from_status(&ib, BackoffCurve::DEFAULT), None);
    let running =
        status(serde_json::json!({"name": "a", "restartCount": 3, "state": {"running": {}}}));
    assert_eq!(Backoff::from_status(&running, BackoffCurve::DEFAULT), None);
    let no_msg = status(serde_json::json!({"name": "a", "restartCount": 4,
        "state": {"waiting": {"reason": "CrashLoopBackOff"}},
        "lastState": {"terminated": {"exitCode": 1, "finishedAt": fin}}}));
    let b = Backoff::from_status(&no_msg, BackoffCurve::DEFAULT).expect("in back-off");
    assert_eq!(b.source, BackoffSource::Estimate);
    assert_eq!(b.delay, secs(80));
    assert_eq!(b.next_restart_at, Some(ts("2025-01-01T00:01:20Z")));
    let reduced = Backoff::from_status(&no_msg, BackoffCurve::REDUCED).expect("in back-off");
    assert_eq!(reduced.delay, secs(8));
    let no_finish = status(serde_json::json!({"name": "a", "restartCount": 4,
        "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 1m20s restarting failed container=a pod=p_n(u)"}}}));
    let b = Backoff::from_status(&no_finish, BackoffCurve::DEFAULT).expect("in back-off");
    assert_eq!(
        (b.source, b.next_restart_at),
        (BackoffSource::Message, None)
    );
    assert_eq!(b.countdown(ts(fin)), Countdown::Unknown);
}

#[test]
fn countdown_rounds_up_then_restarting_then_overdue() {
    let due = ts("2025-01-01T00:05:00Z");
    let b = Backoff {
        delay: secs(300),
        next_restart_at: Some(due),
        source: BackoffSource::Message,
    };
    let at = |offset_ms: i64| b.countdown(due + SignedDuration::from_millis(offset_ms));
    assert_eq!(at(-300_000), Countdown::In(300));
    assert_eq!(at(-1_500), Countdown::In(2));
    assert_eq!(at(-1_000), Countdown::In(1));
    assert_eq!(at(-1), Countdown::In(1));
    assert_eq!(at(0), Countdown::Restarting);
    let slack_ms = i64::try_from(RESTARTING_SLACK.as_millis()).expect("small");
    assert_eq!(slack_ms, 15_000);
    assert_eq!(at(slack_ms), Countdown::Restarting);
    assert_eq!(at(slack_ms + 1), Countdown::Overdue);
    assert_eq!(at(3_600_000), Countdown::Overdue);
    assert_eq!(b.predicted_next_delay(BackoffCurve::DEFAULT), secs(300));
}

/// A server clock 2m17s ahead of ours (the trial's `podscope sim --speed 10`: `finishedAt` lies in
/// our future): the kubelet still waits only the 2m40s back-off, so that is the most shown.
#[test]
fn countdown_never_exceeds_the_back_off_under_clock_skew() {
    let ours = ts("2025-01-01T00:00:00Z");
    let finished_at = ours + SignedDuration::from_secs(137);
    let b = Backoff {
        delay: secs(160),
        next_restart_at: Some(finished_at + SignedDuration::from_secs(160)),
        source: BackoffSource::Message,
    };
    assert_eq!(b.countdown(ours), Countdown::In(160));
    assert_eq!(
        b.countdown(ours + SignedDuration::from_secs(200)),
        Countdown::In(97)
    );
}

/// The back-off of `container` in a case pod (init or main statuses).
fn case_backoff(case: &str, container: &str) -> (Backoff, i32) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(case)
        .join("pod.json");
    let pod: Pod =
        serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("parses");
    let st = pod.status.expect("status");
    let all = st
        .init_container_statuses
        .unwrap_or_default()
        .into_iter()
        .chain(st.container_statuses.unwrap_or_default());
    let cs = all
        .into_iter()
        .find(|c| c.name == container)
        .expect("status for container");
    let b =
        Backoff::from_status(&cs, BackoffCurve::DEFAULT).expect("container is in CrashLoopBackOff");
    (b, cs.restart_count)
}

#[test]
fn case_countdowns() {
    // (case, container, delay, next restart, snapshot, countdown at snapshot), each from expected.md.
    let cases = [
        // 01: "back-off 20s; last finishedAt 09:40:50 -> next start attempt ~09:41:10, i.e. about 4 s after the snapshot."
        (
            "01-crashloop-exit1-db",
            "db",
            20,
            "2024-03-12T09:41:10Z",
            "2024-03-12T09:41:06Z",
            4,
        ),
        // 02: "back-off is at the 5m0s cap; last finishedAt 14:12:45 -> next attempt ~14:17:45, i.e. ~30 s after the snapshot."
        (
            "02-crashloop-exit127-metrics-sidecar",
            "metrics",
            300,
            "2024-01-06T14:17:45Z",
            "2024-01-06T14:17:15Z",
            30,
        ),
        // 04: "back-off 2m40s after finishedAt 07:19:05 -> next attempt ~07:21:45 (90 s after the snapshot)."
        (
            "04-crashloop-oomkilled-jvm",
            "coord",
            160,
            "2024-06-03T07:21:45Z",
            "2024-06-03T07:20:15Z",
            90,
        ),
        // 07: "finishedAt 08:07:08 + 2m40s -> next attempt 08:09:48 (60 s after the snapshot)."
        (
            "07-liveness-kills-slow-start-exit143",
            "db",
            160,
            "2020-07-16T08:09:48Z",
            "2020-07-16T08:08:48Z",
            60,
        ),
        // 08: "back-off 5m0s from 08:20:35 -> next attempt 08:25:35 (2m25s after the snapshot)."
        (
            "08-init-crashloop-exit1-termination-message",
            "fetch-config",
            300,
            "2020-08-25T08:25:35Z",
            "2020-08-25T08:23:10Z",
            145,
        ),
    ];
    for (case, container, delay, next, snapshot, left) in cases {
        let (b, restart_count) = case_backoff(case, container);
        assert_eq!(b.source, BackoffSource::Message, "{case}");
        assert_eq!(b.delay, secs(delay), "{case}");
        assert_eq!(b.next_restart_at, Some(ts(next)), "{case}");
        assert_eq!(b.countdown(ts(snapshot)), Countdown::In(left), "{case}");
        // The restartCount heuristic (§5.1) agrees with the kubelet's message in these cases.
        assert_eq!(
            BackoffCurve::DEFAULT.shown_backoff(restart_count),
            b.delay,
            "{case}"
        );
    }
}
