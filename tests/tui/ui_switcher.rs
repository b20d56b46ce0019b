//! The pod switcher and the demo's footer, rendered: kubectl's columns in the switcher, the
//! filter, and `P switch pod` kept in the footer at 80 columns.

use crate::common;
use common::{applied, key, proxy_and_app, render, rows, t0};
use crossterm::event::KeyCode;
use jiff::SignedDuration;
use podscope::app::switcher::PodChoice;
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::PodPrint;

/// `default/web` in the demo (pod switching on, the picker over every namespace), not dirty.
fn demo() -> State {
    let mut s = applied(proxy_and_app());
    s.config.can_switch = true;
    s.config.all_namespaces = true;
    s
}

#[test]
fn the_demo_footer_keeps_p_at_80_columns() {
    let s = demo();
    let screen = render(&s, 80, 24);
    let footer = rows(&screen).last().cloned().unwrap_or_default();
    assert!(footer.contains("P switch pod"), "{footer}");
    assert!(footer.contains("? help"), "{footer}");
    assert!(
        footer.ends_with("q quit") || footer.trim_end().ends_with("q quit"),
        "{footer}"
    );
    insta::assert_snapshot!("demo@80x24", screen);
}

/// A row as the demo's lister builds it: kubectl's columns from the printer.
fn choice(
    namespace: &str,
    name: &str,
    ready: (u32, u32),
    status: &str,
    restarts: i64,
) -> PodChoice {
    PodChoice {
        print: PodPrint {
            ready: ready.0,
            total: ready.1,
            status: status.to_owned(),
            restarts,
            last_restart: (restarts > 0).then(|| t0() - SignedDuration::from_secs(70)),
            ..PodPrint::default()
        },
        created: Some(t0() - SignedDuration::from_mins(12)),
        ..PodChoice::named(namespace, name)
    }
}

/// The demo with the switcher open on four pods.
fn switcher_open() -> State {
    let mut s = demo();
    assert_eq!(
        update(&mut s, key(KeyCode::Char('P'))),
        vec![Cmd::WatchPodList { namespace: None }]
    );
    update(
        &mut s,
        Msg::PodList(vec![
            choice("default", "web", (2, 2), "Running", 0),
            choice("default", "crash", (0, 1), "CrashLoopBackOff", 5),
            choice("default", "hello", (2, 2), "Running", 0),
            choice(
                "04-crashloop-oomkilled-jvm",
                "orders-jvm",
                (0, 1),
                "OOMKilled",
                3,
            ),
        ]),
    );
    s
}

fn shown(s: &State) -> Vec<String> {
    let sw = s.overlay.switcher().expect("open");
    sw.picker
        .shown()
        .iter()
        .map(|p| format!("{}/{}", p.namespace, p.name))
        .collect()
}

#[test]
fn the_switcher_shows_kubectls_columns() {
    let s = switcher_open();
    let screen = rows(&render(&s, 120, 40)).join("\n");
    let line = |needle: &str| {
        screen
            .lines()
            .find(|l| l.contains(needle))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    assert!(
        line("NAMESPACE").contains("NAMESPACE NAME READY STATUS RESTARTS AGE"),
        "{screen}"
    );
    assert!(
        line("crash ").contains("default crash 0/1 CrashLoopBackOff 5 (70s ago) 12m"),
        "{screen}"
    );
    assert!(
        line("orders-jvm")
            .contains("04-crashloop-oomkilled-jvm orders-jvm 0/1 OOMKilled 3 (70s ago) 12m"),
        "{screen}"
    );
    assert!(
        line(" web ").contains("▶* default web 2/2 Running 0 12m"),
        "{screen}"
    );
    insta::assert_snapshot!("switcher@120x40", render(&s, 120, 40));
    insta::assert_snapshot!("switcher@80x24", render(&s, 80, 24));
}

/// Typed characters narrow the list (even `j`, `k`, `q`, `o`, `P`: they are text here),
/// Backspace widens it again, Esc clears the filter and then closes; Enter takes the
/// highlighted row among those shown.
#[test]
fn typing_filters_the_switcher() {
    let mut s = switcher_open();
    assert_eq!(shown(&s).len(), 4);
    for c in "jvm".chars() {
        assert!(update(&mut s, key(KeyCode::Char(c))).is_empty());
    }
    assert_eq!(shown(&s), ["04-crashloop-oomkilled-jvm/orders-jvm"]);
    insta::assert_snapshot!("switcher_filtered@80x24", render(&s, 80, 24));
    update(&mut s, key(KeyCode::Backspace));
    update(&mut s, key(KeyCode::Backspace));
    update(&mut s, key(KeyCode::Backspace));
    assert_eq!(shown(&s).len(), 4);
    for c in "crASH".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(
        shown(&s),
        ["04-crashloop-oomkilled-jvm/orders-jvm", "default/crash"]
    );
    update(&mut s, key(KeyCode::Down));
    // Esc clears the filter (the highlight stays on the same pod), a second Esc closes.
    assert!(update(&mut s, key(KeyCode::Esc)).is_empty());
    let sw = s.overlay.switcher().expect("still open");
    assert_eq!(sw.picker.filter, "");
    assert_eq!(
        sw.picker.selected_row().map(|p| p.name.as_str()),
        Some("crash")
    );
    update(&mut s, key(KeyCode::Char('q')));
    assert!(s.overlay.switcher().is_some(), "q is text in the switcher");
    assert_eq!(shown(&s), Vec::<String>::new());
    assert!(
        update(&mut s, key(KeyCode::Enter)).is_empty(),
        "nothing shown, nothing to switch to"
    );
    update(&mut s, key(KeyCode::Esc));
    assert_eq!(update(&mut s, key(KeyCode::Esc)), vec![Cmd::StopPodList]);
    assert!(s.overlay.switcher().is_none());
    // Filter, then Enter: the one shown row.
    update(&mut s, key(KeyCode::Char('P')));
    update(
        &mut s,
        Msg::PodList(vec![
            choice("default", "web", (2, 2), "Running", 0),
            choice("default", "hello", (2, 2), "Running", 0),
        ]),
    );
    update(&mut s, key(KeyCode::Char('h')));
    let cmds = update(&mut s, key(KeyCode::Enter));
    assert!(
        matches!(&cmds[..], [Cmd::StopPodList, Cmd::SwitchPod { name, .. }] if name == "hello"),
        "{cmds:?}"
    );
}
