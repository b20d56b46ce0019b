//! `update` scripts for the pod picker over a pod (`docs/picker.md`): opening it asks for one
//! list+watch, whose messages fill, update and remove rows in trouble order with the highlight
//! kept on its pod; the filter keeps the highlight; Enter switches (and stops the watch); every
//! way of closing it stops the watch; `-A` lists every namespace. The standalone picker and a
//! workload's rows are in `update_picker_rows.rs`.

use crate::common;
use common::key;
use common::picker::{attached, crash_looping, not_ready, pending, picked, running, stamped};
use crossterm::event::KeyCode;
use podscope::app::generation::Generation;
use podscope::app::state::Connection;
use podscope::app::switcher::{Rows, column};
use podscope::app::{Cmd, Msg, update};

#[test]
fn the_list_and_watch_fill_update_and_remove_rows_in_trouble_order() {
    let mut s = attached();
    assert_eq!(
        update(&mut s, key(KeyCode::Char('P'))),
        vec![Cmd::WatchPodList {
            namespace: Some("default".into())
        }]
    );
    let sw = s.overlay.switcher().expect("open");
    assert!(sw.picker.loading && !sw.standalone);
    assert_eq!(
        sw.rows,
        Rows::Watched {
            namespace: Some("default".into())
        }
    );
    assert_eq!(sw.picker.columns, column::IN_NAMESPACE);
    let list = vec![
        running("default", "web"),
        running("default", "api"),
        pending("default", "cache"),
        crash_looping("default", "crash"),
    ];
    let msg = stamped(&s, Msg::PodList(list));
    assert!(update(&mut s, msg).is_empty());
    // Most trouble first, then by name; the current pod is highlighted.
    assert_eq!(
        picked(&s),
        (
            vec!["crash".into(), "cache".into(), "api".into(), "web".into()],
            Some("web".into())
        )
    );
    assert!(!s.overlay.switcher().expect("open").picker.loading);
    // A new pod takes its place in the order; the highlight stays on web.
    let msg = stamped(&s, Msg::PodListApplied(not_ready("default", "batch")));
    update(&mut s, msg);
    assert_eq!(
        picked(&s),
        (
            vec![
                "crash".into(),
                "cache".into(),
                "batch".into(),
                "api".into(),
                "web".into()
            ],
            Some("web".into())
        )
    );
    // web starts crash-looping: its row moves up, the highlight goes with it.
    let msg = stamped(&s, Msg::PodListApplied(crash_looping("default", "web")));
    update(&mut s, msg);
    assert_eq!(
        picked(&s),
        (
            vec![
                "crash".into(),
                "web".into(),
                "cache".into(),
                "batch".into(),
                "api".into()
            ],
            Some("web".into())
        )
    );
    // The highlighted pod is deleted: the highlight stays at its place (cache now).
    let msg = stamped(
        &s,
        Msg::PodListDeleted {
            namespace: "default".into(),
            name: "web".into(),
        },
    );
    update(&mut s, msg);
    assert_eq!(
        picked(&s),
        (
            vec!["crash".into(), "cache".into(), "batch".into(), "api".into()],
            Some("cache".into())
        )
    );
    // A failure keeps the rows and says so; the next answer clears it.
    let msg = stamped(&s, Msg::PodListFailed("cannot watch pods".into()));
    update(&mut s, msg);
    let sw = s.overlay.switcher().expect("open");
    assert_eq!(sw.error.as_deref(), Some("cannot watch pods"));
    assert_eq!(sw.picker.rows.len(), 4);
    // A relist replaces the rows whole (a pod deleted while the watch was down goes).
    let msg = stamped(
        &s,
        Msg::PodList(vec![running("default", "api"), pending("default", "cache")]),
    );
    update(&mut s, msg);
    assert_eq!(
        picked(&s),
        (vec!["cache".into(), "api".into()], Some("cache".into()))
    );
    assert!(s.overlay.switcher().expect("open").error.is_none());
}

#[test]
fn the_filter_matches_names_and_keeps_the_highlight() {
    let mut s = attached();
    update(&mut s, key(KeyCode::Char('P')));
    let list = vec![
        running("default", "web"),
        running("default", "api"),
        crash_looping("default", "crash"),
        running("default", "crash-canary"),
    ];
    let msg = stamped(&s, Msg::PodList(list));
    update(&mut s, msg);
    // Up from web to crash-canary (rows: crash, api, crash-canary, web).
    update(&mut s, key(KeyCode::Up));
    assert_eq!(picked(&s).1.as_deref(), Some("crash-canary"));
    for c in "cra".chars() {
        assert!(update(&mut s, key(KeyCode::Char(c))).is_empty());
    }
    assert_eq!(
        picked(&s),
        (
            vec!["crash".into(), "crash-canary".into()],
            Some("crash-canary".into())
        )
    );
    // The namespace is not on screen, so it is not matched: `def` matches nothing.
    update(&mut s, key(KeyCode::Esc));
    for c in "def".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(picked(&s).0, Vec::<String>::new());
    assert!(
        update(&mut s, key(KeyCode::Enter)).is_empty(),
        "nothing shown, nothing to attach to"
    );
    // A live update under a filter keeps the highlight on its pod.
    update(&mut s, key(KeyCode::Esc));
    for c in "crash".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    update(&mut s, key(KeyCode::Down));
    assert_eq!(picked(&s).1.as_deref(), Some("crash-canary"));
    let msg = stamped(&s, Msg::PodListApplied(crash_looping("default", "crash-b")));
    update(&mut s, msg);
    assert_eq!(
        picked(&s),
        (
            vec!["crash".into(), "crash-b".into(), "crash-canary".into()],
            Some("crash-canary".into())
        )
    );
}

#[test]
fn enter_switches_to_the_highlighted_pod_and_stops_the_watch() {
    let mut s = attached();
    update(&mut s, key(KeyCode::Char('P')));
    let msg = stamped(
        &s,
        Msg::PodList(vec![
            running("default", "web"),
            crash_looping("default", "crash"),
        ]),
    );
    update(&mut s, msg);
    for c in "cra".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(
        update(&mut s, key(KeyCode::Enter)),
        vec![
            Cmd::StopPodList,
            Cmd::SwitchPod {
                namespace: "default".into(),
                name: "crash".into(),
                generation: Generation(2),
            }
        ]
    );
    assert!(s.overlay.switcher().is_none());
    assert_eq!(s.target.name, "crash");
    assert_eq!(s.target.connection, Connection::Connecting);
    // A late message of the closed picker's watch is dropped (older generation, no picker).
    let late = Msg::for_target(Generation(1), Msg::PodList(vec![running("default", "x")]));
    assert!(update(&mut s, late).is_empty());
    update(&mut s, key(KeyCode::Char('P')));
    let late = Msg::for_target(Generation(1), Msg::PodList(vec![running("default", "x")]));
    update(&mut s, late);
    assert!(s.overlay.switcher().expect("open").picker.loading);
}

#[test]
fn every_way_of_closing_the_picker_stops_its_watch() {
    let mut s = attached();
    update(&mut s, key(KeyCode::Char('P')));
    assert_eq!(update(&mut s, key(KeyCode::Esc)), vec![Cmd::StopPodList]);
    assert!(s.overlay.switcher().is_none());
    // `o` opens it too; a filter is cleared by the first Esc, the second closes.
    assert_eq!(
        update(&mut s, key(KeyCode::Char('o'))),
        vec![Cmd::WatchPodList {
            namespace: Some("default".into())
        }]
    );
    update(&mut s, key(KeyCode::Char('x')));
    assert!(update(&mut s, key(KeyCode::Esc)).is_empty());
    assert_eq!(update(&mut s, key(KeyCode::Esc)), vec![Cmd::StopPodList]);
    // Over a pod, `q` is filter text, not quit; Ctrl-C quits from the picker too.
    update(&mut s, key(KeyCode::Char('P')));
    assert!(update(&mut s, key(KeyCode::Char('q'))).is_empty());
    assert_eq!(s.overlay.switcher().expect("open").picker.filter, "q");
    let ctrl_c = Msg::Key(crossterm::event::KeyEvent::new(
        KeyCode::Char('c'),
        crossterm::event::KeyModifiers::CONTROL,
    ));
    assert!(update(&mut s, ctrl_c).contains(&Cmd::Quit));
}

#[test]
fn with_all_namespaces_the_picker_lists_every_namespace_with_its_column() {
    let mut s = attached();
    s.config.all_namespaces = true;
    assert_eq!(
        update(&mut s, key(KeyCode::Char('P'))),
        vec![Cmd::WatchPodList { namespace: None }]
    );
    let msg = stamped(
        &s,
        Msg::PodList(vec![running("default", "web"), running("shop", "cart")]),
    );
    update(&mut s, msg);
    let sw = s.overlay.switcher().expect("open");
    assert_eq!(sw.picker.columns, column::ALL_NAMESPACES);
    assert_eq!(sw.scope(), "pods in all namespaces");
    // The namespace is on screen, so it is matched.
    for c in "shop/".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(picked(&s).0, ["cart"]);
}

#[test]
fn in_one_namespace_the_filter_matches_only_names_not_the_namespace() {
    // The trial's case: namespace `web` holds `web-…` and `api-…` pods; typing `web` must not
    // match every row through the namespace.
    let mut s = attached();
    s.target.namespace = "web".into();
    update(&mut s, key(KeyCode::Char('P')));
    let msg = stamped(
        &s,
        Msg::PodList(vec![
            running("web", "web-6c8f9-abcde"),
            running("web", "api-7d9f8-x2x2x"),
        ]),
    );
    update(&mut s, msg);
    for c in "web".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(picked(&s).0, ["web-6c8f9-abcde"]);
}
