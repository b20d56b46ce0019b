//! `update` scripts for keys: selection bounds, help toggle, quit, the modal port-forward panel
//! and pod switcher — all through the keymap.

use crate::common;
use common::{applied, container, key, pod, state};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use podscope::app::keymap::{
    Action, KEYMAP, Mode, When, action_for, action_in, grouped, grouped_in, hint_text,
};
use podscope::app::{Cmd, Msg, update};
use podscope::model::{ContainerKind, ContainerState};

/// `default/web` with init-db, proxy and app, not dirty.
fn three_containers() -> podscope::app::State {
    applied(vec![
        container("init-db", ContainerKind::Init),
        container("proxy", ContainerKind::Sidecar),
        container("app", ContainerKind::Main),
    ])
}

#[test]
fn j_and_k_move_the_selection_within_bounds() {
    let mut s = three_containers();
    assert_eq!(s.target.selected, 0);
    update(&mut s, key(KeyCode::Char('k')));
    assert_eq!(s.target.selected, 0);
    assert!(!s.dirty, "no move, no redraw");
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!(s.target.selected, 1);
    assert!(s.dirty);
    update(&mut s, key(KeyCode::Down));
    update(&mut s, key(KeyCode::Down));
    assert_eq!(s.target.selected, 2, "stops at the last container");
    update(&mut s, key(KeyCode::Up));
    assert_eq!(s.target.selected, 1);
    update(&mut s, key(KeyCode::Char('G')));
    assert_eq!(s.target.selected, 2);
    update(&mut s, key(KeyCode::Char('g')));
    assert_eq!(s.target.selected, 0);
}

#[test]
fn selection_without_a_pod_stays_at_zero() {
    let mut s = state();
    update(&mut s, key(KeyCode::Char('j')));
    update(&mut s, key(KeyCode::End));
    assert_eq!(s.target.selected, 0);
}

#[test]
fn selection_follows_the_container_name_across_updates() {
    let mut s = three_containers();
    update(&mut s, key(KeyCode::Char('G')));
    assert_eq!(s.target.selected, 2);
    let fewer = pod("uid-1", vec![container("app", ContainerKind::Main)]);
    update(&mut s, Msg::PodApplied(Box::new(fewer)));
    assert_eq!(s.target.selected, 0, "`app` is now first");
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
    assert_eq!(s.target.selected, 1);
}

#[test]
fn question_mark_toggles_help_and_esc_closes_it() {
    let mut s = three_containers();
    update(&mut s, key(KeyCode::Char('?')));
    assert!(s.overlay.help_scroll().is_some());
    update(&mut s, key(KeyCode::Char('?')));
    assert!(s.overlay.help_scroll().is_none());
    update(&mut s, key(KeyCode::Char('?')));
    update(&mut s, key(KeyCode::Esc));
    assert!(s.overlay.help_scroll().is_none());
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

fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, modifiers)
}

#[test]
fn the_panel_and_the_switcher_take_the_keys_from_the_table() {
    let panel = Mode {
        forward_panel: true,
        ..Mode::default()
    };
    let switcher = Mode {
        switcher: true,
        can_switch: true,
        ..Mode::default()
    };
    let none = KeyModifiers::NONE;
    // Every row of each overlay is what its key does there.
    for (when, mode) in [(When::ForwardPanel, panel), (When::Switcher, switcher)] {
        let rows: Vec<_> = KEYMAP.iter().filter(|b| b.when == when).collect();
        assert!(rows.len() >= 4, "{when:?} has rows");
        for b in rows {
            let event = press(b.key.code, b.key.modifiers);
            assert_eq!(action_in(&event, mode), Some(b.action), "{when:?} {b:?}");
        }
    }
    // Modal: the container keys do nothing under the panel, quit still quits.
    assert_eq!(
        action_in(&press(KeyCode::Char('j'), none), panel),
        Some(Action::ForwardNext)
    );
    assert_eq!(action_in(&press(KeyCode::Char('l'), none), panel), None);
    assert_eq!(action_in(&press(KeyCode::Char('?'), none), panel), None);
    assert_eq!(
        action_in(&press(KeyCode::Char('q'), none), panel),
        Some(Action::Quit)
    );
    let ctrl_c = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(action_in(&ctrl_c, panel), Some(Action::Quit));
    // In the switcher typed characters are its filter (`app::switcher::filter_key`), Esc
    // closes; Ctrl-C quits.
    assert!(podscope::app::switcher::reads_key(&press(
        KeyCode::Char('q'),
        none
    )));
    assert!(!podscope::app::switcher::reads_key(&ctrl_c));
    assert_eq!(
        action_in(&press(KeyCode::Esc, none), switcher),
        Some(Action::CloseSwitcher)
    );
    assert_eq!(action_in(&ctrl_c, switcher), Some(Action::Quit));
    assert_eq!(action_in(&press(KeyCode::Char('f'), none), switcher), None);
}

#[test]
fn footer_and_hints_of_the_overlays_come_from_the_table() {
    let panel = Mode {
        forward_panel: true,
        ..Mode::default()
    };
    let labels = |groups: Vec<(Vec<String>, &'static str)>| -> Vec<String> {
        groups
            .into_iter()
            .map(|(k, d)| format!("{} {d}", k.join("/")))
            .collect()
    };
    assert_eq!(
        labels(grouped_in(true, Some(panel))),
        [
            "a add a forward",
            "x/Delete remove selected",
            "↓/j next",
            "↑/k previous",
            "f/Esc close",
            "q quit"
        ]
    );
    assert_eq!(
        hint_text(When::ForwardPanel),
        "a add a forward  x/Delete remove selected  ↓/j next  ↑/k previous  f/Esc close"
    );
    assert_eq!(
        hint_text(When::Switcher),
        "↓ next pod  ↑ previous pod  Enter switch to it  Esc clear filter, close"
    );
}

#[test]
fn opening_the_panel_closes_help_and_its_keys_drive_it() {
    let mut s = three_containers();
    update(&mut s, key(KeyCode::Char('?')));
    update(&mut s, key(KeyCode::Char('f')));
    assert!(s.overlay.forwards_shown() && s.overlay.help_scroll().is_none());
    let selected = s.target.selected;
    // `j` and `l` belong to the panel now: no container move, no log pane.
    update(&mut s, key(KeyCode::Char('j')));
    update(&mut s, key(KeyCode::Char('l')));
    assert_eq!((s.target.selected, s.target.logs.shown), (selected, false));
    // While typing, `f` and `q` are text.
    update(&mut s, key(KeyCode::Char('a')));
    update(&mut s, key(KeyCode::Char('f')));
    assert!(update(&mut s, key(KeyCode::Char('q'))).is_empty());
    assert_eq!(s.overlay.forward_input().map(|p| p.text()), Some("fq"));
    update(&mut s, key(KeyCode::Esc));
    assert!(s.overlay.forwards_shown() && s.overlay.forward_input().is_none());
    assert_eq!(update(&mut s, key(KeyCode::Char('q'))), vec![Cmd::Quit]);
}
