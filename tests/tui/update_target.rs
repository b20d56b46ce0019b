//! `update` scripts for the target: the config survives a pod switch, every message a cluster
//! task sends is stamped with the generation of the target it was started for and dropped once
//! that target is gone (switched away from, or the pod re-created), and the overlay's scroll
//! limits come from the view's measures (`Msg::Measured`).

use crate::common;
use common::log_pane::{lines_msg, opened, raw};
use common::{container, key, log_texts as texts, pod, proxy_and_app, t0};
use crossterm::event::KeyCode;
use podscope::app::generation::Generation;
use podscope::app::msg::ForwardMsg;
use podscope::app::overlay::{Extents, Overlay};
use podscope::app::state::Connection;
use podscope::app::switcher::PodChoice;
use podscope::app::{Cmd, Config, Msg, State, update};
use podscope::model::forward_status::{ForwardState, ForwardStatus};
use podscope::model::{ContainerKind, PodSummary};
use podscope::ui::theme::Theme;

/// `msg` as a task started for `generation` sends it.
fn from(generation: u64, msg: Msg) -> Msg {
    Msg::for_target(Generation(generation), msg)
}

/// `default/crash` with one container `app`.
fn crash(uid: &str) -> PodSummary {
    let mut p = pod(uid, vec![container("app", ContainerKind::Main)]);
    p.name = "crash".to_owned();
    p
}

/// The demo's state with `--shell zsh`, `--log-lines 500`, NO_COLOR, switching allowed.
fn demo_state() -> State {
    let config = Config {
        shells: podscope::app::shell::shells(Some("zsh")),
        log_lines: 500,
        can_switch: true,
        ..Config::new(Theme::monochrome())
    };
    let mut s = State::with_config(config, "default", "web", t0());
    update(
        &mut s,
        from(1, Msg::PodApplied(Box::new(pod("uid-1", proxy_and_app())))),
    );
    s
}

/// Switches through the switcher (`P`, the list, `↓` to `default/crash`, Enter).
fn switch_to_crash(s: &mut State) -> Vec<Cmd> {
    assert_eq!(
        update(s, key(KeyCode::Char('P'))),
        vec![Cmd::WatchPodList {
            namespace: Some("default".into())
        }]
    );
    update(
        s,
        Msg::PodList(vec![
            PodChoice::named("default", "web"),
            PodChoice::named("default", "crash"),
        ]),
    );
    update(s, key(KeyCode::Up));
    update(s, key(KeyCode::Enter))
}

#[test]
fn the_config_survives_a_pod_switch() {
    let mut s = demo_state();
    let cmds = switch_to_crash(&mut s);
    assert_eq!(
        cmds,
        vec![
            Cmd::StopPodList,
            Cmd::SwitchPod {
                namespace: "default".into(),
                name: "crash".into(),
                generation: Generation(2),
            }
        ]
    );
    update(&mut s, from(2, Msg::PodApplied(Box::new(crash("uid-c")))));
    assert_eq!(
        update(&mut s, key(KeyCode::Char('e'))),
        vec![Cmd::OpenShell {
            container: "app".into(),
            shells: vec!["zsh".into()],
        }]
    );
    assert_eq!(s.config.theme, Theme::monochrome());
    assert!(s.config.can_switch);
    assert_eq!(s.target.logs.buffer.capacity(), 500);
}

#[test]
fn log_lines_of_the_old_pod_do_not_land_in_the_new_pods_stream() {
    let mut s = demo_state();
    update(&mut s, key(KeyCode::Char('l')));
    switch_to_crash(&mut s);
    update(&mut s, from(2, Msg::PodApplied(Box::new(crash("uid-c")))));
    // The new pod's pane reads stream 1 again.
    let cmds = update(&mut s, key(KeyCode::Char('l')));
    assert!(
        matches!(&cmds[..], [Cmd::FollowLogs { stream: 1, container, .. }] if container == "app"),
        "{cmds:?}"
    );
    // A batch of the old pod's stream 1, still queued, then the new pod's.
    update(
        &mut s,
        from(1, lines_msg(1, vec![raw("app", 1, "old pod")])),
    );
    update(
        &mut s,
        from(2, lines_msg(1, vec![raw("app", 2, "new pod")])),
    );
    assert_eq!(texts(&s), ["new pod"]);
}

#[test]
fn a_forward_status_of_the_old_pod_does_not_update_the_new_pods_forward() {
    let mut s = demo_state();
    let spec: podscope::model::forward::PortSpec = "8080:80".parse().expect("spec");
    podscope::app::forwards::add(&mut s, spec.clone());
    switch_to_crash(&mut s);
    let cmds = podscope::app::forwards::add(&mut s, spec.clone());
    assert!(
        matches!(&cmds[..], [Cmd::AddForward { id: 0, .. }]),
        "{cmds:?}"
    );
    let status = |state| ForwardStatus {
        state,
        ..ForwardStatus::new(spec.clone())
    };
    let old = ForwardMsg::Status {
        id: 0,
        status: status(ForwardState::Broken),
    };
    update(&mut s, from(1, Msg::Forward(old)));
    assert_eq!(s.target.forwards.entries[0].state_word(), "starting");
    let new = ForwardMsg::Status {
        id: 0,
        status: status(ForwardState::Listening),
    };
    update(&mut s, from(2, Msg::Forward(new)));
    assert_eq!(s.target.forwards.entries[0].state_word(), "listening");
}

#[test]
fn the_old_pods_events_and_absence_are_dropped_after_a_switch() {
    let mut s = demo_state();
    switch_to_crash(&mut s);
    update(&mut s, from(2, Msg::PodApplied(Box::new(crash("uid-c")))));
    let event = podscope::model::EventSummary {
        uid: "e-old".to_owned(),
        type_: "Warning".to_owned(),
        reason: "BackOff".to_owned(),
        message: "Back-off restarting failed container app".to_owned(),
        count: 1,
        first_timestamp: Some(t0()),
        last_timestamp: Some(t0()),
        last_timestamp_field: Some(t0()),
        source: "kubelet".to_owned(),
        field_path: String::new(),
    };
    assert!(update(&mut s, from(1, Msg::EventsReset(vec![event]))).is_empty());
    assert!(update(&mut s, from(1, Msg::PodAbsent)).is_empty());
    assert!(s.target.events.is_empty());
    assert_eq!(s.target.connection, Connection::Live);
    assert_eq!(
        s.target.pod.as_ref().map(|p| p.name.as_str()),
        Some("crash")
    );
}

#[test]
fn a_recreated_pod_is_a_new_generation_and_generations_only_grow() {
    let mut s = opened();
    update(&mut s, from(1, lines_msg(1, vec![raw("app", 1, "first")])));
    assert_eq!(texts(&s), ["first"]);
    let cmds = update(
        &mut s,
        from(1, Msg::PodApplied(Box::new(pod("uid-2", proxy_and_app())))),
    );
    assert_eq!(
        cmds[..2],
        [
            Cmd::PodRecreated {
                generation: Generation(2)
            },
            Cmd::WatchEvents {
                uid: "uid-2".into()
            }
        ]
    );
    // The pane stays open on app and reads the new instance, from stream 1 again.
    assert!(
        matches!(&cmds[2..], [Cmd::FollowLogs { stream: 1, container, .. }, Cmd::WatchNode { .. }, Cmd::PollMetrics] if container == "app"),
        "{cmds:?}"
    );
    assert!(s.target.logs.shown);
    update(&mut s, from(1, lines_msg(1, vec![raw("app", 2, "old")])));
    assert!(texts(&s).is_empty(), "{:?}", texts(&s));
    update(&mut s, from(2, lines_msg(1, vec![raw("app", 3, "new")])));
    assert_eq!(texts(&s), ["new"]);
    // The old watch's stale view of the pod is dropped too.
    assert!(update(&mut s, from(1, Msg::PodAbsent)).is_empty());
    assert!(s.target.pod.is_some());
    s.config.can_switch = true;
    assert!(matches!(
        switch_to_crash(&mut s)[..],
        [
            Cmd::StopPodList,
            Cmd::SwitchPod {
                generation: Generation(3),
                ..
            }
        ]
    ));
}

#[test]
fn scrolls_stop_at_what_the_view_measured() {
    let mut s = common::applied(proxy_and_app());
    update(&mut s, key(KeyCode::Char('?')));
    update(
        &mut s,
        Msg::Measured(Extents {
            help_max_scroll: 3,
            diagnosis_max_scroll: 2,
            diagnosis_page: 5,
        }),
    );
    for _ in 0..10 {
        update(&mut s, key(KeyCode::Down));
    }
    assert_eq!(s.overlay.help_scroll(), Some(3));
    update(&mut s, key(KeyCode::Esc));
    update(&mut s, key(KeyCode::Enter));
    update(&mut s, key(KeyCode::PageDown));
    assert_eq!(s.overlay, Overlay::Diagnosis { scroll: 2 });
    // A smaller measure (a resize) clamps what is open.
    update(
        &mut s,
        Msg::Measured(Extents {
            help_max_scroll: 0,
            diagnosis_max_scroll: 1,
            diagnosis_page: 5,
        }),
    );
    assert_eq!(s.overlay, Overlay::Diagnosis { scroll: 1 });
}

/// A switch closes the old pod's forwards (they target it by name) and says so in the status
/// line, naming the pod they forwarded to.
#[test]
fn a_switch_closes_the_forwards_and_says_which() {
    let mut s = demo_state();
    for spec in ["8080:80", "9090:9090"] {
        podscope::app::forwards::add(&mut s, spec.parse().expect("spec"));
    }
    switch_to_crash(&mut s);
    assert!(s.target.forwards.entries.is_empty());
    assert_eq!(
        s.target.logs.status.as_deref(),
        Some("closed 2 port-forwards of web")
    );
    podscope::app::forwards::add(&mut s, "8080:80".parse().expect("spec"));
    // Back to web through the list: one forward of crash closed.
    assert_eq!(
        update(&mut s, key(KeyCode::Char('P'))),
        vec![Cmd::WatchPodList {
            namespace: Some("default".into())
        }]
    );
    update(
        &mut s,
        Msg::PodList(vec![
            PodChoice::named("default", "web"),
            PodChoice::named("default", "crash"),
        ]),
    );
    update(&mut s, key(KeyCode::Down));
    update(&mut s, key(KeyCode::Enter));
    assert_eq!(s.target.name, "web");
    assert_eq!(
        s.target.logs.status.as_deref(),
        Some("closed 1 port-forward of crash")
    );
}
