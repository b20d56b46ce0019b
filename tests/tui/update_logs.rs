//! `update` scripts for the log pane's streams: lines of the current stream, stale ids,
//! previous, following across a restart (tail fetch, marker, resume), the server's reason for a
//! log it cannot serve, and the bounded buffer's eviction.

use crate::common;
use std::time::Duration;

use common::log_pane::{at, lines_msg, opened, raw, stream_ended};
use common::{container, key, log_texts as texts, pod, render, text};
use crossterm::event::KeyCode;
use podscope::app::logs::LogPane;
use podscope::app::{Cmd, Msg, update};
use podscope::model::{
    Backoff, BackoffSource, ContainerKind, ContainerState, LineKind, PodSummary, Terminated,
};

#[test]
fn lines_of_the_current_stream_are_appended_and_mark_dirty_once() {
    let mut s = opened();
    let cmds = update(
        &mut s,
        lines_msg(1, vec![raw("app", 1, "one"), raw("app", 2, "two")]),
    );
    assert!(cmds.is_empty());
    assert!(s.dirty);
    assert_eq!(texts(&s), ["one", "two"]);
    let screen = text(&render(&s, 80, 24));
    assert!(
        screen.contains("logs app · current: instance 1, running · following"),
        "{screen}"
    );
    assert!(screen.contains("one") && screen.contains("two"), "{screen}");
}

#[test]
fn a_stale_stream_changes_nothing() {
    let mut s = opened();
    let cmds = update(&mut s, key(KeyCode::Char('p')));
    assert_eq!(
        cmds,
        vec![
            Cmd::StopLogs { stream: 1 },
            Cmd::FollowLogs {
                stream: 2,
                container: "app".to_owned(),
                previous: true,
                since: None,
                tail_lines: Some(100_000),
            }
        ]
    );
    s.dirty = false;
    let cmds = update(&mut s, lines_msg(1, vec![raw("app", 1, "late")]));
    assert!(cmds.is_empty());
    assert!(!s.dirty, "a stale batch does not redraw");
    assert_eq!(s.target.logs.view_len(), 0);
    assert!(update(&mut s, stream_ended(1)).is_empty());
    update(&mut s, lines_msg(2, vec![raw("app", 1, "previous run")]));
    assert_eq!(texts(&s), ["previous run"]);
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("logs app · previous: none"), "{screen}");
}

/// `default/web` with proxy and app, app in `state` with restartCount `rc`, `lastState` `last`
/// and a back-off of `backoff` seconds (as read from the waiting message).
fn app_with(
    state: ContainerState,
    rc: i32,
    last: Option<Terminated>,
    backoff: Option<u64>,
) -> PodSummary {
    let mut app = container("app", ContainerKind::Main);
    app.state = state;
    app.restart_count = rc;
    app.last_state = last;
    app.backoff = backoff.map(|secs| Backoff {
        delay: Duration::from_secs(secs),
        next_restart_at: None,
        source: BackoffSource::Message,
    });
    pod(
        "uid-1",
        vec![container("proxy", ContainerKind::Sidecar), app],
    )
}

/// The log pane's commands among `cmds`: the diagnosis' own one-shot reads of a restarted
/// container's tail (`Cmd::ReadLogTail`, `Cmd::Lookup`, see `tests/tui/update_evidence.rs`) left out.
fn pane_cmds(cmds: Vec<Cmd>) -> Vec<Cmd> {
    cmds.into_iter()
        .filter(|c| !matches!(c, Cmd::ReadLogTail { .. } | Cmd::Lookup(_)))
        .collect()
}

#[test]
fn a_restart_fetches_the_tail_inserts_the_marker_and_resumes() {
    let mut s = opened();
    update(
        &mut s,
        lines_msg(
            1,
            vec![
                raw("app", 1, "start"),
                raw("app", 2, "a"),
                raw("app", 2, "b"),
            ],
        ),
    );
    // The kubelet closes the stream when the container exits; the status still says running.
    assert!(update(&mut s, stream_ended(1)).is_empty());
    let oom = Terminated {
        reason: "OOMKilled".to_owned(),
        exit_code: 137,
        started_at: Some(at(-40)),
        finished_at: Some(at(5)),
        ..Terminated::default()
    };
    // The pod watch shows the instance dead, and `restartPolicy: Always` will restart it: its
    // current log would race the restart, so nothing is read yet.
    let cmds = update(
        &mut s,
        Msg::PodApplied(Box::new(app_with(
            ContainerState::Terminated(oom.clone()),
            0,
            None,
            None,
        ))),
    );
    assert!(cmds.is_empty(), "{cmds:?}");
    // Back-off: the dead instance is `previous` now; fetch its tail from the resume point, and
    // remember the delay for the marker.
    let waiting = ContainerState::Waiting {
        reason: "CrashLoopBackOff".to_owned(),
        message: None,
    };
    let cmds = pane_cmds(update(
        &mut s,
        Msg::PodApplied(Box::new(app_with(waiting, 0, Some(oom.clone()), Some(40)))),
    ));
    assert_eq!(
        cmds,
        vec![Cmd::FollowLogs {
            stream: 2,
            container: "app".to_owned(),
            previous: true,
            since: Some(at(2)),
            tail_lines: None,
        }]
    );
    // The tail repeats the lines of second 2 (sinceTime is whole seconds): dropped.
    update(
        &mut s,
        lines_msg(
            2,
            vec![
                raw("app", 2, "a"),
                raw("app", 2, "b"),
                raw("app", 4, "dying"),
            ],
        ),
    );
    assert_eq!(texts(&s), ["start", "a", "b", "dying"]);
    assert!(update(&mut s, stream_ended(2)).is_empty());
    // The next instance runs: marker from lastState, follow it from the resume point.
    let cmds = pane_cmds(update(
        &mut s,
        Msg::PodApplied(Box::new(app_with(
            ContainerState::Running {
                started_at: Some(at(45)),
            },
            1,
            Some(oom),
            None,
        ))),
    ));
    assert_eq!(
        cmds,
        vec![Cmd::FollowLogs {
            stream: 3,
            container: "app".to_owned(),
            previous: false,
            since: Some(at(4)),
            tail_lines: None,
        }]
    );
    update(&mut s, lines_msg(3, vec![raw("app", 46, "start again")]));
    assert_eq!(
        texts(&s),
        [
            "start",
            "a",
            "b",
            "dying",
            "── restarted: OOMKilled, exit 137 (SIGKILL) after 45s, back-off 40s ──",
            "start again"
        ]
    );
    let marker = s.target.logs.view_line(4).expect("marker").1;
    assert_eq!(marker.kind, LineKind::Marker);
    let new = s.target.logs.view_line(5).expect("new line").1;
    assert_eq!(
        new.instance, 1,
        "lines are tagged with the new restartCount"
    );
}

/// Under `restartPolicy: Never` the terminated instance stays the one the kubelet serves, so its
/// tail is read at once as the current log (`previous=false`).
#[test]
fn a_container_that_will_not_restart_has_its_tail_read_as_current() {
    let mut s = opened();
    update(&mut s, lines_msg(1, vec![raw("app", 1, "start")]));
    update(&mut s, stream_ended(1));
    let done = Terminated {
        reason: "Error".to_owned(),
        exit_code: 1,
        finished_at: Some(at(3)),
        ..Terminated::default()
    };
    let mut p = app_with(ContainerState::Terminated(done), 0, None, None);
    p.restart_policy = "Never".to_owned();
    let cmds = update(&mut s, Msg::PodApplied(Box::new(p)));
    // Beside the log pane's stream, the diagnosis asks for the same tail once (`Cmd::ReadLogTail`,
    // `app/evidence.rs`): only the stream is the log pane's.
    let cmds: Vec<Cmd> = cmds
        .into_iter()
        .filter(|c| !matches!(c, Cmd::ReadLogTail { .. }))
        .collect();
    assert_eq!(
        cmds,
        vec![Cmd::FollowLogs {
            stream: 2,
            container: "app".to_owned(),
            previous: false,
            since: Some(at(1)),
            tail_lines: None,
        }]
    );
}

#[test]
fn a_container_without_logs_shows_the_servers_reason() {
    let mut s = opened();
    let msg = "container \"app\" in pod \"web\" is waiting to start: ContainerCreating\u{1b}[2J";
    update(
        &mut s,
        Msg::LogStreamEnded {
            stream: 1,
            reason: Some(msg.to_owned()),
        },
    );
    let screen = text(&render(&s, 120, 40));
    assert!(
        screen.contains("is waiting to start: ContainerCreating␛[2J"),
        "{screen}"
    );
}

#[test]
fn the_buffer_is_bounded_and_the_title_counts_dropped_lines() {
    let mut s = opened();
    s.target.logs = LogPane::new(5);
    s.target.logs.shown = true;
    update(&mut s, key(KeyCode::Char('a')));
    update(&mut s, key(KeyCode::Char('a')));
    let stream = s.target.logs.follows[0].stream().expect("reading");
    let batch = (0..12)
        .map(|i| raw("app", i, &format!("line {i}")))
        .collect();
    update(&mut s, lines_msg(stream, batch));
    assert_eq!(s.target.logs.buffer.len(), 5);
    assert_eq!(s.target.logs.buffer.evicted(), 7);
    assert_eq!(texts(&s)[0], "line 7");
    let screen = text(&render(&s, 120, 40));
    assert!(screen.contains("7 older lines dropped"), "{screen}");
    assert_eq!(podscope::app::logs::thousands(12_345), "12,345");
}

/// A line of `app` stamped `at(s)` plus `ms` milliseconds.
fn raw_ms(s: i64, ms: i64, text: &str) -> podscope::model::LogLine {
    let ts = (at(s) + jiff::SignedDuration::from_millis(ms)).strftime("%Y-%m-%dT%H:%M:%S.%9fZ");
    podscope::model::LogLine::from_raw("app", 0, &format!("{ts} {text}"))
}

/// The crash scenario: an instance that logs its fatal line and exits at once runs "0s", its
/// `finishedAt` (whole seconds) falls before its last lines; the marker still comes after every
/// line of the instance it closes, lines read after the terminated status was seen included,
/// and before the next instance's lines of the same second.
#[test]
fn the_marker_of_an_instance_that_ran_0s_comes_after_its_last_line() {
    let mut s = opened();
    update(&mut s, lines_msg(1, vec![raw_ms(10, 100, "starting")]));
    let crash = Terminated {
        reason: "Error".to_owned(),
        exit_code: 1,
        started_at: Some(at(10)),
        finished_at: Some(at(10)),
        ..Terminated::default()
    };
    // The status shows the instance dead before its stream delivered the fatal line.
    let dead = app_with(ContainerState::Terminated(crash.clone()), 0, None, None);
    assert!(pane_cmds(update(&mut s, Msg::PodApplied(Box::new(dead)))).is_empty());
    update(
        &mut s,
        lines_msg(1, vec![raw_ms(10, 400, "fatal: no config")]),
    );
    assert!(update(&mut s, stream_ended(1)).is_empty());
    // The first restart is immediate: the next instance runs at once, in the same second.
    let running = |rc| {
        app_with(
            ContainerState::Running {
                started_at: Some(at(10)),
            },
            rc,
            Some(crash.clone()),
            None,
        )
    };
    let cmds = pane_cmds(update(&mut s, Msg::PodApplied(Box::new(running(1)))));
    assert_eq!(
        cmds,
        vec![Cmd::FollowLogs {
            stream: 2,
            container: "app".to_owned(),
            previous: true,
            since: Some(at(10)),
            tail_lines: None,
        }]
    );
    // The tail repeats what was read and adds the line the instance wrote last.
    update(
        &mut s,
        lines_msg(
            2,
            vec![
                raw_ms(10, 100, "starting"),
                raw_ms(10, 400, "fatal: no config"),
                raw_ms(10, 450, "exiting"),
            ],
        ),
    );
    let cmds = pane_cmds(update(&mut s, stream_ended(2)));
    assert_eq!(
        cmds,
        vec![Cmd::FollowLogs {
            stream: 3,
            container: "app".to_owned(),
            previous: false,
            since: Some(at(10)),
            tail_lines: None,
        }]
    );
    update(&mut s, lines_msg(3, vec![raw_ms(10, 700, "starting")]));
    let marker = "── restarted: Error, exit 1 after 0s ──";
    assert_eq!(
        texts(&s),
        [
            "starting",
            "fatal: no config",
            "exiting",
            marker,
            "starting"
        ]
    );
    assert_eq!(
        s.target.logs.view_line(3).expect("marker").1.kind,
        LineKind::Marker
    );
}
