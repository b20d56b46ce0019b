//! `update` scripts for the log pane's keys: search (`/`, `n`, `N`), filter (`&`), all
//! containers interleaved (`a`), events woven in (`E`), save (`s`) and focus (`Tab`).

use crate::common;
use common::log_pane::{at, lines_msg, opened, raw};
use common::{key, log_texts as texts, render, text};
use crossterm::event::KeyCode;
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::EventSummary;

/// Opens the prompt with `first`, types `word` and presses Enter.
fn typed(s: &mut State, first: char, word: &str) {
    update(s, key(KeyCode::Char(first)));
    for ch in word.chars() {
        update(s, key(KeyCode::Char(ch)));
    }
    update(s, key(KeyCode::Enter));
}

/// [`opened`] with the lines `0 ok` … `9 ok` from app, except `2`, `5`, `8`: `N ERROR disk`.
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
    let at_line = |s: &State| s.target.logs.search_at.map(|a| a - s.target.logs.base());
    assert_eq!(at_line(&s), Some(2));
    update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(at_line(&s), Some(5));
    update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(at_line(&s), Some(8));
    update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(at_line(&s), Some(2), "wraps around");
    update(&mut s, key(KeyCode::Char('N')));
    assert_eq!(at_line(&s), Some(8));
    assert!(!s.target.logs.following(), "a match scrolls the view");
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("8 ERROR disk"), "{screen}");
    typed(&mut s, '/', "Error");
    assert!(
        s.target.logs.search_at.is_none(),
        "upper case is case-sensitive"
    );
    assert_eq!(s.target.logs.status.as_deref(), Some("no match for Error"));
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
        last_timestamp_field: Some(at(secs)),
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
            contents: "one\n".to_owned(),
        }]
    );
    update(
        &mut s,
        Msg::LogsSaved {
            path: path.to_owned(),
            result: Ok(4),
        },
    );
    let screen = text(&render(&s, 80, 24));
    assert!(
        screen.contains(&format!("saved 1 line (timestamps off) to {path}")),
        "{screen}"
    );
}

/// The file goes to the directory podscope was started in, and the status line gives its whole
/// path (a relative name said nothing about where it went).
#[test]
fn save_names_the_whole_path() {
    let mut s = opened();
    s.config.save_dir = Some(std::path::PathBuf::from("/home/me/work"));
    update(&mut s, lines_msg(1, vec![raw("app", 1, "one")]));
    let cmds = update(&mut s, key(KeyCode::Char('s')));
    let path = "/home/me/work/podscope-web-app-20240603T072015Z.log";
    assert!(
        matches!(&cmds[..], [Cmd::SaveLogs { path: p, .. }] if p == path),
        "{cmds:?}"
    );
    update(
        &mut s,
        Msg::LogsSaved {
            path: path.to_owned(),
            result: Ok(4),
        },
    );
    let screen = text(&render(&s, 120, 24));
    assert!(screen.contains(&format!("to {path}")), "{screen}");
}

/// `s` writes what the pane lists: with a filter only the matching lines, timestamps only when
/// `t` shows them; the status line says so.
#[test]
fn save_writes_what_is_shown_and_says_what_it_wrote() {
    let mut s = ten_lines();
    typed(&mut s, '&', "disk");
    let cmds = update(&mut s, key(KeyCode::Char('s')));
    let path = "podscope-web-app-20240603T072015Z.log";
    assert_eq!(
        cmds,
        vec![Cmd::SaveLogs {
            path: path.to_owned(),
            contents: "2 ERROR disk\n5 ERROR disk\n8 ERROR disk\n".to_owned(),
        }]
    );
    update(
        &mut s,
        Msg::LogsSaved {
            path: path.to_owned(),
            result: Ok(39),
        },
    );
    assert_eq!(
        s.target.logs.status.as_deref(),
        Some(format!("saved 3 lines (filter \"disk\", timestamps off) to {path}").as_str())
    );
    update(&mut s, key(KeyCode::Char('t')));
    let cmds = update(&mut s, key(KeyCode::Char('s')));
    let Cmd::SaveLogs { contents, .. } = &cmds[0] else {
        panic!("{cmds:?}");
    };
    assert_eq!(
        contents.lines().next(),
        Some("2024-06-03T07:19:02.000000000Z 2 ERROR disk")
    );
    update(
        &mut s,
        Msg::LogsSaved {
            path: path.to_owned(),
            result: Ok(129),
        },
    );
    let screen = text(&render(&s, 120, 40));
    assert!(
        screen.contains(&format!(
            "saved 3 lines (filter \"disk\", timestamps on) to {path}"
        )),
        "{screen}"
    );
}

#[test]
fn w_says_whether_wrapping_is_on() {
    let mut s = ten_lines();
    update(&mut s, key(KeyCode::Char('w')));
    assert!(s.target.logs.wrap);
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("wrap on"), "{screen}");
    update(&mut s, key(KeyCode::Char('w')));
    assert_eq!(s.target.logs.status.as_deref(), Some("wrap off"));
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!(s.target.logs.status, None, "the next key clears it");
}

#[test]
fn focus_decides_what_j_and_g_do() {
    let mut s = ten_lines();
    s.target.logs.page = 3;
    assert!(s.target.logs.focused, "`l` focuses the pane");
    update(&mut s, key(KeyCode::Char('g')));
    assert_eq!(s.target.logs.top_pos(), 0);
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!(s.target.logs.top_pos(), 1);
    assert_eq!(s.target.selected, 1, "j scrolled, the selection stayed");
    update(&mut s, key(KeyCode::Char('G')));
    assert!(s.target.logs.following());
    update(&mut s, key(KeyCode::Tab));
    let cmds = update(&mut s, key(KeyCode::Char('k')));
    assert_eq!(
        s.target.selected, 0,
        "unfocused: k selects the previous container"
    );
    assert_eq!(cmds[0], Cmd::StopLogs { stream: 1 });
    assert!(matches!(&cmds[1], Cmd::FollowLogs { container, .. } if container == "proxy"));
    let footer = text(&render(&s, 80, 24));
    assert!(
        footer.contains(
            "l logs  e shell  d debug container  f port-forwards  Tab focus  ? help  q quit"
        ),
        "{footer}"
    );
}
