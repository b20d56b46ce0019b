//! `update` scripts for the pod and events watches: messages in, state and `Cmd`s out.

use crate::common;
use common::{applied, container, pod, state, t0};
use podscope::app::generation::Generation;
use podscope::app::state::Connection;
use podscope::app::{Cmd, Msg, update};
use podscope::model::{ContainerKind, ContainerState, EventSummary};

fn event(uid: &str, reason: &str, secs_before_t0: i64) -> EventSummary {
    let at = t0() - jiff::SignedDuration::from_secs(secs_before_t0);
    EventSummary {
        uid: uid.to_owned(),
        type_: "Warning".to_owned(),
        reason: reason.to_owned(),
        message: format!("{reason} happened"),
        count: 1,
        first_timestamp: Some(at),
        last_timestamp: Some(at),
        last_timestamp_field: Some(at),
        source: "kubelet".to_owned(),
        field_path: String::new(),
    }
}

#[test]
fn first_pod_starts_the_events_watch_and_goes_live() {
    let mut s = state();
    assert_eq!(s.target.connection, Connection::Connecting);
    let p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    let cmds = update(&mut s, Msg::PodApplied(Box::new(p.clone())));
    // The events of this pod, its node (`app::node`) and its usage (`app::usage`).
    assert_eq!(
        cmds,
        vec![
            Cmd::WatchEvents {
                uid: "uid-1".to_owned()
            },
            Cmd::WatchNode {
                name: "node-1".to_owned()
            },
            Cmd::PollMetrics
        ]
    );
    assert_eq!(s.target.connection, Connection::Live);
    assert_eq!(s.target.pod.as_ref(), Some(&p));
    assert!(s.dirty);
    assert!(s.target.notice.is_none());
}

#[test]
fn same_uid_update_issues_no_command() {
    let mut s = state();
    let p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::PodApplied(Box::new(p.clone())));
    let mut p2 = p;
    p2.resource_version = "2".to_owned();
    assert!(update(&mut s, Msg::PodApplied(Box::new(p2))).is_empty());
    assert_eq!(
        s.target.pod.as_ref().map(|p| p.resource_version.as_str()),
        Some("2")
    );
}

#[test]
fn new_uid_is_a_recreated_pod_with_notice_and_a_new_events_watch() {
    let mut s = applied(vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::EventsReset(vec![event("e1", "BackOff", 30)]));
    let cmds = update(
        &mut s,
        Msg::PodApplied(Box::new(pod(
            "uid-2",
            vec![container("app", ContainerKind::Main)],
        ))),
    );
    assert_eq!(
        cmds,
        vec![
            Cmd::PodRecreated {
                generation: Generation(2)
            },
            Cmd::WatchEvents {
                uid: "uid-2".to_owned()
            },
            // The new target watches the node afresh (the session stopped the old watch), and
            // polls its usage afresh.
            Cmd::WatchNode {
                name: "node-1".to_owned()
            },
            Cmd::PollMetrics
        ]
    );
    assert_eq!(s.target.generation, Generation(2));
    assert_eq!(
        s.target.notice.as_deref(),
        Some("pod recreated (new UID uid-2)")
    );
    assert!(
        s.target.events.is_empty(),
        "events of the old pod are dropped"
    );
    assert_eq!(s.target.pod.as_ref().map(|p| p.uid.as_str()), Some("uid-2"));
}

/// The seed's hello pod re-created (e.g. by its controller) while its `hello` container was
/// selected: the selection stays on `hello`, not back on the init container.
#[test]
fn a_recreated_pod_keeps_the_selected_container_by_name() {
    let containers = || {
        vec![
            container("render-config", ContainerKind::Init),
            container("proxy", ContainerKind::Sidecar),
            container("hello", ContainerKind::Main),
        ]
    };
    let mut s = applied(containers());
    s.target.selected = 2;
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod("uid-2", containers()))),
    );
    assert_eq!(
        s.selected_container().map(|c| c.name.as_str()),
        Some("hello")
    );
    // A new pod without that container: the usual first choice.
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod(
            "uid-3",
            vec![container("app", ContainerKind::Main)],
        ))),
    );
    assert_eq!(s.selected_container().map(|c| c.name.as_str()), Some("app"));
}

#[test]
fn deleted_keeps_the_last_state_and_marks_the_time() {
    let mut s = state();
    let p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::PodApplied(Box::new(p.clone())));
    update(&mut s, Msg::EventsReset(vec![event("e1", "Killing", 5)]));
    let later = t0() + jiff::SignedDuration::from_secs(42);
    update(&mut s, Msg::Tick(later));
    let cmds = update(&mut s, Msg::PodDeleted(Box::new(p.clone())));
    assert!(cmds.is_empty());
    assert_eq!(s.target.connection, Connection::Deleted { at: later });
    assert_eq!(s.target.pod.as_ref(), Some(&p));
    assert_eq!(s.target.events.len(), 1, "events stay with the last state");
    // A relist after the deletion does not wipe what was last seen.
    update(&mut s, Msg::PodAbsent);
    assert_eq!(s.target.connection, Connection::Deleted { at: later });
    assert!(s.target.pod.is_some());
}

/// The DELETED event arrives after the kubelet stopped the containers; the time shown is when
/// the deletion was requested: `deletionTimestamp` minus `deletionGracePeriodSeconds`, as the
/// API server sets them (here: requested at t0+10s with a 30 s grace, gone at t0+14s).
#[test]
fn a_deleted_pod_is_dated_by_its_deletion_request() {
    let mut s = state();
    let p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::PodApplied(Box::new(p.clone())));
    let mut deleting = p.clone();
    deleting.deletion_timestamp = Some(t0() + jiff::SignedDuration::from_secs(40));
    deleting.deletion_grace_period_seconds = Some(30);
    let seen = t0() + jiff::SignedDuration::from_secs(14);
    update(&mut s, Msg::Tick(seen));
    update(&mut s, Msg::PodDeleted(Box::new(deleting)));
    let requested = t0() + jiff::SignedDuration::from_secs(10);
    assert_eq!(s.target.connection, Connection::Deleted { at: requested });
    let screen = common::text(&common::render(&s, 120, 30));
    assert!(screen.contains("(4s ago)"), "{screen}");
}

#[test]
fn absent_pod_keeps_nothing_stale() {
    let mut s = applied(vec![
        container("a", ContainerKind::Main),
        container("b", ContainerKind::Main),
    ]);
    update(&mut s, Msg::EventsReset(vec![event("e1", "BackOff", 5)]));
    update(&mut s, common::key(crossterm::event::KeyCode::Char('j')));
    assert_eq!(s.target.selected, 1);
    s.dirty = false;
    assert_eq!(
        update(&mut s, Msg::PodAbsent),
        vec![Cmd::CheckNamespace {
            namespace: s.target.namespace.clone()
        }]
    );
    assert_eq!(s.target.connection, Connection::NotFound);
    assert!(s.target.pod.is_none());
    assert!(s.target.events.is_empty());
    assert_eq!(s.target.selected, 0);
    assert!(s.dirty);
}

#[test]
fn watch_failure_reconnects_then_a_pod_makes_it_live() {
    let mut s = state();
    let p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::PodApplied(Box::new(p.clone())));
    let reason = "watch pods: connection refused".to_owned();
    update(&mut s, Msg::PodWatchFailed(reason.clone()));
    assert_eq!(s.target.connection, Connection::Reconnecting(reason));
    assert!(
        s.target.pod.is_some(),
        "the last state stays visible while reconnecting"
    );
    update(&mut s, Msg::PodWatchRestarted);
    assert!(matches!(s.target.connection, Connection::Reconnecting(_)));
    let cmds = update(&mut s, Msg::PodApplied(Box::new(p)));
    assert!(cmds.is_empty(), "same UID: the events watch keeps running");
    assert_eq!(s.target.connection, Connection::Live);
}

#[test]
fn events_are_kept_newest_first_and_upserted_by_uid() {
    let mut s = state();
    update(
        &mut s,
        Msg::EventsReset(vec![
            event("old", "Scheduled", 600),
            event("new", "BackOff", 10),
            event("mid", "Pulled", 300),
        ]),
    );
    let order: Vec<&str> = s.target.events.iter().map(|e| e.uid.as_str()).collect();
    assert_eq!(order, ["new", "mid", "old"]);
    let mut bumped = event("old", "Scheduled", 1);
    bumped.count = 2;
    update(&mut s, Msg::EventApplied(bumped));
    assert_eq!(s.target.events.len(), 3);
    assert_eq!(s.target.events[0].uid, "old");
    assert_eq!(s.target.events[0].count, 2);
    update(&mut s, Msg::EventDeleted("mid".to_owned()));
    let order: Vec<&str> = s.target.events.iter().map(|e| e.uid.as_str()).collect();
    assert_eq!(order, ["old", "new"]);
    update(&mut s, Msg::EventsWatchFailed("403 forbidden".to_owned()));
    assert_eq!(s.target.events_error.as_deref(), Some("403 forbidden"));
}

#[test]
fn tick_sets_now_and_redraws_only_when_a_clock_is_visible() {
    let mut s = state();
    let t1 = t0() + jiff::SignedDuration::from_secs(1);
    update(&mut s, Msg::Tick(t1));
    assert_eq!(s.now, t1);
    assert!(!s.dirty, "connecting, nothing time-dependent on screen");
    update(&mut s, Msg::PodAbsent);
    s.dirty = false;
    update(&mut s, Msg::Tick(t1 + jiff::SignedDuration::from_secs(1)));
    assert!(!s.dirty, "not found, nothing time-dependent on screen");

    let mut crashing = container("app", ContainerKind::Main);
    crashing.state = ContainerState::Waiting {
        reason: "CrashLoopBackOff".to_owned(),
        message: None,
    };
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod("uid-1", vec![crashing]))),
    );
    s.dirty = false;
    let t3 = t1 + jiff::SignedDuration::from_secs(2);
    update(&mut s, Msg::Tick(t3));
    assert_eq!(s.now, t3);
    assert!(s.dirty, "AGE and countdowns move");
}

#[test]
fn sigterm_quits() {
    let mut s = state();
    assert_eq!(update(&mut s, Msg::Quit), vec![Cmd::Quit]);
}

#[test]
fn a_queued_message_for_another_pod_is_ignored() {
    // After a pod switch the old pod's watch may still have messages queued.
    let mut s = common::state();
    let mut other = common::pod("uid-other", vec![]);
    other.name = "previous-pod".into();
    assert!(update(&mut s, Msg::PodApplied(Box::new(other.clone()))).is_empty());
    assert!(s.target.pod.is_none());
    assert!(update(&mut s, Msg::PodDeleted(Box::new(other))).is_empty());
    assert!(s.target.pod.is_none());
    // The watched pod itself still arrives.
    let own = common::pod("uid-1", vec![]);
    assert!(!update(&mut s, Msg::PodApplied(Box::new(own))).is_empty());
    assert!(s.target.pod.is_some());
}

/// The re-creation notice fades after 10 s of clock ticks (not 8 minutes later): still up at
/// 9 s, gone (and redrawn) at the tick 10 s after it was posted.
#[test]
fn the_recreated_notice_fades_after_ten_seconds_of_ticks() {
    let mut s = applied(vec![container("app", ContainerKind::Main)]);
    let posted = s.now;
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod(
            "uid-2",
            vec![container("app", ContainerKind::Main)],
        ))),
    );
    assert_eq!(
        s.target.notice.as_deref(),
        Some("pod recreated (new UID uid-2)")
    );
    update(
        &mut s,
        Msg::Tick(posted + jiff::SignedDuration::from_secs(9)),
    );
    assert_eq!(
        s.target.notice.as_deref(),
        Some("pod recreated (new UID uid-2)")
    );
    s.dirty = false;
    update(
        &mut s,
        Msg::Tick(posted + jiff::SignedDuration::from_secs(10)),
    );
    assert_eq!(s.target.notice, None);
    assert!(s.dirty);
}
