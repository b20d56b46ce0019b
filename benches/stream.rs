//! Benchmarks (harness = false): port-forward throughput through podscope's `Forwarder` and the
//! simulator vs a direct loopback TCP echo — and through kubectl over SPDY and over WebSocket
//! against the same simulator, when kubectl is installed —, and the exec round trip (one byte
//! in, its echo out).
//!
//! Run: `cargo bench --bench stream` (env `BENCH_MIB`, default 32; `BENCH_ROUNDS`, default 200).

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::AttachParams;
use podscope::cluster::forward::Forwarder;
use podscope::sim::{SimConfig, Simulator};
use podscope::test_support::{echo_pod, sim_client};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Writes `total` bytes and reads them back through an echo at `addr`; returns MiB/s.
async fn echo_throughput(addr: SocketAddr, total: usize) -> f64 {
    let s = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    s.set_nodelay(true).expect("nodelay");
    let (mut r, mut w) = s.into_split();
    let start = Instant::now();
    let writer = tokio::spawn(async move {
        let chunk = vec![0x5au8; 64 * 1024];
        let mut sent = 0;
        while sent < total {
            let n = chunk.len().min(total - sent);
            w.write_all(&chunk[..n]).await.expect("writes");
            sent += n;
        }
        w
    });
    let mut buf = vec![0u8; 64 * 1024];
    let mut got = 0;
    while got < total {
        let n = r.read(&mut buf).await.expect("reads");
        assert!(n > 0, "echo closed early after {got} bytes");
        got += n;
    }
    let secs = start.elapsed().as_secs_f64();
    drop(writer.await);
    (total as f64 / (1024.0 * 1024.0)) / secs
}

async fn direct_echo() -> SocketAddr {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let addr = l.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((s, _)) = l.accept().await {
            tokio::spawn(async move {
                let (mut r, mut w) = s.into_split();
                let _ = tokio::io::copy(&mut r, &mut w).await;
            });
        }
    });
    addr
}

/// `kubectl port-forward pod/echo :7000` against the simulator with
/// `KUBECTL_PORT_FORWARD_WEBSOCKETS=websockets`; the child and the local address it printed.
async fn kubectl_forward(
    kubeconfig: &Path,
    websockets: &str,
) -> Option<(tokio::process::Child, SocketAddr)> {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new("kubectl")
        .args(["--kubeconfig"])
        .arg(kubeconfig)
        .args([
            "port-forward",
            "pod/echo",
            ":7000",
            "--address",
            "127.0.0.1",
        ])
        .env("KUBECTL_PORT_FORWARD_WEBSOCKETS", websockets)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .ok()?;
    let mut lines = tokio::io::BufReader::new(child.stdout.take()?).lines();
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .ok()?
        .ok()??;
    // `Forwarding from 127.0.0.1:41234 -> 7000`
    let addr = line.split_whitespace().nth(2)?.parse().ok()?;
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Some((child, addr))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mib = env_num("BENCH_MIB", 32);
    let rounds = env_num("BENCH_ROUNDS", 200);
    let total = mib * 1024 * 1024;
    let sim = Simulator::start(SimConfig {
        fixtures: vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stream_support/hello")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator");
    let hello = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stream_support/hello");
    let echo = echo_pod(&hello, "bench-echo").expect("hello fixture");
    sim.store().create_pod(echo).expect("echo pod");
    let client = sim_client(&sim).await.expect("client");

    // Every path is started first, then measured in interleaved rounds (direct, Forwarder,
    // kubectl SPDY, kubectl WebSocket, again …) and each figure is the median of its rounds: a
    // single loopback run varies by 2× on a shared 2-core machine, and interleaving exposes
    // every path to the same noise.
    let repeat = env_num("BENCH_REPEAT", 7).max(1);
    let direct_addr = direct_echo().await;
    let fwd = Forwarder::start(
        client.clone(),
        "default",
        "echo",
        &[":7000".parse().expect("spec")],
    )
    .await
    .expect("forwarder");
    // The same echo through `kubectl port-forward` against the same simulator, over each of the
    // two transports the simulator serves: SPDY (`KUBECTL_PORT_FORWARD_WEBSOCKETS=false`, the
    // only one before kubectl 1.31) and WebSocket (the default since 1.31).
    let mut paths: Vec<(String, SocketAddr)> = vec![
        ("direct loopback TCP echo".to_owned(), direct_addr),
        ("podscope Forwarder + sim".to_owned(), fwd.local_addrs()[0]),
    ];
    let mut children = Vec::new();
    for (transport, websockets) in [("SPDY", "false"), ("WebSocket", "true")] {
        match kubectl_forward(sim.kubeconfig_path(), websockets).await {
            Some((child, addr)) => {
                paths.push((format!("kubectl port-forward ({transport})"), addr));
                children.push(child);
            }
            None => {
                println!("  kubectl port-forward ({transport}): kubectl not available, skipped")
            }
        }
    }
    let mut rounds_of: Vec<Vec<f64>> = vec![Vec::new(); paths.len()];
    for _ in 0..repeat {
        for (i, (_, addr)) in paths.iter().enumerate() {
            rounds_of[i].push(echo_throughput(*addr, total).await);
        }
    }
    // (median, min, max) of each path's rounds; the direct echo is path 0.
    let figures: Vec<(f64, f64, f64)> = rounds_of
        .iter_mut()
        .map(|v| {
            v.sort_by(f64::total_cmp);
            (v[v.len() / 2], v[0], v[v.len() - 1])
        })
        .collect();
    let direct = figures[0].0;
    println!("port-forward echo, {mib} MiB each way, median of {repeat} interleaved rounds:");
    for ((label, _), (m, lo, hi)) in paths.iter().zip(&figures) {
        println!(
            "  {label:34} {m:8.1} MiB/s  ({:5.1}% of direct; rounds {lo:.0}–{hi:.0})",
            100.0 * m / direct
        );
    }
    for mut child in children {
        let _ = child.kill().await;
    }
    fwd.stop().await;

    // Many small requests, keep-alive off: one TCP connection (so one port-forward stream) per
    // request, through the seed's nginx sidecar to hello.
    let requests = env_num("BENCH_REQUESTS", 1000);
    let web = Forwarder::start(
        client.clone(),
        "default",
        "hello",
        &[":8081".parse().expect("spec")],
    )
    .await
    .expect("forwarder");
    let addr = web.local_addrs()[0];
    let start = Instant::now();
    let mut errors = 0usize;
    for _ in 0..requests {
        let ok = async {
            let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
            s.write_all(b"GET / HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .await
                .ok()?;
            let mut body = Vec::new();
            tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut body))
                .await
                .ok()?
                .ok()?;
            String::from_utf8_lossy(&body)
                .contains("hello from hello")
                .then_some(())
        }
        .await;
        if ok.is_none() {
            errors += 1;
        }
    }
    let took = start.elapsed();
    println!("{requests} HTTP/1.0 requests (keep-alive off) through the Forwarder to hello:8081:");
    println!(
        "  {errors} errors, {:.0} requests/s, {:?} per request",
        requests as f64 / took.as_secs_f64(),
        took / u32::try_from(requests.max(1)).unwrap_or(u32::MAX)
    );
    web.stop().await;

    let api: Api<Pod> = Api::namespaced(client, "default");
    let ap = AttachParams::default()
        .stdin(true)
        .stdout(true)
        .stderr(false)
        .container("proxy");
    let mut p = api.exec("hello", ["cat"], &ap).await.expect("exec cat");
    let mut stdin = p.stdin().expect("stdin");
    let mut stdout = p.stdout().expect("stdout");
    let mut times = Vec::with_capacity(rounds);
    let mut b = [0u8; 1];
    for i in 0..rounds {
        let byte = [b'a' + (i % 26) as u8];
        let t = Instant::now();
        stdin.write_all(&byte).await.expect("writes");
        stdin.flush().await.expect("flushes");
        tokio::time::timeout(Duration::from_secs(5), stdout.read_exact(&mut b))
            .await
            .expect("echo within 5 s")
            .expect("reads");
        times.push(t.elapsed());
        assert_eq!(b, byte);
    }
    times.sort();
    let pct = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    println!("exec round trip (1 byte to `cat`, its echo back), {rounds} rounds:");
    println!(
        "  median {:?}  p90 {:?}  max {:?}",
        pct(0.5),
        pct(0.9),
        pct(1.0)
    );
    // Shut the writer down before dropping it (as cluster::exec's pump does): kube-rs then
    // sends `[255,0]` and `cat` ends; bounded so a lost Status cannot hang the benchmark.
    let _ = stdin.shutdown().await;
    drop(stdin);
    if tokio::time::timeout(Duration::from_secs(5), p.join())
        .await
        .is_err()
    {
        eprintln!("note: the exec did not end within 5 s of closing stdin");
    }
    sim.shutdown().await;
}
