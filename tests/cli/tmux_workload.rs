//! `podscope deploy/web` in tmux against the simulator's stuck-rollout scenario (`web`: 3 pods
//! of hello:1.0, a rollout to a crash-looping 1.1 after 20 s): the workload line and the glyph
//! row head the screen; `kubectl delete pod <shown>` makes podscope follow the replacement with
//! the marker line while a `--forward` keeps answering; `kubectl rollout undo` moves it from the
//! crash-looping new pod to a healthy pod of the old ReplicaSet; started before the rollout, the
//! view moves to the new pod once it fails.

use crate::common;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use common::tmux::{Session, keys, missing, new_session, wait_for};
use common::wait::wait_until_blocking;
use jiff::{SignedDuration, Timestamp};
use podscope::sim::{SimClock, SimConfig, Simulator};

async fn start_rollout() -> Simulator {
    Simulator::start(SimConfig {
        clock: SimClock::scaled(Timestamp::now() - SignedDuration::from_hours(2), 1.0),
        scenarios: vec![common::sim::scenario("rollout-stuck.yaml")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// The pod the header shows (`default/<name>  ● live`).
fn shown_pod(screen: &str) -> Option<String> {
    let line = screen.lines().find(|l| l.starts_with("default/web-"))?;
    let name = line.strip_prefix("default/")?.split_whitespace().next()?;
    Some(name.to_owned())
}

fn kubectl(kubeconfig: &str, args: &[&str]) -> String {
    let out = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(args)
        .output()
        .expect("kubectl runs");
    assert!(
        out.status.success(),
        "kubectl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A free local port (bound and released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// One HTTP GET through the forward; the status line, if any answer came.
fn get(port: u16) -> Option<String> {
    let mut sock = TcpStream::connect(("127.0.0.1", port)).ok()?;
    sock.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    sock.write_all(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .ok()?;
    let mut answer = String::new();
    let _ = sock.read_to_string(&mut answer);
    answer.lines().next().map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_pod_is_replaced_and_the_forward_keeps_answering() {
    if missing("the workload view in tmux") || common::cluster::kubectl().is_none() {
        return;
    }
    let sim = start_rollout().await;
    let kc = sim.kubeconfig_path().display().to_string();
    let port = free_port();
    let session = format!("podscope-deploy-web-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {kc} deploy/web --forward {port}:8080",
        env!("CARGO_BIN_EXE_podscope")
    );
    tokio::task::block_in_place(|| {
        new_session(&session, 120, 40, &cmd);
        let _guard = Session(session.clone());
        let screen = wait_for(&session, "the workload and a live pod", 30, |s| {
            s.starts_with("deploy/web") && s.contains("pods ") && s.contains("● live")
        });
        let old = shown_pod(&screen).expect("a pod shown");
        let before =
            wait_until_blocking(Duration::from_secs(10), Duration::from_millis(200), || {
                get(port).is_some()
            });
        if !before {
            keys(&session, "f");
            let panel = wait_for(&session, "the forward panel", 5, |s| s.contains("8080"));
            panic!("the forward answers before; panel:\n{panel}");
        }
        kubectl(&kc, &["delete", "pod", &old, "--wait=false"]);
        let screen = wait_for(&session, "the replacement", 30, |s| {
            shown_pod(s).is_some_and(|p| p != old) && s.contains("● live")
        });
        let new = shown_pod(&screen).expect("the replacement shown");
        keys(&session, "l");
        let marker = format!("pod {old} deleted; following its replacement {new}");
        wait_for(&session, "the marker line", 10, |s| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(&marker)
        });
        let answered =
            wait_until_blocking(Duration::from_secs(10), Duration::from_millis(200), || {
                get(port).is_some()
            });
        assert!(answered, "the forward answers through the replacement");
    });
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rollout_undo_moves_to_a_healthy_pod_of_the_old_replica_set() {
    if missing("the workload view in tmux") || common::cluster::kubectl().is_none() {
        return;
    }
    let sim = start_rollout().await;
    let kc = sim.kubeconfig_path().display().to_string();
    // The rollout to 1.1 has started and its pod crash-loops.
    let crashing = wait_until_blocking(Duration::from_secs(60), Duration::from_millis(500), || {
        kubectl(&kc, &["get", "pods", "-l", "app=web"]).contains("CrashLoopBackOff")
    });
    assert!(crashing, "the new ReplicaSet's pod crash-loops");
    let session = format!("podscope-rollout-undo-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {kc} deploy/web",
        env!("CARGO_BIN_EXE_podscope")
    );
    tokio::task::block_in_place(|| {
        new_session(&session, 120, 40, &cmd);
        let _guard = Session(session.clone());
        let screen = wait_for(&session, "the crash-looping pod", 30, |s| {
            s.contains("STATUS CrashLoopBackOff")
        });
        let new_pod = shown_pod(&screen).expect("the new ReplicaSet's pod");
        kubectl(&kc, &["rollout", "undo", "deploy/web"]);
        let screen = wait_for(&session, "a healthy pod of the old ReplicaSet", 60, |s| {
            shown_pod(s).is_some_and(|p| p != new_pod) && s.contains("STATUS Running")
        });
        // Another ReplicaSet's pod: shown, not called a replacement.
        assert!(
            screen.contains(&format!("pod {new_pod} deleted; showing")),
            "{screen}"
        );
    });
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rollout_going_bad_moves_the_view_to_the_failing_new_pod() {
    if missing("the workload view in tmux") || common::cluster::kubectl().is_none() {
        return;
    }
    let sim = start_rollout().await;
    let kc = sim.kubeconfig_path().display().to_string();
    let session = format!("podscope-rollout-bad-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {kc} deploy/web",
        env!("CARGO_BIN_EXE_podscope")
    );
    tokio::task::block_in_place(|| {
        new_session(&session, 120, 40, &cmd);
        let _guard = Session(session.clone());
        // Started before the rollout: a healthy pod of hello:1.0.
        let screen = wait_for(&session, "a healthy pod", 30, |s| {
            s.contains("STATUS Running") && shown_pod(s).is_some()
        });
        let healthy = shown_pod(&screen).expect("a pod shown");
        // The rollout to 1.1 starts after 20 s and its pod fails: the view moves there.
        let screen = wait_for(&session, "the failing new pod", 90, |s| {
            shown_pod(s).is_some_and(|p| p != healthy)
                && s.contains(&format!("showing it instead of {healthy}"))
        });
        let failing = shown_pod(&screen).expect("the new pod shown");
        let pods = kubectl(&kc, &["get", "pod", &failing]);
        assert!(
            pods.contains("Error") || pods.contains("CrashLoopBackOff"),
            "{pods}"
        );
    });
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_the_deployment_says_so_without_stale_counts() {
    if missing("the workload view in tmux") || common::cluster::kubectl().is_none() {
        return;
    }
    let sim = start_rollout().await;
    let kc = sim.kubeconfig_path().display().to_string();
    let session = format!("podscope-deploy-deleted-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {kc} deploy/web",
        env!("CARGO_BIN_EXE_podscope")
    );
    tokio::task::block_in_place(|| {
        new_session(&session, 120, 40, &cmd);
        let _guard = Session(session.clone());
        wait_for(&session, "the workload line", 30, |s| {
            s.starts_with("deploy/web") && s.contains(" ready")
        });
        kubectl(&kc, &["delete", "deployment", "web", "--wait=false"]);
        let screen = wait_for(&session, "the deleted workload", 30, |s| {
            s.lines()
                .next()
                .is_some_and(|l| l.trim() == "deploy/web deleted")
        });
        assert!(!screen.contains("was deleted in namespace"), "{screen}");
    });
    sim.shutdown().await;
}

const STATEFULSET: &str = "apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  replicas: 3
  serviceName: db
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: hello
        image: ghcr.io/example/hello:1.0
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateful_set_pod_is_waited_for_under_its_own_name() {
    if missing("the workload view in tmux") || common::cluster::kubectl().is_none() {
        return;
    }
    let sim = common::sim::start_dynamic(10.0).await;
    let kc = sim.kubeconfig_path().display().to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("db.yaml");
    std::fs::write(&file, STATEFULSET).expect("write db.yaml");
    let session = format!("podscope-sts-db-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {kc} sts/db",
        env!("CARGO_BIN_EXE_podscope")
    );
    tokio::task::block_in_place(|| {
        kubectl(&kc, &["apply", "-f", &file.display().to_string()]);
        let all = wait_until_blocking(Duration::from_secs(60), Duration::from_millis(300), || {
            kubectl(&kc, &["get", "pods", "-l", "app=db"])
                .matches("Running")
                .count()
                == 3
        });
        assert!(all, "three db pods run");
        new_session(&session, 120, 40, &cmd);
        let _guard = Session(session.clone());
        let shown_db = |s: &str| {
            let line = s.lines().find(|l| l.starts_with("default/db-"))?;
            line.strip_prefix("default/")?
                .split_whitespace()
                .next()
                .map(str::to_owned)
        };
        let screen = wait_for(&session, "a db pod", 30, |s| {
            s.starts_with("sts/db") && shown_db(s).is_some() && s.contains("● live")
        });
        let name = shown_db(&screen).expect("a pod shown");
        keys(&session, "l");
        kubectl(&kc, &["delete", "pod", &name, "--wait=false"]);
        // The marker in the log pane: the notice is replaced once the pod is re-created.
        let text = format!("pod {name} deleted; the StatefulSet re-creates it under the same name");
        let screen = wait_for(&session, "the marker", 30, |s| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(&text)
        });
        assert_eq!(
            shown_db(&screen).as_deref(),
            Some(name.as_str()),
            "{screen}"
        );
        // It comes back under the same name and is shown again; no sibling was moved to.
        let screen = wait_for(&session, "the re-created pod", 60, |s| {
            shown_db(s).as_deref() == Some(name.as_str()) && s.contains("● live")
        });
        assert!(!screen.contains("replacement"), "{screen}");
    });
    sim.shutdown().await;
}
