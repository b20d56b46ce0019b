//! The view at any size: never panics, keeps the essentials on small terminals.

use crate::common;
use common::{container, key, pod, render, state, t0, text};
use podscope::app::{Msg, update};
use podscope::model::{
    Backoff, BackoffSource, ConditionSummary, ContainerKind, ContainerState, Terminated,
};

fn crash_looping() -> podscope::app::State {
    let mut s = state();
    let mut c = container("app", ContainerKind::Main);
    c.ready = false;
    c.restart_count = 5;
    c.state = ContainerState::Waiting {
        reason: "CrashLoopBackOff".to_owned(),
        message: Some(
            "back-off 2m40s restarting failed container=app pod=web_default(uid-1)".to_owned(),
        ),
    };
    let finished = t0() - jiff::SignedDuration::from_secs(70);
    c.last_state = Some(Terminated {
        reason: "OOMKilled".to_owned(),
        exit_code: 137,
        finished_at: Some(finished),
        started_at: Some(finished - jiff::SignedDuration::from_secs(45)),
        ..Terminated::default()
    });
    c.memory_limit = Some("512Mi".to_owned());
    c.backoff = Some(Backoff {
        delay: std::time::Duration::from_secs(160),
        next_restart_at: Some(finished + jiff::SignedDuration::from_secs(160)),
        source: BackoffSource::Message,
    });
    let mut p = pod("uid-1", vec![container("istio", ContainerKind::Sidecar), c]);
    p.conditions.push(ConditionSummary {
        type_: "Ready".to_owned(),
        status: "False".to_owned(),
        reason: "ContainersNotReady".to_owned(),
        message: "containers with unready status: [app]".to_owned(),
        last_transition_time: Some(finished),
    });
    update(&mut s, Msg::PodApplied(Box::new(p)));
    s
}

#[test]
fn no_size_panics_with_or_without_help() {
    let mut s = crash_looping();
    for help in [false, true] {
        if help {
            update(&mut s, key(crossterm::event::KeyCode::Char('?')));
        }
        for w in [0, 1, 2, 5, 10, 20, 40, 80, 120] {
            for h in [0, 1, 2, 3, 4, 5, 8, 12, 16, 24, 40] {
                let _ = render(&s, w, h);
            }
        }
    }
    let empty = state();
    let _ = render(&empty, 20, 5);
    let _ = render(&empty, 0, 0);
}

/// Every size from 1×1 to 200×60 draws, with the log pane shown too.
#[test]
fn no_size_panics_with_the_log_pane() {
    let mut s = crash_looping();
    update(&mut s, key(crossterm::event::KeyCode::Char('l')));
    assert!(s.target.logs.shown);
    for w in (1..=200).step_by(7).chain([200]) {
        for h in (1..=60).step_by(3).chain([60]) {
            let _ = render(&s, w, h);
        }
    }
}

/// 40×10 has no room for log lines: the pane's one row says so instead of showing nothing.
#[test]
fn forty_by_ten_says_the_log_pane_does_not_fit() {
    let mut s = crash_looping();
    update(&mut s, key(crossterm::event::KeyCode::Char('l')));
    let backend = render(&s, 40, 10);
    let screen = text(&backend);
    assert!(
        screen.contains("terminal too small for the log pane"),
        "{screen}"
    );
    assert!(screen.contains("STATUS"), "{screen}");
    insta::assert_snapshot!("log-pane@40x10", backend);
    // With room for its title and two lines the pane is drawn.
    let tall = text(&render(&s, 40, 20));
    assert!(!tall.contains("too small"), "{tall}");
    assert!(tall.contains("logs app"), "{tall}");
}

#[test]
fn twenty_by_five_keeps_identity_and_status() {
    let s = crash_looping();
    let screen = text(&render(&s, 20, 5));
    assert!(screen.contains("default/web"), "{screen}");
    assert!(screen.contains("STATUS"), "{screen}");
}

#[test]
fn countdown_is_shown_and_moves_with_the_clock() {
    let mut s = crash_looping();
    let screen = text(&render(&s, 120, 40));
    // finishedAt = t0 − 70 s, back-off 160 s → 90 s left.
    assert!(
        screen.contains("restart in 1m30s (back-off 2m40s)"),
        "{screen}"
    );
    assert!(screen.contains("memory limit 512Mi"), "{screen}");
    assert!(screen.contains("exit 137 (SIGKILL)"), "{screen}");
    update(
        &mut s,
        Msg::Tick(t0() + jiff::SignedDuration::from_secs(89)),
    );
    assert!(text(&render(&s, 120, 40)).contains("restart in 1s"));
    update(
        &mut s,
        Msg::Tick(t0() + jiff::SignedDuration::from_secs(95)),
    );
    assert!(text(&render(&s, 120, 40)).contains("restarting…"));
    update(
        &mut s,
        Msg::Tick(t0() + jiff::SignedDuration::from_secs(200)),
    );
    let late = text(&render(&s, 120, 40));
    assert!(late.contains("restart overdue"), "{late}");
    let small = text(&render(&s, 80, 24));
    assert!(small.contains("overdue"), "{small}");
}

/// 60 columns: the countdown's words win over the gauge (at 80 both fit).
#[test]
fn narrow_screens_keep_the_countdown_words_and_drop_the_gauge() {
    let s = crash_looping();
    let back_off_row = |w: u16| {
        common::rows(&render(&s, w, 24))
            .into_iter()
            .find(|r| r.starts_with("Back-off"))
            .expect("the back-off row")
    };
    let wide = back_off_row(80);
    assert!(
        wide.contains("━━━━") && wide.contains("restart in 1m30s (back-off 2m40s)"),
        "{wide}"
    );
    let row = back_off_row(60);
    assert!(row.contains("restart in 1m30s (back-off 2m40s)"), "{row}");
    assert!(!row.contains('━') && !row.contains("──"), "{row}");
}

/// While the watch reconnects the countdown says it runs on the last state seen.
#[test]
fn a_lost_watch_marks_the_countdown_as_last_seen() {
    let mut s = crash_looping();
    update(
        &mut s,
        Msg::PodWatchFailed("watch pods \"coord-2\": connection refused".to_owned()),
    );
    update(
        &mut s,
        Msg::Tick(t0() + jiff::SignedDuration::from_secs(200)),
    );
    let screen = text(&render(&s, 120, 40));
    assert!(
        screen.contains("restart overdue (back-off 2m40s) · not connected: last state seen"),
        "{screen}"
    );
}

/// A run's length from whole-second `startedAt`/`finishedAt`: the same second is `<1s`, one
/// second apart `≈1s` (a 0.1 s run that crossed a second boundary), never a plain `1s`.
#[test]
fn a_sub_second_run_is_not_shown_as_one_second() {
    for (gap, want) in [(0, "ran <1s"), (1, "ran ≈1s"), (45, "ran 45s")] {
        let mut s = crash_looping();
        if let Some(pod) = s.target.pod.as_mut() {
            let last = pod.containers[1].last_state.as_mut().expect("a last state");
            last.started_at = last
                .finished_at
                .map(|f| f - jiff::SignedDuration::from_secs(gap));
        }
        let screen = text(&render(&s, 120, 40));
        assert!(screen.contains(want), "{want}:\n{screen}");
    }
}
