//! Rendered-frame snapshots of real cases at their snapshot time, at 120×40 and 80×24, with the
//! kubectl columns from each case's expected.md asserted in the buffer.

use crate::common;
use common::{cases, render, text};

/// Renders `case` at `w`×`h`, checks STATUS/READY/RESTARTS/AGE from expected.md and each of
/// `must_show`, then snapshots the frame.
fn check(case: &str, w: u16, h: u16, must_show: &[&str]) {
    let expected = cases::expected(case);
    let state = cases::state(case, false);
    let backend = render(&state, w, h);
    let screen = text(&backend);
    let columns = format!(
        "STATUS {}  READY {}  RESTARTS {}  AGE {}",
        expected.status, expected.ready, expected.restarts, expected.age
    );
    assert!(
        screen.contains(&columns),
        "missing `{columns}` in\n{screen}"
    );
    for s in must_show {
        assert!(screen.contains(s), "missing `{s}` in\n{screen}");
    }
    insta::assert_snapshot!(format!("{case}@{w}x{h}"), backend);
}

#[test]
fn crashloop_oomkilled_jvm() {
    let case = "04-crashloop-oomkilled-jvm";
    // finishedAt 07:19:05 + back-off 2m40s = 07:21:45, 90 s after the snapshot (expected.md).
    let both = [
        "restart in 1m30s (back-off 2m40s)",
        "OOMKilled, exit 137 (SIGKILL)",
        "memory limit 512Mi",
    ];
    check(case, 120, 40, &both);
    check(case, 80, 24, &both);
}

#[test]
fn crashloop_exit127_metrics_sidecar() {
    let case = "02-crashloop-exit127-metrics-sidecar";
    // Back-off at the 5m0s cap after finishedAt 14:12:45: next attempt ~30 s after the snapshot.
    let both = [
        "restart in 30s (back-off 5m0s)",
        "exit 127",
        "command not found",
    ];
    check(case, 120, 40, &both);
    check(case, 80, 24, &both);
}

#[test]
fn native_sidecar_job_completed() {
    let case = "12-native-sidecar-job-completed";
    let both = ["sidecar", "log-shipper", "export"];
    check(case, 120, 40, &both);
    check(case, 80, 24, &both);
}

#[test]
fn init_crashloop_with_termination_message() {
    let case = "08-init-crashloop-exit1-termination-message";
    // Back-off 5m0s from 08:20:35: next attempt 08:25:35, 2m25s after the snapshot.
    let both = [
        "restart in 2m25s (back-off 5m0s)",
        "Failed to fetch /opt/app/conf/runtime.yml. statusCode=403",
    ];
    check(case, 120, 40, &both);
    check(case, 80, 24, &both);
}

#[test]
fn terminating_job_with_finalizer() {
    let case = "21-terminating-job-tracking-finalizer";
    // deletionTimestamp 2023-08-09T03:10:00Z, snapshot 2023-08-11T06:10:00Z; the pod names its
    // Job owner, so the first PodApplied asked for it (Cmd::CheckOwner) and the answer is 404.
    let held = "deleted 2d3h ago, held by finalizer batch.kubernetes.io/job-tracking";
    let gone = "owner Job cron-sync-28194180 is gone: nothing will remove it";
    let hint = "to release it: kubectl patch pod cron-sync-28194180-hgdzc -n reports --type=json \
                -p '[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]'";
    let mut state = cases::state(case, false);
    assert_eq!(
        state.target.owner_asked.as_deref(),
        Some("0dc854c7-70c1-568c-9f22-6e2630868e20")
    );
    cases::owner_gone(&mut state);
    for (w, h, must_show) in [
        (120, 40, vec![held, gone, hint, "Completed, exit 0"]),
        (80, 24, vec![held, "Completed, exit 0"]),
    ] {
        let backend = render(&state, w, h);
        let screen = text(&backend);
        // The notes wrap: read the screen's rows as one run of words.
        let words = screen
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join(" ");
        for s in must_show {
            assert!(words.contains(s), "missing `{s}` in\n{screen}");
        }
        insta::assert_snapshot!(format!("{case}@{w}x{h}"), backend);
    }
}

#[test]
fn no_color_theme_keeps_the_text() {
    let case = "04-crashloop-oomkilled-jvm";
    let colored = render(&cases::state(case, false), 120, 40);
    let mono = render(&cases::state(case, true), 120, 40);
    assert_eq!(text(&colored), text(&mono));
    let buf = mono.buffer();
    let any_color = buf
        .content()
        .iter()
        .any(|c| c.fg != ratatui::style::Color::Reset || c.bg != ratatui::style::Color::Reset);
    assert!(!any_color, "NO_COLOR theme must not set colours");
}

/// The palette rule: no cell of the main frames (each case above, the log pane, the help, the
/// port-forward panel) has a
/// grey, white or yellow foreground or background, unreadable on a light or a dark terminal.
#[test]
fn colours_read_on_light_and_dark_backgrounds() {
    use crossterm::event::KeyCode;
    use podscope::ui::theme::Theme;
    let cases = [
        "04-crashloop-oomkilled-jvm",
        "02-crashloop-exit127-metrics-sidecar",
        "12-native-sidecar-job-completed",
        "08-init-crashloop-exit1-termination-message",
        "21-terminating-job-tracking-finalizer",
    ];
    let mut frames: Vec<(String, podscope::app::State)> = cases
        .iter()
        .map(|c| {
            let mut s = cases::state(c, false);
            cases::owner_gone(&mut s);
            ((*c).to_owned(), s)
        })
        .collect();
    frames.push((
        "log pane".to_owned(),
        cases::state_with_log("04-crashloop-oomkilled-jvm", "coord", 5),
    ));
    let mut help = cases::state("04-crashloop-oomkilled-jvm", false);
    podscope::app::update(&mut help, common::key(KeyCode::Char('?')));
    frames.push(("help".to_owned(), help));
    let mut forwards = cases::state("04-crashloop-oomkilled-jvm", false);
    podscope::app::update(&mut forwards, common::key(KeyCode::Char('f')));
    assert!(forwards.overlay.forwards_shown());
    frames.push(("port-forwards".to_owned(), forwards));
    for (name, state) in &frames {
        for (w, h) in [(120, 40), (80, 24)] {
            let backend = render(state, w, h);
            let buf = backend.buffer();
            for y in 0..h {
                for x in 0..w {
                    let c = &buf[(x, y)];
                    assert!(
                        !Theme::unreadable(c.fg) && !Theme::unreadable(c.bg),
                        "{name} at {w}×{h}: cell ({x},{y}) `{}` is {:?} on {:?}\n{}",
                        c.symbol(),
                        c.fg,
                        c.bg,
                        text(&backend)
                    );
                }
            }
        }
    }
}
