//! What attaching to a Deployment costs the cluster, in a small and in a crowded namespace
//! (harness = false): `cargo bench --bench workload_attach`.
//!
//! For each namespace size (3 and 5,000 other pods beside the Deployment `web` of 3 pods), the
//! simulator is started, the other pods are stored (static, not run), the Deployment is created
//! and its controllers bring up 3 ready pods; then the podscope TUI runs `deploy/web` in a
//! 120×40 tmux session for `WINDOW` (default 30) seconds. Reported per size: the requests,
//! watches and response bytes the simulator served to podscope from its start to the end of
//! the window, and podscope's CPU time (user + system, from `/proc/PID/stat`) over the window.
//! Label-selected watches make the two rows the same; the last column gives, for scale, the
//! bytes of one LIST of the namespace's pods (what a namespace-wide list+watch starts with).
//!
//! Env: `WINDOW` (seconds, default 30), `CROWD` (default 5000). Needs tmux.

use std::process::Command;
use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{Container, Pod, PodSpec, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use podscope::sim::{Object, Resource, SimConfig, Simulator, Store};

const NAMESPACE: &str = "shop";

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn labels(pairs: &[(&str, &str)]) -> Option<std::collections::BTreeMap<String, String>> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}

fn other_pod(i: u64) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(format!("other-{i:05}")),
            namespace: Some(NAMESPACE.into()),
            labels: labels(&[("app", "other")]),
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
        status: None,
    }
}

fn web() -> Deployment {
    Deployment {
        metadata: ObjectMeta {
            name: Some("web".into()),
            namespace: Some(NAMESPACE.into()),
            ..ObjectMeta::default()
        },
        spec: DeploymentSpec {
            replicas: Some(3),
            selector: LabelSelector {
                match_labels: labels(&[("app", "web")]),
                ..LabelSelector::default()
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: labels(&[("app", "web")]),
                    ..ObjectMeta::default()
                }),
                spec: Some(PodSpec {
                    containers: vec![Container {
                        name: "hello".into(),
                        image: Some("ghcr.io/example/hello:1.0".into()),
                        ..Container::default()
                    }],
                    ..PodSpec::default()
                }),
            },
            ..DeploymentSpec::default()
        },
        status: None,
    }
}

fn ready_web_pods(store: &Store) -> usize {
    let (pods, _) = store.list(Resource::Pods, Some(NAMESPACE));
    pods.iter()
        .filter(|o| match o {
            Object::Pod(p) => {
                o.labels().get("app").map(String::as_str) == Some("web")
                    && p.status
                        .as_ref()
                        .and_then(|s| s.conditions.as_ref())
                        .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
            }
            _ => false,
        })
        .count()
}

fn tmux(args: &[&str]) -> Option<String> {
    let out = Command::new("tmux").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn cpu_ticks(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

struct Row {
    others: u64,
    requests: u64,
    watches: u64,
    bytes: u64,
    cpu_percent: f64,
    list_bytes: u64,
}

async fn run(others: u64, seconds: u64) -> Row {
    let sim = Simulator::start(SimConfig::default())
        .await
        .expect("simulator starts");
    let store = sim.store();
    for i in 0..others {
        store.create_pod(other_pod(i)).expect("stored");
    }
    store
        .create_object(Object::Deployment(std::sync::Arc::new(web())))
        .expect("deployment");
    let deadline = Instant::now() + Duration::from_secs(60);
    while ready_web_pods(&store) < 3 {
        assert!(Instant::now() < deadline, "web's 3 pods never became ready");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let session = format!("podscope-workload-bench-{others}");
    let cmd = format!(
        "exec {} --kubeconfig {} -n {NAMESPACE} deploy/web",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display()
    );
    let before = sim.traffic();
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "120",
        "-y",
        "40",
        &cmd,
    ])
    .expect("tmux starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", &session]).unwrap_or_default();
        if screen.contains("deploy/web") && screen.contains("web-") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "podscope never showed web:\n{screen}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pid = tmux(&["list-panes", "-t", &session, "-F", "#{pane_pid}"])
        .expect("pane")
        .trim()
        .to_owned();
    let c0 = cpu_ticks(&pid).expect("cpu");
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let c1 = cpu_ticks(&pid).expect("cpu");
    let served = sim.traffic().since(before);
    tmux(&["kill-session", "-t", &session]);
    // For scale: what one LIST of the namespace's pods (a namespace-wide watch's first step)
    // would have cost.
    let client = podscope::test_support::sim_client(&sim)
        .await
        .expect("client");
    let pods: kube::Api<Pod> = kube::Api::namespaced(client, NAMESPACE);
    let at = sim.traffic();
    pods.list(&kube::api::ListParams::default())
        .await
        .expect("list");
    let list_bytes = sim.traffic().since(at).bytes;
    sim.shutdown().await;
    // SAFETY of the arithmetic: ticks and seconds are small; the clock rate is POSIX's 100 Hz
    // on Linux (`getconf CLK_TCK`).
    let hz = 100.0;
    #[allow(clippy::cast_precision_loss)]
    let cpu_percent = 100.0 * (c1 - c0) as f64 / hz / seconds as f64;
    Row {
        others,
        requests: served.requests,
        watches: served.watches,
        bytes: served.bytes,
        cpu_percent,
        list_bytes,
    }
}

#[tokio::main]
async fn main() {
    if tmux(&["-V"]).is_none() {
        println!("workload_attach: tmux is not installed; nothing measured");
        return;
    }
    let seconds = env_num("WINDOW", 30);
    let crowd = env_num("CROWD", 5000);
    println!(
        "podscope deploy/web (3 pods) for {seconds} s after it shows the pod, beside N other pods:"
    );
    println!(
        "{:>10} | {:>8} | {:>7} | {:>14} | {:>12} | one LIST of the namespace's pods",
        "other pods", "requests", "watches", "bytes received", "podscope CPU"
    );
    for others in [3, crowd] {
        let r = run(others, seconds).await;
        println!(
            "{:>10} | {:>8} | {:>7} | {:>14} | {:>10.3} % | {} bytes",
            r.others, r.requests, r.watches, r.bytes, r.cpu_percent, r.list_bytes
        );
    }
}
