//! `update` scripts for `p` (the previous instance) and back: the current view keeps what was
//! read (earlier instances and their restart markers), and the title says which instance each
//! view reads — the same one in a CrashLoopBackOff.

use crate::common;
use std::time::Duration;

use common::log_pane::{at, lines_msg, opened, raw, stream_ended};
use common::{container, key, log_texts as texts, pod, render, rows};
use crossterm::event::KeyCode;
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::{
    Backoff, BackoffSource, ContainerKind, ContainerState, LineKind, PodSummary, Terminated,
};

/// `default/web` with proxy and app, app in `state` with restartCount `rc` and `lastState`
/// `last` (in a back-off of 40s while waiting).
fn app_with(state: ContainerState, rc: i32, last: Option<Terminated>) -> Box<PodSummary> {
    let mut app = container("app", ContainerKind::Main);
    app.backoff = matches!(state, ContainerState::Waiting { .. }).then(|| Backoff {
        delay: Duration::from_secs(40),
        next_restart_at: None,
        source: BackoffSource::Message,
    });
    app.state = state;
    app.restart_count = rc;
    app.last_state = last;
    Box::new(pod(
        "uid-1",
        vec![container("proxy", ContainerKind::Sidecar), app],
    ))
}

fn back_off() -> ContainerState {
    ContainerState::Waiting {
        reason: "CrashLoopBackOff".to_owned(),
        message: None,
    }
}

fn running(s: i64) -> ContainerState {
    ContainerState::Running {
        started_at: Some(at(s)),
    }
}

fn exit(code: i32, started: i64, finished: i64) -> Terminated {
    Terminated {
        reason: "Error".to_owned(),
        exit_code: code,
        started_at: Some(at(started)),
        finished_at: Some(at(finished)),
        container_id: "containerd://1".to_owned(),
        ..Terminated::default()
    }
}

/// The pane's title row at 80 columns.
fn title(s: &State) -> String {
    rows(&render(s, 80, 24))
        .into_iter()
        .find(|r| r.contains(" logs app "))
        .expect("the log pane's title row")
}

const MARKER: &str = "── restarted: Error, exit 1 after 45s, back-off 40s ──";

/// [`opened`], then instance 1 read, its exit, its tail and instance 2's first line: stream 3
/// follows instance 2 (restart 1) from the line at 46s.
fn two_instances() -> State {
    let mut s = opened();
    update(
        &mut s,
        lines_msg(1, vec![raw("app", 1, "start"), raw("app", 2, "a")]),
    );
    update(&mut s, stream_ended(1));
    let dead = exit(1, -40, 5);
    update(
        &mut s,
        Msg::PodApplied(app_with(back_off(), 0, Some(dead.clone()))),
    );
    update(&mut s, lines_msg(2, vec![raw("app", 4, "dying")]));
    update(&mut s, stream_ended(2));
    update(
        &mut s,
        Msg::PodApplied(app_with(running(45), 1, Some(dead))),
    );
    update(&mut s, lines_msg(3, vec![raw("app", 46, "start again")]));
    assert_eq!(texts(&s), ["start", "a", "dying", MARKER, "start again"]);
    s
}

#[test]
fn p_twice_shows_the_same_lines_and_markers_as_before() {
    let mut s = two_instances();
    let cmds = update(&mut s, key(KeyCode::Char('p')));
    assert_eq!(
        cmds,
        vec![
            Cmd::StopLogs { stream: 3 },
            Cmd::FollowLogs {
                stream: 4,
                container: "app".to_owned(),
                previous: true,
                since: None,
                tail_lines: Some(100_000),
            }
        ]
    );
    update(
        &mut s,
        lines_msg(
            4,
            vec![
                raw("app", 1, "start"),
                raw("app", 2, "a"),
                raw("app", 4, "dying"),
            ],
        ),
    );
    assert_eq!(texts(&s), ["start", "a", "dying"]);
    // Back to current: the view as it was, its stream resumed where it stopped.
    let cmds = update(&mut s, key(KeyCode::Char('p')));
    assert_eq!(
        cmds,
        vec![
            Cmd::StopLogs { stream: 4 },
            Cmd::FollowLogs {
                stream: 5,
                container: "app".to_owned(),
                previous: false,
                since: Some(at(46)),
                tail_lines: None,
            }
        ]
    );
    assert_eq!(texts(&s), ["start", "a", "dying", MARKER, "start again"]);
    assert_eq!(
        s.target.logs.view_line(3).expect("marker").1.kind,
        LineKind::Marker
    );
    // Late lines of the stopped streams are stale; the resumed one drops what was read.
    update(&mut s, lines_msg(3, vec![raw("app", 47, "late")]));
    update(&mut s, lines_msg(4, vec![raw("app", 5, "late")]));
    update(
        &mut s,
        lines_msg(
            5,
            vec![raw("app", 46, "start again"), raw("app", 50, "serving")],
        ),
    );
    assert_eq!(
        texts(&s),
        ["start", "a", "dying", MARKER, "start again", "serving"]
    );
}

/// While the previous instance was shown the container restarted again: back on current, the
/// rest of instance 2 is read, then its marker and instance 3 follow, as a pod update would.
#[test]
fn back_on_current_the_instances_that_ran_meanwhile_are_read() {
    let mut s = two_instances();
    update(&mut s, key(KeyCode::Char('p')));
    let second = exit(1, 45, 60);
    update(
        &mut s,
        Msg::PodApplied(app_with(running(61), 2, Some(second))),
    );
    let cmds = update(&mut s, key(KeyCode::Char('p')));
    assert_eq!(
        cmds,
        vec![
            Cmd::StopLogs { stream: 4 },
            Cmd::FollowLogs {
                stream: 5,
                container: "app".to_owned(),
                previous: true,
                since: Some(at(46)),
                tail_lines: None,
            }
        ]
    );
    update(&mut s, lines_msg(5, vec![raw("app", 59, "dying again")]));
    update(&mut s, stream_ended(5));
    assert_eq!(
        texts(&s),
        [
            "start",
            "a",
            "dying",
            MARKER,
            "start again",
            "dying again",
            "── restarted: Error, exit 1 after 15s ──"
        ]
    );
}

#[test]
fn in_a_crash_loop_the_titles_say_current_and_previous_are_one_instance() {
    let mut s = opened();
    // Instance 4 (restart 3) logged its fatal line and exited 12 s before now (`at(75)`).
    let pod = app_with(back_off(), 3, Some(exit(1, 63, 63)));
    update(&mut s, Msg::PodApplied(pod));
    let t = title(&s);
    assert!(
        t.contains("▶ logs app · current: instance 4 (restart 3), exited 1 12s ago · waiting "),
        "{t}"
    );
    assert!(!t.contains("following"), "{t}");
    update(&mut s, key(KeyCode::Char('p')));
    let t = title(&s);
    assert!(
        t.contains("▶ logs app · previous: instance 4 (same as current), ran 0s, exit 1 "),
        "{t}"
    );
    assert!(!t.contains("following"), "{t}");
    // Instance 5 runs: the previous view reads instance 4 now.
    update(
        &mut s,
        Msg::PodApplied(app_with(running(70), 4, Some(exit(1, 63, 63)))),
    );
    let t = title(&s);
    assert!(
        t.contains("▶ logs app · previous: instance 4, ran 0s, exit 1 "),
        "{t}"
    );
    update(&mut s, key(KeyCode::Char('p')));
    let t = title(&s);
    assert!(
        t.contains("▶ logs app · current: instance 5 (restart 4), running 5s · following "),
        "{t}"
    );
}
