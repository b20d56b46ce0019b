//! The simulator's HTTPS front door with raw bytes: the bearer token is required except on the
//! health and version paths, errors are `metav1.Status` bodies (401, 404 for unknown paths and
//! resources, 400 for bad input), and garbage — non-TLS bytes, junk request lines, huge headers,
//! invalid UTF-8 paths, bad query strings, truncated requests — never stops it from answering.

use crate::common;
use std::time::Duration;

use common::sim::{host, send};
use podscope::sim::{SimConfig, Simulator};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CASE: &str = "assets/cases/01-crashloop-exit1-db";

async fn start(insecure_http: bool) -> Simulator {
    Simulator::start(SimConfig {
        fixtures: vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CASE)],
        insecure_http,
        ..Default::default()
    })
    .await
    .expect("simulator starts")
}

async fn get(sim: &Simulator, path: &str, token: Option<&str>) -> String {
    let auth = token
        .map(|t| format!("authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "GET {path} HTTP/1.1\r\nhost: {}\r\n{auth}connection: close\r\n\r\n",
        host(sim)
    );
    send(sim, req.as_bytes()).await
}

fn status_line(resp: &str) -> &str {
    resp.lines().next().unwrap_or("")
}

fn body_json(resp: &str) -> serde_json::Value {
    let body = resp.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("JSON body ({e}):\n{resp}"))
}

async fn still_answers(sim: &Simulator, after: &str) {
    let resp = get(sim, "/version", None).await;
    assert_eq!(
        status_line(&resp),
        "HTTP/1.1 200 OK",
        "no answer after {after}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_required_except_health_and_version() {
    let sim = start(false).await;
    let token = sim.token().expect("token").to_string();
    let pods = "/api/v1/namespaces/analytics/pods";

    let none = get(&sim, pods, None).await;
    assert_eq!(status_line(&none), "HTTP/1.1 401 Unauthorized");
    assert_eq!(
        body_json(&none),
        serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                           "message": "Unauthorized", "reason": "Unauthorized", "code": 401})
    );
    let wrong = get(&sim, pods, Some("x")).await;
    assert_eq!(status_line(&wrong), "HTTP/1.1 401 Unauthorized");
    let basic = send(
        &sim,
        format!(
            "GET {pods} HTTP/1.1\r\nhost: x\r\nauthorization: Basic {token}\r\nconnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await;
    assert_eq!(status_line(&basic), "HTTP/1.1 401 Unauthorized");
    let discovery = get(&sim, "/api/v1", None).await;
    assert_eq!(status_line(&discovery), "HTTP/1.1 401 Unauthorized");

    let ok = get(&sim, pods, Some(&token)).await;
    assert_eq!(status_line(&ok), "HTTP/1.1 200 OK");
    assert_eq!(body_json(&ok)["kind"], "PodList");

    for public in ["/healthz", "/livez", "/readyz"] {
        let r = get(&sim, public, None).await;
        assert_eq!(status_line(&r), "HTTP/1.1 200 OK", "{public}");
        assert!(r.ends_with("\r\n\r\nok"), "{public}: {r}");
    }
    let v = get(&sim, "/version", None).await;
    assert_eq!(body_json(&v)["major"], "1");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_paths_and_resources_are_404_status() {
    let sim = start(false).await;
    let token = sim.token().expect("token").to_string();
    for path in [
        "/nope",
        "/api/v2",
        "/api/v1/namespaces/analytics/replicationcontrollers",
        "/api/v1/namespaces/analytics/pods/x/y/z",
        "/apis/networking.k8s.io/v1/namespaces/analytics/ingresses",
        "/apis/apps/v2/namespaces/analytics/deployments",
    ] {
        let r = get(&sim, path, Some(&token)).await;
        assert_eq!(status_line(&r), "HTTP/1.1 404 Not Found", "{path}");
        let s = body_json(&r);
        assert_eq!(s["reason"], "NotFound", "{path}");
        assert_eq!(
            s["message"], "the server could not find the requested resource",
            "{path}"
        );
    }
    let missing = get(&sim, "/api/v1/namespaces/analytics/pods/nope", Some(&token)).await;
    assert_eq!(body_json(&missing)["message"], "pods \"nope\" not found");
    // An owner a pod may name that does not exist, worded as the API server does.
    let job = get(
        &sim,
        "/apis/batch/v1/namespaces/analytics/jobs/nightly",
        Some(&token),
    )
    .await;
    assert_eq!(status_line(&job), "HTTP/1.1 404 Not Found");
    assert_eq!(
        body_json(&job)["message"],
        "jobs.batch \"nightly\" not found"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_400_status() {
    let sim = start(false).await;
    let token = sim.token().expect("token").to_string();
    for path in [
        "/api/v1/namespaces/analytics/pods?watch=maybe",
        "/api/v1/namespaces/analytics/pods?limit=-1",
        "/api/v1/namespaces/analytics/pods?fieldSelector=spec.bogus%3Dx",
        "/api/v1/namespaces/analytics/pods?labelSelector=%3D%3D%3D",
        "/api/v1/namespaces/analytics/pods?labelSelector=app%20in%20db",
        "/api/v1/namespaces/%ff%fe/pods/x",
    ] {
        let r = get(&sim, path, Some(&token)).await;
        assert_eq!(status_line(&r), "HTTP/1.1 400 Bad Request", "{path}: {r}");
        let s = body_json(&r);
        assert_eq!(
            (s["kind"].as_str(), s["code"].as_u64()),
            (Some("Status"), Some(400)),
            "{path}"
        );
        assert_eq!(s["reason"], "BadRequest", "{path}");
        assert!(!s["message"].as_str().unwrap_or("").is_empty(), "{path}");
    }
    // Junk in a query string that the route does not read is ignored, as the apiserver does.
    let r = get(
        &sim,
        "/api/v1/namespaces/analytics/pods?&&%zz=%%&==&x",
        Some(&token),
    )
    .await;
    assert_eq!(status_line(&r), "HTTP/1.1 200 OK", "{r}");
    sim.shutdown().await;
}

async fn throw_garbage(sim: &Simulator) {
    let h = host(sim);
    let huge = "x".repeat(1 << 20);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("junk request line", b"GARBAGE\r\n\r\n".to_vec()),
        ("binary noise", (0u8..=255).cycle().take(4096).collect()),
        ("empty request", Vec::new()),
        ("truncated request", format!("GET /api/v1 HTTP/1.1\r\nhost: {h}\r\n").into_bytes()),
        ("huge header", format!("GET /version HTTP/1.1\r\nhost: {h}\r\nx-big: {huge}\r\n\r\n").into_bytes()),
        ("huge path", format!("GET /{huge} HTTP/1.1\r\nhost: {h}\r\n\r\n").into_bytes()),
        ("many headers", format!("GET /version HTTP/1.1\r\nhost: {h}\r\n{}\r\n", "a: b\r\n".repeat(5000)).into_bytes()),
        ("raw invalid UTF-8 path", [b"GET /api/v1/namespaces/\xff\xfe/pods HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".as_slice()].concat()),
        ("invalid header bytes", b"GET /version HTTP/1.1\r\nhost: x\r\nx-bad: \x00\x01\xff\r\nconnection: close\r\n\r\n".to_vec()),
        ("bad content-length", b"POST /api/v1/namespaces/a/pods HTTP/1.1\r\nhost: x\r\ncontent-length: banana\r\n\r\n{".to_vec()),
        ("lying content-length", b"POST /api/v1/namespaces/a/pods HTTP/1.1\r\nhost: x\r\ncontent-length: 99999\r\nconnection: close\r\n\r\n{".to_vec()),
        ("bad chunked body", b"POST /api/v1/namespaces/a/pods HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\nzz\r\nabc\r\n".to_vec()),
        ("unknown method", b"BREW /api/v1/namespaces/a/pods HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".to_vec()),
        ("HTTP/2 preface on http1", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec()),
        ("bad upgrade", b"GET /api/v1/namespaces/a/pods/x/exec HTTP/1.1\r\nhost: x\r\nconnection: Upgrade\r\nupgrade: websocket\r\n\r\n".to_vec()),
    ];
    for (what, bytes) in cases {
        let resp = send(sim, &bytes).await;
        if let Some(code) = resp.split_whitespace().nth(1) {
            assert!(
                code.starts_with('4') || code.starts_with('2'),
                "{what}: unexpected answer {}",
                status_line(&resp)
            );
        }
        still_answers(sim, what).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_never_stops_the_https_server() {
    let sim = start(false).await;
    // Plain bytes to the TLS port: the handshake fails, the server goes on.
    let mut tcp = TcpStream::connect(host(&sim)).await.expect("connects");
    let _ = tcp
        .write_all(b"GET /version HTTP/1.1\r\nhost: x\r\n\r\n")
        .await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut buf)).await;
    assert!(
        !String::from_utf8_lossy(&buf).contains("200 OK"),
        "plain http on the TLS port must not be served"
    );
    still_answers(&sim, "plain http on the TLS port").await;
    throw_garbage(&sim).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_never_stops_the_http_server() {
    let sim = start(true).await;
    assert!(sim.url().starts_with("http://"));
    assert!(sim.token().is_none());
    // No token needed over plain http (kubectl would send none).
    let r = get(&sim, "/api/v1/namespaces/analytics/pods", None).await;
    assert_eq!(status_line(&r), "HTTP/1.1 200 OK");
    throw_garbage(&sim).await;
    sim.shutdown().await;
}
