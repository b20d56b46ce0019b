//! Shared test helpers: hand-built summaries, key messages, rendering to a `TestBackend`.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use jiff::Timestamp;
use podscope::app::{Msg, State};
use podscope::model::{
    ContainerKind, ContainerState, ContainerSummary, PodPrint, PodSummary, Probes,
};
use podscope::ui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

pub mod built;
pub mod cases;
pub mod cluster;
pub mod core_objects;
pub mod diagnosis;
pub mod kubelet;
pub mod log_pane;
pub mod picker;
pub mod pod_json;
pub mod python;
pub mod run;
pub mod seed;
pub mod sim;
pub mod svg;
pub mod tmux;
pub mod tools;
pub mod wait;

/// A fixed clock for scripts: 2024-06-03T07:20:15Z (case 04's snapshot time).
pub fn t0() -> Timestamp {
    "2024-06-03T07:20:15Z".parse().expect("valid timestamp")
}

/// A running main container named `name`.
pub fn container(name: &str, kind: ContainerKind) -> ContainerSummary {
    ContainerSummary {
        name: name.to_owned(),
        kind,
        image: format!("example/{name}:1"),
        command: Vec::new(),
        ready: true,
        started: Some(true),
        restart_count: 0,
        state: ContainerState::Running { started_at: None },
        last_state: None,
        probes: Probes::default(),
        memory_limit: None,
        ports: Vec::new(),
        backoff: None,
        spec: Default::default(),
    }
}

/// A pod `default/web` with `uid` and the given containers, created 10 minutes before `t0`.
pub fn pod(uid: &str, containers: Vec<ContainerSummary>) -> PodSummary {
    PodSummary {
        namespace: "default".to_owned(),
        name: "web".to_owned(),
        uid: uid.to_owned(),
        resource_version: "1".to_owned(),
        creation_timestamp: Some(t0() - jiff::SignedDuration::from_mins(10)),
        deletion_timestamp: None,
        deletion_grace_period_seconds: None,
        finalizers: Vec::new(),
        owner: None,
        phase: "Running".to_owned(),
        reason: String::new(),
        message: String::new(),
        node: Some("node-1".to_owned()),
        pod_ip: Some("10.0.0.5".to_owned()),
        host_ip: None,
        qos_class: Some("BestEffort".to_owned()),
        restart_policy: "Always".to_owned(),
        termination_grace_period_seconds: 30,
        print: PodPrint {
            ready: 1,
            total: 1,
            status: "Running".to_owned(),
            ..PodPrint::default()
        },
        containers,
        conditions: Vec::new(),
        spec: std::sync::Arc::default(),
        config_source: None,
        labels: std::collections::BTreeMap::new(),
    }
}

/// A state for `default/web` at `t0`, colour theme, not dirty.
pub fn state() -> State {
    let mut s = State::new("default", "web", t0(), Theme::colored());
    s.dirty = false;
    s
}

/// The sidecar `proxy` and the main container `app`, in kubelet order.
pub fn proxy_and_app() -> Vec<ContainerSummary> {
    vec![
        container("proxy", ContainerKind::Sidecar),
        container("app", ContainerKind::Main),
    ]
}

/// A [`state`] after the pod watch applied `pod("uid-1", containers)`, not dirty.
pub fn applied(containers: Vec<ContainerSummary>) -> State {
    let mut s = state();
    podscope::app::update(&mut s, Msg::PodApplied(Box::new(pod("uid-1", containers))));
    s.dirty = false;
    s
}

/// A key press message.
pub fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Renders `state` on a `width`×`height` test terminal.
pub fn render(state: &State, width: u16, height: u16) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|f| podscope::ui::view(f, state))
        .expect("draw");
    terminal.backend().clone()
}

/// The buffer's text, one string per row.
pub fn rows(backend: &TestBackend) -> Vec<String> {
    let buf = backend.buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

/// The buffer's text as one string (rows joined with newlines).
pub fn text(backend: &TestBackend) -> String {
    rows(backend).join("\n")
}

/// The texts of the log pane's lines in view order (after filters, with markers and events).
pub fn log_texts(state: &State) -> Vec<String> {
    (0..state.target.logs.view_len())
        .filter_map(|p| state.target.logs.view_line(p).map(|(_, l)| l.text.clone()))
        .collect()
}
