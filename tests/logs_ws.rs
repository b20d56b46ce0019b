//! `pods/log` over a WebSocket upgrade against the in-process simulator (HTTPS with its CA and
//! bearer token): `podscope logs --log-transport websocket` prints exactly what the HTTP
//! transport prints, errors keep the kubelet's message and exit code 1, `-f` follows a dynamic
//! pod across restarts, and at the protocol level both subprotocols (`binary.k8s.io` binary
//! frames, `base64.binary.k8s.io` base64 text frames) carry the exact log bytes and end with a
//! close frame 1000.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use futures::StreamExt as _;
use podscope::sim::{SimClock, SimConfig, Simulator, load_fixture, parse_scenario};

use rustls::pki_types::ServerName;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self, Message};

fn case(prefix: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cases");
    std::fs::read_dir(&root)
        .expect("cases")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .expect("case exists")
}

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

fn name_ns(dir: &Path) -> (String, String) {
    let fx = load_fixture(dir).expect("fixture");
    (
        fx.pod.metadata.name.clone().expect("name"),
        fx.pod.metadata.namespace.clone().expect("namespace"),
    )
}

/// Runs the podscope binary with the simulator's kubeconfig: (exit code, stdout, stderr).
async fn podscope(sim: &Simulator, args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
            .args(args)
            .arg("--kubeconfig")
            .arg(sim.kubeconfig_path())
            .env_remove("KUBECONFIG")
            .output(),
    )
    .await
    .expect("podscope finishes within 60 s")
    .expect("podscope runs");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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

fn tls(sim: &Simulator) -> tokio_rustls::TlsConnector {
    common::sim::connector(sim)
}

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
    let stream = tls(sim).connect(name, tcp).await.expect("TLS handshake");
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

// ---- following a dynamic pod ----

fn collect(pipe: impl tokio::io::AsyncRead + Unpin + Send + 'static) -> Arc<Mutex<Vec<String>>> {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let b = buf.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(pipe).lines();
        while let Ok(Some(l)) = lines.next_line().await {
            b.lock().expect("lock").push(l);
        }
    });
    buf
}

/// The dynamic simulator's OOMKilled JVM (OOMKilled 45 s after each start) at 20× real time:
/// `podscope logs -f --log-transport websocket` prints every instance's lines once, with the
/// restart marker on stderr between them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_over_websocket_survives_restarts() {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios/oomkilled.yaml");
    let text = std::fs::read_to_string(&scenario).expect("scenario");
    let pods = parse_scenario("oomkilled.yaml", &text).expect("parses");
    let sim_log: Vec<String> = pods[0].spec.as_ref().expect("spec").containers[0]
        .env
        .iter()
        .flatten()
        .find(|e| e.name == "SIM_LOG")
        .and_then(|e| e.value.clone())
        .expect("SIM_LOG")
        .lines()
        .map(str::to_owned)
        .collect();
    let start = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(2);
    let sim = Simulator::start(SimConfig {
        clock: SimClock::scaled(start, 20.0),
        scenarios: vec![scenario],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    assert!(sim.url().starts_with("https://"));
    // As kubectl, `logs` refuses a container that has not started yet (ContainerCreating).
    let store = sim.store();
    let running = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let started = store
                .pod("default", "coord-2")
                .and_then(|p| p.status)
                .and_then(|s| s.container_statuses)
                .is_some_and(|c| {
                    c.iter()
                        .any(|c| c.state.as_ref().is_some_and(|s| s.running.is_some()))
                });
            if started {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(running.is_ok(), "coord-2 did not start");

    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args([
            "logs",
            "coord-2",
            "-n",
            "default",
            "-f",
            "--log-transport",
            "websocket",
        ])
        .arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .env_remove("KUBECONFIG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("podscope starts");
    let out = collect(child.stdout.take().expect("stdout"));
    let err = collect(child.stderr.take().expect("stderr"));
    let marker = "── restarted: OOMKilled, exit 137 (SIGKILL) after 45s";
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let markers = err
                .lock()
                .expect("lock")
                .iter()
                .filter(|l| l.starts_with(marker))
                .count();
            if markers >= 2 && out.lock().expect("lock").len() >= 2 * sim_log.len() {
                return;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!(
                    "podscope exited early with {status}: {:?}",
                    err.lock().expect("lock")
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let _ = child.start_kill();
    let _ = child.wait().await;
    assert!(
        waited.is_ok(),
        "two restarts not seen; stdout {:?}, stderr {:?}",
        out.lock().expect("lock"),
        err.lock().expect("lock")
    );
    let out = out.lock().expect("lock").clone();
    // Two complete instances, each exactly its SIM_LOG lines once, in order.
    assert_eq!(out[..sim_log.len()], sim_log[..]);
    assert_eq!(out[sim_log.len()..2 * sim_log.len()], sim_log[..]);
    let err = err.lock().expect("lock").clone();
    assert!(err[0].starts_with(marker), "{err:?}");
    sim.shutdown().await;
}

// ---- the TUI log pane's path: Session → stream task ----

/// The log pane's stream (what `podscope attach --log-transport websocket` spawns) yields the
/// same lines over a WebSocket as over HTTP, and the server's message as the end reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_streams_over_websocket_like_http() {
    use podscope::app::{Cmd, Msg};
    use podscope::cluster::logs_ws::LogTransport;
    use podscope::cluster::{ConnectOptions, Session, connect};

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
        let target = connect(
            &ConnectOptions {
                kubeconfig: Some(sim.kubeconfig_path().to_path_buf()),
                context: None,
                namespace: Some(ns.clone()),
            },
            &name,
        )
        .await
        .expect("connects");
        let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
        let mut session = Session::start(target, tx)
            .with_log_transport(transport)
            .expect("transport usable with the simulator's kubeconfig");
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
                match rx.recv().await.expect("a message") {
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
                    rx.recv().await.expect("a message")
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
    let want: Vec<String> = std::fs::read_to_string(dir.join("logs-previous.txt"))
        .expect("logs-previous.txt")
        .lines()
        .map(str::to_owned)
        .collect();
    let texts = |l: &[podscope::model::log::LogLine]| -> Vec<String> {
        l.iter().map(|l| l.text.clone()).collect()
    };
    assert_eq!(texts(&got[0]), want);
    assert_eq!(got[1], got[0]);
    sim.shutdown().await;
}
