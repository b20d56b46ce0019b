//! The header's connection indicator and notices, rendered after scripted messages.

use crate::common;
use common::{cases, container, pod, render, state, t0, text};
use podscope::app::{Msg, update};
use podscope::model::ContainerKind;
use ratatui::style::Color;

fn first_row(s: &podscope::app::State) -> String {
    common::rows(&render(s, 120, 40))[0].clone()
}

#[test]
fn connecting_then_not_found_then_live() {
    let mut s = state();
    assert!(first_row(&s).contains("default/web  connecting…"));
    let cmds = update(&mut s, Msg::PodAbsent);
    // Not found: the namespace is asked about once, so a typo in -n can say so.
    assert_eq!(
        cmds,
        vec![podscope::app::Cmd::CheckNamespace {
            namespace: "default".to_owned()
        }]
    );
    assert!(update(&mut s, Msg::PodAbsent).is_empty(), "asked once");
    let screen = text(&render(&s, 80, 24));
    assert!(
        screen.contains("pod \"web\" not found in default: waiting for it to appear"),
        "{screen}"
    );
    update(
        &mut s,
        Msg::NamespaceChecked {
            namespace: "default".to_owned(),
            exists: Some(false),
        },
    );
    let screen = text(&render(&s, 80, 24));
    assert!(
        screen.contains("namespace \"default\" not found (kubectl get namespaces)"),
        "{screen}"
    );
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod(
            "uid-1",
            vec![container("app", ContainerKind::Main)],
        ))),
    );
    assert!(first_row(&s).contains("● live"));
}

#[test]
fn reconnecting_shows_the_reason_without_control_characters() {
    let mut s = state();
    update(
        &mut s,
        Msg::PodWatchFailed("watch pods \"web\": connection refused\u{1b}[2J".to_owned()),
    );
    let row = first_row(&s);
    assert!(
        row.contains("reconnecting: watch pods \"web\": connection refused"),
        "{row}"
    );
    assert!(!row.contains('\u{1b}'));
}

#[test]
fn deleted_and_recreated_are_announced() {
    let mut s = state();
    let p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::PodApplied(Box::new(p.clone())));
    update(&mut s, Msg::Tick(t0() + jiff::SignedDuration::from_secs(5)));
    update(&mut s, Msg::PodDeleted(Box::new(p)));
    update(
        &mut s,
        Msg::Tick(t0() + jiff::SignedDuration::from_secs(17)),
    );
    let row = first_row(&s);
    assert!(
        row.contains("pod deleted at 07:20:20Z (12s ago), last state kept"),
        "{row}"
    );
    assert!(
        text(&render(&s, 120, 40)).contains("STATUS Deleted (was Running)"),
        "gone, the last state kept"
    );
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod(
            "uid-2",
            vec![container("app", ContainerKind::Main)],
        ))),
    );
    let screen = text(&render(&s, 120, 40));
    assert!(screen.contains("● live"));
    assert!(screen.contains("pod recreated (new UID uid-2)"), "{screen}");
}

#[test]
fn warning_events_are_highlighted() {
    // Case 04's newest event is the BackOff Warning.
    let s = cases::state("04-crashloop-oomkilled-jvm", false);
    let backend = render(&s, 120, 40);
    let rows = common::rows(&backend);
    let y = rows
        .iter()
        .position(|r| r.starts_with("Warning"))
        .expect("a Warning row");
    let normal = rows
        .iter()
        .position(|r| r.starts_with("Normal"))
        .expect("a Normal row");
    let buf = backend.buffer();
    let y = u16::try_from(y).expect("row fits");
    let normal = u16::try_from(normal).expect("row fits");
    assert_eq!(buf[(0, y)].fg, Color::Magenta);
    assert_ne!(buf[(0, normal)].fg, Color::Magenta);
}

#[test]
fn a_deleted_pod_drops_its_termination_diagnosis() {
    let mut s = state();
    let mut p = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    p.node = Some("sim-node-1".to_owned());
    // `kubectl delete pod`: deletionTimestamp = now + the 30 s grace period.
    p.deletion_timestamp = Some(t0() + jiff::SignedDuration::from_secs(30));
    update(&mut s, Msg::PodApplied(Box::new(p.clone())));
    let screen = text(&render(&s, 120, 40));
    assert!(
        screen.contains("terminating: grace period ends in 30s (then SIGKILL)"),
        "{screen}"
    );
    update(&mut s, Msg::PodDeleted(Box::new(p)));
    for later in [5, 45] {
        update(
            &mut s,
            Msg::Tick(t0() + jiff::SignedDuration::from_secs(later)),
        );
        let screen = text(&render(&s, 120, 40));
        assert!(screen.contains("pod deleted at 07:20:15Z"), "{screen}");
        assert!(!screen.contains("grace period"), "{screen}");
        assert!(!screen.contains("has not confirmed"), "{screen}");
    }
}

/// A crash-looping pod deleted while attached: STATUS says it is gone (the last STATUS in
/// dim), and no restart countdown runs, since nothing will restart its containers.
#[test]
fn a_deleted_pods_status_and_countdown_stop() {
    let case = "04-crashloop-oomkilled-jvm";
    let mut s = cases::state(case, false);
    let now = s.now;
    update(&mut s, Msg::PodDeleted(Box::new(cases::pod(case))));
    let mut back_off_rows = Vec::new();
    for later in [0, 1, 65] {
        update(
            &mut s,
            Msg::Tick(now + jiff::SignedDuration::from_secs(later)),
        );
        let backend = render(&s, 120, 40);
        let screen = text(&backend);
        assert!(
            screen.contains("STATUS Deleted (was CrashLoopBackOff)"),
            "{screen}"
        );
        assert!(!screen.contains("restart in"), "{screen}");
        assert!(!screen.contains("overdue"), "{screen}");
        let row = common::rows(&backend)
            .into_iter()
            .find(|r| r.starts_with("Back-off"))
            .expect("the back-off row");
        assert!(
            row.contains("no restart: pod deleted (back-off 2m40s)") && !row.contains('━'),
            "{row}"
        );
        back_off_rows.push(row);
    }
    assert!(back_off_rows.windows(2).all(|w| w[0] == w[1]));
    let backend = render(&s, 80, 24);
    assert!(text(&backend).contains("no restart: deleted"));
    insta::assert_snapshot!("deleted-crashloop@80x24", backend);
}
