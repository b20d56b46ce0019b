//! The diagnosis block's share of the screen: the first finding's headline, then its hint, then
//! evidence as room allows, with and without the log pane, at 80×24, 60×20 and 200×60 on a
//! crash-looping case whose first finding has a hint.

use crate::common;
use common::{cases, key, render, rows, text};
use crossterm::event::KeyCode;
use podscope::app::{State, update};

/// A crash-looping case (exit 1, CrashLoopBackOff) whose first finding has a hint.
const CASE: &str = "01-crashloop-exit1-db";

/// The rows from the diagnosis title to the containers title (exclusive).
fn block_rows(screen: &[String]) -> Vec<String> {
    let start = screen.iter().position(|r| r.starts_with(" Diagnosis"));
    let end = screen.iter().position(|r| r.starts_with(" Containers"));
    match (start, end) {
        (Some(s), Some(e)) if s < e => screen[s..e].to_vec(),
        _ => Vec::new(),
    }
}

/// The case's state, with the log pane open when `logs`.
fn state(logs: bool) -> State {
    let mut s = cases::state(CASE, false);
    if logs {
        update(&mut s, key(KeyCode::Char('l')));
        assert!(s.overlay.diagnosis_scroll().is_none());
    }
    s
}

#[test]
fn the_hint_follows_the_headline_at_every_common_size_with_and_without_logs() {
    let first = state(false).target.diagnosis[0].clone();
    let hint = first.action.clone().expect("the first finding has a hint");
    let hint_opening: String = hint
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    for logs in [false, true] {
        let s = state(logs);
        for (w, h) in [(80, 24), (60, 20), (200, 60)] {
            let backend = render(&s, w, h);
            let screen = rows(&backend);
            let block = block_rows(&screen);
            let shown = text(&backend);
            assert!(block.len() >= 3, "{w}x{h} logs={logs}: {block:?}\n{shown}");
            assert!(block[1].starts_with("✗ "), "{w}x{h} logs={logs}\n{shown}");
            let at = block
                .iter()
                .position(|r| r.trim_start().starts_with("→ "))
                .unwrap_or_else(|| panic!("{w}x{h} logs={logs}: no hint\n{shown}"));
            let headline_rows = block[1..at]
                .iter()
                .all(|r| !r.trim_start().starts_with("· "));
            assert!(
                headline_rows,
                "{w}x{h} logs={logs}: evidence before the hint\n{shown}"
            );
            let joined = block[at..].join(" ");
            let words = joined.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                words.contains(&hint_opening),
                "{w}x{h} logs={logs}\n{shown}"
            );
            let name = if logs { "logs" } else { "pod" };
            insta::assert_snapshot!(format!("{CASE}-{name}@{w}x{h}"), backend);
        }
    }
}
