//! `update` scripts for the pod picker (`docs/picker.md`): opening it asks for one list+watch,
//! whose messages fill, update and remove rows in trouble order with the highlight kept on its
//! pod; the filter keeps the highlight; Enter switches (and stops the watch); every way of
//! closing it stops the watch; the standalone picker of a bare `podscope` quits on Esc/`q` and
//! attaches on Enter; a workload's rows open without any request.

mod common;

use common::{applied, container, key, pod, proxy_and_app, t0};
use crossterm::event::KeyCode;
use jiff::SignedDuration;
use podscope::app::generation::Generation;
use podscope::app::state::{Config, Connection};
use podscope::app::switcher::{self, PodChoice, Rows, Trouble, column};
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::{ContainerKind, ContainerState, PodSummary, Terminated};
use podscope::ui::theme::Theme;

/// `default/web` (running, ready) with switching on, as the TUI starts it.
fn attached() -> State {
    let mut s = applied(proxy_and_app());
    s.config.can_switch = true;
    s
}

/// A pod `namespace/name` whose one container is in `state` (`ready` or not), created
/// `age_mins` before `t0`.
fn summary(namespace: &str, name: &str, state: ContainerState, ready: bool) -> PodSummary {
    let mut c = container("app", ContainerKind::Main);
    c.ready = ready;
    c.state = state;
    let mut p = pod(&format!("uid-{name}"), vec![c]);
    p.namespace = namespace.to_owned();
    p.name = name.to_owned();
    p.print.ready = u32::from(ready);
    p
}

fn running(namespace: &str, name: &str) -> PodChoice {
    PodChoice::from_summary(&summary(
        namespace,
        name,
        ContainerState::Running { started_at: None },
        true,
    ))
}

fn crash_looping(namespace: &str, name: &str) -> PodChoice {
    let mut p = summary(
        namespace,
        name,
        ContainerState::Waiting {
            reason: "CrashLoopBackOff".into(),
            message: None,
        },
        false,
    );
    p.print.status = "CrashLoopBackOff".into();
    p.print.restarts = 5;
    PodChoice::from_summary(&p)
}

fn pending(namespace: &str, name: &str) -> PodChoice {
    let mut p = summary(
        namespace,
        name,
        ContainerState::Waiting {
            reason: "ContainerCreating".into(),
            message: None,
        },
        false,
    );
    p.phase = "Pending".into();
    p.print.status = "ContainerCreating".into();
    PodChoice::from_summary(&p)
}

fn not_ready(namespace: &str, name: &str) -> PodChoice {
    PodChoice::from_summary(&summary(
        namespace,
        name,
        ContainerState::Running { started_at: None },
        false,
    ))
}

fn failed(namespace: &str, name: &str) -> PodChoice {
    let mut p = summary(
        namespace,
        name,
        ContainerState::Terminated(Terminated {
            reason: "Error".into(),
            exit_code: 1,
            ..Terminated::default()
        }),
        false,
    );
    p.phase = "Failed".into();
    PodChoice::from_summary(&p)
}

/// The picker's rows as `name` (in order) and the highlighted one.
fn rows(s: &State) -> (Vec<String>, Option<String>) {
    let sw = s.overlay.switcher().expect("the picker is open");
    let names = sw.picker.shown().iter().map(|p| p.name.clone()).collect();
    let selected = sw.picker.selected_row().map(|p| p.name.clone());
    (names, selected)
}

/// A message of the list+watch, stamped with the target's generation as the session stamps it.
fn stamped(s: &State, msg: Msg) -> Msg {
    Msg::for_target(s.target.generation, msg)
}

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

#[test]
fn the_list_and_watch_fill_update_and_remove_rows_in_trouble_order() {
    let mut s = attached();
    assert_eq!(
        update(&mut s, key(KeyCode::Char('P'))),
        vec![Cmd::WatchPodList {
            namespace: Some("default".into())
        }]
    );
    let sw = s.overlay.switcher().expect("open");
    assert!(sw.picker.loading && !sw.standalone);
    assert_eq!(
        sw.rows,
        Rows::Watched {
            namespace: Some("default".into())
        }
    );
    assert_eq!(sw.picker.columns, column::IN_NAMESPACE);
    let list = vec![
        running("default", "web"),
        running("default", "api"),
        pending("default", "cache"),
        crash_looping("default", "crash"),
    ];
    let msg = stamped(&s, Msg::PodList(list));
    assert!(update(&mut s, msg).is_empty());
    // Most trouble first, then by name; the current pod is highlighted.
    assert_eq!(
        rows(&s),
        (
            vec!["crash".into(), "cache".into(), "api".into(), "web".into()],
            Some("web".into())
        )
    );
    assert!(!s.overlay.switcher().expect("open").picker.loading);
    // A new pod takes its place in the order; the highlight stays on web.
    let msg = stamped(&s, Msg::PodListApplied(not_ready("default", "batch")));
    update(&mut s, msg);
    assert_eq!(
        rows(&s),
        (
            vec![
                "crash".into(),
                "cache".into(),
                "batch".into(),
                "api".into(),
                "web".into()
            ],
            Some("web".into())
        )
    );
    // web starts crash-looping: its row moves up, the highlight goes with it.
    let msg = stamped(&s, Msg::PodListApplied(crash_looping("default", "web")));
    update(&mut s, msg);
    assert_eq!(
        rows(&s),
        (
            vec![
                "crash".into(),
                "web".into(),
                "cache".into(),
                "batch".into(),
                "api".into()
            ],
            Some("web".into())
        )
    );
    // The highlighted pod is deleted: the highlight stays at its place (cache now).
    let msg = stamped(
        &s,
        Msg::PodListDeleted {
            namespace: "default".into(),
            name: "web".into(),
        },
    );
    update(&mut s, msg);
    assert_eq!(
        rows(&s),
        (
            vec!["crash".into(), "cache".into(), "batch".into(), "api".into()],
            Some("cache".into())
        )
    );
    // A failure keeps the rows and says so; the next answer clears it.
    let msg = stamped(&s, Msg::PodListFailed("cannot watch pods".into()));
    update(&mut s, msg);
    let sw = s.overlay.switcher().expect("open");
    assert_eq!(sw.error.as_deref(), Some("cannot watch pods"));
    assert_eq!(sw.picker.rows.len(), 4);
    // A relist replaces the rows whole (a pod deleted while the watch was down goes).
    let msg = stamped(
        &s,
        Msg::PodList(vec![running("default", "api"), pending("default", "cache")]),
    );
    update(&mut s, msg);
    assert_eq!(
        rows(&s),
        (vec!["cache".into(), "api".into()], Some("cache".into()))
    );
    assert!(s.overlay.switcher().expect("open").error.is_none());
}

#[test]
fn the_filter_matches_names_and_keeps_the_highlight() {
    let mut s = attached();
    update(&mut s, key(KeyCode::Char('P')));
    let list = vec![
        running("default", "web"),
        running("default", "api"),
        crash_looping("default", "crash"),
        running("default", "crash-canary"),
    ];
    let msg = stamped(&s, Msg::PodList(list));
    update(&mut s, msg);
    // Up from web to crash-canary (rows: crash, api, crash-canary, web).
    update(&mut s, key(KeyCode::Up));
    assert_eq!(rows(&s).1.as_deref(), Some("crash-canary"));
    for c in "cra".chars() {
        assert!(update(&mut s, key(KeyCode::Char(c))).is_empty());
    }
    assert_eq!(
        rows(&s),
        (
            vec!["crash".into(), "crash-canary".into()],
            Some("crash-canary".into())
        )
    );
    // The namespace is not on screen, so it is not matched: `def` matches nothing.
    update(&mut s, key(KeyCode::Esc));
    for c in "def".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(rows(&s).0, Vec::<String>::new());
    assert!(
        update(&mut s, key(KeyCode::Enter)).is_empty(),
        "nothing shown, nothing to attach to"
    );
    // A live update under a filter keeps the highlight on its pod.
    update(&mut s, key(KeyCode::Esc));
    for c in "crash".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    update(&mut s, key(KeyCode::Down));
    assert_eq!(rows(&s).1.as_deref(), Some("crash-canary"));
    let msg = stamped(&s, Msg::PodListApplied(crash_looping("default", "crash-b")));
    update(&mut s, msg);
    assert_eq!(
        rows(&s),
        (
            vec!["crash".into(), "crash-b".into(), "crash-canary".into()],
            Some("crash-canary".into())
        )
    );
}

#[test]
fn enter_switches_to_the_highlighted_pod_and_stops_the_watch() {
    let mut s = attached();
    update(&mut s, key(KeyCode::Char('P')));
    let msg = stamped(
        &s,
        Msg::PodList(vec![
            running("default", "web"),
            crash_looping("default", "crash"),
        ]),
    );
    update(&mut s, msg);
    for c in "cra".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(
        update(&mut s, key(KeyCode::Enter)),
        vec![
            Cmd::StopPodList,
            Cmd::SwitchPod {
                namespace: "default".into(),
                name: "crash".into(),
                generation: Generation(2),
            }
        ]
    );
    assert!(s.overlay.switcher().is_none());
    assert_eq!(s.target.name, "crash");
    assert_eq!(s.target.connection, Connection::Connecting);
    // A late message of the closed picker's watch is dropped (older generation, no picker).
    let late = Msg::for_target(Generation(1), Msg::PodList(vec![running("default", "x")]));
    assert!(update(&mut s, late).is_empty());
    update(&mut s, key(KeyCode::Char('P')));
    let late = Msg::for_target(Generation(1), Msg::PodList(vec![running("default", "x")]));
    update(&mut s, late);
    assert!(s.overlay.switcher().expect("open").picker.loading);
}

#[test]
fn every_way_of_closing_the_picker_stops_its_watch() {
    let mut s = attached();
    update(&mut s, key(KeyCode::Char('P')));
    assert_eq!(update(&mut s, key(KeyCode::Esc)), vec![Cmd::StopPodList]);
    assert!(s.overlay.switcher().is_none());
    // `o` opens it too; a filter is cleared by the first Esc, the second closes.
    assert_eq!(
        update(&mut s, key(KeyCode::Char('o'))),
        vec![Cmd::WatchPodList {
            namespace: Some("default".into())
        }]
    );
    update(&mut s, key(KeyCode::Char('x')));
    assert!(update(&mut s, key(KeyCode::Esc)).is_empty());
    assert_eq!(update(&mut s, key(KeyCode::Esc)), vec![Cmd::StopPodList]);
    // Over a pod, `q` is filter text, not quit; Ctrl-C quits from the picker too.
    update(&mut s, key(KeyCode::Char('P')));
    assert!(update(&mut s, key(KeyCode::Char('q'))).is_empty());
    assert_eq!(s.overlay.switcher().expect("open").picker.filter, "q");
    let ctrl_c = Msg::Key(crossterm::event::KeyEvent::new(
        KeyCode::Char('c'),
        crossterm::event::KeyModifiers::CONTROL,
    ));
    assert!(update(&mut s, ctrl_c).contains(&Cmd::Quit));
}

#[test]
fn with_all_namespaces_the_picker_lists_every_namespace_with_its_column() {
    let mut s = attached();
    s.config.all_namespaces = true;
    assert_eq!(
        update(&mut s, key(KeyCode::Char('P'))),
        vec![Cmd::WatchPodList { namespace: None }]
    );
    let msg = stamped(
        &s,
        Msg::PodList(vec![running("default", "web"), running("shop", "cart")]),
    );
    update(&mut s, msg);
    let sw = s.overlay.switcher().expect("open");
    assert_eq!(sw.picker.columns, column::ALL_NAMESPACES);
    assert_eq!(sw.scope(), "pods in all namespaces");
    // The namespace is on screen, so it is matched.
    for c in "shop/".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(rows(&s).0, ["cart"]);
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
        rows(&s),
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
        rows(&s),
        (
            vec!["web-2".into(), "web-3".into(), "web".into()],
            Some("web".into())
        )
    );
    // The list+watch's messages do not touch given rows.
    let msg = stamped(&s, Msg::PodList(vec![running("default", "other")]));
    update(&mut s, msg);
    assert_eq!(rows(&s).0.len(), 3);
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
    assert_eq!(rows(&s).1, Some(format!("pod-{page:03}")));
    update(&mut s, key(KeyCode::PageDown));
    update(&mut s, key(KeyCode::PageUp));
    assert_eq!(rows(&s).1, Some(format!("pod-{page:03}")));
    for _ in 0..10 {
        update(&mut s, key(KeyCode::PageDown));
    }
    assert_eq!(rows(&s).1.as_deref(), Some("pod-099"));
}
