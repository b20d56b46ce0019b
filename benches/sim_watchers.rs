//! Simulator serving benchmark (harness = false): `cargo bench --bench sim_watchers`.
//!
//! 1. 1,000 HTTP watchers of one pod (`fieldSelector=metadata.name=pod-0`) while 10 pods change
//!    once a second (10 rounds): per round, the time from the change until all 1,000 watchers
//!    have received it.
//! 2. One `pods/log?follow=true` reader while 100-byte lines are appended as fast as possible:
//!    lines and MiB per second received.
//!
//! Env: `WATCHERS` (default 1000), `ROUNDS` (default 10), `LOG_LINES` (default 200000).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{
    Container, ContainerState, ContainerStateRunning, ContainerStatus, Pod, PodSpec, PodStatus,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use podscope::sim::{LogLine, SimConfig, Simulator};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn pod(name: &str) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("default".into()),
            ..ObjectMeta::default()
        },
        spec: Some(PodSpec {
            node_name: Some("sim-node-1".into()),
            containers: vec![Container {
                name: "app".into(),
                image: Some("app:1".into()),
                ..Container::default()
            }],
            ..PodSpec::default()
        }),
        status: Some(PodStatus {
            phase: Some("Running".into()),
            container_statuses: Some(vec![ContainerStatus {
                name: "app".into(),
                image: "app:1".into(),
                container_id: Some(format!("containerd://{name}")),
                ready: true,
                state: Some(ContainerState {
                    running: Some(ContainerStateRunning::default()),
                    ..ContainerState::default()
                }),
                ..ContainerStatus::default()
            }]),
            ..PodStatus::default()
        }),
    }
}

/// HTTP/1.0 so the body is not chunk-framed (plain bytes until close).
async fn open(host: &str, path: &str) -> tokio::net::TcpStream {
    let mut s = tokio::net::TcpStream::connect(host)
        .await
        .expect("connects");
    let req = format!("GET {path} HTTP/1.0\r\nhost: {host}\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("writes");
    s
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

async fn watchers(sim: &Simulator, n: usize, rounds: usize) {
    let store = sim.store();
    for i in 0..10 {
        store.create_pod(pod(&format!("pod-{i}"))).expect("created");
    }
    let host = sim.url().trim_start_matches("http://").to_string();
    let seen = Arc::new(AtomicUsize::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    for _ in 0..n {
        let (host, seen, started) = (host.clone(), seen.clone(), started.clone());
        tokio::spawn(async move {
            let mut s = open(
                &host,
                "/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dpod-0",
            )
            .await;
            let mut buf = vec![0u8; 64 * 1024];
            let mut first = true;
            loop {
                let Ok(k) = s.read(&mut buf).await else {
                    return;
                };
                if k == 0 {
                    return;
                }
                if first {
                    first = false;
                    started.fetch_add(1, Ordering::Relaxed);
                }
                seen.fetch_add(count(&buf[..k], b"\"MODIFIED\""), Ordering::Relaxed);
            }
        });
    }
    while started.load(Ordering::Relaxed) < n {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    println!("{n} watchers connected");
    let mut lat = Vec::new();
    for round in 1..=rounds {
        let t0 = Instant::now();
        for i in 0..10 {
            store
                .update_pod("default", &format!("pod-{i}"), |p| {
                    p.metadata
                        .labels
                        .get_or_insert_with(Default::default)
                        .insert("round".into(), round.to_string());
                })
                .expect("updated");
        }
        while seen.load(Ordering::Relaxed) < n * round {
            tokio::time::sleep(Duration::from_micros(200)).await;
        }
        let took = t0.elapsed();
        lat.push(took);
        tokio::time::sleep(Duration::from_secs(1).saturating_sub(took)).await;
    }
    lat.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "fan-out of one change to {n} watchers (10 pods changing per round, {rounds} rounds): min {:.1} ms, median {:.1} ms, max {:.1} ms",
        ms(lat[0]),
        ms(lat[lat.len() / 2]),
        ms(lat[lat.len() - 1])
    );
}

async fn follower(sim: &Simulator, lines: usize) {
    let store = sim.store();
    store.create_pod(pod("logger")).expect("created");
    let host = sim.url().trim_start_matches("http://").to_string();
    let mut s = open(
        &host,
        "/api/v1/namespaces/default/pods/logger/log?follow=true",
    )
    .await;
    let text = "x".repeat(99);
    let writer = {
        let store = store.clone();
        tokio::spawn(async move {
            for i in 0..lines {
                store.append_log(
                    "default",
                    "logger",
                    "containerd://logger",
                    LogLine {
                        time: store.now(),
                        text: text.clone(),
                    },
                );
                if i % 1000 == 0 {
                    tokio::task::yield_now().await;
                }
            }
        })
    };
    let t0 = Instant::now();
    let mut got = 0usize;
    let mut bytes = 0usize;
    let mut buf = vec![0u8; 256 * 1024];
    let mut past_headers = false;
    while got < lines {
        let k = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("log data keeps coming")
            .expect("reads");
        if k == 0 {
            break;
        }
        let mut data = &buf[..k];
        if !past_headers {
            match data.windows(4).position(|w| w == b"\r\n\r\n") {
                Some(p) => {
                    past_headers = true;
                    data = &data[p + 4..];
                }
                None => continue,
            }
        }
        got += count(data, b"\n");
        bytes += data.len();
    }
    let secs = t0.elapsed().as_secs_f64();
    let _ = writer.await;
    println!(
        "log follow, 100-byte lines: {got} lines in {secs:.2} s = {:.0} lines/s, {:.1} MiB/s",
        got as f64 / secs,
        bytes as f64 / secs / (1024.0 * 1024.0)
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let n = env_num("WATCHERS", 1000);
        let rounds = env_num("ROUNDS", 10);
        let sim = Simulator::start(SimConfig::default())
            .await
            .expect("starts");
        watchers(&sim, n, rounds).await;
        sim.shutdown().await;
        let sim = Simulator::start(SimConfig::default())
            .await
            .expect("starts");
        follower(&sim, env_num("LOG_LINES", 200_000)).await;
        sim.shutdown().await;
    });
}
