//! `update` scripts for the log pane: streams, stale ids, previous, following across a restart
//! (tail fetch, marker, resume), eviction, search, filter, interleaving, events, save.

mod common;

use std::time::Duration;

use common::{container, key, pod, render, state, t0, text};
use crossterm::event::KeyCode;
use jiff::{SignedDuration, Timestamp};
use podscope::app::logs::LogPane;
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::{
    Backoff, BackoffSource, ContainerKind, ContainerState, EventSummary, LineKind, LogLine,
    PodSummary, Terminated,
};

/// 07:19:00 + `s` seconds on the day of `t0`.
fn at(s: i64) -> Timestamp {
    t0() - SignedDuration::from_secs(75) + SignedDuration::from_secs(s)
}

/// A raw line as the kubelet sends it with `timestamps=true`.
fn raw(c: &str, s: i64, text: &str) -> LogLine {
    let ts = at(s).strftime("%Y-%m-%dT%H:%M:%S.%9fZ");
    LogLine::from_raw(c, 0, &format!("{ts} {text}"))
}

fn lines_msg(stream: u64, lines: Vec<LogLine>) -> Msg {
    Msg::LogLines { stream, lines }
}

fn texts(s: &State) -> Vec<String> {
    (0..s.logs.view_len())
        .filter_map(|p| s.logs.view_line(p).map(|(_, l)| l.text.clone()))
        .collect()
}

fn two_containers() -> PodSummary {
    pod(
        "uid-1",
        vec![
            container("proxy", ContainerKind::Sidecar),
            container("app", ContainerKind::Main),
        ],
    )
}

/// `default/web` with proxy + app, app selected, log pane opened (stream 1 for app).
fn opened() -> State {
    let mut s = state();
    update(&mut s, Msg::PodApplied(Box::new(two_containers())));
    update(&mut s, key(KeyCode::Char('j')));
    let cmds = update(&mut s, key(KeyCode::Char('l')));
    assert_eq!(
        cmds,
        vec![Cmd::FollowLogs {
            stream: 1,
            container: "app".to_owned(),
            previous: false,
            since: None,
            tail_lines: Some(100_000),
        }]
    );
    s.dirty = false;
    s
}

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
        screen.contains("logs app (current) · following"),
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
    assert_eq!(s.logs.view_len(), 0);
    assert!(
        update(
            &mut s,
            Msg::LogStreamEnded {
                stream: 1,
                reason: None
            }
        )
        .is_empty()
    );
    update(&mut s, lines_msg(2, vec![raw("app", 1, "previous run")]));
    assert_eq!(texts(&s), ["previous run"]);
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("logs app (previous)"), "{screen}");
}

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
    assert!(
        update(
            &mut s,
            Msg::LogStreamEnded {
                stream: 1,
                reason: None
            }
        )
        .is_empty()
    );
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
    let cmds = update(
        &mut s,
        Msg::PodApplied(Box::new(app_with(waiting, 0, Some(oom.clone()), Some(40)))),
    );
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
    assert!(
        update(
            &mut s,
            Msg::LogStreamEnded {
                stream: 2,
                reason: None
            }
        )
        .is_empty()
    );
    // The next instance runs: marker from lastState, follow it from the resume point.
    let cmds = update(
        &mut s,
        Msg::PodApplied(Box::new(app_with(
            ContainerState::Running {
                started_at: Some(at(45)),
            },
            1,
            Some(oom),
            None,
        ))),
    );
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
    let marker = s.logs.view_line(4).expect("marker").1;
    assert_eq!(marker.kind, LineKind::Marker);
    let new = s.logs.view_line(5).expect("new line").1;
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
    update(
        &mut s,
        Msg::LogStreamEnded {
            stream: 1,
            reason: None,
        },
    );
    let done = Terminated {
        reason: "Error".to_owned(),
        exit_code: 1,
        finished_at: Some(at(3)),
        ..Terminated::default()
    };
    let mut p = app_with(ContainerState::Terminated(done), 0, None, None);
    p.restart_policy = "Never".to_owned();
    let cmds = update(&mut s, Msg::PodApplied(Box::new(p)));
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
    s.logs = LogPane::new(5);
    s.logs.shown = true;
    update(&mut s, key(KeyCode::Char('a')));
    update(&mut s, key(KeyCode::Char('a')));
    let stream = s.logs.follows[0].stream().expect("reading");
    let batch = (0..12)
        .map(|i| raw("app", i, &format!("line {i}")))
        .collect();
    update(&mut s, lines_msg(stream, batch));
    assert_eq!(s.logs.buffer.len(), 5);
    assert_eq!(s.logs.buffer.evicted(), 7);
    assert_eq!(texts(&s)[0], "line 7");
    let screen = text(&render(&s, 120, 40));
    assert!(screen.contains("7 older lines dropped"), "{screen}");
    assert_eq!(podscope::app::logs::thousands(12_345), "12,345");
}

fn typed(s: &mut State, first: char, word: &str) {
    update(s, key(KeyCode::Char(first)));
    for ch in word.chars() {
        update(s, key(KeyCode::Char(ch)));
    }
    update(s, key(KeyCode::Enter));
}

fn ten_lines() -> State {
    let mut s = opened();
    let batch = (0..10)
        .map(|i| {
            let word = if i % 3 == 2 { "ERROR disk" } else { "ok" };
            raw("app", i, &format!("{i} {word}"))
        })
        .collect();
    update(&mut s, lines_msg(1, batch));
    s
}

#[test]
fn search_moves_between_matches_with_n_and_shift_n() {
    let mut s = ten_lines();
    typed(&mut s, '/', "error");
    // Matches are lines 2, 5, 8 (smart case: lower-case text ignores case).
    let at_line = |s: &State| s.logs.search_at.map(|a| a - s.logs.base());
    assert_eq!(at_line(&s), Some(2));
    update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(at_line(&s), Some(5));
    update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(at_line(&s), Some(8));
    update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(at_line(&s), Some(2), "wraps around");
    update(&mut s, key(KeyCode::Char('N')));
    assert_eq!(at_line(&s), Some(8));
    assert!(!s.logs.following(), "a match scrolls the view");
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("8 ERROR disk"), "{screen}");
    typed(&mut s, '/', "Error");
    assert!(s.logs.search_at.is_none(), "upper case is case-sensitive");
    assert_eq!(s.logs.status.as_deref(), Some("no match for Error"));
}

#[test]
fn the_filter_hides_other_lines_and_follows_new_ones() {
    let mut s = ten_lines();
    typed(&mut s, '&', "disk");
    assert_eq!(texts(&s), ["2 ERROR disk", "5 ERROR disk", "8 ERROR disk"]);
    update(
        &mut s,
        lines_msg(
            1,
            vec![raw("app", 10, "10 ok"), raw("app", 11, "11 disk full")],
        ),
    );
    assert_eq!(texts(&s).len(), 4);
    assert_eq!(texts(&s)[3], "11 disk full");
    let screen = text(&render(&s, 120, 40));
    assert!(screen.contains("filter \"disk\": 4 lines"), "{screen}");
    assert!(!screen.contains("10 ok"), "{screen}");
    // `&` reopens the prompt with the filter; erasing it and Enter clears it.
    update(&mut s, key(KeyCode::Char('&')));
    for _ in 0..4 {
        update(&mut s, key(KeyCode::Backspace));
    }
    update(&mut s, key(KeyCode::Enter));
    assert_eq!(texts(&s).len(), 12);
}

#[test]
fn all_containers_interleave_by_timestamp_with_a_prefix() {
    let mut s = opened();
    let cmds = update(&mut s, key(KeyCode::Char('a')));
    assert_eq!(cmds.len(), 3, "{cmds:?}");
    assert_eq!(cmds[0], Cmd::StopLogs { stream: 1 });
    let streams: Vec<(u64, String)> = cmds[1..]
        .iter()
        .map(|c| match c {
            Cmd::FollowLogs {
                stream, container, ..
            } => (*stream, container.clone()),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(streams, [(2, "proxy".to_owned()), (3, "app".to_owned())]);
    update(
        &mut s,
        lines_msg(3, vec![raw("app", 1, "app 1"), raw("app", 4, "app 4")]),
    );
    update(
        &mut s,
        lines_msg(
            2,
            vec![
                raw("proxy", 0, "proxy 0"),
                raw("proxy", 2, "proxy 2"),
                raw("proxy", 5, "proxy 5"),
            ],
        ),
    );
    update(&mut s, lines_msg(3, vec![raw("app", 6, "app 6")]));
    assert_eq!(
        texts(&s),
        ["proxy 0", "app 1", "proxy 2", "app 4", "proxy 5", "app 6"]
    );
    let screen = text(&render(&s, 120, 40));
    assert!(screen.contains("[proxy] proxy 2"), "{screen}");
    assert!(screen.contains("[app] app 4"), "{screen}");
}

#[test]
fn events_are_woven_in_by_last_timestamp() {
    let mut s = ten_lines();
    let event = |uid: &str, reason: &str, path: &str, secs: i64| EventSummary {
        uid: uid.to_owned(),
        type_: "Warning".to_owned(),
        reason: reason.to_owned(),
        message: format!("{reason} message"),
        count: 3,
        first_timestamp: Some(at(0)),
        last_timestamp: Some(at(secs)),
        source: "kubelet".to_owned(),
        field_path: path.to_owned(),
    };
    update(
        &mut s,
        Msg::EventsReset(vec![
            event("e1", "Unhealthy", "spec.containers{app}", 4),
            event("e2", "BackOff", "spec.containers{proxy}", 6),
        ]),
    );
    update(&mut s, key(KeyCode::Char('E')));
    let t = texts(&s);
    assert_eq!(t.len(), 11, "only the app's event: {t:?}");
    assert_eq!(t[5], "◆ Warning Unhealthy: Unhealthy message (x3)");
    assert_eq!(t[4], "4 ok");
    update(&mut s, key(KeyCode::Char('E')));
    assert_eq!(texts(&s).len(), 10);
}

#[test]
fn save_returns_a_cmd_and_the_result_goes_to_the_status_line() {
    let mut s = opened();
    update(&mut s, lines_msg(1, vec![raw("app", 1, "one")]));
    let cmds = update(&mut s, key(KeyCode::Char('s')));
    let path = "podscope-web-app-20240603T072015Z.log";
    assert_eq!(
        cmds,
        vec![Cmd::SaveLogs {
            path: path.to_owned(),
            contents: "2024-06-03T07:19:01.000000000Z one\n".to_owned(),
        }]
    );
    update(
        &mut s,
        Msg::LogsSaved {
            path: path.to_owned(),
            result: Ok(36),
        },
    );
    let screen = text(&render(&s, 80, 24));
    assert!(
        screen.contains(&format!("saved 36 bytes to {path}")),
        "{screen}"
    );
}

#[test]
fn focus_decides_what_j_and_g_do() {
    let mut s = ten_lines();
    s.logs.page = 3;
    assert!(s.logs.focused, "`l` focuses the pane");
    update(&mut s, key(KeyCode::Char('g')));
    assert_eq!(s.logs.top_pos(), 0);
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!(s.logs.top_pos(), 1);
    assert_eq!(s.selected, 1, "j scrolled, the selection stayed");
    update(&mut s, key(KeyCode::Char('G')));
    assert!(s.logs.following());
    update(&mut s, key(KeyCode::Tab));
    let cmds = update(&mut s, key(KeyCode::Char('k')));
    assert_eq!(s.selected, 0, "unfocused: k selects the previous container");
    assert_eq!(cmds[0], Cmd::StopLogs { stream: 1 });
    assert!(matches!(&cmds[1], Cmd::FollowLogs { container, .. } if container == "proxy"));
    let footer = text(&render(&s, 80, 24));
    assert!(
        footer.contains("l logs  Tab focus  ? help  q quit"),
        "{footer}"
    );
}
