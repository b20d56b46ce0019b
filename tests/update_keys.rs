//! `update` scripts for keys: selection bounds, help toggle, quit — all through the keymap.

mod common;

use common::{container, key, pod, state};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use podscope::app::keymap::{Action, KEYMAP, action_for, grouped};
use podscope::app::{Cmd, Msg, update};
use podscope::model::{ContainerKind, ContainerState};

fn three_containers() -> podscope::app::State {
    let mut s = state();
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod(
            "uid-1",
            vec![
                container("init-db", ContainerKind::Init),
                container("proxy", ContainerKind::Sidecar),
                container("app", ContainerKind::Main),
            ],
        ))),
    );
    s.dirty = false;
    s
}

#[test]
fn j_and_k_move_the_selection_within_bounds() {
    let mut s = three_containers();
    assert_eq!(s.selected, 0);
    update(&mut s, key(KeyCode::Char('k')));
    assert_eq!(s.selected, 0);
    assert!(!s.dirty, "no move, no redraw");
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!(s.selected, 1);
    assert!(s.dirty);
    update(&mut s, key(KeyCode::Down));
    update(&mut s, key(KeyCode::Down));
    assert_eq!(s.selected, 2, "stops at the last container");
    update(&mut s, key(KeyCode::Up));
    assert_eq!(s.selected, 1);
    update(&mut s, key(KeyCode::Char('G')));
    assert_eq!(s.selected, 2);
    update(&mut s, key(KeyCode::Char('g')));
    assert_eq!(s.selected, 0);
}

#[test]
fn selection_without_a_pod_stays_at_zero() {
    let mut s = state();
    update(&mut s, key(KeyCode::Char('j')));
    update(&mut s, key(KeyCode::End));
    assert_eq!(s.selected, 0);
}

#[test]
fn selection_follows_the_container_name_across_updates() {
    let mut s = three_containers();
    update(&mut s, key(KeyCode::Char('G')));
    assert_eq!(s.selected, 2);
    let fewer = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::PodApplied(Box::new(fewer)));
    assert_eq!(s.selected, 0, "`app` is now first");
}

#[test]
fn first_pod_selects_the_crash_looping_container() {
    let mut s = state();
    let mut failing = container("fetch-config", ContainerKind::Init);
    failing.state = ContainerState::Waiting {
        reason: "CrashLoopBackOff".to_owned(),
        message: None,
    };
    let mut app = container("app", ContainerKind::Main);
    app.state = ContainerState::Waiting {
        reason: "PodInitializing".to_owned(),
        message: None,
    };
    update(
        &mut s,
        Msg::PodApplied(Box::new(pod(
            "uid-1",
            vec![container("istio", ContainerKind::Sidecar), failing, app],
        ))),
    );
    assert_eq!(s.selected, 1);
}

#[test]
fn question_mark_toggles_help_and_esc_closes_it() {
    let mut s = three_containers();
    update(&mut s, key(KeyCode::Char('?')));
    assert!(s.show_help);
    update(&mut s, key(KeyCode::Char('?')));
    assert!(!s.show_help);
    update(&mut s, key(KeyCode::Char('?')));
    update(&mut s, key(KeyCode::Esc));
    assert!(!s.show_help);
}

#[test]
fn q_and_ctrl_c_quit() {
    let mut s = three_containers();
    assert_eq!(update(&mut s, key(KeyCode::Char('q'))), vec![Cmd::Quit]);
    let ctrl_c = Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(update(&mut s, ctrl_c), vec![Cmd::Quit]);
    // Plain `c` is not bound; a key release does nothing.
    assert!(update(&mut s, key(KeyCode::Char('c'))).is_empty());
    let mut release = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
    release.kind = KeyEventKind::Release;
    assert!(update(&mut s, Msg::Key(release)).is_empty());
}

#[test]
fn every_action_has_a_key_and_the_footer_groups_rows() {
    for action in [
        Action::Quit,
        Action::NextContainer,
        Action::PrevContainer,
        Action::FirstContainer,
        Action::LastContainer,
        Action::ToggleHelp,
        Action::CloseHelp,
    ] {
        let row = KEYMAP.iter().find(|b| b.action == action);
        let row = row.unwrap_or_else(|| panic!("{action:?} has no key"));
        let event = KeyEvent::new(row.key.code, row.key.modifiers);
        assert_eq!(action_for(&event), Some(action));
    }
    let footer = grouped(true);
    assert_eq!(
        footer[0],
        (vec!["j".to_owned(), "↓".to_owned()], "next container")
    );
    assert!(
        footer
            .iter()
            .any(|(k, d)| k == &["q".to_owned()] && *d == "quit")
    );
}
