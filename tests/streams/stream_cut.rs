//! A server that drops the WebSocket mid-stream (`Store::cut_streams`: no close frame, no
//! Status): `podscope exec` says the connection to the pod was lost and exits 1; a forward
//! reports the error for that connection (kubectl's `an error occurred forwarding …` line in
//! `podscope port-forward`) and keeps serving new connections.

use crate::stream_support;
use std::process::Stdio;
use std::time::Duration;

use podscope::cluster::forward::{ForwardEvent, Forwarder};
use podscope::model::forward_status::ForwardState;
use stream_support::{body, client, get, kubeconfig, podscope};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const LOST: &str = "lost connection to pod: ";

/// The next line of `r` (without the newline), waited for at most 20 s.
async fn line<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> String {
    let mut l = String::new();
    tokio::time::timeout(Duration::from_secs(20), r.read_line(&mut l))
        .await
        .expect("a line within 20 s")
        .expect("reads");
    l.trim_end_matches('\n').to_owned()
}

/// A kept-alive HTTP/1.1 connection to `addr` that has had one `GET /` answered by the hello
/// app (`hello from hello`), i.e. a forward in the middle of its stream.
async fn open_kept_alive(addr: std::net::SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.expect("connects");
    s.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .expect("writes");
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).ends_with("hello from hello\n") {
        let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("answers within 10 s")
            .expect("reads");
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    s
}

/// After the cut the kept-alive local connection ends (EOF or reset) within 10 s.
async fn ends(mut s: TcpStream) {
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf))
        .await
        .expect("the local connection ends within 10 s");
    assert!(matches!(n, Ok(0) | Err(_)), "still open: {n:?}");
}

/// The `podscope` binary with `args`, stdout and stderr piped, killed when dropped.
fn spawn_podscope(args: &[&str]) -> tokio::process::Child {
    tokio::process::Command::new(podscope())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawns")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_exec_reports_a_cut_stream_and_exits_1() {
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let mut child = spawn_podscope(&[
        "exec",
        "--kubeconfig",
        &kc,
        "hello",
        "-c",
        "proxy",
        "--",
        "sh",
        "-c",
        "echo started; sleep 30; echo never",
    ]);
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    assert_eq!(line(&mut out).await, "started");
    sim.store().cut_streams();
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("exits within 20 s")
        .expect("waits");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .await
        .expect("reads");
    let mut rest = String::new();
    out.read_to_string(&mut rest).await.expect("reads");
    assert_eq!((status.code(), rest.as_str()), (Some(1), ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: lost connection to pod before the command finished: "),
        "{err}"
    );
    assert!(!err.contains("https://"), "one readable line: {err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_forward_connection_is_an_error_and_the_listener_goes_on() {
    let sim = stream_support::start().await;
    let mut fwd = Forwarder::start(
        client(&sim).await,
        "default",
        "hello",
        // One listener (an address given), so one `Listening` event: the dual-stack default is
        // tests/streams/forward_loopback.rs's.
        &["127.0.0.1:0:8081".parse().expect("spec")],
    )
    .await
    .expect("binds");
    let mut events = fwd.take_events().expect("events");
    let addr = fwd.local_addrs()[0];
    let kept = open_kept_alive(addr).await;
    sim.store().cut_streams();
    ends(kept).await;
    let mut rx = fwd.subscribe();
    let broken = tokio::time::timeout(
        Duration::from_secs(10),
        rx.wait_for(|v| v[0].state == ForwardState::Broken),
    )
    .await
    .expect("Broken within 10 s")
    .expect("open")[0]
        .clone();
    let error = broken.last_error.expect("the connection's error");
    assert!(error.starts_with(LOST), "{error}");
    assert_eq!(body(&get(addr, "/").await), "hello from hello\n");
    let after = tokio::time::timeout(
        Duration::from_secs(10),
        rx.wait_for(|v| v[0].total_connections == 2 && v[0].open_connections == 0),
    )
    .await
    .expect("settles")
    .expect("open")[0]
        .clone();
    assert_eq!(after.state, ForwardState::Listening);
    let mut seen = Vec::new();
    while let Ok(ev) = events.try_recv() {
        seen.push(ev);
    }
    let port = addr.port();
    assert!(
        matches!(
            seen.as_slice(),
            [
                ForwardEvent::Listening { .. },
                ForwardEvent::Connection { local_port: a },
                ForwardEvent::Error { local_port: b, remote, text },
                ForwardEvent::Connection { local_port: c },
            ] if [*a, *b, *c] == [port; 3] && remote == "8081" && text.starts_with(LOST)
        ),
        "{seen:?}"
    );
    fwd.stop().await;
}

/// `podscope port-forward`: the cut connection's `an error occurred forwarding` line on stderr,
/// then the next connection is handled as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_port_forward_survives_a_cut() {
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let mut child = spawn_podscope(&[
        "port-forward",
        "--kubeconfig",
        &kc,
        "hello",
        "127.0.0.1:0:8081",
    ]);
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let first = line(&mut out).await;
    let addr: std::net::SocketAddr = first
        .strip_prefix("Forwarding from ")
        .and_then(|r| r.strip_suffix(" -> 8081"))
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    let kept = open_kept_alive(addr).await;
    let port = addr.port();
    assert_eq!(
        line(&mut out).await,
        format!("Handling connection for {port}")
    );
    sim.store().cut_streams();
    ends(kept).await;
    let e = line(&mut err).await;
    let want = format!("an error occurred forwarding {port} -> 8081: {LOST}");
    assert!(e.starts_with(&want), "{e}");
    assert_eq!(body(&get(addr, "/").await), "hello from hello\n");
    assert_eq!(
        line(&mut out).await,
        format!("Handling connection for {port}")
    );
    assert!(child.try_wait().expect("polls").is_none(), "still running");
    child.kill().await.expect("stopped");
}
