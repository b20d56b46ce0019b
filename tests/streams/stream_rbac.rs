//! RBAC 403 for exec, port-forward and ephemeral containers, end to end against the simulator
//! (HTTPS, token, `SimConfig::deny`): `podscope exec`, `port-forward` and `debug` print one line
//! naming the verb, the resource and the namespace and exit 1 (port-forward binding nothing); in
//! the TUI (`Session` + `update`) each refusal lands in the status line or the forward panel and
//! the pod view stays live.

use crate::common;
use crate::stream_support;
use crossterm::event::KeyCode;
use podscope::app::msg::ShellEnd;
use podscope::app::state::Connection;
use podscope::app::{Cmd, Msg, State, update};
use podscope::cluster::Session;
use podscope::cluster::exec::run_shell_with_io;
use podscope::cluster::forward::{ForwardError, Forwarder};
use podscope::cluster::shell::shell_end;
use stream_support::{
    Buf, client, kubeconfig, podscope, podscope_exec, pump_until, run, start_denying,
};

const EXEC_REFUSED: &str = "pods \"hello\" is forbidden: cannot create resource \"pods/exec\" in API group \"\" in the namespace \"default\"";
const FORWARD_REFUSED: &str = "error upgrading connection: pods \"hello\" is forbidden: cannot create resource \"pods/portforward\" in API group \"\" in the namespace \"default\"";
const DEBUG_REFUSED: &str = "pods \"hello\" is forbidden: User \"podscope-sim\" cannot patch resource \"pods/ephemeralcontainers\" in API group \"\" in the namespace \"default\"";

/// `podscope exec hello -c proxy -- hostname` against a simulator denying `deny`.
async fn exec_hostname_denied(deny: &[(&str, &str)]) -> (i32, String, String) {
    let sim = start_denying(deny).await;
    podscope_exec(&sim, &["hello", "-c", "proxy", "--", "hostname"], None).await
}

/// `create pods/exec` denied: the API server's extra check on the WebSocket upgrade gives an
/// empty reason, which podscope completes; a denied `get` is the filter's own full sentence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_exec_refused_names_verb_resource_and_namespace() {
    let (code, out, err) = exec_hostname_denied(&[("create", "pods/exec")]).await;
    let want = format!("Error from server (Forbidden): {EXEC_REFUSED}\n");
    assert_eq!((code, out.as_str(), err.as_str()), (1, "", want.as_str()));

    let (code, out, err) = exec_hostname_denied(&[("get", "pods/exec")]).await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "",
            "Error from server (Forbidden): pods \"hello\" is forbidden: User \"podscope-sim\" cannot get resource \"pods/exec\" in API group \"\" in the namespace \"default\"\n"
        )
    );
}

/// `create pods/portforward` denied: found before binding, kubectl's `error upgrading
/// connection:` line, exit 1, and the local port is free afterwards (the library leaves it
/// unbound too: this process can bind it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_port_forward_refused_leaves_nothing_listening() {
    let sim = start_denying(&[("create", "pods/portforward")]).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let kc = kubeconfig(&sim);
    let spec = format!("{port}:8081");
    let args = ["port-forward", "--kubeconfig", &kc, "hello", &spec];
    let (code, out, err) = run(podscope(), &args, None).await;
    let want = format!("error: {FORWARD_REFUSED}\n");
    assert_eq!((code, out.as_str(), err.as_str()), (1, "", want.as_str()));
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err(),
        "something listens on {port}"
    );
    let spec = spec.parse().expect("spec");
    match Forwarder::start(client(&sim).await, "default", "hello", &[spec]).await {
        Err(e @ ForwardError::Forbidden(_)) => assert_eq!(e.to_string(), FORWARD_REFUSED),
        Err(e) => panic!("expected Forbidden, got {e}"),
        Ok(_) => panic!("a refused forward started"),
    }
    let free = tokio::net::TcpListener::bind(("127.0.0.1", port)).await;
    assert!(free.is_ok(), "port {port} still bound: {free:?}");
}

/// `patch pods/ephemeralcontainers` denied: the filter's sentence as the only stderr line, exit
/// 1, no ephemeral container added.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_debug_refused_adds_nothing() {
    let sim = start_denying(&[("patch", "pods/ephemeralcontainers")]).await;
    let kc = kubeconfig(&sim);
    let args = ["debug", "--kubeconfig", &kc, "hello", "--target", "hello"];
    let (code, out, err) = run(podscope(), &args, Some("")).await;
    let want = format!("Error from server (Forbidden): {DEBUG_REFUSED}\n");
    assert_eq!((code, out.as_str(), err.as_str()), (1, "", want.as_str()));
    let pod = sim.store().pod("default", "hello").expect("pod");
    assert_eq!(pod.spec.and_then(|s| s.ephemeral_containers), None);
}

/// The TUI with all three denied: `e` (run as the loop's hand-off would, without a terminal),
/// `d` and a forward each end in a message naming verb, resource and namespace, on screen; the
/// pod watch goes on (a restart made afterwards shows).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tui_shows_each_refusal_and_the_pod_view_stays_live() {
    let sim = start_denying(&[
        ("create", "pods/exec"),
        ("create", "pods/portforward"),
        ("patch", "pods/ephemeralcontainers"),
    ])
    .await;
    let target = common::sim::target(&sim, "default", "hello").await;
    let kube = target.client.clone();
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let mut state = State::new(
        "default",
        "hello",
        common::t0(),
        podscope::ui::theme::Theme::colored(),
    );
    state.config.preferred_container = Some("proxy".into());
    let mut session = Session::start(target, tx);
    pump_until(&mut state, &mut rx, &mut session, |s| {
        s.target.connection == Connection::Live && s.target.pod.is_some()
    })
    .await;

    let cmds = update(&mut state, common::key(KeyCode::Char('e')));
    let [Cmd::OpenShell { container, shells }] = cmds.as_slice() else {
        panic!("{cmds:?}")
    };
    let api = kube::Api::namespaced(kube, "default");
    let (_keys, keys_rx) = tokio::sync::mpsc::channel(1);
    let result = run_shell_with_io(&api, "hello", container, shells, keys_rx, Buf::default()).await;
    let end = shell_end(result);
    assert_eq!(
        end,
        ShellEnd::Failed(format!("Error from server (Forbidden): {EXEC_REFUSED}"))
    );
    update(
        &mut state,
        Msg::ShellExited {
            container: container.clone(),
            result: end,
        },
    );
    let status = |s: &State| s.target.logs.status.clone().unwrap_or_default();
    assert_eq!(
        status(&state),
        format!("shell failed: Error from server (Forbidden): {EXEC_REFUSED}")
    );
    let screen = common::text(&common::render(&state, 300, 40));
    assert!(screen.contains(&status(&state)), "{screen}");

    for cmd in update(&mut state, common::key(KeyCode::Char('d'))) {
        session.execute(&cmd);
    }
    pump_until(&mut state, &mut rx, &mut session, |s| {
        status(s).starts_with("debug container failed")
    })
    .await;
    assert_eq!(
        status(&state),
        format!("debug container failed: {DEBUG_REFUSED}")
    );

    let spec = "0:8081".parse().expect("spec");
    for cmd in podscope::app::forwards::add(&mut state, spec) {
        session.execute(&cmd);
    }
    // A refused forward is not listed (as in k9s); the status line says why, whole at 300
    // columns.
    pump_until(&mut state, &mut rx, &mut session, |s| {
        s.target.forwards.entries.is_empty()
    })
    .await;
    assert_eq!(
        status(&state),
        format!("forward :8081 failed: {FORWARD_REFUSED}")
    );
    let screen = common::text(&common::render(&state, 300, 40));
    assert!(screen.contains(&status(&state)), "{screen}");

    sim.store()
        .update_pod("default", "hello", |p| {
            // proxy is a native sidecar: its status is among the init containers'.
            let st = p.status.as_mut().expect("status");
            for c in st.init_container_statuses.iter_mut().flatten() {
                c.restart_count = 9;
            }
        })
        .expect("updated");
    pump_until(&mut state, &mut rx, &mut session, |s| {
        s.selected_container().is_some_and(|c| c.restart_count == 9)
    })
    .await;
    assert_eq!(state.target.connection, Connection::Live);
}
