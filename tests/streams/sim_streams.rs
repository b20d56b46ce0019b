//! exec over WebSocket with a raw tokio-tungstenite client sending stdin and resize as **text**
//! frames, as the Python client does for a `str` (`docs/protocols.md` §3.5): the first byte of
//! the text is the channel, and the server treats the frame as a binary one, under v5 and v4.

use crate::common;
use crate::stream_support;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use podscope::sim::Simulator;
use rustls::pki_types::ServerName;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_rustls::client::TlsStream<tokio::net::TcpStream>>;

/// Opens `path_and_query` on `sim` as a WebSocket offering `protocol`; panics unless upgraded
/// to exactly that protocol.
async fn open(sim: &Simulator, path_and_query: &str, protocol: &str) -> Ws {
    let host = sim.url().trim_start_matches("https://").to_owned();
    let mut req = format!("wss://{host}{path_and_query}")
        .into_client_request()
        .expect("request");
    let h = req.headers_mut();
    let token = format!("Bearer {}", sim.token().expect("token"));
    h.insert("authorization", token.parse().expect("header"));
    h.insert("sec-websocket-protocol", protocol.parse().expect("header"));
    let tcp = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connects");
    let name = ServerName::try_from("127.0.0.1").expect("name");
    let tls = common::sim::connector(sim)
        .connect(name, tcp)
        .await
        .expect("TLS handshake");
    let (ws, resp) = tokio_tungstenite::client_async(req, tls)
        .await
        .expect("upgraded");
    assert_eq!(
        resp.headers()
            .get("sec-websocket-protocol")
            .and_then(|v| v.to_str().ok()),
        Some(protocol)
    );
    ws
}

/// A text frame on `channel`: `chr(channel) + text`, the Python client's `write_channel`.
fn text(channel: u8, body: &str) -> Message {
    let mut s = String::from(char::from(channel));
    s.push_str(body);
    Message::Text(s.into())
}

/// Reads until the server closes (20 s at most): stdout (channel 1) as text, and the Status
/// of channel 3.
async fn read_to_end(ws: &mut Ws) -> (String, Value) {
    let (mut out, mut status) = (Vec::new(), Value::Null);
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(m) = ws.next().await {
            match m.expect("frame") {
                Message::Binary(b) => match b.first() {
                    Some(1) => out.extend_from_slice(&b[1..]),
                    Some(3) => status = serde_json::from_slice(&b[1..]).expect("Status JSON"),
                    _ => {}
                },
                Message::Close(_) => break,
                _ => {}
            }
        }
    })
    .await
    .expect("the server ends the session");
    let _ = ws.close(None).await;
    (String::from_utf8_lossy(&out).into_owned(), status)
}

/// The exit code a Status carries (0 for Success).
fn exit_code(status: &Value) -> i64 {
    if status["status"] == "Success" {
        return 0;
    }
    status["details"]["causes"][0]["message"]
        .as_str()
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no exit code in {status}"))
}

const SH: &str =
    "/api/v1/namespaces/default/pods/hello/exec?container=proxy&command=sh&stdin=true&stdout=true";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdin_as_text_frames_reaches_the_shell_under_v5_and_v4() {
    let sim = stream_support::start().await;
    for protocol in ["v5.channel.k8s.io", "v4.channel.k8s.io"] {
        let mut ws = open(&sim, &format!("{SH}&stderr=true"), protocol).await;
        ws.send(text(0, "echo hi from text\n")).await.expect("sent");
        ws.send(text(0, "exit 3\n")).await.expect("sent");
        let (out, status) = read_to_end(&mut ws).await;
        assert_eq!(out, "hi from text\n", "{protocol}");
        assert_eq!(exit_code(&status), 3, "{protocol}: {status}");
        assert_eq!(status["reason"], "NonZeroExitCode", "{protocol}");
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resize_as_text_frames_sets_the_terminal_before_and_during_the_session() {
    let sim = stream_support::start().await;
    for protocol in ["v5.channel.k8s.io", "v4.channel.k8s.io"] {
        // stty itself, on the terminal of the first size (sent before the process starts).
        let stty = "/api/v1/namespaces/default/pods/hello/exec?container=proxy&command=stty&command=size&stdin=true&stdout=true&tty=true";
        let mut ws = open(&sim, stty, protocol).await;
        ws.send(text(4, r#"{"Width":120,"Height":40}"#))
            .await
            .expect("sent");
        let (out, status) = read_to_end(&mut ws).await;
        assert_eq!(
            (out.as_str(), exit_code(&status)),
            ("40 120\r\n", 0),
            "{protocol}"
        );

        // An interactive shell: each `stty size` sees the size sent last.
        let mut ws = open(&sim, &format!("{SH}&tty=true"), protocol).await;
        ws.send(text(4, "{\"Width\":100,\"Height\":50}\n"))
            .await
            .expect("sent");
        ws.send(text(0, "stty size\r")).await.expect("sent");
        ws.send(text(4, r#"{"Width":77,"Height":11}"#))
            .await
            .expect("sent");
        ws.send(text(0, "stty size\rexit\r")).await.expect("sent");
        let (out, status) = read_to_end(&mut ws).await;
        // dash (nginx is Debian-based): prompt `# `, the pty's echo, `\r\n` line ends.
        assert_eq!(
            out, "# stty size\r\n50 100\r\n# stty size\r\n11 77\r\n# exit\r\n",
            "{protocol}"
        );
        assert_eq!(exit_code(&status), 0, "{protocol}");
    }
    sim.shutdown().await;
}

/// A message that is neither a channel frame nor a close (a ping) changes nothing, and binary
/// frames still work beside text ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_and_binary_frames_mix() {
    let sim = stream_support::start().await;
    let mut ws = open(&sim, &format!("{SH}&stderr=true"), "v5.channel.k8s.io").await;
    ws.send(text(0, "echo a\n")).await.expect("sent");
    ws.send(Message::Ping(Vec::new().into()))
        .await
        .expect("sent");
    ws.send(Message::Binary(b"\x00echo b\n".to_vec().into()))
        .await
        .expect("sent");
    // v5 half-close of stdin: the shell reads EOF and exits with the last status.
    ws.send(Message::Binary(vec![255, 0].into()))
        .await
        .expect("sent");
    let (out, status) = read_to_end(&mut ws).await;
    assert_eq!((out.as_str(), exit_code(&status)), ("a\nb\n", 0));
    sim.shutdown().await;
}
