//! `update` scripts of a followed workload (`podscope deploy/web`): the pod shown is chosen at
//! start; when it is deleted podscope follows its replacement under a new generation, keeping the
//! port-forwards, the selected container and the log pane's settings, with a marker line; a
//! rollout undo moves to a healthy pod of the old ReplicaSet; `[`/`]` and `P` move to siblings;
//! messages of a former pod or a former workload are dropped.

use crate::common;
use crate::workload_tui_support;
use common::{key, log_texts};
use crossterm::event::KeyCode;
use podscope::app::generation::Generation;
use podscope::app::msg::ForwardMsg;
use podscope::app::state::Connection;
use podscope::app::{Cmd, Msg, update};
use podscope::model::forward_status::ForwardStatus;
use workload_tui_support::{
    Health, STAMP, deleted, deployment, from, from_workload, started, summary_of, wpod,
};

fn follow(name: &str, generation: u64) -> Cmd {
    Cmd::FollowPod {
        namespace: "default".into(),
        name: name.into(),
        generation: Generation(generation),
    }
}

#[test]
fn start_shows_the_pod_in_most_trouble_and_watches_the_workload() {
    let (s, cmds) = started(
        Some(deployment(&[("7d9f8c6b5", 3, 2, true)])),
        vec![
            wpod("7d9f8c6b5", "aaaaa", 300, Health::Ready),
            wpod("7d9f8c6b5", "bbbbb", 200, Health::Crash),
            wpod("7d9f8c6b5", "ccccc", 100, Health::Ready),
        ],
    );
    assert_eq!(s.target.name, "web-7d9f8c6b5-bbbbb");
    assert_eq!(s.target.generation, Generation::FIRST);
    assert_eq!(
        cmds,
        vec![Cmd::WatchWorkload {
            stamp: STAMP,
            namespace: "default".into(),
            workload: s.workload.as_ref().and_then(|w| w.named.clone()),
            selector: "app=web".into(),
        }]
    );
    let names: Vec<&str> = s
        .workload
        .as_ref()
        .map(|w| w.pods.iter().map(|p| p.pod.name.as_str()).collect())
        .unwrap_or_default();
    // Most trouble first, then the newest.
    assert_eq!(
        names,
        [
            "web-7d9f8c6b5-bbbbb",
            "web-7d9f8c6b5-ccccc",
            "web-7d9f8c6b5-aaaaa"
        ]
    );
}

#[test]
fn a_deleted_pod_is_followed_by_its_replacement_keeping_forwards_container_and_pane() {
    let old = ("7d9f8c6b5", "x2k9q");
    let (mut s, _) = started(None, vec![wpod(old.0, old.1, 600, Health::Ready)]);
    update(
        &mut s,
        from(1, summary_of(old.0, old.1, 600, Health::Ready)),
    );
    // The person selects `hello`, opens the log pane and forwards 8080.
    update(&mut s, key(KeyCode::Char('j')));
    update(&mut s, key(KeyCode::Char('l')));
    update(&mut s, key(KeyCode::Char('t')));
    let spec = "8080:8080".parse().expect("spec");
    let add = podscope::app::forwards::add(&mut s, spec);
    assert!(matches!(add.as_slice(), [Cmd::AddForward { id: 0, .. }]));
    // The ReplicaSet makes the replacement as soon as the old pod is terminating.
    update(
        &mut s,
        from_workload(Msg::WorkloadPodApplied(Box::new(wpod(
            old.0,
            "q8m4t",
            1,
            Health::Creating,
        )))),
    );
    assert_eq!(
        s.target.name, "web-7d9f8c6b5-x2k9q",
        "nothing moves before DELETED"
    );
    let cmds = update(&mut s, from(1, deleted(old.0, old.1, 600, Health::Ready)));
    assert!(cmds.contains(&follow("web-7d9f8c6b5-q8m4t", 3)), "{cmds:?}");
    assert_eq!(s.target.name, "web-7d9f8c6b5-q8m4t");
    assert_eq!(s.target.generation, Generation(3));
    assert_eq!(s.target.connection, Connection::Connecting);
    assert_eq!(s.target.forwards.entries.len(), 1, "the forward is kept");
    assert_eq!(s.target.forwards.entries[0].id, 0);
    assert!(
        s.target.logs.shown && s.target.logs.timestamps,
        "pane settings kept"
    );
    let marker = "── pod web-7d9f8c6b5-x2k9q deleted; following its replacement \
                  web-7d9f8c6b5-q8m4t (ReplicaSet web-7d9f8c6b5) ──";
    assert_eq!(log_texts(&s), [marker]);
    assert_eq!(
        s.target.notice.as_deref(),
        Some("pod web-7d9f8c6b5-x2k9q deleted; following its replacement web-7d9f8c6b5-q8m4t")
    );
    // The replacement's watch answers: `hello` stays selected, its log is read, the marker stays.
    let cmds = update(
        &mut s,
        from(3, summary_of(old.0, "q8m4t", 1, Health::Creating)),
    );
    assert_eq!(
        s.selected_container().map(|c| c.name.as_str()),
        Some("hello")
    );
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Cmd::FollowLogs { container, .. } if container == "hello")),
        "{cmds:?}"
    );
    assert_eq!(log_texts(&s), [marker]);
    // The forward's relay re-stamps its status for the new generation; the old stamp is dropped.
    let status = ForwardStatus::new("8080:8080".parse().expect("spec"));
    let stale = Msg::Forward(ForwardMsg::Status {
        id: 0,
        status: status.clone(),
    });
    update(&mut s, from(1, stale));
    assert!(s.target.forwards.entries[0].status.is_none());
    update(
        &mut s,
        from(3, Msg::Forward(ForwardMsg::Status { id: 0, status })),
    );
    assert!(s.target.forwards.entries[0].status.is_some());
}

#[test]
fn the_workload_watch_seeing_the_deletion_first_moves_as_well() {
    let (mut s, _) = started(None, vec![wpod("7d9f8c6b5", "x2k9q", 600, Health::Ready)]);
    update(
        &mut s,
        from(1, summary_of("7d9f8c6b5", "x2k9q", 600, Health::Ready)),
    );
    update(
        &mut s,
        from_workload(Msg::WorkloadPodApplied(Box::new(wpod(
            "7d9f8c6b5",
            "q8m4t",
            1,
            Health::Creating,
        )))),
    );
    let cmds = update(
        &mut s,
        from_workload(Msg::WorkloadPodDeleted("web-7d9f8c6b5-x2k9q".into())),
    );
    assert_eq!(cmds, [follow("web-7d9f8c6b5-q8m4t", 3)]);
    // The pod watch's own DELETED, still queued for generation 1, changes nothing more.
    let cmds = update(
        &mut s,
        from(1, deleted("7d9f8c6b5", "x2k9q", 600, Health::Ready)),
    );
    assert!(cmds.is_empty());
    assert_eq!(s.target.name, "web-7d9f8c6b5-q8m4t");
}

#[test]
fn rollout_undo_moves_to_a_healthy_pod_of_the_old_replica_set() {
    // A rollout to 6c8f9d4b7 whose pod crash-loops; two pods of 7d9f8c6b5 still serve.
    let rollout = deployment(&[("6c8f9d4b7", 1, 0, true), ("7d9f8c6b5", 2, 2, false)]);
    let (mut s, _) = started(
        Some(rollout),
        vec![
            wpod("7d9f8c6b5", "aaaaa", 900, Health::Ready),
            wpod("7d9f8c6b5", "bbbbb", 800, Health::Ready),
            wpod("6c8f9d4b7", "nnnnn", 60, Health::Crash),
        ],
    );
    assert_eq!(s.target.name, "web-6c8f9d4b7-nnnnn");
    update(
        &mut s,
        from(1, summary_of("6c8f9d4b7", "nnnnn", 60, Health::Crash)),
    );
    // `kubectl rollout undo`: 7d9f8c6b5 is the new ReplicaSet again, 6c8f9d4b7 scaled to 0.
    update(
        &mut s,
        from_workload(Msg::WorkloadApplied(Box::new(deployment(&[
            ("7d9f8c6b5", 2, 2, true),
            ("6c8f9d4b7", 0, 0, false),
        ])))),
    );
    // The pod watch's DELETED: the last state (with its deletionTimestamp), then the name.
    let mut going = wpod("6c8f9d4b7", "nnnnn", 60, Health::Crash);
    going.pod.deletion_timestamp = Some(workload_tui_support::t0());
    assert!(
        update(
            &mut s,
            from_workload(Msg::WorkloadPodApplied(Box::new(going)))
        )
        .is_empty()
    );
    let cmds = update(
        &mut s,
        from_workload(Msg::WorkloadPodDeleted("web-6c8f9d4b7-nnnnn".into())),
    );
    // The newest healthy pod of the old ReplicaSet: shown, not called a replacement.
    assert_eq!(cmds, [follow("web-7d9f8c6b5-bbbbb", 3)]);
    assert_eq!(
        s.target.logs.carried.first().map(|l| l.text.as_str()),
        Some(
            "── pod web-6c8f9d4b7-nnnnn deleted; showing web-7d9f8c6b5-bbbbb \
             (ReplicaSet web-7d9f8c6b5) ──"
        )
    );
}

#[test]
fn brackets_move_to_siblings_in_the_choice_order_and_p_lists_them() {
    let (mut s, _) = started(
        None,
        vec![
            wpod("7d9f8c6b5", "aaaaa", 300, Health::Ready),
            wpod("7d9f8c6b5", "bbbbb", 200, Health::Crash),
            wpod("7d9f8c6b5", "ccccc", 100, Health::Ready),
        ],
    );
    assert_eq!(s.target.name, "web-7d9f8c6b5-bbbbb");
    let cmds = update(&mut s, key(KeyCode::Char(']')));
    assert_eq!(cmds, [follow("web-7d9f8c6b5-ccccc", 3)]);
    assert!(s.workload.as_ref().is_some_and(|w| w.by_hand));
    assert!(log_texts(&s).is_empty(), "no marker for a move by hand");
    assert_eq!(
        update(&mut s, key(KeyCode::Char(']'))),
        [follow("web-7d9f8c6b5-aaaaa", 4)]
    );
    // Wraps around.
    assert_eq!(
        update(&mut s, key(KeyCode::Char(']'))),
        [follow("web-7d9f8c6b5-bbbbb", 5)]
    );
    assert_eq!(
        update(&mut s, key(KeyCode::Char('['))),
        [follow("web-7d9f8c6b5-aaaaa", 6)]
    );
    // `P`: the workload's pods, nothing asked, the shown one highlighted.
    assert!(update(&mut s, key(KeyCode::Char('P'))).is_empty());
    let sw = s.overlay.switcher().expect("switcher open");
    assert!(!sw.picker.loading);
    assert!(matches!(sw.rows, podscope::app::switcher::Rows::Given));
    let rows: Vec<(&str, String)> = sw
        .picker
        .rows
        .iter()
        .map(|r| (r.name.as_str(), r.print.status.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            ("web-7d9f8c6b5-bbbbb", "CrashLoopBackOff".to_owned()),
            ("web-7d9f8c6b5-ccccc", "Running".to_owned()),
            ("web-7d9f8c6b5-aaaaa", "Running".to_owned()),
        ]
    );
    assert_eq!(
        sw.picker.selected_row().map(|r| r.name.as_str()),
        Some("web-7d9f8c6b5-aaaaa")
    );
    update(&mut s, key(KeyCode::Up));
    let cmds = update(&mut s, key(KeyCode::Enter));
    assert_eq!(cmds, [follow("web-7d9f8c6b5-ccccc", 7)]);
    assert!(s.overlay.switcher().is_none());
}

#[test]
fn stale_messages_of_a_former_pod_or_workload_are_dropped() {
    let (mut s, _) = started(
        None,
        vec![
            wpod("7d9f8c6b5", "aaaaa", 300, Health::Ready),
            wpod("7d9f8c6b5", "bbbbb", 200, Health::Ready),
        ],
    );
    assert_eq!(s.target.name, "web-7d9f8c6b5-bbbbb");
    update(&mut s, key(KeyCode::Char(']')));
    assert_eq!(s.target.generation, Generation(3));
    // The former pod's watch: dropped.
    let cmds = update(
        &mut s,
        from(1, deleted("7d9f8c6b5", "bbbbb", 200, Health::Ready)),
    );
    assert!(cmds.is_empty());
    assert_eq!(s.target.connection, Connection::Connecting);
    // A former workload's watch (another stamp): dropped.
    let before = s.workload.clone();
    update(
        &mut s,
        Msg::ForWorkload(
            Generation(99),
            Box::new(Msg::WorkloadPodDeleted("web-7d9f8c6b5-aaaaa".into())),
        ),
    );
    assert_eq!(s.workload, before);
    // The current one's: applied.
    update(
        &mut s,
        from_workload(Msg::WorkloadPodDeleted("web-7d9f8c6b5-bbbbb".into())),
    );
    assert_eq!(s.workload.as_ref().map(|w| w.pods.len()), Some(1));
}

#[test]
fn no_pod_yet_waits_and_the_first_sighting_is_shown() {
    let (mut s, _) = started(Some(deployment(&[("7d9f8c6b5", 0, 0, true)])), Vec::new());
    assert_eq!(s.target.name, "");
    assert!(update(&mut s, from_workload(Msg::WorkloadPodsListed(Vec::new()))).is_empty());
    let cmds = update(
        &mut s,
        from_workload(Msg::WorkloadPodApplied(Box::new(wpod(
            "7d9f8c6b5",
            "q8m4t",
            0,
            Health::Creating,
        )))),
    );
    assert_eq!(cmds, [follow("web-7d9f8c6b5-q8m4t", 3)]);
    assert_eq!(
        s.target.notice.as_deref(),
        Some("pod web-7d9f8c6b5-q8m4t matches the selector")
    );
    assert!(s.target.logs.carried.is_empty());
}

#[test]
fn watch_failures_are_kept_once_each_and_newest_last() {
    let (mut s, _) = started(None, vec![wpod("7d9f8c6b5", "aaaaa", 300, Health::Ready)]);
    let refused = "replicasets.apps is forbidden: User \"dev\" cannot watch resource \
                   \"replicasets\" in API group \"apps\" in the namespace \"default\"";
    for _ in 0..2 {
        update(
            &mut s,
            from_workload(Msg::WorkloadWatchFailed(refused.into())),
        );
    }
    assert_eq!(
        s.workload.as_ref().map(|w| w.errors.clone()),
        Some(vec![refused.to_owned()])
    );
}

#[test]
fn a_pod_chosen_by_hand_is_replaced_from_its_own_replica_set() {
    let rollout = deployment(&[("6c8f9d4b7", 1, 0, true), ("7d9f8c6b5", 2, 2, false)]);
    let (mut s, _) = started(
        Some(rollout),
        vec![
            wpod("7d9f8c6b5", "aaaaa", 900, Health::Ready),
            wpod("7d9f8c6b5", "bbbbb", 800, Health::Ready),
            wpod("6c8f9d4b7", "nnnnn", 60, Health::Crash),
        ],
    );
    assert_eq!(s.target.name, "web-6c8f9d4b7-nnnnn");
    // The person looks at a serving pod of the old ReplicaSet instead.
    assert_eq!(
        update(&mut s, key(KeyCode::Char(']'))),
        [follow("web-7d9f8c6b5-bbbbb", 3)]
    );
    update(
        &mut s,
        from_workload(Msg::WorkloadPodApplied(Box::new(wpod(
            "7d9f8c6b5",
            "rrrrr",
            1,
            Health::Creating,
        )))),
    );
    let cmds = update(
        &mut s,
        from_workload(Msg::WorkloadPodDeleted("web-7d9f8c6b5-bbbbb".into())),
    );
    // Its ReplicaSet's replacement, not the crash-looping pod of the new one.
    assert_eq!(cmds, [follow("web-7d9f8c6b5-rrrrr", 4)]);
    assert!(s.workload.as_ref().is_some_and(|w| w.by_hand));
}
