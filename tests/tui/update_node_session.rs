//! The pod's node end to end against the simulator, without a terminal (`docs/nodes.md` §2):
//! `Session` executes what `update` returns; the one node watch delivers `sim-node-1` (Ready)
//! and the header shows it; with `list`/`watch` of nodes refused (403) the line stays hidden and
//! nothing of the refusal reaches the screen.

use crate::common;
use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;
use podscope::app::state::Config;
use podscope::app::{Msg, State, update};
use podscope::cluster::Session;
use podscope::sim::{SimConfig, Simulator};
use podscope::ui::theme::Theme;
use tokio::sync::mpsc::{Receiver, channel};

/// Applies messages (executing their commands) until `done(state)` or 20 s.
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

/// `podscope hello` against a simulator running the `hello` scenario, with `deny`.
async fn attached(deny: &[(&str, &str)]) -> (Simulator, State, Receiver<Msg>, Session) {
    let sim = Simulator::start(SimConfig {
        scenarios: vec![PathBuf::from("hello")],
        deny: deny
            .iter()
            .map(|(v, r)| ((*v).to_owned(), (*r).to_owned()))
            .collect(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let target = common::sim::target(&sim, "default", "hello").await;
    let (tx, rx) = channel(1024);
    #[allow(clippy::disallowed_methods)] // the test owns its clock
    let state = State::with_config(
        Config::new(Theme::monochrome()),
        "default",
        "hello",
        Timestamp::now(),
    );
    let session = Session::start(target, tx);
    (sim, state, rx, session)
}

fn header(s: &State) -> Vec<String> {
    common::rows(&common::render(s, 80, 24))
        .into_iter()
        .take(4)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_session_watches_the_pods_node() {
    let (sim, mut state, mut rx, mut session) = attached(&[]).await;
    drive(&mut state, &mut rx, &mut session, "the node", |s| {
        s.target.node.shown().is_some()
    })
    .await;
    let node = state.target.node.shown().expect("node");
    assert_eq!(node.name, "sim-node-1");
    assert_eq!(node.status_text(), "Ready");
    let rows = header(&state);
    assert!(
        rows.iter()
            .any(|r| r.trim_end() == "node sim-node-1  Ready"),
        "{rows:#?}"
    );
    drop(sim);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_node_watch_hides_the_line_and_says_nothing() {
    let (_sim, mut state, mut rx, mut session) =
        attached(&[("list", "nodes"), ("watch", "nodes")]).await;
    drive(&mut state, &mut rx, &mut session, "the refusal", |s| {
        s.target.node.hidden
    })
    .await;
    let screen = common::text(&common::render(&state, 80, 24));
    assert!(!screen.lines().any(|l| l.starts_with("node ")), "{screen}");
    assert!(!screen.to_lowercase().contains("forbidden"), "{screen}");
    assert!(screen.contains("● live"), "{screen}");
    // The placement line still names the node.
    assert!(screen.contains("node sim-node-1"), "{screen}");
}
