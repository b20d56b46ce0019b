//! The help overlay at 80×24: grouped under headings, two columns, scrollable to every key of
//! the keymap table and the countdown legend.

use crate::common;
use common::{key, render, text};
use crossterm::event::KeyCode;
use podscope::app::keymap::KEYMAP;
use podscope::app::{Msg, update};

/// Opens help on a crash-looping case at `cols × rows` and collects every screen seen while
/// pressing ↓ until the view stops changing; returns the screens.
fn scroll_through(cols: u16, rows: u16, down: KeyCode) -> Vec<String> {
    let mut s = common::cases::state("04-crashloop-oomkilled-jvm", true);
    update(&mut s, Msg::Resize(cols, rows));
    update(&mut s, key(KeyCode::Char('?')));
    let mut screens = vec![text(&render(&s, cols, rows))];
    for _ in 0..40 {
        update(&mut s, key(down));
        let screen = text(&render(&s, cols, rows));
        if screens.last() == Some(&screen) {
            break;
        }
        screens.push(screen);
    }
    screens
}

#[test]
fn every_key_and_the_legend_are_reachable_at_80x24() {
    let screens = scroll_through(80, 24, KeyCode::Down);
    assert!(screens.len() > 1, "80×24 does not fit: it must scroll");
    assert!(screens[0].contains("more ↓"), "{}", screens[0]);
    let last = screens.last().expect("a screen");
    assert!(!last.contains("more ↓"), "{last}");
    let all = screens.join("\n");
    for b in KEYMAP {
        let label = b.key.label();
        assert!(
            all.lines()
                .any(|l| l.contains(b.description) && l.contains(&label)),
            "{label} {} never shown",
            b.description
        );
    }
    for heading in [
        "containers",
        "log pane (Tab focuses it)",
        "panels",
        "help, quit",
        "port-forward panel (f)",
        "pod switcher (P)",
    ] {
        assert!(all.contains(heading), "heading {heading} missing");
    }
    for mark in [
        "restart in 1m30s",
        "back-off estimated from restartCount",
        "overdue",
    ] {
        assert!(last.contains(mark), "{mark} missing at the end:\n{last}");
    }
}

#[test]
fn page_down_reaches_the_end_too_and_page_up_returns() {
    let by_line = scroll_through(80, 24, KeyCode::Char('j'));
    let by_page = scroll_through(80, 24, KeyCode::PageDown);
    assert_eq!(by_page.last(), by_line.last());
    assert!(by_page.len() <= by_line.len());
    let mut s = common::cases::state("04-crashloop-oomkilled-jvm", true);
    update(&mut s, Msg::Resize(80, 24));
    update(&mut s, key(KeyCode::Char('?')));
    let top = text(&render(&s, 80, 24));
    update(&mut s, key(KeyCode::PageDown));
    assert_ne!(text(&render(&s, 80, 24)), top);
    update(&mut s, key(KeyCode::PageUp));
    assert_eq!(text(&render(&s, 80, 24)), top);
}

#[test]
fn two_columns_at_80_and_g_listed_once_per_mode() {
    let screens = scroll_through(80, 24, KeyCode::Down);
    let first = &screens[0];
    // containers and the log pane side by side on one line.
    assert!(
        first
            .lines()
            .any(|l| l.contains("next container") && l.contains("scroll up")),
        "{first}"
    );
    // `g` is listed once per mode, each under its heading: containers left, log pane right.
    assert_eq!(first.matches("g / Home").count(), 2, "{first}");
    let heading_row = first
        .lines()
        .position(|l| l.contains("containers") && l.contains("log pane (Tab focuses it)"))
        .expect("both headings on one row");
    let g_row = first
        .lines()
        .position(|l| l.contains("first container") && l.contains("oldest line"))
        .expect("g rows side by side");
    assert!(heading_row < g_row);
}

#[test]
fn fits_without_scrolling_when_tall_enough() {
    let screens = scroll_through(120, 40, KeyCode::Down);
    assert_eq!(screens.len(), 1, "{}", screens[0]);
    assert!(!screens[0].contains("more ↓"));
    assert!(screens[0].contains("save to file") && screens[0].contains("overdue"));
}

#[test]
fn arrows_scroll_help_only_while_it_is_open() {
    let mut s = common::cases::state("04-crashloop-oomkilled-jvm", true);
    update(&mut s, Msg::Resize(80, 24));
    let selected = s.target.selected;
    update(&mut s, key(KeyCode::Char('?')));
    update(&mut s, key(KeyCode::Down));
    assert_eq!(s.target.selected, selected, "↓ scrolls help, not the list");
    assert_eq!(s.overlay.help_scroll(), Some(1));
    update(&mut s, key(KeyCode::Esc));
    update(&mut s, key(KeyCode::Up));
    assert_eq!(s.overlay.help_scroll(), None);
    assert_eq!(s.target.selected, selected.saturating_sub(1));
}

/// `p` has one name, the README's: "previous instance" in the help, the log pane's footer and
/// its title once pressed.
#[test]
fn p_is_called_previous_instance_everywhere() {
    let help = scroll_through(120, 40, KeyCode::Down).join("\n");
    assert!(
        help.contains("p") && help.contains("previous instance"),
        "{help}"
    );
    assert!(!help.contains("previous run"), "{help}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    assert!(
        readme.contains("| `p` | previous instance"),
        "README names `p`"
    );
    let mut s = common::cases::state_with_log("04-crashloop-oomkilled-jvm", "coord", 5);
    let footer = text(&render(&s, 120, 40));
    assert!(footer.contains("p previous instance"), "{footer}");
    update(&mut s, key(KeyCode::Char('p')));
    let screen = text(&render(&s, 120, 40));
    assert!(
        screen.contains("logs coord · previous: instance"),
        "{screen}"
    );
}
