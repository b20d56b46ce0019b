//! Rendered frames of the YAML (`y`) and describe (`D`) views of the seed's `hello` pod at
//! 80×24 and 120×40: the title (view, pod, resourceVersion, where the view is), the search's
//! match in the title, the "updated … ago (resourceVersion a → b)" title after a change, and
//! the view's key hints.

use crate::common;
use crate::views_support;
use common::{key, render, rows};
use crossterm::event::KeyCode;
use podscope::app::{Msg, State, update};
use podscope::theme::Theme;
use ratatui::style::Modifier;
use views_support::{deliver, hello_pod, hello_state};

fn at(cols: u16, lines: u16) -> State {
    let mut s = hello_state(Theme::colored());
    update(&mut s, Msg::Resize(cols, lines));
    s
}

fn typed(s: &mut State, text: &str) {
    for c in text.chars() {
        update(s, key(KeyCode::Char(c)));
    }
}

#[test]
fn yaml_view_with_a_search() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = at(w, h);
        update(&mut s, key(KeyCode::Char('y')));
        update(&mut s, key(KeyCode::Char('/')));
        typed(&mut s, "readinessProbe");
        update(&mut s, key(KeyCode::Enter));
        let backend = render(&s, w, h);
        let r = rows(&backend);
        assert!(r[0].contains(" YAML  default/hello"), "{}", r[0]);
        assert!(r[0].contains("\"readinessProbe\" 1/2"), "{}", r[0]);
        assert!(
            r[1].trim_start().starts_with("readinessProbe:"),
            "the match on top: {}",
            r[1]
        );
        assert!(
            r[usize::from(h) - 1].contains("/ search"),
            "{}",
            r[usize::from(h) - 1]
        );
        // The match is highlighted (the selection's style on the current one).
        let buf = backend.buffer();
        let x = u16::try_from(r[1].find('r').expect("r")).expect("x");
        assert!(buf[(x, 1)].modifier.contains(Modifier::REVERSED));
        insta::assert_snapshot!(format!("yaml-search@{w}x{h}"), backend);
    }
}

#[test]
fn yaml_view_colours_keys_strings_and_numbers() {
    let mut s = at(80, 24);
    update(&mut s, key(KeyCode::Char('y')));
    let backend = render(&s, 80, 24);
    let buf = backend.buffer();
    let t = Theme::colored();
    // Row 1: `apiVersion: v1`.
    assert_eq!(buf[(0, 1)].fg, t.key.fg.expect("key colour"));
    assert_eq!(buf[(12, 1)].fg, t.ok.fg.expect("string colour"));
    // Monochrome (NO_COLOR): no colour at all.
    let mut m = hello_state(Theme::monochrome());
    update(&mut m, key(KeyCode::Char('y')));
    let mono = render(&m, 80, 24);
    let buf = mono.buffer();
    for y in 0..24 {
        for x in 0..80 {
            assert_eq!(buf[(x, y)].fg, ratatui::style::Color::Reset, "({x},{y})");
        }
    }
}

#[test]
fn describe_view_of_hello() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = at(w, h);
        update(&mut s, key(KeyCode::Char('D')));
        let backend = render(&s, w, h);
        let r = rows(&backend);
        assert!(r[0].contains(" describe  default/hello"), "{}", r[0]);
        assert!(
            r[1].starts_with("Name:") && r[1].contains("hello"),
            "{}",
            r[1]
        );
        insta::assert_snapshot!(format!("describe@{w}x{h}"), backend);
    }
}

#[test]
fn the_title_says_when_the_object_changed() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = at(w, h);
        let mut pod = hello_pod();
        pod.metadata.resource_version = Some("1234".into());
        deliver(&mut s, pod.clone());
        update(&mut s, key(KeyCode::Char('y')));
        pod.metadata.resource_version = Some("1240".into());
        deliver(&mut s, pod);
        let later = s.now + jiff::SignedDuration::from_secs(3);
        update(&mut s, Msg::Tick(later));
        let backend = render(&s, w, h);
        let r = rows(&backend);
        assert!(
            r[0].contains("updated 3s ago (resourceVersion 1234 → 1240)"),
            "{}",
            r[0]
        );
        insta::assert_snapshot!(format!("yaml-updated@{w}x{h}"), backend);
    }
}
