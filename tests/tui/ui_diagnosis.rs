//! The diagnosis block at the top of the pod view, its expanded view (Enter), the findings in the
//! container detail and a waiting container's runtime answer: real cases snapshotted at 80×24 and
//! 120×40, hand-built findings for the layout rules.

use crate::common;
use common::{applied, cases, container, key, proxy_and_app, render, rows, text};
use crossterm::event::KeyCode;
use podscope::app::{State, update};
use podscope::model::ContainerKind;
use podscope::model::diagnosis::{Finding, Severity};

/// The screen's rows as one run of words (wrapped text reads as it was written).
fn words(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Three findings: an error about `app` with evidence and a long hint, a warning about `proxy`,
/// an info about the pod.
fn findings() -> Vec<Finding> {
    vec![
        Finding::new(
            "oom-killed",
            Severity::Error,
            Some("app"),
            "container app was OOMKilled (exit 137) 45s after start: it used more than its \
             memory limit 512Mi; 5 restarts so far, in CrashLoopBackOff",
        )
        .with("lastState.terminated: reason OOMKilled, exitCode 137 (SIGKILL), ran 45s")
        .with("resources: limits.memory 512Mi, requests.memory 512Mi")
        .with("env JVM_HEAP_OPTS: -Xmx768m = 768Mi, at or above the limit 512Mi: the heap alone can outgrow the container, which is why it dies")
        .action("lower -Xmx768m to about 75% of the limit 512Mi, or raise limits.memory above the heap plus ~25% overhead; the end of the hint"),
        Finding::new(
            "readiness-failing",
            Severity::Warning,
            Some("proxy"),
            "proxy is not ready: its readiness probe fails",
        )
        .action("check what the probe asks for"),
        Finding::new(
            "no-readiness-probe",
            Severity::Info,
            None,
            "the pod has no PodDisruptionBudget",
        ),
    ]
}

/// `proxy` and `app`, with [`findings`].
fn with_findings() -> State {
    let mut s = applied(proxy_and_app());
    s.target.diagnosis = findings();
    s
}

/// The rows from the diagnosis title to the containers title (exclusive).
fn block_rows(screen: &[String]) -> Vec<String> {
    let start = screen.iter().position(|r| r.starts_with(" Diagnosis"));
    let end = screen.iter().position(|r| r.starts_with(" Containers"));
    match (start, end) {
        (Some(s), Some(e)) if s < e => screen[s..e].to_vec(),
        _ => Vec::new(),
    }
}

#[test]
fn cases_show_the_first_headline_under_the_header_at_80x24_and_120x40() {
    for case in [
        "07-liveness-kills-slow-start-exit143",
        "04-crashloop-oomkilled-jvm",
        "13-imagepullbackoff-tag-not-found",
        "34-pending-failedscheduling",
    ] {
        let state = cases::state(case, false);
        let first = state.target.diagnosis.first().expect("a finding");
        let opening: String = first
            .headline
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        for (w, h) in [(80, 24), (120, 40)] {
            let backend = render(&state, w, h);
            let screen = rows(&backend);
            // Right under the header's three lines, before the containers.
            assert!(
                screen[3].starts_with(" Diagnosis"),
                "{case}\n{}",
                text(&backend)
            );
            let block = block_rows(&screen);
            assert!(block.len() >= 2, "{case}\n{}", text(&backend));
            assert!(
                words(&block.join("\n")).contains(&opening),
                "{case}: `{opening}` not in\n{}",
                text(&backend)
            );
            insta::assert_snapshot!(format!("{case}@{w}x{h}"), backend);
        }
    }
}

#[test]
fn the_block_puts_the_hint_and_other_headlines_before_evidence_and_cuts_the_rest() {
    let s = with_findings();
    // 80×24: header 3, footer 1; the block gets its 2 rows plus what the minimums leave.
    let screen = rows(&render(&s, 80, 24));
    let block = block_rows(&screen);
    assert!(block[0].contains("Diagnosis (3 findings)") && block[0].contains("Enter: expand"));
    assert!(
        block[1].starts_with("✗ container app was OOMKilled"),
        "{block:?}"
    );
    // 120×40: everything fits (a third of the body), in display order.
    let screen = rows(&render(&s, 120, 40));
    let block = block_rows(&screen).join("\n");
    let order = [
        "✗ container app",
        "→ lower -Xmx768m",
        "· lastState.terminated",
        "· env JVM_HEAP_OPTS",
        "! proxy is not ready",
        "i the pod has no PodDisruptionBudget",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|o| {
            block
                .find(o)
                .unwrap_or_else(|| panic!("{o} missing:\n{block}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{block}");
    // Evidence is cut to one line each in the block.
    assert!(block.contains("outgrow the…") || !block.contains("which is why it dies"));
}

#[test]
fn small_terminals_keep_the_first_headline() {
    let s = with_findings();
    for h in 5..=24 {
        let screen = text(&render(&s, 80, h));
        assert!(screen.contains("✗ container app"), "80×{h}\n{screen}");
    }
    // One row: the headline alone, cut with `…`.
    let screen = rows(&render(&s, 40, 5));
    assert!(
        screen
            .iter()
            .any(|r| r.starts_with("✗ container app") && r.trim_end().ends_with('…'))
    );
}

#[test]
fn no_findings_take_no_room_and_new_ones_appear_live() {
    let mut s = applied(proxy_and_app());
    s.target.diagnosis.clear();
    let screen = text(&render(&s, 80, 24));
    assert!(!screen.contains("Diagnosis"), "{screen}");
    s.target.diagnosis = findings();
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("✗ container app"), "{screen}");
    s.target.diagnosis.remove(0);
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("! proxy is not ready"), "{screen}");
}

/// 80×16: the three findings take more rows than the body has.
#[test]
fn enter_expands_every_finding_wrapped_and_the_view_scrolls_to_the_end() {
    let mut s = with_findings();
    update(&mut s, podscope::app::Msg::Resize(80, 16));
    update(&mut s, key(KeyCode::Enter));
    assert!(s.overlay.diagnosis_scroll().is_some());
    let mut seen = vec![text(&render(&s, 80, 16))];
    assert!(!seen[0].contains(" Containers"), "{}", seen[0]);
    assert!(seen[0].contains("more ↓"), "{}", seen[0]);
    for _ in 0..40 {
        update(&mut s, key(KeyCode::Down));
        let screen = text(&render(&s, 80, 16));
        if seen.last() == Some(&screen) {
            break;
        }
        seen.push(screen);
    }
    let all = words(&seen.join("\n"));
    for f in findings() {
        assert!(all.contains(&f.headline), "{}", f.headline);
        for e in &f.evidence {
            assert!(all.contains(e.text.as_str()), "{e}");
        }
        if let Some(h) = &f.action {
            assert!(all.contains(h.as_str()), "{h}");
        }
    }
    let last = seen.last().expect("a screen");
    assert!(
        last.contains("↑ more") && !last.contains("more ↓"),
        "{last}"
    );
    // PgUp back to the top, Esc back to the pod view.
    update(&mut s, key(KeyCode::PageUp));
    update(&mut s, key(KeyCode::PageUp));
    assert_eq!(s.overlay.diagnosis_scroll(), Some(0));
    update(&mut s, key(KeyCode::Esc));
    assert!(s.overlay.diagnosis_scroll().is_none());
    assert!(text(&render(&s, 80, 16)).contains(" Containers"));
}

#[test]
fn help_over_the_expanded_view_closes_first() {
    let mut s = with_findings();
    update(&mut s, key(KeyCode::Enter));
    update(&mut s, key(KeyCode::Char('?')));
    update(&mut s, key(KeyCode::Esc));
    assert!(s.overlay.help_scroll().is_none() && s.overlay.diagnosis_scroll().is_some());
    update(&mut s, key(KeyCode::Enter));
    assert!(s.overlay.diagnosis_scroll().is_none());
}

#[test]
fn expanded_case_snapshots() {
    let case = "07-liveness-kills-slow-start-exit143";
    let mut state = cases::state(case, false);
    update(&mut state, key(KeyCode::Enter));
    for (w, h) in [(80, 24), (120, 40)] {
        let backend = render(&state, w, h);
        let screen = text(&backend);
        assert!(screen.contains("Enter/Esc back"), "{screen}");
        insta::assert_snapshot!(format!("{case}-expanded@{w}x{h}"), backend);
    }
}

#[test]
fn the_footer_lists_the_new_keys() {
    let mut s = with_findings();
    let footer = |s: &State, w: u16, h: u16| rows(&render(s, w, h)).pop().unwrap_or_default();
    let wide = footer(&s, 120, 40);
    assert!(
        wide.contains("Enter diagnosis") && wide.contains("Tab events"),
        "{wide}"
    );
    // 80 columns: Enter is on the block's title rule instead.
    let narrow = footer(&s, 80, 24);
    assert!(
        narrow.contains("Tab events") && narrow.contains("q quit"),
        "{narrow}"
    );
    update(&mut s, key(KeyCode::Enter));
    let expanded = footer(&s, 80, 24);
    assert!(expanded.contains("Enter/Esc back to the pod"), "{expanded}");
}

#[test]
fn the_detail_shows_the_findings_about_its_container_only() {
    let mut s = with_findings();
    let detail = |s: &State| {
        let screen = rows(&render(s, 120, 40));
        let start = screen
            .iter()
            .position(|r| r.contains("(main) ─") || r.contains("(sidecar) ─"))
            .expect("the detail title");
        screen[start..].join("\n")
    };
    s.target.selected = 1;
    let app = detail(&s);
    // The pod's first finding (app's OOM) is in the block above: the detail does not repeat
    // it, nor the exit code's one-line meaning the finding explains better.
    assert!(
        !app.contains("Diagnosis  ✗ container app was OOMKilled"),
        "{app}"
    );
    assert!(!app.contains("the kernel OOM killer stopped it"), "{app}");
    assert!(!app.contains("Diagnosis  ! proxy"), "{app}");
    s.target.selected = 0;
    let proxy = detail(&s);
    assert!(proxy.contains("Diagnosis  ! proxy is not ready"), "{proxy}");
    assert!(proxy.contains("→ check what the probe asks for"), "{proxy}");
    assert!(!proxy.contains("OOMKilled"), "{proxy}");
}

#[test]
fn a_waiting_container_gives_the_registrys_answer() {
    let s = cases::state("13-imagepullbackoff-tag-not-found", false);
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = rows(&render(&s, w, h));
        let from = screen
            .iter()
            .position(|r| r.starts_with("State "))
            .expect("the State line");
        let state_lines = words(&screen[from..from + 8].join("\n"));
        assert!(
            state_lines.contains("kubelet") && state_lines.contains("rpc error: code = NotFound"),
            "{w}x{h}: {state_lines}"
        );
    }
}

#[test]
fn every_size_draws_in_every_mode() {
    let mut base = applied(vec![
        container("proxy", ContainerKind::Sidecar),
        container("app", ContainerKind::Main),
    ]);
    base.target.diagnosis = findings();
    let mut expanded = base.clone();
    update(&mut expanded, key(KeyCode::Enter));
    let mut events = cases::state("07-liveness-kills-slow-start-exit143", false);
    update(&mut events, key(KeyCode::Tab));
    update(&mut events, key(KeyCode::Down));
    let mut logs = base.clone();
    update(&mut logs, key(KeyCode::Char('l')));
    for s in [&base, &expanded, &events, &logs] {
        for w in (0..=200).step_by(7).chain([1, 2, 80, 120, 200]) {
            for h in (0..=60).step_by(5).chain([1, 2, 3, 24, 40]) {
                let _ = render(s, w, h);
            }
        }
    }
}
