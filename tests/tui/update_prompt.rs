//! `update` scripts for the one line editor (`app::prompt::Prompt`) behind the three prompts:
//! the log pane's `/` search and `&` filter and the port-forward panel's `a` spec. Each key of
//! the editor is pressed in each prompt, and the cursor is drawn where it is.

use crate::common;
use common::log_pane::{lines_msg, opened, raw};
use common::{key, log_texts as texts, render, rows};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use podscope::app::{Cmd, Msg, State, update};

/// Which prompt a script drives.
#[derive(Clone, Copy, Debug)]
enum Which {
    Search,
    Filter,
    Forward,
}

const ALL: [Which; 3] = [Which::Search, Which::Filter, Which::Forward];

fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

fn typed(s: &mut State, text: &str) {
    for ch in text.chars() {
        update(s, key(KeyCode::Char(ch)));
    }
}

/// The pane open on app with three lines, and the prompt `which` opened.
fn open(which: Which) -> State {
    let mut s = opened();
    update(
        &mut s,
        lines_msg(
            1,
            vec![
                raw("app", 1, "GET /a 200"),
                raw("app", 2, "GET /b 500"),
                raw("app", 3, "GET /c 200"),
            ],
        ),
    );
    match which {
        Which::Search => update(&mut s, key(KeyCode::Char('/'))),
        Which::Filter => update(&mut s, key(KeyCode::Char('&'))),
        Which::Forward => {
            update(&mut s, key(KeyCode::Char('f')));
            update(&mut s, key(KeyCode::Char('a')))
        }
    };
    assert_eq!(edit(&s), Some((String::new(), String::new())), "{which:?}");
    s
}

/// The open prompt's text before and from the cursor (`None` when closed).
fn edit(s: &State) -> Option<(String, String)> {
    let prompt = match (s.overlay.prompt(), s.overlay.forward_input()) {
        (Some(i), _) => &i.prompt,
        (None, Some(p)) => p,
        (None, None) => return None,
    };
    let (a, b) = prompt.split();
    Some((a.to_owned(), b.to_owned()))
}

fn at(before: &str, after: &str) -> Option<(String, String)> {
    Some((before.to_owned(), after.to_owned()))
}

#[test]
fn ctrl_u_kills_to_the_start_instead_of_typing_u() {
    for which in ALL {
        let mut s = open(which);
        typed(&mut s, "8080:80");
        update(&mut s, key(KeyCode::Left));
        update(&mut s, ctrl('u'));
        assert_eq!(edit(&s), at("", "0"), "{which:?}");
    }
}

#[test]
fn ctrl_w_kills_the_word_before_the_cursor() {
    for which in ALL {
        let mut s = open(which);
        typed(&mut s, "GET /b  500");
        update(&mut s, ctrl('w'));
        assert_eq!(edit(&s), at("GET /b  ", ""), "{which:?}");
        update(&mut s, ctrl('w'));
        assert_eq!(edit(&s), at("GET ", ""), "{which:?}: spaces, then the word");
    }
}

#[test]
fn home_end_ctrl_a_ctrl_e_and_arrows_move_the_cursor() {
    for which in ALL {
        let mut s = open(which);
        typed(&mut s, "abc");
        update(&mut s, key(KeyCode::Home));
        assert_eq!(edit(&s), at("", "abc"), "{which:?}");
        update(&mut s, key(KeyCode::Right));
        assert_eq!(edit(&s), at("a", "bc"), "{which:?}");
        update(&mut s, key(KeyCode::End));
        assert_eq!(edit(&s), at("abc", ""), "{which:?}");
        update(&mut s, ctrl('a'));
        assert_eq!(edit(&s), at("", "abc"), "{which:?}");
        update(&mut s, key(KeyCode::Left));
        assert_eq!(edit(&s), at("", "abc"), "{which:?}: stops at the start");
        update(&mut s, ctrl('e'));
        assert_eq!(edit(&s), at("abc", ""), "{which:?}");
        update(&mut s, key(KeyCode::Right));
        assert_eq!(edit(&s), at("abc", ""), "{which:?}: stops at the end");
        update(&mut s, key(KeyCode::Left));
        typed(&mut s, "X");
        assert_eq!(edit(&s), at("abX", "c"), "{which:?}: typed at the cursor");
    }
}

#[test]
fn backspace_and_delete_erase_around_the_cursor() {
    for which in ALL {
        let mut s = open(which);
        typed(&mut s, "abcd");
        update(&mut s, key(KeyCode::Left));
        update(&mut s, key(KeyCode::Left));
        update(&mut s, key(KeyCode::Backspace));
        assert_eq!(edit(&s), at("a", "cd"), "{which:?}");
        update(&mut s, key(KeyCode::Delete));
        assert_eq!(edit(&s), at("a", "d"), "{which:?}");
        update(&mut s, key(KeyCode::Home));
        update(&mut s, key(KeyCode::Backspace));
        assert_eq!(
            edit(&s),
            at("", "ad"),
            "{which:?}: nothing before the start"
        );
    }
}

#[test]
fn esc_cancels_without_effect() {
    for which in ALL {
        let mut s = open(which);
        typed(&mut s, "500");
        let cmds = update(&mut s, key(KeyCode::Esc));
        assert!(cmds.is_empty(), "{which:?}: {cmds:?}");
        assert_eq!(edit(&s), None, "{which:?}");
        assert!(s.target.logs.search.is_none() && s.target.logs.filter.is_none());
        assert!(s.target.forwards.entries.is_empty());
        assert_eq!(texts(&s).len(), 3);
    }
}

#[test]
fn enter_accepts_the_edited_text() {
    // Typed `x500`, then the `x` erased from the start: the search and the filter use `500`.
    let fix = |s: &mut State| {
        typed(s, "x500");
        update(s, key(KeyCode::Home));
        update(s, key(KeyCode::Delete));
        update(s, key(KeyCode::Enter))
    };
    let mut s = open(Which::Search);
    fix(&mut s);
    assert_eq!(
        s.target.logs.search_at.map(|a| a - s.target.logs.base()),
        Some(1)
    );
    let mut s = open(Which::Filter);
    fix(&mut s);
    assert_eq!(texts(&s), ["GET /b 500"]);
    // `8080:8` then `0` typed at the end after a trip to the start.
    let mut s = open(Which::Forward);
    typed(&mut s, "8080:8");
    update(&mut s, ctrl('a'));
    update(&mut s, ctrl('e'));
    typed(&mut s, "0");
    let cmds = update(&mut s, key(KeyCode::Enter));
    assert!(
        matches!(&cmds[..], [Cmd::AddForward { spec, .. }] if spec.to_string() == "8080:80"),
        "{cmds:?}"
    );
    assert_eq!(edit(&s), None);
}

#[test]
fn the_cursor_is_drawn_where_it_is() {
    let mut s = open(Which::Filter);
    typed(&mut s, "abc");
    update(&mut s, key(KeyCode::Left));
    update(&mut s, key(KeyCode::Left));
    let screen = rows(&render(&s, 80, 24));
    assert!(
        screen.iter().any(|r| r.starts_with("&a▏bc ")),
        "{screen:#?}"
    );
    let mut s = open(Which::Forward);
    typed(&mut s, "8080:80");
    update(&mut s, key(KeyCode::Home));
    let screen = rows(&render(&s, 100, 30));
    assert!(
        screen
            .iter()
            .any(|r| r.contains("forward [ADDR:]LOCAL:REMOTE: ▏8080:80 ")),
        "{screen:#?}"
    );
    // A text wider than the row keeps the cursor on screen, its start left out.
    let mut s = open(Which::Search);
    typed(&mut s, &"x".repeat(100));
    typed(&mut s, "END");
    let screen = rows(&render(&s, 40, 24));
    let row = screen
        .iter()
        .find(|r| r.starts_with("/…"))
        .expect("the prompt row");
    assert!(row.trim_end().ends_with("xxEND▏"), "{row}");
}
