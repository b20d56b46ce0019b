//! `update` scripts for the pod picker's other faces (`docs/picker.md`): the trouble order of
//! its rows, the standalone picker of a bare `podscope` (Esc or `q` quits, Enter attaches), a
//! workload's rows opened without any request, and paging through a long list.

use crate::common;
use common::picker::{
    attached, crash_looping, failed, not_ready, pending, picked, running, stamped, summary,
};
use common::{key, t0};
use crossterm::event::KeyCode;
use jiff::SignedDuration;
use podscope::app::generation::Generation;
use podscope::app::state::Config;
use podscope::app::switcher::{self, PodChoice, Rows, Trouble, column};
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::{ContainerState, Terminated};
use podscope::ui::theme::Theme;

#[test]
fn trouble_orders_waiting_errors_then_failures_pending_not_ready_running() {
    let cases = [
        (crash_looping("default", "a"), Trouble::Waiting),
        (failed("default", "b"), Trouble::Failed),
        (pending("default", "c"), Trouble::Pending),
        (not_ready("default", "d"), Trouble::NotReady),
        (running("default", "e"), Trouble::Running),
    ];
    for (choice, trouble) in &cases {
        assert_eq!(choice.trouble, *trouble, "{}", choice.name);
    }
    let mut sorted: Vec<Trouble> = cases.iter().map(|(_, t)| *t).rev().collect();
    sorted.sort();
    assert_eq!(
        sorted,
        cases.iter().map(|(_, t)| *t).collect::<Vec<_>>(),
        "most trouble first"
    );
    // A completed container is no failure; a pending pod without statuses is pending.
    let mut done = summary(
        "default",
        "job-x",
        ContainerState::Terminated(Terminated {
            reason: "Completed".into(),
            exit_code: 0,
            ..Terminated::default()
        }),
        false,
    );
    done.phase = "Succeeded".into();
    assert_eq!(
        podscope::model::workload::choice::trouble(&done),
        Trouble::Running
    );
    let mut unscheduled = summary("default", "p", ContainerState::Unknown, false);
    unscheduled.phase = "Pending".into();
    assert_eq!(
        podscope::model::workload::choice::trouble(&unscheduled),
        Trouble::Pending
    );
}

/// The state of a bare `podscope -n shop`: no pod, the picker as the whole screen.
fn standalone() -> (State, Vec<Cmd>) {
    let config = Config {
        can_switch: true,
        ..Config::new(Theme::monochrome())
    };
    let mut s = State::with_config(config, "shop", "", t0());
    let cmds = switcher::open_standalone(&mut s);
    (s, cmds)
}

#[test]
fn the_standalone_picker_quits_on_esc_or_q_and_attaches_on_enter() {
    let (mut s, cmds) = standalone();
    assert_eq!(
        cmds,
        vec![Cmd::WatchPodList {
            namespace: Some("shop".into())
        }]
    );
    assert!(s.overlay.switcher().expect("open").standalone);
    assert_eq!(
        update(&mut s, key(KeyCode::Esc)),
        vec![Cmd::StopPodList, Cmd::Quit]
    );
    let (mut s, _) = standalone();
    assert_eq!(
        update(&mut s, key(KeyCode::Char('q'))),
        vec![Cmd::StopPodList, Cmd::Quit]
    );
    // With a filter typed, `q` is text and Esc clears first.
    let (mut s, _) = standalone();
    update(&mut s, key(KeyCode::Char('c')));
    assert!(update(&mut s, key(KeyCode::Char('q'))).is_empty());
    assert!(update(&mut s, key(KeyCode::Esc)).is_empty());
    // Enter attaches: the TUI then runs on the pod as `podscope crash` would.
    let msg = stamped(
        &s,
        Msg::PodList(vec![
            running("shop", "cart"),
            crash_looping("shop", "crash"),
        ]),
    );
    update(&mut s, msg);
    assert_eq!(
        picked(&s),
        (vec!["crash".into(), "cart".into()], Some("crash".into()))
    );
    assert_eq!(
        update(&mut s, key(KeyCode::Enter)),
        vec![
            Cmd::StopPodList,
            Cmd::SwitchPod {
                namespace: "shop".into(),
                name: "crash".into(),
                generation: Generation(2),
            }
        ]
    );
    assert!(s.overlay.switcher().is_none());
    assert_eq!(
        (s.target.namespace.as_str(), s.target.name.as_str()),
        ("shop", "crash")
    );
    // Afterwards `P` is the switcher over the pod, no longer standalone.
    update(&mut s, key(KeyCode::Char('P')));
    assert!(!s.overlay.switcher().expect("open").standalone);
    assert_eq!(update(&mut s, key(KeyCode::Esc)), vec![Cmd::StopPodList]);
}

#[test]
fn a_workloads_rows_open_without_any_request() {
    let mut s = attached();
    let mut web = running("default", "web");
    web.node = Some("node-1".into());
    // In the order given (the workload's own, worst first).
    let rows_given = vec![
        crash_looping("default", "web-2"),
        pending("default", "web-3"),
        web,
    ];
    switcher::open_rows(&mut s, rows_given);
    let sw = s.overlay.switcher().expect("open");
    assert_eq!(sw.rows, Rows::Given);
    assert!(!sw.picker.loading);
    assert_eq!(sw.picker.columns, column::WITH_NODE);
    assert_eq!(
        picked(&s),
        (
            vec!["web-2".into(), "web-3".into(), "web".into()],
            Some("web".into())
        )
    );
    // The list+watch's messages do not touch given rows.
    let msg = stamped(&s, Msg::PodList(vec![running("default", "other")]));
    update(&mut s, msg);
    assert_eq!(picked(&s).0.len(), 3);
    // Closing asks nothing to stop; Enter switches without a stop either.
    assert!(update(&mut s, key(KeyCode::Esc)).is_empty());
    switcher::open_rows(
        &mut s,
        vec![running("default", "web"), running("default", "web-4")],
    );
    update(&mut s, key(KeyCode::Down));
    let cmds = update(&mut s, key(KeyCode::Enter));
    assert!(
        matches!(&cmds[..], [Cmd::SwitchPod { name, .. }] if name == "web-4"),
        "{cmds:?}"
    );
}

#[test]
fn page_keys_move_a_screen_at_a_time() {
    let mut s = attached();
    update(&mut s, Msg::Resize(80, 24));
    update(&mut s, key(KeyCode::Char('P')));
    let list: Vec<PodChoice> = (0..100)
        .map(|i| {
            let mut p = running("default", &format!("pod-{i:03}"));
            p.created = Some(t0() - SignedDuration::from_mins(i));
            p
        })
        .collect();
    let msg = stamped(&s, Msg::PodList(list));
    update(&mut s, msg);
    let page = 24 - 8;
    update(&mut s, key(KeyCode::PageDown));
    assert_eq!(picked(&s).1, Some(format!("pod-{page:03}")));
    update(&mut s, key(KeyCode::PageDown));
    update(&mut s, key(KeyCode::PageUp));
    assert_eq!(picked(&s).1, Some(format!("pod-{page:03}")));
    for _ in 0..10 {
        update(&mut s, key(KeyCode::PageDown));
    }
    assert_eq!(picked(&s).1.as_deref(), Some("pod-099"));
}
