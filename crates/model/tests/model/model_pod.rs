//! `PodSummary::from_pod` (kubelet order, joining, sanitising, back-off, `ran_for`) and
//! `EventSummary` (fallbacks, describe's Age cell, ordering), on synthetic pods and case fixtures.

use std::path::Path;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event, Pod};
use podscope_model::event::sort_newest_first;
use podscope_model::{BackoffSource, ContainerKind, ContainerState, EventSummary, PodSummary};
use serde_json::{Value, json};

fn case_file(case: &str, file: &str) -> String {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(case)
        .join(file);
    std::fs::read_to_string(path).expect("case file readable")
}

fn case_pod(case: &str) -> PodSummary {
    let pod: Pod = serde_json::from_str(&case_file(case, "pod.json")).expect("pod parses");
    PodSummary::from_pod(&pod)
}

fn case_events(case: &str) -> Vec<EventSummary> {
    let list: serde_json::Value =
        serde_json::from_str(&case_file(case, "events.json")).expect("json");
    let items = list["items"].as_array().expect("v1 List with items");
    items
        .iter()
        .map(|i| {
            EventSummary::from_event(
                &serde_json::from_value::<Event>(i.clone()).expect("event parses"),
            )
        })
        .collect()
}

fn ts(s: &str) -> Timestamp {
    s.parse().expect("valid timestamp")
}

/// `default/web` with a container of every kind: init `migrate`, native sidecar `proxy`, the main
/// container `app` and ephemeral `debugger`; and `status`.
fn every_kind_pod(app: Value, status: Value) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": "web", "namespace": "default", "uid": "u1"},
        "spec": {
            "initContainers": [
                {"name": "migrate", "image": "m"},
                {"name": "proxy", "image": "p", "restartPolicy": "Always"},
            ],
            "containers": [app],
            "ephemeralContainers": [{"name": "debugger", "image": "busybox"}],
        },
        "status": status,
    }))
    .expect("pod")
}

#[test]
fn kubelet_order_kinds_and_orphan_statuses() {
    let app = json!({"name": "app", "image": "a", "command": ["/app"], "args": ["--port", "8080"],
        "ports": [{"name": "http", "containerPort": 8080}, {"containerPort": 9090, "protocol": "UDP"}],
        "resources": {"limits": {"memory": "512Mi"}}});
    let pod = every_kind_pod(
        app,
        json!({
            "phase": "Running",
            "initContainerStatuses": [
                {"name": "proxy", "image": "p", "imageID": "", "ready": true, "restartCount": 0, "started": true,
                 "state": {"running": {"startedAt": "2025-01-01T00:00:05Z"}}},
                {"name": "migrate", "image": "m", "imageID": "", "ready": false, "restartCount": 0,
                 "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}},
                {"name": "ghost-init", "image": "g", "imageID": "", "ready": false, "restartCount": 0},
            ],
            "containerStatuses": [
                {"name": "app", "image": "a", "imageID": "", "ready": true, "restartCount": 0,
                 "state": {"running": {"startedAt": "2025-01-01T00:00:10Z"}}},
            ],
            "ephemeralContainerStatuses": [
                {"name": "debugger", "image": "busybox", "imageID": "", "ready": false, "restartCount": 0,
                 "state": {"waiting": {"reason": "ContainerCreating"}}},
            ],
        }),
    );
    let s = PodSummary::from_pod(&pod);
    let order: Vec<(&str, ContainerKind)> = s
        .containers
        .iter()
        .map(|c| (c.name.as_str(), c.kind))
        .collect();
    assert_eq!(
        order,
        [
            ("migrate", ContainerKind::Init),
            ("proxy", ContainerKind::Sidecar),
            ("ghost-init", ContainerKind::Init),
            ("app", ContainerKind::Main),
            ("debugger", ContainerKind::Ephemeral),
        ]
    );
    let app = s.container("app").expect("app");
    assert_eq!(app.command, ["/app", "--port", "8080"]);
    assert_eq!(app.memory_limit.as_deref(), Some("512Mi"));
    assert_eq!(
        app.ports,
        [
            (Some("http".to_string()), 8080, "TCP".to_string()),
            (None, 9090, "UDP".to_string())
        ]
    );
    assert!(app.ready);
    assert_eq!(
        app.state,
        ContainerState::Running {
            started_at: Some(ts("2025-01-01T00:00:10Z"))
        }
    );
    let ghost = s.container("ghost-init").expect("orphan status shown");
    assert_eq!(
        (ghost.image.as_str(), ghost.state.clone()),
        ("g", ContainerState::Unknown)
    );
    assert_eq!(
        s.container("debugger").map(|c| c.state.clone()),
        Some(ContainerState::Waiting {
            reason: "ContainerCreating".to_string(),
            message: None
        })
    );
    assert!(s.container("nope").is_none());
    assert_eq!(
        (
            s.restart_policy.as_str(),
            s.termination_grace_period_seconds
        ),
        ("Always", 30)
    );
    // The stateless orphan init status stops the printer's init loop at index 2 (§6.1 step 4c,
    // vector 26) and no `Initialized=True` condition lets the main loop run: only the started,
    // ready sidecar counts.
    assert_eq!(
        (s.print.ready, s.print.total, s.print.status.as_str()),
        (1, 2, "Init:2/2")
    );
}

#[test]
fn strings_from_the_cluster_are_sanitised() {
    let pod: Pod = serde_json::from_value(json!({
        "metadata": {"name": "evil\u{1b}[2J", "namespace": "default"},
        "spec": {"containers": [{"name": "c\u{1b}]0;x\u{7}", "image": "i"}]},
        "status": {"phase": "Pending", "message": "m\u{9b}1m", "containerStatuses": [
            {"name": "c\u{1b}]0;x\u{7}", "image": "i", "imageID": "", "ready": false, "restartCount": 0,
             "state": {"waiting": {"reason": "Bad\u{1b}[31m", "message": "line1\nline2"}}}]},
    }))
    .expect("pod");
    let s = PodSummary::from_pod(&pod);
    assert_eq!(s.name, "evil␛[2J");
    assert_eq!(s.message, "m\u{fffd}1m");
    assert_eq!(s.print.status, "Bad␛[31m");
    let c = &s.containers[0];
    assert_eq!(c.name, "c␛]0;x␇");
    assert_eq!(
        c.state,
        ContainerState::Waiting {
            reason: "Bad␛[31m".to_string(),
            message: Some("line1␊line2".to_string())
        }
    );
    let row = s.row(ts("2025-01-01T00:00:00Z"));
    assert_eq!(
        (row.name.as_str(), row.status.as_str(), row.age.as_str()),
        ("evil␛[2J", "Bad␛[31m", "<unknown>")
    );
}

#[test]
fn case_12_native_sidecar_kinds() {
    let s = case_pod("12-native-sidecar-job-completed");
    let kinds: Vec<_> = s
        .containers
        .iter()
        .map(|c| (c.name.as_str(), c.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("log-shipper", ContainerKind::Sidecar),
            ("export", ContainerKind::Main)
        ]
    );
}

#[test]
fn ran_for_and_termination_facts_from_cases() {
    // 01 expected.md: "startedAt 09:40:44, finishedAt 09:40:50 (6 s)".
    let db = case_pod("01-crashloop-exit1-db");
    let c = db.container("db").expect("db");
    assert_eq!(c.ran_for().map(|d| d.as_secs()), Some(6));
    assert_eq!(
        c.last_state
            .as_ref()
            .map(|t| (t.reason.as_str(), t.exit_code)),
        Some(("Error", 1))
    );
    // 04 expected.md: "lastState.terminated reason OOMKilled, exitCode 137, ran 45 s".
    let jvm = case_pod("04-crashloop-oomkilled-jvm");
    let coord = jvm.container("coord").expect("coord");
    assert_eq!(coord.ran_for().map(|d| d.as_secs()), Some(45));
    let b = coord.backoff.as_ref().expect("in CrashLoopBackOff");
    assert_eq!((b.delay.as_secs(), b.source), (160, BackoffSource::Message));
    // 03 expected.md: "container never started (startedAt 1970 = never)".
    let se = case_pod("03-runcontainererror-starterror-exit128");
    let agent = se.container("edge-agent").expect("edge-agent");
    assert_eq!(
        agent.last_state.as_ref().map(|t| t.started_at),
        Some(Some(Timestamp::UNIX_EPOCH))
    );
    assert_eq!(agent.ran_for(), None);
    // 08: the init container's termination message is kept.
    let init = case_pod("08-init-crashloop-exit1-termination-message");
    let fetch = init.container("fetch-config").expect("fetch-config");
    assert_eq!(fetch.kind, ContainerKind::Init);
    assert_eq!(
        fetch.last_state.as_ref().and_then(|t| t.message.as_deref()),
        Some("Failed to fetch /opt/app/conf/runtime.yml. statusCode=403")
    );
    // 02: the healthy container has no back-off and no lastState.
    let cache = case_pod("02-crashloop-exit127-metrics-sidecar");
    let c = cache.container("cache").expect("cache");
    assert_eq!(
        (c.backoff.is_none(), c.last_state.is_none(), c.ran_for()),
        (true, true, None)
    );
}

#[test]
fn event_age_text_legacy_and_series() {
    // 34: eventTime 02:00:00, series.count 150, lastObservedTime 02:09:48, snapshot 02:09:51.
    let ev = case_events("34-pending-failedscheduling");
    let fs = ev
        .iter()
        .find(|e| e.reason == "FailedScheduling")
        .expect("FailedScheduling");
    assert_eq!((fs.count, fs.source.as_str()), (150, "default-scheduler"));
    assert_eq!(
        fs.age_text(ts("2020-01-08T02:09:51Z")),
        "3s (x150 over 9m51s)"
    );
    // 01: BackOff count 3, first 09:40:18, last 09:40:58; snapshot 09:41:06.
    let ev = case_events("01-crashloop-exit1-db");
    let bo = ev.iter().find(|e| e.reason == "BackOff").expect("BackOff");
    assert_eq!(
        (
            bo.type_.as_str(),
            bo.field_path.as_str(),
            bo.source.as_str()
        ),
        ("Warning", "spec.containers{db}", "kubelet")
    );
    assert_eq!(bo.age_text(ts("2024-03-12T09:41:06Z")), "8s (x3 over 48s)");
    let sched = ev
        .iter()
        .find(|e| e.reason == "Scheduled")
        .expect("Scheduled");
    assert_eq!(sched.age_text(ts("2024-03-12T09:41:06Z")), "60s");
}

#[test]
fn event_fallbacks_and_sorting() {
    let bare: Event = serde_json::from_value(json!({
        "metadata": {"name": "e", "uid": "u", "creationTimestamp": "2025-01-01T00:00:00Z"},
        "involvedObject": {}, "reason": "R", "message": "bell\u{7}", "type": "Normal",
        "reportingComponent": "kubelet",
    }))
    .expect("event");
    let e = EventSummary::from_event(&bare);
    assert_eq!(
        (e.count, e.message.as_str(), e.source.as_str()),
        (1, "bell␇", "kubelet")
    );
    assert_eq!(
        (e.first_timestamp, e.last_timestamp),
        (
            Some(ts("2025-01-01T00:00:00Z")),
            Some(ts("2025-01-01T00:00:00Z"))
        )
    );
    assert_eq!(
        EventSummary {
            first_timestamp: None,
            ..e.clone()
        }
        .age_text(ts("2025-01-01T00:01:00Z")),
        "<unknown>"
    );

    let mut ev = case_events("01-crashloop-exit1-db");
    sort_newest_first(&mut ev);
    let lasts: Vec<_> = ev.iter().map(|e| e.last_timestamp).collect();
    assert!(lasts.windows(2).all(|w| w[0] >= w[1]), "{lasts:?}");
    assert_eq!(ev[0].reason, "BackOff");
    ev.push(EventSummary {
        last_timestamp: None,
        first_timestamp: None,
        ..ev[0].clone()
    });
    ev.rotate_right(1);
    sort_newest_first(&mut ev);
    assert_eq!(ev.last().map(|e| e.last_timestamp), Some(None));
}

/// `will_restart` follows the kubelet's rules per container kind and `restartPolicy`, and says
/// no once the pod's phase is final.
#[test]
fn will_restart_by_kind_policy_and_phase() {
    let pod = every_kind_pod(
        json!({"name": "app", "image": "a"}),
        json!({"phase": "Running"}),
    );
    let mut s = PodSummary::from_pod(&pod);
    let got = |s: &PodSummary, name: &str, code: i32| {
        s.will_restart(s.container(name).expect(name), code)
    };
    assert_eq!(s.restart_policy, "Always", "the API default");
    assert!(got(&s, "app", 0) && got(&s, "app", 1));
    assert!(got(&s, "proxy", 0), "a native sidecar always restarts");
    assert!(!got(&s, "migrate", 0) && got(&s, "migrate", 1));
    assert!(
        !got(&s, "debugger", 1),
        "ephemeral containers never restart"
    );
    s.restart_policy = "OnFailure".to_owned();
    assert!(!got(&s, "app", 0) && got(&s, "app", 137));
    s.restart_policy = "Never".to_owned();
    assert!(!got(&s, "app", 1) && !got(&s, "migrate", 1) && got(&s, "proxy", 1));
    s.restart_policy = "Always".to_owned();
    s.phase = "Failed".to_owned();
    assert!(!got(&s, "app", 1) && !got(&s, "proxy", 1));
}
