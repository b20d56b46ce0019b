//! Port-forward through podscope's `Forwarder` against the in-process simulator (kube-rs,
//! WebSocket v4 channel protocol, protocols.md §4.3).

use crate::common;
use crate::stream_support;
use std::time::Duration;

use common::kubelet::pod_from_yaml;
use common::sim::wait_pod;
use jiff::SignedDuration;
use k8s_openapi::api::core::v1::Pod;
use podscope::cluster::forward::{ForwardError, Forwarder};
use podscope::model::forward::PortSpec;
use podscope::model::forward_status::{ForwardState, ForwardStatus};
use podscope::sim::{SimClock, SimConfig, Simulator, create_pod_and_run};
use regex::Regex;
use stream_support::{body, client, get, get_keep_alive};

async fn settled(fwd: &Forwarder, pred: impl Fn(&ForwardStatus) -> bool) -> ForwardStatus {
    let mut rx = fwd.subscribe();
    let st = tokio::time::timeout(
        Duration::from_secs(10),
        rx.wait_for(|v| v.first().is_some_and(&pred)),
    )
    .await
    .expect("status settles")
    .expect("channel open");
    st[0].clone()
}

fn spec(s: &str) -> PortSpec {
    s.parse().expect("port spec")
}

/// Seed 000: `kubectl port-forward pod/hello 8081:8081`, `curl 127.0.0.1:8081/` → `hello from hello`
/// (through the nginx sidecar), and the named port `http` straight to the app.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_answers_through_the_forwarder() {
    let sim = stream_support::start().await;
    let fwd = Forwarder::start(
        client(&sim).await,
        "default",
        "hello",
        &[spec(":8081"), spec(":http")],
    )
    .await
    .expect("binds");
    let addrs = fwd.local_addrs().to_vec();
    assert!(addrs.iter().all(|a| a.ip().is_loopback()));
    let resp = get(addrs[0], "/").await;
    assert!(resp.starts_with("HTTP/1.1 200 OK\r\n"), "{resp}");
    assert_eq!(body(&resp), "hello from hello\n");
    assert_eq!(body(&get(addrs[0], "/nginx-health").await), "ok\n");
    assert_eq!(body(&get(addrs[1], "/healthz").await), "ok\n");
    assert_eq!(body(&get(addrs[1], "/nope").await), "404 page not found\n");
    // As curl: keep-alive, the client closes first once it has the body. A clean end, not an
    // error (the simulator completes the WebSocket closing handshake).
    for _ in 0..3 {
        assert_eq!(
            body(&get_keep_alive(addrs[0], "/").await),
            "hello from hello\n"
        );
    }
    let st = settled(&fwd, |s| {
        s.total_connections == 5 && s.open_connections == 0
    })
    .await;
    assert_eq!(st.state, ForwardState::Listening);
    assert_eq!(st.remote_port, Some(8081));
    assert!(st.bytes_out > 0 && st.bytes_in > 0, "{st:?}");
    assert_eq!(st.last_error, None);
    assert_eq!(fwd.statuses()[1].remote_port, Some(8080));
    fwd.stop().await;
    for a in addrs {
        assert!(
            tokio::net::TcpStream::connect(a).await.is_err(),
            "{a} still listening"
        );
    }
}

/// Case 31: nothing listens on 6000 → the kubelet's text on the error channel, forward Broken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_port_reports_the_kubelet_error() {
    let sim = stream_support::start().await;
    let fwd = Forwarder::start(
        client(&sim).await,
        "workflow",
        "flow-engine-79bddd6df4-ft5jx",
        &[spec(":6000")],
    )
    .await
    .expect("binds");
    let resp = get(fwd.local_addrs()[0], "/").await;
    assert_eq!(resp, "");
    let st = settled(&fwd, |s| s.state == ForwardState::Broken).await;
    // The wording of case 31's expected.md, ids replaced by patterns.
    let want = Regex::new(r#"^error forwarding port 6000 to pod [0-9a-f]{64}, uid : failed to execute portforward in network namespace "/var/run/netns/cni-[0-9a-f-]{36}": failed to connect to localhost:6000 inside namespace "[0-9a-f]{64}", IPv4: dial tcp4 127\.0\.0\.1:6000: connect: connection refused IPv6 dial tcp6 \[::1\]:6000: connect: connection refused$"#).expect("regex");
    let err = st.last_error.expect("error text");
    assert!(want.is_match(&err), "{err}");
    let expected_md = std::fs::read_to_string(stream_support::case("31-").join("expected.md"))
        .expect("expected.md");
    let tail = "failed to connect to localhost:6000 inside namespace";
    assert!(expected_md.contains(tail) && err.contains(tail));
    // The declared port 8080 works on the same pod.
    let fwd2 = Forwarder::start(
        client(&sim).await,
        "workflow",
        "flow-engine-79bddd6df4-ft5jx",
        &[spec(":8080")],
    )
    .await
    .expect("binds");
    assert!(
        get(fwd2.local_addrs()[0], "/")
            .await
            .starts_with("HTTP/1.1 200 OK")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_port_in_use_is_a_clear_error() {
    let sim = stream_support::start().await;
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let port = taken.local_addr().expect("addr").port();
    let err = match Forwarder::start(
        client(&sim).await,
        "default",
        "hello",
        // The given address alone: without one, [::1] would still serve (see
        // tests/streams/forward_loopback.rs).
        &[spec(&format!("127.0.0.1:{port}:8081"))],
    )
    .await
    {
        Err(e) => e,
        Ok(_) => panic!("bound a port in use"),
    };
    assert!(matches!(err, ForwardError::Bind { .. }));
    assert_eq!(
        err.to_string(),
        format!("unable to listen on 127.0.0.1:{port}: address already in use")
    );
}

/// A pod deleted and created again under the same name: new connections reach the new pod.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recreated_pod_gets_new_connections() {
    let sim = stream_support::start().await;
    let fwd = Forwarder::start(client(&sim).await, "default", "hello", &[spec(":http")])
        .await
        .expect("binds");
    let addr = fwd.local_addrs()[0];
    assert_eq!(body(&get(addr, "/").await), "hello from hello\n");
    let store = sim.store();
    let mut pod = store.delete_pod("default", "hello").expect("deleted");
    assert!(get(addr, "/").await.is_empty());
    let broken = settled(&fwd, |s| s.state == ForwardState::Broken).await;
    assert_eq!(
        broken.last_error.as_deref(),
        Some("pods \"hello\" not found")
    );
    let since = broken
        .broken_since
        .expect("broken since the failed connection");
    pod.metadata.uid = Some("second-instance".into());
    pod.metadata.resource_version = None;
    pod.spec.as_mut().expect("spec").hostname = Some("hello-2".into());
    store.create_pod(pod).expect("created");
    assert_eq!(body(&get(addr, "/").await), "hello from hello-2\n");
    // The panel's gap: from the failure to the first answer of the new pod.
    let st = settled(&fwd, |s| s.state == ForwardState::Listening).await;
    assert_eq!(st.broken_since, None);
    let gap = st.last_gap.expect("a gap");
    assert_eq!(gap.from, since);
    assert!(gap.to > gap.from, "{gap:?}");
}

/// A pod whose only container (the seed's hello app) exits with code 2 three seconds after each
/// start but the second: `restartPolicy: Always` (the default) restarts it at the kubelet's next
/// sync, 1 s after the exit, and the second instance keeps running.
const RESTARTING_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: flaky
spec:
  containers:
  - name: hello
    image: ghcr.io/example/hello:1.0
    ports:
    - name: http
      containerPort: 8080
    env:
    - name: SIM_EXIT_CODE
      value: "2"
    - name: SIM_EXIT_AFTER
      value: "1,86400"
"#;

/// `(restartCount, running)` of the pod's `hello` container.
fn hello_container(p: &Pod) -> (i32, bool) {
    let cs = p
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|v| v.iter().find(|c| c.name == "hello"));
    cs.map_or((-1, false), |c| {
        (
            c.restart_count,
            c.state.as_ref().is_some_and(|st| st.running.is_some()),
        )
    })
}

/// The container behind the forwarded port restarts. Connections while it is down get
/// the kubelet's "connection refused" text, the next connection reaches the new instance without
/// anyone doing anything, and the status shows the gap (`broken_since`, then `last_gap`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn container_restart_is_a_gap_then_new_connections_reach_it() {
    // A clock at a quarter of real time: the instance runs 4 s and the container is down for
    // 4 s before the kubelet's next sync, room enough for the test's connections on a busy CI.
    #[allow(clippy::disallowed_methods)] // the simulated clock starts at the real now
    let start = jiff::Timestamp::now();
    let sim = Simulator::start(SimConfig {
        clock: SimClock::scaled(start, 0.25),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let store = sim.store();
    create_pod_and_run(&store, "default", pod_from_yaml(RESTARTING_POD)).expect("created");
    wait_pod(&store, "flaky", 20, |p| hello_container(p) == (0, true)).await;
    let fwd = Forwarder::start(client(&sim).await, "default", "flaky", &[spec(":http")])
        .await
        .expect("binds");
    let addr = fwd.local_addrs()[0];
    assert_eq!(body(&get(addr, "/").await), "hello from flaky\n");
    let st = settled(&fwd, |s| {
        s.total_connections == 1 && s.open_connections == 0
    })
    .await;
    assert_eq!(
        (st.state, st.broken_since, st.last_gap),
        (ForwardState::Listening, None, None)
    );
    // The process exited; the kubelet restarts it at its next sync, 1 s (simulated) later.
    wait_pod(&store, "flaky", 20, |p| hello_container(p) == (0, false)).await;
    assert_eq!(
        get(addr, "/").await,
        "",
        "a connection while the container is down"
    );
    let broken = settled(&fwd, |s| s.state == ForwardState::Broken).await;
    let err = broken.last_error.clone().expect("the kubelet's text");
    assert!(
        err.starts_with("error forwarding port 8080 to pod ")
            && err.contains("dial tcp4 127.0.0.1:8080: connect: connection refused"),
        "{err}"
    );
    let since = broken
        .broken_since
        .expect("broken since the failed connection");
    assert_eq!(broken.last_gap, None);
    wait_pod(&store, "flaky", 20, |p| hello_container(p) == (1, true)).await;
    assert_eq!(body(&get(addr, "/").await), "hello from flaky\n");
    let st = settled(&fwd, |s| s.state == ForwardState::Listening).await;
    assert_eq!((st.broken_since, st.total_connections), (None, 3));
    assert_eq!(
        st.last_error,
        Some(err),
        "the last error stays for the panel"
    );
    let gap = st.last_gap.expect("a gap");
    assert_eq!(gap.from, since);
    assert!(
        gap.to > gap.from && gap.length() < SignedDuration::from_secs(10),
        "{gap:?}"
    );
    fwd.stop().await;
    sim.shutdown().await;
}

/// `podscope port-forward` checks the pod before binding anything, as kubectl does: an
/// undeclared port name fails at once with kubectl's words, and nothing listens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_refuses_an_undeclared_port_name_before_binding() {
    let sim = stream_support::start().await;
    let kc = stream_support::kubeconfig(&sim);
    let (code, out, err) = stream_support::run(
        stream_support::podscope(),
        &["port-forward", "--kubeconfig", &kc, "hello", "0:nosuch"],
        None,
    )
    .await;
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: Pod 'hello' does not have a named port 'nosuch'\n"
    );
}

/// A server that is gone is named with its cause, not just kube-rs' outer `client error
/// (Connect)`: a setup error, one line and exit 2 as for every subcommand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_names_the_cause_when_the_server_is_gone() {
    let sim = stream_support::start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let kc = dir.path().join("kubeconfig");
    std::fs::copy(sim.kubeconfig_path(), &kc).expect("kubeconfig copied");
    sim.shutdown().await;
    let kc = kc.display().to_string();
    for args in [
        vec!["port-forward", "--kubeconfig", &kc, "hello", "0:8081"],
        vec!["logs", "--kubeconfig", &kc, "hello"],
        vec!["exec", "--kubeconfig", &kc, "hello", "--", "true"],
    ] {
        let (code, _, err) = stream_support::run(stream_support::podscope(), &args, None).await;
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with("podscope: cannot get pods in namespace \"default\": ")
                && err.contains("Connection refused")
                && err.trim_end().lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}
