//! Screenshots produced by code from the same fixtures as the snapshots (style.md rule 17).
//! Run with `cargo test --test screenshots -- --ignored`; writes `screenshots/<name>.svg`.

mod common;

use common::{cases, key, render, svg};
use crossterm::event::KeyCode;
use podscope::app::update;

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
        let backend = render(&state, 120, 40);
        let path = dir.join(format!("{name}.svg"));
        std::fs::write(&path, svg::to_svg(backend.buffer())).expect("write svg");
    }
    let logs = cases::state_with_log("04-crashloop-oomkilled-jvm", "coord", 5);
    let backend = render(&logs, 120, 40);
    std::fs::write(dir.join("log-pane.svg"), svg::to_svg(backend.buffer())).expect("write svg");
    let mut help = cases::state("04-crashloop-oomkilled-jvm", false);
    update(&mut help, key(KeyCode::Char('?')));
    let backend = render(&help, 120, 40);
    std::fs::write(dir.join("help.svg"), svg::to_svg(backend.buffer())).expect("write svg");
    // The diagnosis expanded (Enter) and an event selected in full (Tab): case 07.
    let case = "07-liveness-kills-slow-start-exit143";
    let mut expanded = cases::state(case, false);
    update(&mut expanded, key(KeyCode::Enter));
    let backend = render(&expanded, 120, 40);
    let path = dir.join("diagnosis-expanded.svg");
    std::fs::write(path, svg::to_svg(backend.buffer())).expect("write svg");
    let mut event = cases::state(case, false);
    update(&mut event, key(KeyCode::Tab));
    update(&mut event, key(KeyCode::Down));
    update(&mut event, key(KeyCode::Down));
    let backend = render(&event, 120, 40);
    let path = dir.join("event-selected.svg");
    std::fs::write(path, svg::to_svg(backend.buffer())).expect("write svg");
}
