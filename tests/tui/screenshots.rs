//! Screenshots produced by code from the same fixtures as the snapshots, each on a dark and on a
//! light terminal. Run with `cargo test --test tui screenshots:: -- --ignored`; writes
//! `screenshots/<name>.svg` (dark) and `screenshots/<name>-light.svg`.

use crate::common;
use crate::usage_support;
use crate::views_support;
use common::{cases, key, render, svg};
use crossterm::event::KeyCode;
use podscope::app::update;
use ratatui::backend::TestBackend;

/// Writes `backend`'s frame as `<name>.svg` (dark terminal) and `<name>-light.svg` into `dir`.
fn write(dir: &std::path::Path, name: &str, backend: &TestBackend) {
    for (suffix, palette) in [("", &svg::DARK), ("-light", &svg::LIGHT)] {
        let path = dir.join(format!("{name}{suffix}.svg"));
        std::fs::write(&path, svg::to_svg_with(backend.buffer(), palette)).expect("write svg");
    }
}

const SHOTS: &[(&str, &str)] = &[
    ("crashloop-oomkilled", "04-crashloop-oomkilled-jvm"),
    (
        "crashloop-exit127-sidecar",
        "02-crashloop-exit127-metrics-sidecar",
    ),
    (
        "native-sidecar-completed",
        "12-native-sidecar-job-completed",
    ),
    (
        "init-crashloop",
        "08-init-crashloop-exit1-termination-message",
    ),
    (
        "terminating-finalizer",
        "21-terminating-job-tracking-finalizer",
    ),
    (
        "liveness-slow-start",
        "07-liveness-kills-slow-start-exit143",
    ),
    ("image-not-found", "13-imagepullbackoff-tag-not-found"),
];

#[test]
#[ignore = "writes screenshots/*.svg; run on demand"]
fn write_screenshots() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&dir).expect("screenshots dir");
    for (name, case) in SHOTS {
        let mut state = cases::state(case, false);
        cases::owner_gone(&mut state);
        write(&dir, name, &render(&state, 120, 40));
    }
    let logs = cases::state_with_log("04-crashloop-oomkilled-jvm", "coord", 5);
    write(&dir, "log-pane", &render(&logs, 120, 40));
    let mut help = cases::state("04-crashloop-oomkilled-jvm", false);
    update(&mut help, key(KeyCode::Char('?')));
    write(&dir, "help", &render(&help, 120, 40));
    // The diagnosis expanded (Enter) and an event selected in full (Tab): case 07.
    let case = "07-liveness-kills-slow-start-exit143";
    let mut expanded = cases::state(case, false);
    update(&mut expanded, key(KeyCode::Enter));
    write(&dir, "diagnosis-expanded", &render(&expanded, 120, 40));
    let mut event = cases::state(case, false);
    update(&mut event, key(KeyCode::Tab));
    update(&mut event, key(KeyCode::Down));
    update(&mut event, key(KeyCode::Down));
    write(&dir, "event-selected", &render(&event, 120, 40));
    // A leak climbing toward the memory limit: the usage block and the warning.
    let mut leak = usage_support::attached(podscope::ui::theme::Theme::colored());
    usage_support::leaking(&mut leak);
    write(&dir, "usage-leak", &render(&leak, 120, 40));
    // The seed's hello pod: its YAML with a search, and its describe view.
    let mut yaml = views_support::hello_state(podscope::theme::Theme::colored());
    update(&mut yaml, key(KeyCode::Char('y')));
    update(&mut yaml, key(KeyCode::Char('/')));
    for c in "readinessProbe".chars() {
        update(&mut yaml, key(KeyCode::Char(c)));
    }
    update(&mut yaml, key(KeyCode::Enter));
    write(&dir, "yaml-view", &render(&yaml, 120, 40));
    let mut describe = views_support::hello_state(podscope::theme::Theme::colored());
    update(&mut describe, key(KeyCode::Char('D')));
    write(&dir, "describe-view", &render(&describe, 120, 40));
}
