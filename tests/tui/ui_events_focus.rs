//! The events pane takes the focus (Tab, when the log pane is hidden): ↑/↓ select an event and
//! the selected one's whole message is shown wrapped, instead of cut at the screen's edge.

use crate::common;
use common::{cases, key, render, rows, text};
use crossterm::event::KeyCode;
use podscope::app::update;

/// The rows of the events pane (title to footer, exclusive).
fn events_rows(screen: &[String]) -> Vec<String> {
    let start = screen
        .iter()
        .position(|r| r.contains("Events ("))
        .expect("the events title");
    screen[start..screen.len() - 1].to_vec()
}

#[test]
fn tab_selects_the_newest_event_and_shows_its_whole_message() {
    let case = "34-pending-failedscheduling";
    let mut s = cases::state(case, false);
    let end = "9 Preemption is not helpful for scheduling.";
    let words = |s: &podscope::app::State| {
        events_rows(&rows(&render(s, 80, 24)))
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(!words(&s).contains(end), "cut at the edge while unfocused");
    update(&mut s, key(KeyCode::Tab));
    assert!(s.key_mode().events_focus);
    let shown = words(&s);
    assert!(shown.contains("▶ Events (1)"), "{shown}");
    assert!(
        shown.contains(&format!("0/12 nodes are available: 3 Insufficient memory, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming pod, {end}")),
        "{shown}"
    );
    let footer = rows(&render(&s, 80, 24)).pop().unwrap_or_default();
    assert!(footer.contains("Tab/Esc back to containers"), "{footer}");
    insta::assert_snapshot!(format!("{case}-event@80x24"), render(&s, 80, 24));
    update(&mut s, key(KeyCode::Esc));
    assert!(!s.key_mode().events_focus);
    assert!(!words(&s).contains(end));
}

#[test]
fn arrows_move_the_selection_and_each_written_line_gets_its_own_row() {
    let case = "07-liveness-kills-slow-start-exit143";
    let mut s = cases::state(case, false);
    let selected = s.target.selected;
    update(&mut s, key(KeyCode::Tab));
    // Newest first: BackOff, Unhealthy (readiness), Unhealthy (liveness).
    update(&mut s, key(KeyCode::Down));
    update(&mut s, key(KeyCode::Down));
    assert_eq!(
        s.target.selected, selected,
        "↓ selects events, not containers"
    );
    assert_eq!(podscope::app::focus::selected_event(&s), Some(2));
    for (w, h) in [(80, 24), (120, 40)] {
        let backend = render(&s, w, h);
        let pane = events_rows(&rows(&backend));
        let at = pane
            .iter()
            .position(|r| r.starts_with("▶ Warning"))
            .unwrap_or_else(|| panic!("a selected row in\n{}", text(&backend)));
        assert!(pane[at].contains("Liveness probe failed"), "{}", pane[at]);
        let after = pane[at + 1..].join("\n");
        assert!(
            pane.iter()
                .any(|r| r.trim_start().starts_with("error: 'Can't connect")),
            "{after}"
        );
        assert!(after.contains("exists!"), "{}", text(&backend));
        insta::assert_snapshot!(format!("{case}-event@{w}x{h}"), backend);
    }
    // ↑ past the top stays on the newest; the selection follows its event as others arrive.
    for _ in 0..5 {
        update(&mut s, key(KeyCode::Up));
    }
    assert_eq!(podscope::app::focus::selected_event(&s), Some(0));
    update(&mut s, key(KeyCode::Down));
    let uid = s.target.events[1].uid.clone();
    let mut newer = s.target.events[0].clone();
    newer.uid = "a-newer-event".to_owned();
    newer.last_timestamp = Some(s.now);
    update(&mut s, podscope::app::Msg::EventApplied(newer));
    let at = podscope::app::focus::selected_event(&s).expect("a selection");
    assert_eq!(s.target.events[at].uid, uid);
}

#[test]
fn with_the_log_pane_shown_tab_still_moves_between_the_list_and_the_log() {
    let mut s = cases::state("07-liveness-kills-slow-start-exit143", false);
    update(&mut s, key(KeyCode::Char('l')));
    assert!(s.target.logs.focused);
    update(&mut s, key(KeyCode::Tab));
    assert!(!s.target.logs.focused);
    assert!(!s.key_mode().events_focus);
    update(&mut s, key(KeyCode::Tab));
    assert!(s.target.logs.focused);
}
