//! `update` scripts of what the workload view says when it moves: to a pod in more trouble
//! than the shown one (a rollout going bad, never after a move by hand, never back and forth),
//! a StatefulSet's pod re-created under its own name, a pod that only stopped matching the
//! selector, a pod of another ReplicaSet (not a "replacement"), and the workload itself deleted
//! or scaled to 0.

use crate::common;
use crate::workload_tui_support;
use common::{key, log_texts, render, rows};
use crossterm::event::KeyCode;
use k8s_openapi::api::core::v1::Pod;
use podscope::app::generation::Generation;
use podscope::app::workload::{FollowMode, WorkloadView, begin};
use podscope::app::{Cmd, Config, Msg, State, update};
use podscope::model::workload::{WorkloadKind, WorkloadPod, WorkloadRef, WorkloadSummary};
use podscope::ui::theme::Theme;
use workload_tui_support::{
    Health, NEW_HASH, STAMP, api_pod, deleted, deployment, from, from_workload, started,
    summary_of, t0, wpod,
};

fn follow(name: &str, generation: u64) -> Cmd {
    Cmd::FollowPod {
        namespace: "default".into(),
        name: name.into(),
        generation: Generation(generation),
    }
}

fn applied(pod: WorkloadPod) -> Msg {
    from_workload(Msg::WorkloadPodApplied(Box::new(pod)))
}

/// Three healthy pods of 7d9f8c6b5, the newest (`ccccc`) shown.
fn serving() -> State {
    let (mut s, _) = started(
        Some(deployment(&[("7d9f8c6b5", 3, 3, true)])),
        vec![
            wpod("7d9f8c6b5", "aaaaa", 900, Health::Ready),
            wpod("7d9f8c6b5", "bbbbb", 800, Health::Ready),
            wpod("7d9f8c6b5", "ccccc", 700, Health::Ready),
        ],
    );
    assert_eq!(s.target.name, "web-7d9f8c6b5-ccccc");
    update(
        &mut s,
        from(1, summary_of("7d9f8c6b5", "ccccc", 700, Health::Ready)),
    );
    s
}

#[test]
fn a_bad_rollout_moves_to_the_crash_looping_new_pod_once() {
    let mut s = serving();
    // `kubectl set image`: the new ReplicaSet's pod starts, then crash-loops.
    update(
        &mut s,
        from_workload(Msg::WorkloadApplied(Box::new(deployment(&[
            (NEW_HASH, 1, 0, true),
            ("7d9f8c6b5", 3, 3, false),
        ])))),
    );
    let cmds = update(
        &mut s,
        applied(wpod(NEW_HASH, "nnnnn", 5, Health::Creating)),
    );
    assert!(
        cmds.is_empty(),
        "a pod being created is no trouble: {cmds:?}"
    );
    assert_eq!(s.target.name, "web-7d9f8c6b5-ccccc");
    let cmds = update(&mut s, applied(wpod(NEW_HASH, "nnnnn", 5, Health::Crash)));
    assert_eq!(cmds, [follow("web-6c8f9d4b7-nnnnn", 3)]);
    assert_eq!(
        log_texts(&s),
        [
            "── web-6c8f9d4b7-nnnnn (ReplicaSet web-6c8f9d4b7, new) is in CrashLoopBackOff; \
          showing it instead of web-7d9f8c6b5-ccccc ──"
        ]
    );
    assert_eq!(
        s.target.notice.as_deref(),
        Some(
            "web-6c8f9d4b7-nnnnn is in CrashLoopBackOff; showing it instead of web-7d9f8c6b5-ccccc"
        )
    );
    // Another pod in the same trouble: no move (only strictly more trouble moves).
    let cmds = update(&mut s, applied(wpod(NEW_HASH, "mmmmm", 2, Health::Crash)));
    assert!(cmds.is_empty(), "{cmds:?}");
    assert_eq!(s.target.name, "web-6c8f9d4b7-nnnnn");
}

#[test]
fn a_pod_chosen_by_hand_is_kept_when_another_gets_worse() {
    let mut s = serving();
    assert_eq!(
        update(&mut s, key(KeyCode::Char(']'))),
        [follow("web-7d9f8c6b5-bbbbb", 3)]
    );
    let cmds = update(
        &mut s,
        applied(wpod("7d9f8c6b5", "aaaaa", 900, Health::Crash)),
    );
    assert!(cmds.is_empty(), "{cmds:?}");
    assert_eq!(s.target.name, "web-7d9f8c6b5-bbbbb");
}

#[test]
fn a_pod_being_deleted_is_never_moved_to() {
    let mut s = serving();
    let mut going = wpod("7d9f8c6b5", "aaaaa", 900, Health::Crash);
    going.pod.deletion_timestamp = Some(t0());
    assert!(update(&mut s, applied(going)).is_empty());
    // `]` skips it too: ccccc, bbbbb, (aaaaa deleting) → ccccc wraps to bbbbb.
    update(&mut s, key(KeyCode::Char(']')));
    update(&mut s, key(KeyCode::Char(']')));
    assert_ne!(s.target.name, "web-7d9f8c6b5-aaaaa");
}

#[test]
fn a_pod_that_no_longer_matches_is_not_called_deleted() {
    let mut s = serving();
    // `kubectl label pod web-7d9f8c6b5-ccccc app=debug --overwrite`: the watch says DELETED
    // without a deletionTimestamp; the pod's own watch still sees it.
    let cmds = update(
        &mut s,
        from_workload(Msg::WorkloadPodDeleted("web-7d9f8c6b5-ccccc".into())),
    );
    assert_eq!(cmds, [follow("web-7d9f8c6b5-bbbbb", 3)]);
    assert_eq!(
        log_texts(&s),
        [
            "── pod web-7d9f8c6b5-ccccc no longer matches app=web; showing web-7d9f8c6b5-bbbbb \
          (ReplicaSet web-7d9f8c6b5) ──"
        ]
    );
}

#[test]
fn a_pod_of_another_replica_set_is_shown_not_called_a_replacement() {
    let (mut s, _) = started(
        Some(deployment(&[("7d9f8c6b5", 1, 1, true)])),
        vec![
            wpod("76c864f589", "tvjsb", 60, Health::Ready),
            wpod("5b9c4d7766", "dvtgh", 900, Health::Ready),
        ],
    );
    assert_eq!(s.target.name, "web-76c864f589-tvjsb");
    update(
        &mut s,
        from(1, summary_of("76c864f589", "tvjsb", 60, Health::Ready)),
    );
    let cmds = update(
        &mut s,
        from(1, deleted("76c864f589", "tvjsb", 60, Health::Ready)),
    );
    assert_eq!(cmds, [follow("web-5b9c4d7766-dvtgh", 3)]);
    assert_eq!(
        log_texts(&s),
        [
            "── pod web-76c864f589-tvjsb deleted; showing web-5b9c4d7766-dvtgh \
          (ReplicaSet web-5b9c4d7766) ──"
        ]
    );
}

/// Pod `db-N` of StatefulSet `db` (labels `app=db`, `controller-revision-hash=db-5d8f`).
fn sts_pod(ordinal: u32, health: Health) -> Pod {
    let mut pod = api_pod("x", "x", 600, health);
    let name = format!("db-{ordinal}");
    pod.metadata.name = Some(name.clone());
    pod.metadata.uid = Some(format!("uid-{name}"));
    pod.metadata.labels = Some(
        [
            ("app".to_owned(), "db".to_owned()),
            ("controller-revision-hash".to_owned(), "db-5d8f".to_owned()),
            ("statefulset.kubernetes.io/pod-name".to_owned(), name),
        ]
        .into(),
    );
    if let Some(o) = pod
        .metadata
        .owner_references
        .as_mut()
        .and_then(|o| o.first_mut())
    {
        o.kind = "StatefulSet".into();
        o.name = "db".into();
        o.uid = "uid-sts-db".into();
    }
    pod
}

#[test]
fn a_stateful_set_pod_is_waited_for_under_its_own_name() {
    let config = Config {
        log_lines: 500,
        ..Config::new(Theme::monochrome())
    };
    let mut s = State::with_config(config, "default", "", t0());
    let stamp = s.generations.allocate();
    let mut view = WorkloadView::new(
        stamp,
        "default",
        Some(WorkloadRef {
            kind: WorkloadKind::StatefulSet,
            name: "db".into(),
        }),
        "app=db",
        FollowMode::Auto,
    );
    view.summary = Some(WorkloadSummary {
        kind: WorkloadKind::StatefulSet,
        name: "db".into(),
        selector: "app=db".into(),
        replicas: Some(3),
        ..deployment(&[])
    });
    let pods = (0..3)
        .map(|i| {
            let h = if i == 2 { Health::Crash } else { Health::Ready };
            WorkloadPod::from_pod(&sts_pod(i, h))
        })
        .collect();
    begin(&mut s, view, pods);
    assert_eq!(s.target.name, "db-2");
    let mut gone = sts_pod(2, Health::Crash);
    update(
        &mut s,
        from(
            1,
            Msg::PodApplied(Box::new(podscope::model::PodSummary::from_pod(&gone))),
        ),
    );
    // `kubectl delete pod db-2`.
    gone.metadata.deletion_timestamp =
        Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(t0()));
    update(
        &mut s,
        Msg::ForWorkload(
            STAMP,
            Box::new(Msg::WorkloadPodApplied(Box::new(WorkloadPod::from_pod(
                &gone,
            )))),
        ),
    );
    let mut cmds = update(
        &mut s,
        from(
            1,
            Msg::PodDeleted(Box::new(podscope::model::PodSummary::from_pod(&gone))),
        ),
    );
    cmds.extend(update(
        &mut s,
        from_workload(Msg::WorkloadPodDeleted("db-2".into())),
    ));
    assert!(cmds.is_empty(), "no move to a sibling: {cmds:?}");
    assert_eq!(s.target.name, "db-2");
    assert_eq!(
        s.target.notice.as_deref(),
        Some("pod db-2 deleted; the StatefulSet re-creates it under the same name")
    );
    assert_eq!(
        log_texts(&s),
        ["── pod db-2 deleted; the StatefulSet re-creates it under the same name ──"]
    );
}

#[test]
fn a_deleted_or_scaled_down_workload_says_so() {
    let mut s = serving();
    // `kubectl scale deploy/web --replicas=0`.
    let mut zero = deployment(&[("7d9f8c6b5", 0, 0, true)]);
    zero.replicas = Some(0);
    update(&mut s, from_workload(Msg::WorkloadApplied(Box::new(zero))));
    let screen = rows(&render(&s, 80, 24));
    assert!(
        screen[0].starts_with("deploy/web  0/0 ready"),
        "{}",
        screen.join("\n")
    );
    assert_eq!(screen[1].trim(), "scaled to 0 replicas (spec.replicas: 0)");
    // `kubectl delete deploy web`.
    update(&mut s, from_workload(Msg::WorkloadDeleted));
    let screen = rows(&render(&s, 80, 24));
    assert_eq!(
        screen[0].trim(),
        "deploy/web deleted",
        "{}",
        screen.join("\n")
    );
    assert!(!screen.join("\n").contains("scaled to 0"));
}

#[test]
fn no_pod_yet_offers_no_pod_keys() {
    let (s, _) = started(Some(deployment(&[("7d9f8c6b5", 0, 0, true)])), Vec::new());
    let screen = rows(&render(&s, 80, 24));
    let all = screen.join("\n");
    assert!(all.contains("  no pod to show"), "{all}");
    assert!(!all.contains("connecting to the API server"), "{all}");
    let footer = screen.last().map(|r| r.trim()).unwrap_or_default();
    assert!(
        !footer.contains("logs") && !footer.contains("shell"),
        "{footer}"
    );
    assert!(
        footer.contains("help") && footer.contains("quit"),
        "{footer}"
    );
}
