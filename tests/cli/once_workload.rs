//! `podscope deploy/web --once` through the simulator's stuck rollout (`rollout-stuck`: the new
//! ReplicaSet's pod crash-loops with `PORT=abc`, the old one serves 3, the Deployment reaches
//! `ProgressDeadlineExceeded`), kubectl's errors for a missing workload and an unknown kind, and
//! the RBAC fallback of a pod target whose Deployment cannot be read.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::apps::v1::Deployment;
use podscope::cluster::workload::resolve;
use podscope::model::workload::TargetRef;
use podscope::sim::{Object, Resource, SimClock, SimConfig, Simulator, Store};
use serde_json::Value;

use common::wait::wait_until;

async fn start(deny: &[(&str, &str)]) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, 10.0),
        scenarios: vec![PathBuf::from("rollout-stuck")],
        deny: deny
            .iter()
            .map(|(v, r)| ((*v).to_owned(), (*r).to_owned()))
            .collect(),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

fn deployment(store: &Store) -> Option<Deployment> {
    match store.object(Resource::Deployments, "default", "web")? {
        Object::Deployment(d) => Some((*d).clone()),
        _ => None,
    }
}

/// Waits for the stuck rollout: `ProgressDeadlineExceeded` and a crash-looping new pod.
async fn wait_stuck(store: &Store) {
    let stuck = wait_until(Duration::from_secs(90), || {
        let deadline = deployment(store)
            .and_then(|d| d.status)
            .and_then(|s| s.conditions)
            .is_some_and(|cs| {
                cs.iter()
                    .any(|c| c.reason.as_deref() == Some("ProgressDeadlineExceeded"))
            });
        let crashing = store
            .list(Resource::Pods, Some("default"))
            .0
            .iter()
            .any(|o| match o {
                Object::Pod(p) => {
                    common::sim::waiting_reason(p, "hello").as_deref() == Some("CrashLoopBackOff")
                }
                _ => false,
            });
        deadline && crashing
    })
    .await;
    let pods: Vec<_> = store
        .list(Resource::Pods, Some("default"))
        .0
        .iter()
        .filter_map(|o| match o {
            Object::Pod(p) => Some((p.metadata.name.clone(), p.status.clone())),
            _ => None,
        })
        .collect();
    assert!(
        stuck,
        "the rollout did not get stuck: {:?}\n{pods:?}",
        deployment(store).and_then(|d| d.status)
    );
}

fn podscope(kubeconfig: &Path, args: &[&str]) -> Output {
    tokio::task::block_in_place(|| {
        Command::new(env!("CARGO_BIN_EXE_podscope"))
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(["-n", "default"])
            .args(args)
            .env_remove("KUBECONFIG")
            .output()
            .expect("podscope runs")
    })
}

fn kubectl_stderr(kubeconfig: &Path, args: &[&str]) -> Option<String> {
    let kubectl = common::cluster::kubectl()?;
    let out = tokio::task::block_in_place(|| {
        Command::new(kubectl)
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(["-n", "default"])
            .args(args)
            .output()
            .expect("kubectl runs")
    });
    Some(String::from_utf8_lossy(&out.stderr).trim().to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_json_picks_the_crash_looping_pod_of_the_new_replica_set() {
    let sim = start(&[]).await;
    wait_stuck(&sim.store()).await;
    let out = podscope(
        sim.kubeconfig_path(),
        &["deploy/web", "--once", "-o", "json"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("json");
    let w = &doc["workload"];
    assert_eq!(
        (w["kind"].as_str(), w["name"].as_str()),
        (Some("Deployment"), Some("web"))
    );
    assert_eq!(w["replicas"], 3);
    assert_eq!(w["selector"], "app=web");
    let changes = w["changes"].as_array().expect("changes");
    assert!(
        changes
            .iter()
            .any(|c| c["field"] == "env PORT" && c["from"] == "8080" && c["to"] == "abc"),
        "{changes:?}"
    );
    assert!(
        changes
            .iter()
            .any(|c| c["field"] == "image" && c["to"] == "ghcr.io/example/hello:1.1"),
        "{changes:?}"
    );
    let pods = w["pods"].as_array().expect("pods");
    assert_eq!(pods.len(), 4, "3 old and 1 new: {pods:?}");
    let new_rev: Vec<_> = pods.iter().filter(|p| p["revision"] == "2").collect();
    assert_eq!(new_rev.len(), 1, "{pods:?}");
    // The chosen pod is the new ReplicaSet's crash-looping one.
    assert_eq!(doc["pod"]["name"], new_rev[0]["name"]);
    assert_eq!(w["chosen"], new_rev[0]["name"]);
    // The pods come in the choice order: the chosen one first.
    assert_eq!(pods[0]["name"], new_rev[0]["name"], "{pods:?}");
    assert_eq!(
        doc["containers"][0]["state"]["waiting"]["reason"],
        "CrashLoopBackOff"
    );
    let rules: Vec<&str> = doc["diagnosis"]
        .as_array()
        .expect("diagnosis")
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert_eq!(rules.first(), Some(&"rollout-new-pods-fail"), "{rules:?}");
    assert!(rules.contains(&"rollout-deadline-exceeded"), "{rules:?}");
    let headline = doc["diagnosis"][0]["headline"].as_str().unwrap_or("");
    assert!(
        headline.contains("exit 1 since PORT changed to \"abc\" (and 1 more change)")
            && headline.contains("the old ReplicaSet's pods are healthy"),
        "{headline}"
    );

    // Text: the workload line and one line per pod, the chosen one marked.
    let out = podscope(sim.kubeconfig_path(), &["deployment.apps/web", "--once"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("Workload: deploy/web  3/3 ready  updated 1/3  rollout: ReplicaSet web-"),
        "{text}"
    );
    assert!(
        text.contains("Progressing: ProgressDeadlineExceeded"),
        "{text}"
    );
    assert!(
        text.contains(
            "  Changes: hello: image ghcr.io/example/hello:1.0 → :1.1; env PORT 8080 → abc"
        ),
        "{text}"
    );
    assert!(
        text.contains("NAME ") && text.contains("REVISION"),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("* web-")).count(),
        1,
        "{text}"
    );

    // -l selects the same pods, without a workload summary.
    let out = podscope(
        sim.kubeconfig_path(),
        &["-l", "app=web", "--once", "-o", "json"],
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["workload"]["pods"].as_array().map(Vec::len), Some(4));
    assert_eq!(doc["pod"]["name"], new_rev[0]["name"]);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_workloads_and_unknown_kinds_read_as_kubectl() {
    let sim = start(&[]).await;
    let kc = sim.kubeconfig_path();
    let out = podscope(kc, &["deploy/nope", "--once"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr).trim().to_owned();
    assert_eq!(
        err,
        "Error from server (NotFound): deployments.apps \"nope\" not found"
    );
    if let Some(k) = kubectl_stderr(kc, &["get", "deploy/nope"]) {
        assert_eq!(k, err, "kubectl's words");
    }
    let out = podscope(kc, &["deploymnet/web", "--once"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: the server doesn't have a resource type \"deploymnet\""),
        "{err}"
    );
    if let Some(k) = kubectl_stderr(kc, &["get", "deploymnet/web"]) {
        assert!(
            err.trim().ends_with(&k),
            "kubectl said {k:?}, podscope {err:?}"
        );
    }
    let out = podscope(kc, &["-l", "app in web", "--once"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unable to parse requirement: found 'web' expected: '('"),
        "{err}"
    );
    // A selector matching nothing says so and exits 0.
    let out = podscope(kc, &["-l", "app=none", "--once"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("-l app=none selects no pods"));
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_deployment_falls_back_to_the_pods_owner_chain() {
    let sim = start(&[("get", "deployments")]).await;
    let store = sim.store();
    let ready = wait_until(Duration::from_secs(60), || {
        store.list(Resource::Pods, Some("default")).0.len() >= 3
    })
    .await;
    assert!(ready, "no pods");
    let pod = store
        .list(Resource::Pods, Some("default"))
        .0
        .into_iter()
        .find_map(|o| match o {
            Object::Pod(p) => p.metadata.name.clone(),
            _ => None,
        })
        .expect("a pod");
    let client = common::sim::client(&sim).await;
    let r = resolve(&client, "default", &TargetRef::Pod(pod.clone()))
        .await
        .expect("resolved through the pods");
    assert!(r.summary.is_none());
    assert_eq!(
        r.workload.as_ref().map(|w| w.display()).as_deref(),
        Some("deploy/web")
    );
    assert_eq!(r.selector, "app=web");
    assert!(r.pods.iter().any(|p| p.pod.name == pod));
    let refused = r.refused.expect("said what was refused");
    assert!(
        refused.starts_with("cannot get deployments.apps \"web\": forbidden ("),
        "{refused}"
    );
    assert!(
        refused.ends_with("; showing the pods of its owner chain"),
        "{refused}"
    );
    // The workload target itself cannot be read: the error names what to pass instead.
    let out = podscope(sim.kubeconfig_path(), &["deploy/web", "--once"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot get deployments.apps \"web\": forbidden")
            && err.contains("-l KEY=VALUE"),
        "{err}"
    );
    sim.shutdown().await;
}
