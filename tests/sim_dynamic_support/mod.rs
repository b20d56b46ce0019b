//! Helpers for the dynamic-simulator tests: a simulator on a fast virtual clock with the seed's
//! node, kubectl runs and background kubectl processes, waiting on the store.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Pod;
use podscope::model::BackoffCurve;
use podscope::sim::kubelet::KubeletConfig;
use podscope::sim::{SimClock, SimConfig, Simulator, Store};

/// The seed's node: `k8s-node-2` (192.168.10.21), pod IPs from 172.20.172.0/24.
pub fn seed_node() -> KubeletConfig {
    KubeletConfig {
        node_name: "k8s-node-2".into(),
        host_ip: "192.168.10.21".into(),
        pod_cidr_prefix: "172.20.172.".into(),
        curve: BackoffCurve::DEFAULT,
    }
}

/// The kubectl binary, or `None` after printing why the test is skipped.
pub fn kubectl() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let found = std::env::split_paths(&path)
        .map(|d| d.join("kubectl"))
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!("SKIP: kubectl not found on PATH");
    }
    found
}

/// A scenario file in assets/scenarios.
pub fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/scenarios")
        .join(name)
}

/// Starts an empty simulator with the seed's node on a clock running `speed`× real time. The
/// virtual clock starts two hours in the past so it stays behind the wall clock kubectl uses
/// for client-side ages (describe's event ages would print `<invalid>` otherwise).
pub async fn start(speed: f64) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, speed),
        node: seed_node(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// Runs kubectl against `sim`; returns (success, stdout, stderr).
pub async fn run(sim: &Simulator, cache: &Path, args: &[&str]) -> (bool, String, String) {
    let out = tokio::time::timeout(Duration::from_secs(60), command(sim, cache, args).output())
        .await
        .expect("kubectl finishes within 60 s")
        .expect("kubectl runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn command(sim: &Simulator, cache: &Path, args: &[&str]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(kubectl().expect("kubectl on PATH"));
    cmd.arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .env_remove("KUBECONFIG")
        .kill_on_drop(true);
    cmd
}

/// Starts kubectl in the background with stdout captured.
pub fn spawn(sim: &Simulator, cache: &Path, args: &[&str]) -> tokio::process::Child {
    command(sim, cache, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl starts")
}

/// Stops a background kubectl (if still running) and returns its stdout.
pub async fn finish(mut child: tokio::process::Child) -> String {
    let _ = child.start_kill();
    let out = child.wait_with_output().await.expect("kubectl output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits (at most `secs` real seconds) until the stored pod satisfies `pred`; returns it.
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

/// Waits until `kubectl get pods -w` in `child` has its watch open (a request was made), by
/// polling for a short while; the API gives no handshake, so this sleeps 1.5 s.
pub async fn settle() {
    tokio::time::sleep(Duration::from_millis(1500)).await;
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
