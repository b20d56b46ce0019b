//! `pods/log` over a WebSocket upgrade against the in-process simulator (HTTPS with its CA and
//! bearer token): `podscope logs --log-transport websocket` prints exactly what the HTTP
//! transport prints, errors keep the kubelet's message and exit code 1, at the protocol level
//! both subprotocols (`binary.k8s.io` binary frames, `base64.binary.k8s.io` base64 text frames)
//! carry the exact log bytes and end with a close frame 1000, and the log pane's stream yields
//! the same lines over either transport, and credentials from an `exec` plugin work over the
//! WebSocket as over HTTP. Following (`-f`) is in logs_follow.rs.

use crate::common;
use std::path::Path;
use std::time::Duration;

use base64::Engine as _;
use common::cluster::{case, file_lines, name_ns};
use common::run::podscope_bytes as podscope;
use futures::StreamExt as _;
use podscope::sim::{SimClock, SimConfig, Simulator, load_fixture};

use rustls::pki_types::ServerName;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self, Message};

/// An HTTPS simulator (the default) serving `dir`, its clock frozen at the snapshot time.
async fn start_https(dir: &Path) -> Simulator {
    let fx = load_fixture(dir).expect("fixture loads");
    Simulator::start(SimConfig {
        fixtures: vec![dir.to_path_buf()],
        clock: SimClock::Frozen(fx.snapshot_time.expect("snapshot time")),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_prints_the_same_bytes_as_http() {
    let dir = case("04-");
    let (name, ns) = name_ns(&dir);
    let previous = std::fs::read(dir.join("logs-previous.txt")).expect("logs-previous.txt");
    let sim = start_https(&dir).await;
    assert!(sim.url().starts_with("https://"));

    let variants: [&[&str]; 4] = [
        &["--previous"],
        &["--previous", "--timestamps"],
        &["--previous", "--tail=3", "--prefix"],
        &["--previous", "--limit-bytes=100"],
    ];
    for extra in variants {
        let mut args = vec!["logs", name.as_str(), "-n", ns.as_str()];
        args.extend_from_slice(extra);
        let http = podscope(&sim, &args).await;
        args.extend_from_slice(&["--log-transport", "websocket"]);
        let ws = podscope(&sim, &args).await;
        assert_eq!(http.0, 0, "{args:?}: {}", http.2);
        assert_eq!(ws, http, "{args:?}");
        if extra.len() == 1 {
            // The previous instance's log, byte for byte (the fixture's file ends with `\n`).
            assert_eq!(ws.1, previous);
        }
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_errors_keep_the_kubelet_message_and_exit_code() {
    let dir = case("29-");
    let (name, ns) = name_ns(&dir);
    let sim = start_https(&dir).await;
    let args = [
        "logs",
        name.as_str(),
        "-n",
        ns.as_str(),
        "-c",
        "steady",
        "--previous",
        "--log-transport",
        "websocket",
    ];
    let (code, out, err) = podscope(&sim, &args).await;
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(
        err,
        format!(
            "Error from server (BadRequest): previous terminated container \"steady\" in pod \"{name}\" not found\n"
        )
    );
    // The same as over HTTP.
    assert_eq!(podscope(&sim, &args[..7]).await, (code, out, err));
    sim.shutdown().await;
}

// ---- the protocol, with a raw tokio-tungstenite client ----

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_rustls::client::TlsStream<tokio::net::TcpStream>>;

/// Opens `path_and_query` as a WebSocket offering `protocols`; the handshake result.
async fn ws_get(
    sim: &Simulator,
    path_and_query: &str,
    protocols: &str,
) -> Result<(Ws, tungstenite::handshake::client::Response), tungstenite::Error> {
    let host = sim.url().trim_start_matches("https://").to_owned();
    let mut req = format!("wss://{host}{path_and_query}")
        .into_client_request()
        .expect("request");
    let h = req.headers_mut();
    h.insert(
        "authorization",
        format!("Bearer {}", sim.token().expect("token"))
            .parse()
            .expect("header"),
    );
    if !protocols.is_empty() {
        h.insert("sec-websocket-protocol", protocols.parse().expect("header"));
    }
    let tcp = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connects");
    let name = ServerName::try_from("127.0.0.1").expect("name");
    let stream = common::sim::connector(sim)
        .connect(name, tcp)
        .await
        .expect("TLS handshake");
    tokio_tungstenite::client_async(req, stream).await
}

/// Every message up to and including the close frame.
async fn messages(mut ws: Ws) -> Vec<Message> {
    let mut all = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(m) = ws.next().await {
            let m = m.expect("frame");
            let close = matches!(m, Message::Close(_));
            all.push(m);
            if close {
                break;
            }
        }
    })
    .await
    .expect("the server ends the stream");
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_subprotocols_carry_the_exact_bytes_and_close_1000() {
    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let previous = std::fs::read(dir.join("logs-previous.txt")).expect("logs-previous.txt");
    let sim = start_https(&dir).await;
    let path = format!("/api/v1/namespaces/{ns}/pods/{name}/log?previous=true");

    for (offer, chosen, binary) in [
        ("binary.k8s.io", "binary.k8s.io", true),
        ("base64.binary.k8s.io", "base64.binary.k8s.io", false),
        // The server takes the client's first supported offer.
        (
            "v4.channel.k8s.io, base64.binary.k8s.io, binary.k8s.io",
            "base64.binary.k8s.io",
            false,
        ),
        // No offer at all: binary frames, no protocol echoed.
        ("", "", true),
    ] {
        let (ws, resp) = ws_get(&sim, &path, offer).await.expect("upgrades");
        let echoed = resp
            .headers()
            .get("sec-websocket-protocol")
            .map(|v| v.to_str().expect("ascii").to_owned())
            .unwrap_or_default();
        assert_eq!(echoed, chosen, "offer {offer:?}");
        let all = messages(ws).await;
        let (last, data) = all.split_last().expect("a close frame");
        match last {
            Message::Close(Some(f)) => assert_eq!(f.code, CloseCode::Normal),
            other => panic!("ends with {other:?}"),
        }
        // The first frame is the apiserver's empty keep-alive of the negotiated kind.
        assert!(data[0].is_empty(), "{:?}", data[0]);
        let mut bytes = Vec::new();
        for m in data {
            match (m, binary) {
                (Message::Binary(b), true) => {
                    assert!(b.len() <= 2048);
                    bytes.extend_from_slice(b);
                }
                (Message::Text(t), false) => {
                    let raw = base64::engine::general_purpose::STANDARD
                        .decode(t.as_bytes())
                        .expect("base64");
                    assert!(raw.len() <= 2048);
                    bytes.extend_from_slice(&raw);
                }
                (m, _) => panic!("offer {offer:?}: unexpected frame {m:?}"),
            }
        }
        assert_eq!(bytes, previous, "offer {offer:?}");
    }

    // Errors before the upgrade are ordinary Status responses.
    let bad = format!("/api/v1/namespaces/{ns}/pods/nope/log");
    match ws_get(&sim, &bad, "binary.k8s.io").await {
        Err(tungstenite::Error::Http(r)) => {
            assert_eq!(r.status().as_u16(), 404);
            let body: serde_json::Value =
                serde_json::from_slice(r.body().as_deref().expect("body")).expect("Status");
            assert_eq!(body["message"], "pods \"nope\" not found");
            assert_eq!(body["reason"], "NotFound");
        }
        other => panic!("expected 404, got {:?}", other.map(|(_, r)| r.status())),
    }
    match ws_get(&sim, &path, "v5.channel.k8s.io").await {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status().as_u16(), 403),
        other => panic!("expected 403, got {:?}", other.map(|(_, r)| r.status())),
    }
    sim.shutdown().await;
}

// ---- the TUI log pane's path: Session → stream task ----

/// The log pane's stream (what `podscope attach --log-transport websocket` spawns) yields the
/// same lines over a WebSocket as over HTTP, and the server's message as the end reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_streams_over_websocket_like_http() {
    use podscope::app::{Cmd, Msg};
    use podscope::cluster::Session;
    use podscope::cluster::logs_ws::LogTransport;

    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let sim = start_https(&dir).await;
    let container = load_fixture(&dir)
        .expect("fixture")
        .pod
        .spec
        .expect("spec")
        .containers[0]
        .name
        .clone();
    let mut got = Vec::new();
    for transport in [LogTransport::Http, LogTransport::Websocket] {
        let target = common::sim::target(&sim, &ns, &name).await;
        let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
        let mut session = Session::start(target, tx).with_log_transport(transport);
        let follow = |stream, container: &str| Cmd::FollowLogs {
            stream,
            container: container.to_owned(),
            previous: true,
            since: None,
            tail_lines: None,
        };
        session.execute(&follow(1, &container));
        let mut lines = Vec::new();
        let ended = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                match rx.recv().await.expect("a message").untagged() {
                    Msg::LogLines {
                        stream: 1,
                        lines: l,
                    } => lines.extend(l),
                    Msg::LogStreamEnded { stream: 1, reason } => return reason,
                    _ => {}
                }
            }
        })
        .await
        .expect("the stream ends");
        assert_eq!(ended, None, "{transport:?}");
        session.execute(&follow(2, "nope"));
        let reason = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                if let Msg::LogStreamEnded { stream: 2, reason } =
                    rx.recv().await.expect("a message").untagged()
                {
                    return reason;
                }
            }
        })
        .await
        .expect("the bad stream ends");
        assert_eq!(
            reason.as_deref(),
            Some(format!("container nope is not valid for pod {name}").as_str()),
            "{transport:?}"
        );
        session.execute(&Cmd::Quit);
        got.push(lines);
    }
    let want = file_lines(&dir, "logs-previous.txt");
    let texts = |l: &[podscope::model::log::LogLine]| -> Vec<String> {
        l.iter().map(|l| l.text.clone()).collect()
    };
    assert_eq!(texts(&got[0]), want);
    assert_eq!(got[1], got[0]);
    sim.shutdown().await;
}

/// The WebSocket transport goes through kube-rs's client, so credentials only kube-rs knows how
/// to get work over it too: here an `exec` credential plugin handing out the simulator's token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_uses_exec_plugin_credentials() {
    let dir = case("04-");
    let (name, ns) = name_ns(&dir);
    let previous = std::fs::read(dir.join("logs-previous.txt")).expect("logs-previous.txt");
    let sim = start_https(&dir).await;
    let token = sim.token().expect("the HTTPS simulator requires a token");
    let written = std::fs::read_to_string(sim.kubeconfig_path()).expect("kubeconfig");
    let credential = format!(
        r#"{{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{{"token":"{token}"}}}}"#
    );
    let exec = format!(
        "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: echo\n      \
         args: ['{credential}']\n      interactiveMode: Never\n"
    );
    let with_exec = written.replace(&format!("    token: {token}\n"), &exec);
    assert_ne!(with_exec, written, "the token line was replaced");
    let tmp = tempfile::tempdir().expect("tempdir");
    let kubeconfig = tmp.path().join("kubeconfig");
    std::fs::write(&kubeconfig, with_exec).expect("kubeconfig written");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args(["logs", &name, "-n", &ns, "--previous"])
        .args(["--log-transport", "websocket", "--kubeconfig"])
        .arg(&kubeconfig)
        .env_remove("KUBECONFIG")
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), out)
        .await
        .expect("podscope finishes within 60 s")
        .expect("podscope runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, previous);
    sim.shutdown().await;
}
