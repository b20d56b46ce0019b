//! The watch's changes recorded in the target's history (`model::timeline::observe`): case 01's
//! crash-looping pod applied, then the same pod restarted and running, then re-created.

use crate::common::cases;
use podscope::app::{Msg, update};
use podscope::model::ContainerState;
use podscope::model::timeline::Kind;

#[test]
fn the_watchs_changes_go_into_the_history_of_the_pod_they_are_about() {
    let case = "01-crashloop-exit1-db";
    let mut s = cases::state(case, true);
    assert_eq!(
        s.target.history.entries().count(),
        0,
        "the first sight is not a change"
    );
    let started = s.now;
    let mut running = cases::pod(case);
    running.containers[0].state = ContainerState::Running {
        started_at: Some(started),
    };
    running.containers[0].restart_count += 1;
    update(&mut s, Msg::PodApplied(Box::new(running.clone())));
    let kinds: Vec<(Kind, Option<&str>, Option<&str>)> = s
        .target
        .history
        .entries()
        .map(|e| (e.kind, e.from.as_deref(), e.to.as_deref()))
        .collect();
    assert_eq!(
        kinds,
        [
            (Kind::State, Some("waiting"), Some("running")),
            (Kind::Restart, Some("2"), Some("3")),
        ]
    );
    // The same pod again changes nothing; a re-created pod (new UID) starts a history of its own.
    update(&mut s, Msg::PodApplied(Box::new(running.clone())));
    assert_eq!(s.target.history.entries().count(), 2);
    running.uid = "a-new-uid".into();
    update(&mut s, Msg::PodApplied(Box::new(running)));
    assert_eq!(s.target.history.entries().count(), 0);
}

/// `T` on case 01: the table of what its pod.json and events.json stamp, then a restart the
/// watch saw, unmarked, in its place.
#[test]
fn t_shows_the_timeline_with_what_was_reconstructed_marked() {
    use crate::common::{key, render, text};
    use crossterm::event::KeyCode;
    let case = "01-crashloop-exit1-db";
    let mut s = cases::state(case, true);
    update(&mut s, Msg::Resize(120, 40));
    update(&mut s, key(KeyCode::Char('T')));
    let screen = text(&render(&s, 120, 40));
    for want in [
        " timeline ",
        "09:40:06 ~ pod        Pending",
        "09:40:44 ~ db         running",
        "09:40:50 ~ db         running → terminated (Error, exit 1)",
        "09:40:50 ~ db         waiting (CrashLoopBackOff)",
        "09:40:58 ~ db         event BackOff (×3): Back-off restarting failed container db",
    ] {
        assert!(screen.contains(want), "{want:?} not in\n{screen}");
    }
    let mut running = cases::pod(case);
    running.containers[0].state = ContainerState::Running {
        started_at: Some("2024-03-12T09:41:10Z".parse().expect("time")),
    };
    running.containers[0].restart_count = 3;
    update(&mut s, Msg::PodApplied(Box::new(running)));
    let screen = text(&render(&s, 120, 40));
    for want in [
        "09:41:10   db         waiting → running",
        "09:41:10   db         restart 2 → 3",
    ] {
        assert!(screen.contains(want), "{want:?} not in\n{screen}");
    }
}
