//! The pod picker end to end against the simulator, without a terminal (`docs/picker.md`):
//! `Session` executes the `Cmd`s `update` returns; the one list+watch fills the picker with the
//! demo scenarios' pods, a pod created or deleted through the API appears or goes, closing the
//! picker stops the watch (the simulator sees it close), `-A` lists every namespace, and Enter
//! attaches as `podscope POD` does.

use crate::common;
use std::time::Duration;

use common::key;
use common::wait::wait_until;
use crossterm::event::KeyCode;
use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;
use podscope::app::state::Config;
use podscope::app::switcher;
use podscope::app::{Cmd, Msg, State, update};
use podscope::cluster::Session;
use podscope::sim::{SimConfig, Simulator};
use podscope::ui::theme::Theme;
use tokio::sync::mpsc::{Receiver, channel};

/// Applies messages (executing their commands, except `Quit`) until `done(state)` or 20 s.
async fn drive(
    state: &mut State,
    rx: &mut Receiver<Msg>,
    session: &mut Session,
    what: &str,
    done: impl Fn(&State) -> bool,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !done(state) {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
            .expect("channel open");
        for cmd in update(state, msg) {
            session.execute(&cmd);
        }
    }
}

/// The picker's row names.
fn names(s: &State) -> Vec<String> {
    s.overlay
        .switcher()
        .map(|sw| sw.picker.rows.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default()
}

/// A bare `podscope` against `sim` (every namespace when `all`): the standalone picker open, its
/// list+watch started, no pod watched.
async fn bare(sim: &Simulator, all: bool) -> (State, Receiver<Msg>, Session) {
    let target = common::sim::target(sim, "default", "").await;
    let (tx, rx) = channel(1024);
    let config = Config {
        can_switch: true,
        all_namespaces: all,
        ..Config::new(Theme::monochrome())
    };
    #[allow(clippy::disallowed_methods)] // the test owns its clock
    let mut state = State::with_config(config, "default", "", Timestamp::now());
    let mut session = Session::without_pod(target, tx);
    for cmd in switcher::open_standalone(&mut state) {
        session.execute(&cmd);
    }
    (state, rx, session)
}

fn loaded(s: &State) -> bool {
    s.overlay.switcher().is_some_and(|sw| !sw.picker.loading)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_picker_lists_and_watches_the_namespace_only_while_open() {
    let sim = Simulator::start(SimConfig::demo())
        .await
        .expect("simulator starts");
    let store = sim.store();
    let (mut state, mut rx, mut session) = bare(&sim, false).await;
    assert!(session.pod_list_running());
    drive(&mut state, &mut rx, &mut session, "the list", loaded).await;
    let listed = names(&state);
    for pod in ["crash", "hello", "coord-2", "catalog-db-0"] {
        assert!(listed.iter().any(|n| n == pod), "{pod} not in {listed:?}");
    }
    // The watch is open (the only one: no pod is watched yet).
    assert!(
        wait_until(Duration::from_secs(20), || store.watchers() == 1).await,
        "watchers: {}",
        store.watchers()
    );
    // A pod created through the store appears, one deleted goes.
    let pod: Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "picker-new", "namespace": "default"},
        "spec": {"containers": [{"name": "app", "image": "busybox:1.37"}]}
    }))
    .expect("pod");
    store.create_pod(pod).expect("created");
    drive(&mut state, &mut rx, &mut session, "the new pod", |s| {
        names(s).iter().any(|n| n == "picker-new")
    })
    .await;
    store.delete_pod("default", "hello").expect("deleted");
    drive(&mut state, &mut rx, &mut session, "hello's deletion", |s| {
        !names(s).iter().any(|n| n == "hello")
    })
    .await;
    // Esc quits the standalone picker; its watch stops, and the simulator sees it close.
    let cmds = update(&mut state, key(KeyCode::Esc));
    assert_eq!(cmds, vec![Cmd::StopPodList, Cmd::Quit]);
    session.execute(&cmds[0]);
    assert!(!session.pod_list_running());
    assert!(
        wait_until(Duration::from_secs(20), || store.watchers() == 0).await,
        "watchers: {}",
        store.watchers()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_attaches_to_the_chosen_pod_as_podscope_pod_does() {
    let sim = Simulator::start(SimConfig::demo())
        .await
        .expect("simulator starts");
    let (mut state, mut rx, mut session) = bare(&sim, false).await;
    drive(&mut state, &mut rx, &mut session, "the list", loaded).await;
    for c in "cra".chars() {
        update(&mut state, key(KeyCode::Char(c)));
    }
    let shown: Vec<String> = state
        .overlay
        .switcher()
        .expect("open")
        .picker
        .shown()
        .iter()
        .map(|p| p.name.clone())
        .collect();
    assert_eq!(shown, ["crash"]);
    for cmd in update(&mut state, key(KeyCode::Enter)) {
        session.execute(&cmd);
    }
    assert!(!session.pod_list_running());
    assert_eq!(session.target().pod, "crash");
    drive(
        &mut state,
        &mut rx,
        &mut session,
        "crash's pod watch",
        |s| s.target.pod.as_ref().is_some_and(|p| p.name == "crash"),
    )
    .await;
    // `P` now opens the picker over crash, highlighting it.
    for cmd in update(&mut state, key(KeyCode::Char('P'))) {
        session.execute(&cmd);
    }
    assert!(session.pod_list_running());
    drive(&mut state, &mut rx, &mut session, "the list again", loaded).await;
    let sw = state.overlay.switcher().expect("open");
    assert!(!sw.standalone);
    assert_eq!(
        sw.picker.selected_row().map(|p| p.name.as_str()),
        Some("crash")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_all_namespaces_the_cases_namespaces_are_listed() {
    let case = common::cluster::cases_dir().join("04-crashloop-oomkilled-jvm");
    let sim = Simulator::start(SimConfig {
        fixtures: vec![case.clone()],
        shift_to_now: true,
        ..SimConfig::demo()
    })
    .await
    .expect("simulator starts");
    let (mut state, mut rx, mut session) = bare(&sim, true).await;
    drive(&mut state, &mut rx, &mut session, "the list", loaded).await;
    let sw = state.overlay.switcher().expect("open");
    let namespaces: std::collections::BTreeSet<&str> = sw
        .picker
        .rows
        .iter()
        .map(|p| p.namespace.as_str())
        .collect();
    let case_ns = common::cluster::namespace(&case);
    assert!(namespaces.contains("default"), "{namespaces:?}");
    assert!(namespaces.contains(case_ns.as_str()), "{namespaces:?}");
}
