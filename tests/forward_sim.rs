//! Port-forward through podscope's `Forwarder` against the in-process simulator (kube-rs,
//! WebSocket v4 channel protocol, protocols.md §4.3).

mod stream_support;

use std::time::Duration;

use podscope::cluster::forward::{ForwardError, Forwarder};
use podscope::model::forward::{ForwardState, ForwardStatus, PortSpec};
use regex::Regex;
use stream_support::{body, client, get};

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
    let st = settled(&fwd, |s| {
        s.total_connections == 2 && s.open_connections == 0
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
        &[spec(&format!("{port}:8081"))],
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
    assert_eq!(
        settled(&fwd, |s| s.state == ForwardState::Broken)
            .await
            .last_error
            .as_deref(),
        Some("pods \"hello\" not found")
    );
    pod.metadata.uid = Some("second-instance".into());
    pod.metadata.resource_version = None;
    pod.spec.as_mut().expect("spec").hostname = Some("hello-2".into());
    store.create_pod(pod).expect("created");
    assert_eq!(body(&get(addr, "/").await), "hello from hello-2\n");
}
