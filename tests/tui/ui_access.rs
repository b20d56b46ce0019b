//! The footer when the access reviews refused a key (`app::access`): `e` drawn dimmed with
//! `(forbidden)`, the other keys as usual; pressing it puts the reason in the status line.

use crate::common;
use common::{applied, key, proxy_and_app, render, rows};
use crossterm::event::KeyCode;
use podscope::app::access::{Permission, Permissions};
use podscope::app::{Msg, update};
use ratatui::style::Modifier;

/// The pod `default/web` with `e` refused and `d`, `f` allowed, at `cols × rows`.
fn exec_refused(cols: u16, rows: u16) -> podscope::app::State {
    let mut s = applied(proxy_and_app());
    update(&mut s, Msg::Resize(cols, rows));
    update(
        &mut s,
        Msg::AccessChecked(Permissions {
            namespace: "default".into(),
            exec: Permission::Denied {
                reason: String::new(),
            },
            debug: Permission::Allowed,
            forward: Permission::Allowed,
        }),
    );
    s
}

#[test]
fn a_refused_exec_is_dimmed_in_the_footer() {
    let s = exec_refused(120, 30);
    let backend = render(&s, 120, 30);
    let screen = rows(&backend);
    let footer = screen.last().expect("a footer row");
    assert!(footer.contains("e shell (forbidden)"), "{footer}");
    assert!(
        footer.contains("d debug container  f port-forwards"),
        "{footer}"
    );
    let at = footer.find("e shell").expect("e hint");
    let x = u16::try_from(footer[..at].chars().count()).expect("column");
    let buf = backend.buffer();
    let cell = &buf[(x, 29)];
    assert_eq!(cell.symbol(), "e");
    assert!(cell.modifier.contains(Modifier::DIM), "{cell:?}");
    let d = footer.find("d debug").expect("d hint");
    let dx = u16::try_from(footer[..d].chars().count()).expect("column");
    assert!(
        !buf[(dx, 29)].modifier.contains(Modifier::DIM),
        "d is dimmed"
    );
    insta::assert_snapshot!("exec-forbidden@120x30", backend);
}

#[test]
fn pressing_the_refused_key_says_why_in_the_status_line() {
    let mut s = exec_refused(120, 30);
    let cmds = update(&mut s, key(KeyCode::Char('e')));
    assert!(cmds.is_empty(), "{cmds:?}");
    let screen = rows(&render(&s, 120, 30));
    assert_eq!(
        screen.last().map(|r| r.trim_end()),
        Some(
            "e: forbidden: cannot create resource \"pods/exec\" in API group \"\" in the namespace \"default\""
        )
    );
    // `d` is allowed: it asks for the debug container as before.
    let cmds = update(&mut s, key(KeyCode::Char('d')));
    assert!(
        matches!(
            cmds.as_slice(),
            [podscope::app::Cmd::AddDebugContainer { .. }]
        ),
        "{cmds:?}"
    );
}
