//! The simulator's SPDY/3.1 server on the wire, with a small client built from its own codec
//! (`podscope::sim::spdy`) over TLS: port-forward natively (`POST` + `Upgrade: SPDY/3.1`) and
//! tunnelled in WebSocket binary messages split like kubectl's (`docs/protocols.md` §4.2,
//! Appendix A.8/A.9), a refused port, a 1 MiB echo with WINDOW_UPDATEs, `Store::cut_streams`,
//! and exec with stdin and an exit code (§3.3, Appendix A.4).

use crate::spdy_support;
use crate::stream_support;
use podscope::sim::Simulator;
use spdy_support::{Client, FORWARD, Wire, forward_get, tunnel, upgrade};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_spdy_forwards_to_hello_and_reports_refused_ports() {
    let sim = stream_support::start().await;
    let (head, s) = upgrade(&sim, FORWARD, &["portforward.k8s.io"]).await;
    assert!(
        head.starts_with("HTTP/1.1 101 Switching Protocols\r\n"),
        "{head}"
    );
    let lower = head.to_ascii_lowercase();
    for h in [
        "upgrade: spdy/3.1\r\n",
        "connection: upgrade\r\n",
        "x-stream-protocol-version: portforward.k8s.io\r\n",
    ] {
        assert!(lower.contains(h), "{head}");
    }
    let mut c = Client::new(Wire::Tls(Box::new(s)));
    let (err, resp) = forward_get(&mut c, "0", "8081", "/").await;
    assert_eq!(
        (err.as_str(), stream_support::body(&resp)),
        ("", "hello from hello\n")
    );
    let (err, resp) = forward_get(&mut c, "1", "6000", "/").await;
    assert_eq!(resp, "");
    assert!(
        err.starts_with("error forwarding port 6000 to pod ")
            && err.ends_with("IPv4: dial tcp4 127.0.0.1:6000: connect: connection refused IPv6 dial tcp6 [::1]:6000: connect: connection refused"),
        "{err}"
    );
    let (_, resp) = forward_get(&mut c, "2", "8080", "/healthz").await;
    assert_eq!(stream_support::body(&resp), "ok\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spdy_tunnelled_in_split_websocket_messages() {
    let sim = stream_support::start().await;
    let mut c = tunnel(&sim).await;
    let (err, resp) = forward_get(&mut c, "0", "8081", "/nginx-health").await;
    assert_eq!((err.as_str(), stream_support::body(&resp)), ("", "ok\n"));
    let (_, resp) = forward_get(&mut c, "1", "8081", "/").await;
    assert_eq!(stream_support::body(&resp), "hello from hello\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mebibyte_echoes_back_and_earns_window_updates() {
    let sim = stream_support::start().await;
    let echo = podscope::test_support::echo_pod(&stream_support::hello_dir(), "spdy-echo")
        .expect("hello fixture");
    sim.store().create_pod(echo).expect("echo pod");
    let path = "/api/v1/namespaces/default/pods/echo/portforward";
    let (head, s) = upgrade(&sim, path, &["portforward.k8s.io"]).await;
    assert!(head.starts_with("HTTP/1.1 101 "), "{head}");
    let mut c = Client::new(Wire::Tls(Box::new(s)));
    let error = c
        .open(&[
            ("streamtype", "error"),
            ("port", "7000"),
            ("requestid", "0"),
        ])
        .await;
    let data = c
        .open(&[("streamtype", "data"), ("port", "7000"), ("requestid", "0")])
        .await;
    let payload: Vec<u8> = (0..1024 * 1024u32).map(|i| (i % 251) as u8).collect();
    // Send in 16 KiB frames while reading, as a real client does (both directions at once).
    let mut sent = 0;
    while sent < payload.len() {
        let end = (sent + 16 * 1024).min(payload.len());
        c.send(data, &payload[sent..end], end == payload.len())
            .await;
        sent = end;
        while c.streams[&data].data.len() + 256 * 1024 < sent {
            assert!(c.pump().await, "connection ended");
        }
    }
    let echoed = c.until_fin(data).await;
    assert!(echoed == payload, "{} bytes echoed", echoed.len());
    assert_eq!(c.until_fin(error).await, b"");
    // What the server consumed was acknowledged (up to the last unfinished 32 KiB step).
    assert!(
        c.window_updates >= 1024 * 1024 - 32 * 1024,
        "{}",
        c.window_updates
    );
}

/// Opens a kept-alive forward to 8081 and waits for hello's answer: a stream in the middle of
/// its life. (data, error) stream ids.
async fn kept_alive(c: &mut Client) -> (u32, u32) {
    let error = c
        .open(&[
            ("streamtype", "error"),
            ("port", "8081"),
            ("requestid", "0"),
        ])
        .await;
    let data = c
        .open(&[("streamtype", "data"), ("port", "8081"), ("requestid", "0")])
        .await;
    c.send(data, b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", false)
        .await;
    while !String::from_utf8_lossy(&c.streams[&data].data).ends_with("hello from hello\n") {
        assert!(c.pump().await, "connection ended");
    }
    (data, error)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cut_streams_drops_spdy_connections_without_goaway() {
    let sim = stream_support::start().await;
    let (_, s) = upgrade(&sim, FORWARD, &["portforward.k8s.io"]).await;
    let mut native = Client::new(Wire::Tls(Box::new(s)));
    let mut tunnelled = tunnel(&sim).await;
    let native_ids = kept_alive(&mut native).await;
    let tunnelled_ids = kept_alive(&mut tunnelled).await;
    sim.store().cut_streams();
    for (c, (data, error)) in [(&mut native, native_ids), (&mut tunnelled, tunnelled_ids)] {
        while c.pump().await {}
        assert!(!c.goaway && !c.ws_closed, "no GOAWAY, no close frame");
        assert!(!c.streams[&data].fin && !c.streams[&error].fin, "no FIN");
    }
    // New sessions are served as usual.
    let (_, s) = upgrade(&sim, FORWARD, &["portforward.k8s.io"]).await;
    let mut c = Client::new(Wire::Tls(Box::new(s)));
    let (_, resp) = forward_get(&mut c, "0", "8081", "/").await;
    assert_eq!(stream_support::body(&resp), "hello from hello\n");
}

const EXEC: &str = "/api/v1/namespaces/default/pods/hello/exec";
const CHANNELS: [&str; 4] = [
    "v4.channel.k8s.io",
    "v3.channel.k8s.io",
    "v2.channel.k8s.io",
    "channel.k8s.io",
];

/// Runs `query` as an exec over SPDY with kubectl 1.27's offers and `stdin` (then `FIN`);
/// (stdout, stderr, error stream) and whether the server said GOAWAY and closed.
async fn spdy_exec(
    sim: &Simulator,
    query: &str,
    stdin: Option<&[u8]>,
) -> (String, String, String, bool) {
    let (head, s) = upgrade(sim, &format!("{EXEC}?{query}"), &CHANNELS).await;
    assert!(
        head.to_ascii_lowercase()
            .contains("x-stream-protocol-version: v4.channel.k8s.io\r\n"),
        "{head}"
    );
    let mut c = Client::new(Wire::Tls(Box::new(s)));
    let error = c.open(&[("streamType", "error")]).await;
    let input = match stdin {
        Some(_) => Some(c.open(&[("streamType", "stdin")]).await),
        None => None,
    };
    let stdout = c.open(&[("streamType", "stdout")]).await;
    let stderr = c.open(&[("streamType", "stderr")]).await;
    if let (Some(id), Some(bytes)) = (input, stdin) {
        c.send(id, bytes, true).await;
    }
    let out = c.until_fin(stdout).await;
    let err = c.until_fin(stderr).await;
    let status = c.until_fin(error).await;
    while c.pump().await {}
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (text(out), text(err), text(status), c.goaway && c.eof)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_over_spdy_reads_stdin_and_reports_the_exit_code() {
    let sim = stream_support::start().await;
    let q = "command=cat&container=proxy&stderr=true&stdin=true&stdout=true";
    let (out, err, status, closed) = spdy_exec(&sim, q, Some(b"abc\ndef\n")).await;
    assert_eq!((out.as_str(), err.as_str()), ("abc\ndef\n", ""));
    assert_eq!(status, r#"{"metadata":{},"status":"Success"}"#);
    assert!(closed, "GOAWAY, then the server closes");

    let q = "command=sh&command=-c&command=exit+3&container=proxy&stderr=true&stdout=true";
    let (_, _, status, _) = spdy_exec(&sim, q, None).await;
    let v: serde_json::Value = serde_json::from_str(&status).expect("a Status");
    assert_eq!(v["reason"], "NonZeroExitCode", "{status}");
    assert_eq!(v["details"]["causes"][0]["reason"], "ExitCode");
    assert_eq!(v["details"]["causes"][0]["message"], "3");

    let q = "command=hostname&container=hello&stderr=true&stdout=true";
    let (_, _, status, _) = spdy_exec(&sim, q, None).await;
    assert!(
        status.contains(r#"exec: \"hostname\": executable file not found in $PATH"#),
        "distroless app: {status}"
    );

    // Only v5 offered: not served over SPDY.
    let (head, _) = upgrade(
        &sim,
        &format!("{EXEC}?command=true&container=proxy&stdout=true"),
        &["v5.channel.k8s.io"],
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 400 "), "{head}");
}
