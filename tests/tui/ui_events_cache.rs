//! The events pane is formatted only when what it shows changed, and then only the rows it
//! draws (`ui::ViewCache`, the loop's cache): a kept pane must draw exactly what a fresh one
//! draws, through focus, selection, ticks, event changes and resizes.

use crate::common;
use common::{cases, key, render, rows};
use crossterm::event::KeyCode;
use jiff::ToSpan;
use podscope::app::{Msg, State, update};
use podscope::ui::{ViewCache, view_cached};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Renders `state` at `width`×`height` through `cache`.
fn render_kept(state: &State, width: u16, height: u16, cache: &mut ViewCache) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|f| view_cached(f, state, cache))
        .expect("draw");
    rows(terminal.backend())
}

#[test]
fn a_kept_pane_draws_what_a_fresh_one_draws() {
    let case = "07-liveness-kills-slow-start-exit143";
    let mut s = cases::state(case, false);
    let mut cache = ViewCache::default();
    let check = |s: &State, step: &str, cache: &mut ViewCache| {
        for (w, h) in [(120, 40), (80, 24)] {
            assert_eq!(
                render_kept(s, w, h, cache),
                rows(&render(s, w, h)),
                "after {step} at {w}x{h}"
            );
        }
    };
    check(&s, "the first frame", &mut cache);
    update(&mut s, key(KeyCode::Tab));
    check(&s, "Tab (focus)", &mut cache);
    update(&mut s, key(KeyCode::Down));
    check(&s, "↓", &mut cache);
    let now = s.now;
    update(&mut s, Msg::Tick(now + 61.seconds()));
    check(&s, "a tick a minute on", &mut cache);
    let mut changed = s.target.events[0].clone();
    changed.count += 1;
    changed.message = "Liveness probe failed: a new message".to_owned();
    update(&mut s, Msg::EventApplied(changed));
    check(&s, "an event seen again", &mut cache);
    let uid = s.target.events[1].uid.clone();
    update(&mut s, Msg::EventDeleted(uid));
    check(&s, "an event deleted", &mut cache);
    update(&mut s, key(KeyCode::Esc));
    check(&s, "Esc", &mut cache);
}

#[test]
fn five_hundred_events_format_only_the_rows_on_screen_and_only_when_changed() {
    let case = "07-liveness-kills-slow-start-exit143";
    let mut s = cases::state(case, false);
    let template = s.target.events[0].clone();
    let events = (0..500)
        .map(|i| {
            let mut e = template.clone();
            e.uid = format!("e-{i}");
            e.message = format!("{} (copy {i})", template.message);
            e
        })
        .collect();
    update(&mut s, Msg::EventsReset(events));
    let mut cache = ViewCache::default();
    let screen = render_kept(&s, 120, 40, &mut cache);
    assert!(
        screen.iter().any(|r| r.contains("Events (500)")),
        "{screen:#?}"
    );
    assert_eq!(cache.events().builds(), 1);
    assert!(
        (1..40).contains(&cache.events().rows()),
        "rows formatted: {}",
        cache.events().rows()
    );
    // A frame for another reason (a log line, a key elsewhere) in the same second: reused.
    render_kept(&s, 120, 40, &mut cache);
    assert_eq!(cache.events().builds(), 1, "unchanged: not formatted again");
    let now = s.now;
    update(&mut s, Msg::Tick(now + 1.seconds()));
    render_kept(&s, 120, 40, &mut cache);
    assert_eq!(
        cache.events().builds(),
        2,
        "the ages moved on: formatted again"
    );
    // Focused on the last event: still only what is on screen.
    update(&mut s, key(KeyCode::Tab));
    for _ in 0..499 {
        update(&mut s, key(KeyCode::Down));
    }
    let screen = render_kept(&s, 120, 40, &mut cache);
    assert_eq!(screen, rows(&render(&s, 120, 40)));
    assert!(
        screen.iter().any(|r| r.contains("(copy 499)")),
        "the selected last event is in view"
    );
    assert!((1..40).contains(&cache.events().rows()));
}
