//! Helpers shared by the `exec_*`, `forward_*` and stream RBAC tests: a simulator holding the
//! seed's `hello` pod (tests/stream_support/hello, a Running copy of seed 000's hello-pod.yaml),
//! case 20, case 31, and case 30 marked as having no shell (optionally with RBAC denials); a
//! kube client; an in-memory writer; an HTTP GET; a Session message pump.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use podscope::app::{Msg, State, update};
use podscope::cluster::Session;
use podscope::cluster::exec::{ExecError, ExecRequest, pump, start as start_exec};
use podscope::sim::runtime::NO_SHELL_ANNOTATION;
use podscope::sim::{SimConfig, Simulator, load_fixture};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The skip-or-fail rule for missing tools, shared with `tests/common` (also loaded there by
/// the tests that use both).
#[allow(clippy::duplicate_mod)]
#[path = "../common/tools.rs"]
pub mod tools;
/// Waiting on a condition with a deadline, shared with `tests/common`.
#[allow(clippy::duplicate_mod)]
#[path = "../common/wait.rs"]
pub mod wait;

/// A case folder by prefix.
pub fn case(prefix: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cases");
    std::fs::read_dir(&root)
        .expect("assets/cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .expect("case exists")
}

/// The hello fixture folder.
pub fn hello_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stream_support/hello")
}

/// Case 30's pod with the simulator's no-shell annotation on its container (expected.md: "The
/// image has no /bin/sh, no echo; only the application binary").
pub fn distroless_case_pod() -> Pod {
    let mut pod = load_fixture(&case("30-")).expect("case 30").pod;
    pod.metadata
        .annotations
        .get_or_insert_with(Default::default)
        .insert(NO_SHELL_ANNOTATION.into(), "alert-router".into());
    pod
}

/// A simulator (real clock) with hello, case 20, case 31 and the annotated case 30.
pub async fn start() -> Simulator {
    start_denying(&[]).await
}

/// [`start`] with RBAC denials `(verb, resource)`, e.g. `("create", "pods/exec")`.
pub async fn start_denying(deny: &[(&str, &str)]) -> Simulator {
    let sim = Simulator::start(SimConfig {
        fixtures: vec![hello_dir(), case("20-"), case("31-")],
        deny: deny
            .iter()
            .map(|(v, r)| ((*v).to_string(), (*r).to_string()))
            .collect(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    sim.store()
        .create_pod(distroless_case_pod())
        .expect("case 30 pod created");
    sim
}

/// A kube client for the simulator, from the kubeconfig it wrote (HTTPS: its CA and token).
pub async fn client(sim: &Simulator) -> kube::Client {
    podscope::test_support::sim_client(sim)
        .await
        .expect("client")
}

/// An `AsyncWrite` collecting into shared memory.
#[derive(Clone, Default)]
pub struct Buf(pub Arc<Mutex<Vec<u8>>>);

impl Buf {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("lock")).into_owned()
    }
}

impl tokio::io::AsyncWrite for Buf {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        b: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.0.lock().expect("lock").extend_from_slice(b);
        Poll::Ready(Ok(b.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// kubectl on PATH with a client minor version ≥ 30 (WebSocket v5 exec), else the reason to skip.
pub fn kubectl_ws() -> Result<PathBuf, String> {
    let path = std::env::var_os("PATH").ok_or("PATH is unset")?;
    let bin = std::env::split_paths(&path)
        .map(|d| d.join("kubectl"))
        .find(|p| p.is_file())
        .ok_or("kubectl is not on PATH")?;
    let out = std::process::Command::new(&bin)
        .args(["version", "--client", "-o", "json"])
        .output()
        .map_err(|e| format!("kubectl version: {e}"))?;
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("kubectl version: {e}"))?;
    let minor: u32 = v["clientVersion"]["minor"]
        .as_str()
        .unwrap_or("0")
        .trim_end_matches('+')
        .parse()
        .unwrap_or(0);
    if minor < 30 {
        return Err(format!("kubectl 1.{minor} uses SPDY for exec; need 1.30+"));
    }
    Ok(bin)
}

/// kubectl 1.30+ (see [`kubectl_ws`]) with a private cache dir, as the referee of a test.
pub struct Kubectl {
    bin: PathBuf,
    cache: tempfile::TempDir,
}

impl Kubectl {
    /// The referee, or `None` after [`tools::skip`] of the kubectl part of the test (with
    /// `PODSCOPE_REQUIRE_TOOLS=1` the test fails instead).
    pub fn or_skip() -> Option<Kubectl> {
        let bin = kubectl_ws()
            .inspect_err(|reason| tools::skip("the kubectl part", reason))
            .ok()?;
        let cache = tempfile::tempdir().expect("tempdir");
        Some(Kubectl { bin, cache })
    }

    /// Runs `kubectl --kubeconfig K --cache-dir C ARGS` against `sim` (see [`run`]).
    pub async fn run(
        &self,
        sim: &Simulator,
        args: &[&str],
        stdin: Option<&str>,
    ) -> (i32, String, String) {
        let (kc, cache) = (kubeconfig(sim), self.cache.path().display().to_string());
        let argv = [&["--kubeconfig", &kc, "--cache-dir", &cache][..], args].concat();
        run(&self.bin, &argv, stdin).await
    }
}

/// The podscope binary under test.
pub fn podscope() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_podscope"))
}

/// The kubeconfig `sim` wrote, as a command-line argument.
pub fn kubeconfig(sim: &Simulator) -> String {
    sim.kubeconfig_path().display().to_string()
}

/// Runs `podscope exec --kubeconfig K ARGS` against `sim` (see [`run`]).
pub async fn podscope_exec(
    sim: &Simulator,
    args: &[&str],
    stdin: Option<&str>,
) -> (i32, String, String) {
    let kc = kubeconfig(sim);
    let argv = [&["exec", "--kubeconfig", kc.as_str()][..], args].concat();
    run(podscope(), &argv, stdin).await
}

/// Runs a command with a timeout; returns (exit code, stdout, stderr).
pub async fn run(bin: &Path, args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use tokio::io::AsyncWriteExt;
    let mut cmd = tokio::process::Command::new(bin);
    cmd.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    let mut child = cmd.spawn().expect("spawns");
    let mut input = child.stdin.take().expect("stdin");
    if let Some(text) = stdin {
        input
            .write_all(text.as_bytes())
            .await
            .expect("writes stdin");
    }
    drop(input);
    let out = tokio::time::timeout(std::time::Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("finishes within 60 s")
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One HTTP/1.1 GET with `Connection: close`; returns the raw response ("" when refused).
pub async fn get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("writes");
    let mut out = Vec::new();
    // A failed forward closes the local connection (a reset when the request is unread): "".
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out))
        .await
        .expect("answers within 10 s");
    String::from_utf8_lossy(&out).into_owned()
}

/// `GET path` the way curl does it: a keep-alive request, the response read up to its
/// `Content-Length`, then the connection closed from this side first.
pub async fn get_keep_alive(addr: std::net::SocketAddr, path: &str) -> String {
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("writes");
    let mut out = Vec::new();
    let complete = |out: &[u8]| {
        let text = String::from_utf8_lossy(out);
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            return false;
        };
        let len = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().to_owned())
            })
            .and_then(|v| v.parse::<usize>().ok());
        len.is_some_and(|n| body.len() >= n)
    };
    let mut buf = [0u8; 4096];
    while !complete(&out) {
        let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("answers within 10 s")
            .expect("reads");
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    drop(s);
    String::from_utf8_lossy(&out).into_owned()
}

/// The body of an HTTP response ("" without one).
pub fn body(resp: &str) -> &str {
    resp.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

/// Applies channel messages to `state` (and their `Cmd`s to `session`) until `done` holds;
/// panics after 10 s.
pub async fn pump_until(
    state: &mut State,
    rx: &mut tokio::sync::mpsc::Receiver<Msg>,
    session: &mut Session,
    done: impl Fn(&State) -> bool,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done(state) {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("condition reached in time")
            .expect("channel open");
        for cmd in update(state, msg) {
            session.execute(&cmd);
        }
    }
}

/// Runs `argv` in `container` of `pod` through podscope's client; (exit, stdout, stderr).
pub async fn exec(
    api: &Api<Pod>,
    pod: &str,
    container: &str,
    argv: &[&str],
    stdin: Option<&str>,
) -> Result<(i32, String, String), ExecError> {
    let req = ExecRequest {
        container: Some(container.into()),
        command: argv.iter().map(|s| (*s).to_string()).collect(),
        stdin: stdin.is_some(),
        tty: false,
    };
    let p = start_exec(api, pod, &req).await?;
    let rx = stdin.map(|text| {
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        let _ = tx.try_send(text.as_bytes().to_vec());
        rx
    });
    let (out, err) = (Buf::default(), Buf::default());
    let code = pump(p, rx, out.clone(), err.clone(), None).await?;
    Ok((code, out.text(), err.text()))
}
