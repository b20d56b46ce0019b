//! `timeline::reconstruct` on case 01 (a crash-looping MySQL): every moment its pod.json and
//! events.json stamp, in time order, with the values as the API wrote them.

use std::path::Path;

use k8s_openapi::api::core::v1::{Event, Pod};
use podscope_model::PodSummary;
use podscope_model::event::EventSummary;
use podscope_model::timeline::{Entry, Kind, reconstruct};

fn case(name: &str) -> (PodSummary, Vec<EventSummary>) {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/cases")).join(name);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect(f);
    let pod: Pod = serde_json::from_str(&read("pod.json")).expect("pod.json");
    let list: serde_json::Value = serde_json::from_str(&read("events.json")).expect("events.json");
    let events = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|e| {
            EventSummary::from_event(&serde_json::from_value::<Event>(e.clone()).expect("event"))
        })
        .collect();
    (PodSummary::from_pod(&pod), events)
}

/// `(at, container, kind, from, to, reason, exitCode, count)` of each entry.
type Row = (
    String,
    Option<String>,
    Kind,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i32>,
    Option<i32>,
);

fn rows(t: &[Entry]) -> Vec<Row> {
    t.iter()
        .map(|e| {
            (
                e.at.to_string(),
                e.container.clone(),
                e.kind,
                e.from.clone(),
                e.to.clone(),
                e.reason.clone(),
                e.exit_code,
                e.count,
            )
        })
        .collect()
}

#[test]
fn case_01_crash_loop_reads_back_from_its_fields_and_events() {
    let (pod, events) = case("01-crashloop-exit1-db");
    let t = reconstruct(&pod, &events);
    assert!(t.iter().all(|e| e.reconstructed));
    assert!(t.windows(2).all(|w| w[0].at <= w[1].at), "oldest first");
    let got = rows(&t);
    let s = |v: &str| Some(v.to_owned());
    let db = s("db");
    // From pod.json: the previous instance ran 09:40:44–09:40:50 and exited 1 (Error); the
    // container has waited in CrashLoopBackOff since; the pod was created at 09:40:06 and
    // is Running since its first Started event (09:40:11; the status only reports the
    // instance of 09:40:44).
    for want in [
        (
            "2024-03-12T09:40:06Z".into(),
            None,
            Kind::Phase,
            None,
            s("Pending"),
            None,
            None,
            None,
        ),
        (
            "2024-03-12T09:40:11Z".into(),
            None,
            Kind::Phase,
            s("Pending"),
            s("Running"),
            None,
            None,
            None,
        ),
        (
            "2024-03-12T09:40:09Z".into(),
            None,
            Kind::Condition,
            None,
            s("PodReadyToStartContainers=True"),
            None,
            None,
            None,
        ),
        (
            "2024-03-12T09:40:06Z".into(),
            None,
            Kind::Condition,
            None,
            s("Ready=False"),
            s("ContainersNotReady"),
            None,
            None,
        ),
        (
            "2024-03-12T09:40:44Z".into(),
            db.clone(),
            Kind::State,
            None,
            s("running"),
            None,
            None,
            None,
        ),
        (
            "2024-03-12T09:40:50Z".into(),
            db.clone(),
            Kind::State,
            s("running"),
            s("terminated"),
            s("Error"),
            Some(1),
            None,
        ),
        (
            "2024-03-12T09:40:50Z".into(),
            db.clone(),
            Kind::State,
            None,
            s("waiting"),
            s("CrashLoopBackOff"),
            None,
            None,
        ),
        // events.json: BackOff ×3 from 09:40:18 to 09:40:58; Scheduled once, about the pod.
        (
            "2024-03-12T09:40:18Z".into(),
            db.clone(),
            Kind::Event,
            None,
            None,
            s("BackOff"),
            None,
            Some(1),
        ),
        (
            "2024-03-12T09:40:58Z".into(),
            db.clone(),
            Kind::Event,
            None,
            None,
            s("BackOff"),
            None,
            Some(3),
        ),
        (
            "2024-03-12T09:40:06Z".into(),
            None,
            Kind::Event,
            None,
            None,
            s("Scheduled"),
            None,
            Some(1),
        ),
    ] {
        let found = got.iter().any(|g| {
            let mut g = g.clone();
            if g.2 == Kind::Event {
                g.4 = None; // the message is checked below
            }
            g == want
        });
        assert!(found, "missing {want:?} in {got:#?}");
    }
    let backoff = t
        .iter()
        .find(|e| e.reason.as_deref() == Some("BackOff"))
        .expect("BackOff");
    assert!(
        backoff
            .to
            .as_deref()
            .is_some_and(|m| m.starts_with("Back-off restarting failed container db"))
    );
    // The container waits: no restart entry (the restart is still to come) and no readiness.
    assert!(
        !t.iter()
            .any(|e| matches!(e.kind, Kind::Restart | Kind::Ready))
    );
}

/// The seed's crash pod as `kubectl get pod -w` shows it between its back-offs
/// (`CrashLoopBackOff 2` → `Running 3` → `Error 3`), played on case 01's pod: each step's
/// changes, at the kubelet's stamps where it gives them.
#[test]
fn observe_reads_a_restart_and_the_crash_after_it() {
    use podscope_model::pod::{ContainerState, Terminated};
    use podscope_model::timeline::observe;
    let (waiting, _) = case("01-crashloop-exit1-db");
    let t = |s: &str| s.parse::<jiff::Timestamp>().expect("time");
    let mut running = waiting.clone();
    running.containers[0].state = ContainerState::Running {
        started_at: Some(t("2024-03-12T09:41:05Z")),
    };
    running.containers[0].restart_count = 3;
    running.containers[0].ready = true;
    let got = rows(&observe(&waiting, &running, t("2024-03-12T09:41:06Z")));
    let s = |v: &str| Some(v.to_owned());
    let db = s("db");
    assert_eq!(
        got,
        vec![
            (
                "2024-03-12T09:41:05Z".into(),
                db.clone(),
                Kind::State,
                s("waiting"),
                s("running"),
                None,
                None,
                None
            ),
            (
                "2024-03-12T09:41:05Z".into(),
                db.clone(),
                Kind::Restart,
                s("2"),
                s("3"),
                None,
                None,
                None
            ),
            (
                "2024-03-12T09:41:06Z".into(),
                db.clone(),
                Kind::Ready,
                s("false"),
                s("true"),
                None,
                None,
                None
            ),
        ]
    );
    let mut crashed = running.clone();
    crashed.containers[0].state = ContainerState::Terminated(Terminated {
        reason: "Error".into(),
        exit_code: 1,
        signal: 0,
        message: None,
        started_at: Some(t("2024-03-12T09:41:05Z")),
        finished_at: Some(t("2024-03-12T09:41:06Z")),
        container_id: String::new(),
    });
    crashed.containers[0].ready = false;
    let entries = observe(&running, &crashed, t("2024-03-12T09:41:07Z"));
    assert!(
        entries.iter().all(|e| !e.reconstructed),
        "seen, not reconstructed"
    );
    assert_eq!(
        rows(&entries),
        vec![
            (
                "2024-03-12T09:41:06Z".into(),
                db.clone(),
                Kind::State,
                s("running"),
                s("terminated"),
                s("Error"),
                Some(1),
                None
            ),
            (
                "2024-03-12T09:41:07Z".into(),
                db,
                Kind::Ready,
                s("true"),
                s("false"),
                None,
                None,
                None
            ),
        ]
    );
    assert!(
        observe(&crashed, &crashed, t("2024-03-12T09:41:08Z")).is_empty(),
        "no change, no entry"
    );
}

#[test]
fn history_keeps_the_newest_and_counts_what_it_dropped() {
    use podscope_model::timeline::{HISTORY_CAP, History, observe};
    let (pod, _) = case("01-crashloop-exit1-db");
    let mut flipped = pod.clone();
    flipped.phase = "Failed".into();
    let base: jiff::Timestamp = "2024-03-12T10:00:00Z".parse().expect("time");
    let mut h = History::default();
    for i in 0..HISTORY_CAP + 5 {
        let at = base + jiff::SignedDuration::from_secs(i64::try_from(i).expect("small"));
        h.record(observe(&pod, &flipped, at));
    }
    assert_eq!(h.dropped(), 5);
    assert_eq!(h.entries().count(), HISTORY_CAP);
    assert_eq!(
        h.entries().next().map(|e| e.at),
        Some(base + jiff::SignedDuration::from_secs(5))
    );
}

/// After attach the watch's entries stand for the state changes; the events stay reconstructed.
#[test]
fn merged_keeps_the_watchs_changes_after_attach_and_every_event() {
    use podscope_model::pod::ContainerState;
    use podscope_model::timeline::{History, merged, observe};
    let (waiting, events) = case("01-crashloop-exit1-db");
    // Attached at 09:40:45: the exit at 09:40:50 and the wait after it were seen, not read back.
    let attach: jiff::Timestamp = "2024-03-12T09:40:45Z".parse().expect("time");
    let mut running = waiting.clone();
    running.containers[0].state = ContainerState::Running {
        started_at: Some("2024-03-12T09:40:44Z".parse().expect("time")),
    };
    running.containers[0].restart_count = 2;
    let mut h = History::since(attach);
    h.record(observe(
        &running,
        &waiting,
        "2024-03-12T09:40:51Z".parse().expect("time"),
    ));
    let all = merged(reconstruct(&waiting, &events), &h);
    let late_reconstructed: Vec<_> = all
        .iter()
        .filter(|e| e.reconstructed && e.at > attach && e.kind != Kind::Event)
        .collect();
    assert!(late_reconstructed.is_empty(), "{late_reconstructed:#?}");
    let seen: Vec<_> = all
        .iter()
        .filter(|e| !e.reconstructed)
        .map(|e| (e.kind, e.to.as_deref()))
        .collect();
    assert_eq!(
        seen,
        [(Kind::State, Some("waiting"))],
        "the watch saw running → waiting"
    );
    assert_eq!(
        all.iter().filter(|e| e.kind == Kind::Event).count(),
        reconstruct(&waiting, &events)
            .iter()
            .filter(|e| e.kind == Kind::Event)
            .count()
    );
}

/// A delivery within the second of the exit sorts with it, not after it (the API's stamps are
/// whole seconds; the demo showed `ready false → true` after the exit before this).
#[test]
fn a_delivery_time_is_truncated_to_the_second_like_the_stamps() {
    use podscope_model::timeline::observe;
    let (pod, _) = case("01-crashloop-exit1-db");
    let mut ready = pod.clone();
    ready.containers[0].ready = true;
    let seen: jiff::Timestamp = "2024-03-12T09:41:06.700Z".parse().expect("time");
    let got = observe(&pod, &ready, seen);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].at.to_string(), "2024-03-12T09:41:06Z");
}
