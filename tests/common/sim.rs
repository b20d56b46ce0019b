//! Starting the simulator for a test and talking to it with raw HTTP/1.1 bytes (over TLS with
//! its CA when it serves HTTPS, with its bearer token), and waiting on its store (objects, open
//! watches, log followers).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Pod;
use podscope::sim::{SimClock, SimConfig, Simulator, Store, load_fixture};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use super::cases::Expected;
use super::kubelet::seed_node;

/// Starts the simulator on port 0 with the case folders `dirs`, the clock frozen at the first
/// one's snapshot time. Plain HTTP (`insecure_http`), as the static-fixture tests were written.
pub async fn start_frozen(dirs: &[PathBuf]) -> Simulator {
    let fx = load_fixture(&dirs[0]).expect("fixture loads");
    let snapshot = fx.snapshot_time.expect("expected.md has a snapshot time");
    Simulator::start(SimConfig {
        fixtures: dirs.to_vec(),
        clock: SimClock::Frozen(snapshot),
        insecure_http: true,
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// Starts the simulator (HTTPS, token) serving case folder `case` with its clock frozen at the
/// case's snapshot time and RBAC denials `deny` (`(verb, resource)`); returns it with the case's
/// expected columns and namespace.
pub async fn start_case(case: &str, deny: &[(&str, &str)]) -> (Simulator, Expected, String) {
    let dir = super::cluster::cases_dir().join(case);
    let exp = super::cases::expected(case);
    let ns = super::cluster::namespace(&dir);
    let sim = Simulator::start(SimConfig {
        fixtures: vec![dir],
        clock: SimClock::Frozen(exp.now),
        deny: deny
            .iter()
            .map(|(v, r)| ((*v).to_string(), (*r).to_string()))
            .collect(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    (sim, exp, ns)
}

/// Case `case` on a real clock with the fixture shifted so that "now" is its snapshot time
/// (countdowns start where the case has them and run live), and the podscope command line that
/// attaches to its pod: `(simulator, podscope command)`.
pub async fn start_case_live(case: &str) -> (Simulator, String) {
    let dir = super::cluster::cases_dir().join(case);
    let exp = super::cases::expected(case);
    let ns = super::cluster::namespace(&dir);
    let sim = Simulator::start(SimConfig {
        fixtures: vec![dir],
        clock: SimClock::Real,
        shift_to_now: true,
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let cmd = format!(
        "{} --kubeconfig {} -n {ns} {}",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display(),
        exp.name
    );
    (sim, cmd)
}

/// `podscope -n NS POD --once -o json --now NOW` with `kubeconfig` (KUBECONFIG unset).
pub fn podscope_once(kubeconfig: &Path, ns: &str, pod: &str, now: Timestamp) -> Output {
    Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args([
            "-n",
            ns,
            pod,
            "--once",
            "-o",
            "json",
            "--now",
            &now.to_string(),
        ])
        .env_remove("KUBECONFIG")
        .output()
        .expect("podscope runs")
}

/// Starts an empty simulator (HTTPS, token) with the seed's node on a clock running `speed`×
/// real time. The virtual clock starts two hours in the past so it stays behind the wall clock
/// kubectl uses for client-side ages (describe's event ages would print `<invalid>` otherwise).
pub async fn start_dynamic(speed: f64) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, speed),
        node: seed_node(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// [`start_dynamic`] and a private kubectl cache dir, for a test refereed by kubectl; `None`
/// (the test is skipped) when kubectl is not on PATH.
pub async fn start_dynamic_for_kubectl(speed: f64) -> Option<(Simulator, tempfile::TempDir)> {
    super::cluster::kubectl()?;
    let sim = start_dynamic(speed).await;
    Some((sim, tempfile::tempdir().expect("tempdir")))
}

/// A scenario file in assets/scenarios.
pub fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/scenarios")
        .join(name)
}

/// `host:port` of the simulator.
pub fn host(sim: &Simulator) -> String {
    sim.url()
        .trim_start_matches("https://")
        .trim_start_matches("http://")
        .to_string()
}

/// A kube client for `sim`, from the kubeconfig it wrote.
pub async fn client(sim: &Simulator) -> kube::Client {
    podscope::test_support::sim_client(sim)
        .await
        .expect("client")
}

/// A TLS connector that trusts the simulator's CA only.
pub fn connector(sim: &Simulator) -> tokio_rustls::TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    let ca = CertificateDer::from_pem_slice(sim.ca_pem().expect("https").as_bytes())
        .expect("CA PEM parses");
    roots.add(ca).expect("CA is a valid trust anchor");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let cfg = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    tokio_rustls::TlsConnector::from(Arc::new(cfg))
}

async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(mut s: S, bytes: &[u8]) -> String {
    // Writes may fail when the server already gave up on us; what it answered still counts.
    let _ = s.write_all(bytes).await;
    let _ = s.flush().await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    String::from_utf8_lossy(&buf).into_owned()
}

/// Sends `bytes` as they are (over TLS for an https simulator) and returns whatever came back
/// before the connection closed or 10 s passed (possibly nothing). No HTTP library: chunk
/// framing stays in the text.
pub async fn send(sim: &Simulator, bytes: &[u8]) -> String {
    let tcp = TcpStream::connect(host(sim)).await.expect("connects");
    if sim.url().starts_with("https://") {
        let name = ServerName::try_from("127.0.0.1").expect("server name");
        let tls = connector(sim)
            .connect(name, tcp)
            .await
            .expect("TLS handshake with the simulator's CA");
        exchange(tls, bytes).await
    } else {
        exchange(tcp, bytes).await
    }
}

/// One HTTP/1.1 request (`request_line` like `POST /api/v1/…`) with the simulator's token (if
/// any), `connection: close` and, when `body` is given, a JSON body; the response text.
pub async fn request(sim: &Simulator, request_line: &str, body: Option<&str>) -> String {
    let auth = sim
        .token()
        .map(|t| format!("authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let payload = body
        .map(|b| {
            format!(
                "content-type: application/json\r\ncontent-length: {}\r\n\r\n{b}",
                b.len()
            )
        })
        .unwrap_or_else(|| "\r\n".to_string());
    let req = format!(
        "{request_line} HTTP/1.1\r\nhost: {}\r\n{auth}connection: close\r\n{payload}",
        host(sim)
    );
    send(sim, req.as_bytes()).await
}

/// `GET path_and_query` (see [`request`]).
pub async fn raw_get(sim: &Simulator, path_and_query: &str) -> String {
    request(sim, &format!("GET {path_and_query}"), None).await
}

/// Waits (at most `secs` real seconds) until the stored pod `default/name` satisfies `pred`;
/// returns it.
pub async fn wait_pod(store: &Store, name: &str, secs: u64, pred: impl Fn(&Pod) -> bool) -> Pod {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(p) = store.pod("default", name)
            && pred(&p)
        {
            return p;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "pod {name} did not reach the expected state in {secs} s: {:?}",
            store.pod("default", name).and_then(|p| p.status)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The `state.waiting.reason` of the pod's container `container`, while it waits.
pub fn waiting_reason(p: &Pod, container: &str) -> Option<String> {
    p.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|v| v.iter().find(|c| c.name == container))
        .and_then(|c| c.state.as_ref())
        .and_then(|s| s.waiting.as_ref())
        .and_then(|w| w.reason.clone())
}

/// Waits (at most 30 s) until at least `n` watches are open on `sim` (`Store::watchers`): a
/// background `kubectl get -w` or kube watcher has opened its watch, so every change made from
/// now on reaches it.
pub async fn wait_watchers(sim: &Simulator, n: usize) {
    let store = sim.store();
    let open = super::wait::wait_until(Duration::from_secs(30), || store.watchers() >= n).await;
    assert!(open, "{} of {n} watches open after 30 s", store.watchers());
}

/// Waits (at most 30 s) until at least `n` log follow streams are open on `sim`
/// (`Store::log_followers`): a background `logs -f` is attached, so it sees every line and the
/// end of the instance from now on.
pub async fn wait_log_followers(sim: &Simulator, n: usize) {
    let store = sim.store();
    let open =
        super::wait::wait_until(Duration::from_secs(30), || store.log_followers() >= n).await;
    assert!(
        open,
        "{} of {n} log followers open after 30 s",
        store.log_followers()
    );
}

/// Whether every container status of the pod is ready and the phase is Running.
pub fn all_ready(p: &Pod) -> bool {
    let st = p.status.as_ref();
    st.and_then(|s| s.phase.as_deref()) == Some("Running")
        && st
            .and_then(|s| s.container_statuses.as_ref())
            .is_some_and(|v| !v.is_empty() && v.iter().all(|c| c.ready))
        && st
            .and_then(|s| s.init_container_statuses.as_ref())
            .is_none_or(|v| v.iter().all(|c| c.ready))
}

/// A connected [`podscope::cluster::Target`] for pod `ns/pod` on `sim`, through the kubeconfig the
/// simulator wrote (as a user would run `podscope --kubeconfig K -n NS POD`).
pub async fn target(sim: &Simulator, ns: &str, pod: &str) -> podscope::cluster::Target {
    podscope::cluster::connect(
        &podscope::cluster::ConnectOptions {
            kubeconfig: Some(sim.kubeconfig_path().to_path_buf()),
            context: None,
            namespace: Some(ns.to_owned()),
        },
        pod,
    )
    .await
    .expect("connects")
}
