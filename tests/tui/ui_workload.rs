//! The header of a followed workload at 80×24 and 60×20: the workload line (replicas, the
//! rollout's ReplicaSets), what changed between their templates, one glyph per pod with the
//! shown one in brackets, above the pod's own identity; the waiting screen of a workload with
//! no pod names its selector; a pod attached by name offers its replacement; `P` lists the pods
//! under the workload's name.

use crate::common;
use crate::workload_tui_support;
use common::{render, rows, text};
use podscope::app::update;
use podscope::model::workload::TemplateChange;
use workload_tui_support::{Health, deployment, from, started, summary_of, wpod};

/// `deploy/web` mid-rollout to 6c8f9d4b7 (its pod crash-looping), two pods of 7d9f8c6b5
/// serving, the crash-looping pod shown.
fn rollout() -> podscope::app::State {
    let mut summary = deployment(&[("6c8f9d4b7", 1, 0, true), ("7d9f8c6b5", 2, 2, false)]);
    summary.changes = vec![TemplateChange {
        container: "hello".into(),
        field: "image".into(),
        from: "ghcr.io/example/hello:1.0".into(),
        to: "ghcr.io/example/hello:1.1".into(),
    }];
    let (mut s, _) = started(
        Some(summary),
        vec![
            wpod("7d9f8c6b5", "aaaaa", 900, Health::Ready),
            wpod("7d9f8c6b5", "bbbbb", 800, Health::Ready),
            wpod("6c8f9d4b7", "nnnnn", 60, Health::Crash),
        ],
    );
    update(
        &mut s,
        from(1, summary_of("6c8f9d4b7", "nnnnn", 60, Health::Crash)),
    );
    s
}

#[test]
fn the_workload_line_and_glyphs_head_the_screen() {
    let s = rollout();
    for (w, h) in [(80, 24), (60, 20)] {
        let backend = render(&s, w, h);
        let screen = rows(&backend);
        assert!(
            screen[0].starts_with("deploy/web"),
            "{w}×{h}: the workload first\n{}",
            screen.join("\n")
        );
        let glyphs = screen
            .iter()
            .find(|r| r.starts_with("pods "))
            .unwrap_or_else(|| panic!("{w}×{h}: no glyph row\n{}", screen.join("\n")));
        // Most trouble first: the crash-looping pod (shown, in brackets), then the others.
        assert!(glyphs.starts_with("pods [✖]●●"), "{glyphs}");
        let all = screen.join("\n");
        assert!(all.contains("default/web-6c8f9d4b7-nnnnn"), "{all}");
        assert!(all.contains("hello: image"), "the change is named\n{all}");
        insta::assert_snapshot!(format!("workload_rollout@{w}x{h}"), backend);
    }
}

#[test]
fn many_pods_are_cut_with_a_count() {
    let pods: Vec<_> = (0..90)
        .map(|i| wpod("7d9f8c6b5", &format!("p{i:04}"), 1000 - i, Health::Ready))
        .collect();
    let (s, _) = started(Some(deployment(&[("7d9f8c6b5", 90, 90, true)])), pods);
    for w in [60u16, 80] {
        let screen = rows(&render(&s, w, 24));
        let row = screen
            .iter()
            .find(|r| r.starts_with("pods "))
            .expect("glyph row");
        let row = row.trim_end();
        assert!(
            row.chars().count() <= usize::from(w),
            "{w}: {row} is wider than the screen"
        );
        let shown = row.matches('●').count();
        let left: usize = row
            .rsplit(" +")
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{w}: no count in {row}"));
        assert_eq!(shown + left, 90, "{w}: {row}");
    }
}

#[test]
fn no_pod_yet_names_the_selector_and_waits() {
    let (s, _) = started(Some(deployment(&[("7d9f8c6b5", 0, 0, true)])), Vec::new());
    let backend = render(&s, 80, 24);
    let words = rows(&backend)
        .iter()
        .map(|r| r.trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains(
            "default  deployment web selects app=web; no pods match: waiting for one to appear"
        ),
        "{}",
        text(&backend)
    );
    insta::assert_snapshot!("workload_no_pods@80x24", backend);
}

#[test]
fn the_pods_popup_names_the_workload() {
    let mut s = rollout();
    update(&mut s, common::key(crossterm::event::KeyCode::Char('P')));
    let all = rows(&render(&s, 100, 30)).join("\n");
    assert!(all.contains(" pods of deploy/web (3) "), "{all}");
    assert!(!all.contains("pods in default"), "{all}");
}
