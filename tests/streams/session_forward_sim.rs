//! End to end against the in-process simulator: the TUI's Session runs a `--forward`-equivalent
//! (`forwards::add` → `Cmd::AddForward`), its `Msg::Forward` statuses go through `update`, and
//! the seed's `hello from hello` comes back through the forward; nothing listens afterwards. A
//! forward on a taken port is dropped with its reason on the status line.

use crate::stream_support;
use std::time::Duration;

use podscope::app::{State, update};
use podscope::cluster::Session;
use podscope::model::forward::PortSpec;
use stream_support::wait::wait_until;
use stream_support::{body, get, pump_until};

/// A cluster target for the seed's `hello` pod in `default` on `sim`.
async fn hello_target(sim: &podscope::sim::Simulator) -> podscope::cluster::Target {
    podscope::cluster::connect(
        &podscope::cluster::ConnectOptions {
            kubeconfig: Some(sim.kubeconfig_path().to_path_buf()),
            context: None,
            namespace: Some("default".into()),
        },
        "hello",
    )
    .await
    .expect("connects")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_forward_fetches_hello_from_hello() {
    let sim = stream_support::start().await;
    let target = hello_target(&sim).await;
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let now = "2024-06-03T07:20:15Z".parse().expect("time");
    let mut state = State::new(
        "default",
        "hello",
        now,
        podscope::ui::theme::Theme::colored(),
    );
    let mut session = Session::start(target, tx);
    let spec: PortSpec = "0:8081".parse().expect("spec");
    for cmd in podscope::app::forwards::add(&mut state, spec) {
        session.execute(&cmd);
    }
    pump_until(&mut state, &mut rx, &mut session, |s| {
        s.target.forwards.entries[0]
            .status
            .as_ref()
            .is_some_and(|st| st.local.is_some())
    })
    .await;
    let local = state.target.forwards.entries[0]
        .status
        .as_ref()
        .and_then(|s| s.local)
        .expect("bound");
    assert_eq!(state.target.forwards.entries[0].state_word(), "listening");
    let resp = get(local, "/").await;
    if resp.is_empty() {
        // Apply what the forward reported so far, for the failure message.
        while let Ok(m) = rx.try_recv() {
            update(&mut state, m);
        }
    }
    assert_eq!(
        body(&resp),
        "hello from hello\n",
        "response {resp:?}; forward {:?}",
        state.target.forwards.entries[0]
    );
    pump_until(&mut state, &mut rx, &mut session, |s| {
        s.target.forwards.entries[0]
            .status
            .as_ref()
            .is_some_and(|st| st.total_connections == 1 && st.bytes_in > 0)
    })
    .await;
    drop(session);
    let closed = wait_until(Duration::from_secs(10), || {
        std::net::TcpStream::connect(local).is_err()
    })
    .await;
    assert!(closed, "nothing listens on {local} after the session ends");
}

/// A `--forward` whose port is taken on both loopbacks: the session's `Msg::Forward(Failed)`
/// drops the row and the footer's status line says why (the panel is not shown).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_forward_on_a_taken_port_is_dropped_with_its_reason() {
    let sim = stream_support::start().await;
    let target = hello_target(&sim).await;
    let v4 = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let port = v4.local_addr().expect("addr").port();
    // Taken on [::1] too where the host has it (else [::1] cannot be bound at all).
    let _v6 = tokio::net::TcpListener::bind(("::1", port)).await.ok();
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let now = "2024-06-03T07:20:15Z".parse().expect("time");
    let mut state = State::new(
        "default",
        "hello",
        now,
        podscope::ui::theme::Theme::colored(),
    );
    let mut session = Session::start(target, tx);
    let spec: PortSpec = format!("{port}:8081").parse().expect("spec");
    for cmd in podscope::app::forwards::add(&mut state, spec) {
        session.execute(&cmd);
    }
    pump_until(&mut state, &mut rx, &mut session, |s| {
        s.target.forwards.entries.is_empty()
    })
    .await;
    let status = state.target.logs.status.clone().unwrap_or_default();
    assert!(
        status.starts_with(&format!(
            "forward {port}:8081 failed: unable to listen on 127.0.0.1:{port}"
        )) && status.contains(&format!("[::1]:{port}")),
        "{status}"
    );
}
