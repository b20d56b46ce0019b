//! The log pane on screen: case 04's previous-instance log at 120×40 and 80×24, escape
//! sequences never reaching the terminal buffer, SGR colour drawn as colour, a 1 MB line cut or
//! wrapped with its `… [N bytes more]` marker, and wide (CJK) characters measured as two columns.

use crate::common;
use common::{cases, key, render, rows, state, text};
use crossterm::event::KeyCode;
use podscope::app::{Msg, State, update};
use podscope::model::{ContainerKind, LogLine};
use ratatui::style::Color;

const CASE: &str = "04-crashloop-oomkilled-jvm";

fn case_log() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(CASE)
        .join("logs-previous.txt");
    std::fs::read_to_string(path)
        .expect("logs-previous.txt")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn case04_with_log() -> State {
    cases::state_with_log(CASE, "coord", 5)
}

#[test]
fn case04_previous_log_at_120x40_and_80x24() {
    let s = case04_with_log();
    let want = case_log();
    for (w, h) in [(120, 40), (80, 24)] {
        let backend = render(&s, w, h);
        let screen = text(&backend);
        // The diagnosis stays visible next to the log.
        assert!(screen.contains("OOMKilled, exit 137 (SIGKILL)"), "{screen}");
        assert!(
            screen.contains("logs coord · current: instance 6 (restart 5), exited 137 70s ago"),
            "{screen}"
        );
        // Following: the newest lines are at the bottom of the pane.
        let last = want.last().expect("a line");
        assert!(screen.contains(last.as_str()), "{screen}");
        insta::assert_snapshot!(format!("{CASE}-logs@{w}x{h}"), backend);
    }
    // 120×40 has room for the whole log (7 lines).
    let screen = text(&render(&s, 120, 40));
    for l in &want {
        assert!(screen.contains(l.as_str()), "missing {l}:\n{screen}");
    }
}

fn one_container_with(lines: &[&str]) -> State {
    let mut s = state();
    update(
        &mut s,
        Msg::PodApplied(Box::new(common::pod(
            "uid-1",
            vec![common::container("app", ContainerKind::Main)],
        ))),
    );
    update(&mut s, key(KeyCode::Char('l')));
    let lines = lines
        .iter()
        .map(|l| LogLine::from_raw("app", 0, l))
        .collect();
    update(&mut s, Msg::LogLines { stream: 1, lines });
    s
}

#[test]
fn escape_sequences_never_reach_the_buffer() {
    let s = one_container_with(&[
        "title \u{1b}]0;pwned\u{7} after",
        "clear \u{1b}[2J after",
        "clipboard \u{1b}]52;c;aGVsbG8=\u{7} after",
        "c1 \u{9b}2J after",
        "\u{1b}[1;31mred\u{1b}[0m plain",
    ]);
    for (w, h) in [(120, 40), (80, 24), (40, 12)] {
        let backend = render(&s, w, h);
        let buf = backend.buffer();
        for cell in &buf.content {
            assert!(
                !cell.symbol().chars().any(|c| c.is_control()),
                "control character in a cell: {:?}",
                cell.symbol()
            );
        }
    }
    let backend = render(&s, 120, 40);
    let screen = text(&backend);
    assert!(screen.contains("title ␛]0;pwned␇ after"), "{screen}");
    assert!(screen.contains("clear ␛[2J after"), "{screen}");
    assert!(
        screen.contains("clipboard ␛]52;c;aGVsbG8=␇ after"),
        "{screen}"
    );
    // The SGR sequence became colour: `red` is drawn red, `plain` is not.
    let r = rows(&backend);
    let y = r.iter().position(|l| l.contains("red plain")).expect("row");
    let x = r[y].find("red plain").expect("col");
    let x = u16::try_from(r[y][..x].chars().count()).expect("fits");
    let buf = backend.buffer();
    let y = u16::try_from(y).expect("fits");
    assert_eq!(buf[(x, y)].fg, Color::Red);
    assert_ne!(buf[(x + 4, y)].fg, Color::Red);
}

#[test]
fn a_one_megabyte_line_is_cut_or_wrapped_with_its_marker() {
    let big = "x".repeat(1 << 20);
    let mut s = one_container_with(&["before", &big, "after"]);
    let screen = rows(&render(&s, 80, 24));
    let row = screen
        .iter()
        .find(|r| r.starts_with("xxxx"))
        .expect("the long line's row");
    // 80 columns: the text, then the marker with the bytes not shown.
    assert!(row.ends_with("bytes more]"), "{row}");
    let shown = row.chars().filter(|&c| c == 'x').count();
    assert!(
        row.contains(&format!("… [{} bytes more]", (1 << 20) - shown)),
        "{row}"
    );
    assert!(screen.iter().any(|r| r.starts_with("after")));
    // Wrapped: several full rows of x, the marker on the pane's last row of it.
    update(&mut s, key(KeyCode::Char('w')));
    let screen = rows(&render(&s, 80, 24));
    let full = screen
        .iter()
        .filter(|r| r.chars().all(|c| c == 'x'))
        .count();
    assert!(full >= 5, "{screen:#?}");
    assert!(
        screen.iter().any(|r| r.contains("bytes more]")),
        "{screen:#?}"
    );
}

#[test]
fn wide_characters_are_cut_and_wrapped_at_the_panes_edge() {
    // 300 CJK characters: 600 columns, 900 bytes (each character is 3 bytes and 2 columns).
    let wide = "错误".repeat(150);
    let mut s = one_container_with(&[&wide, "after"]);
    for (w, h) in [(80, 24), (41, 24)] {
        let screen = rows(&render(&s, w, h));
        let row = screen
            .iter()
            .find(|r| r.starts_with('错'))
            .expect("the wide line's row");
        // The marker is on screen, not pushed past the edge, and counts what was not shown.
        let shown = row.chars().filter(|&c| c == '错' || c == '误').count();
        assert!(
            row.trim_end()
                .ends_with(&format!("… [{} bytes more]", 900 - 3 * shown)),
            "{w}x{h}: {row}"
        );
    }
    update(&mut s, key(KeyCode::Char('w')));
    for (w, h) in [(80, 40), (41, 40)] {
        let screen = rows(&render(&s, w, h));
        // Wrapped: every character is on screen exactly once (none drawn past the edge), and a
        // row holds as many as fit whole: 40 in 80 columns, 20 in 41 (the odd column stays empty).
        let counts: Vec<usize> = screen
            .iter()
            .map(|r| r.chars().filter(|&c| c == '错' || c == '误').count())
            .filter(|&n| n > 0)
            .collect();
        assert_eq!(counts.iter().sum::<usize>(), 300, "{w}x{h}: {screen:#?}");
        assert_eq!(counts[0], usize::from(w) / 2, "{screen:#?}");
        assert!(!screen.iter().any(|r| r.contains("bytes more]")));
    }
}
