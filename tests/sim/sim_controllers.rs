//! The Deployment controller refereed by real kubectl (the one on PATH, `kubectl.1.27`, and every
//! other `kubectl.1.NN` beside it, 1.28 … 1.33):
//! `apply` → 3 pods Running, `get deploy,rs,pods` shows them ready, `rollout status` ends
//! `successfully rolled out`; a deleted pod is replaced under another name; `rollout restart`
//! replaces every pod by pods of a new ReplicaSet; `rollout history` lists the revisions;
//! `rollout undo` returns to the previous template's ReplicaSet; `set image` rolls; `scale
//! --replicas=0` leaves no pod; `delete deploy` takes the ReplicaSets along. The other kinds:
//! `sim_controllers_kinds.rs`.
//!
//! The simulated clock runs 10× faster (grace periods); every wait has a deadline.

use crate::common;
use crate::controllers_support;
use std::path::PathBuf;
use std::time::Duration;

use podscope::sim::Resource;

use common::cluster::{kubectl, kubectl_versions};
use common::wait::wait_until;
use controllers_support::*;

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: hello
        image: ghcr.io/example/hello:1.0
        env:
        - {name: PORT, value: \"8080\"}
        ports:
        - {name: http, containerPort: 8080}
        readinessProbe:
          httpGet: {path: /readyz, port: http}
          periodSeconds: 2
";

/// The whole story for a Deployment, with kubectl `bin`, on a fresh simulator.
async fn exercise(bin: PathBuf, version: String) {
    let sim = common::sim::start_dynamic(10.0).await;
    let store = sim.store();
    let tmp = tempfile::tempdir().expect("tempdir");
    let k = Kubectl {
        bin,
        version: version.clone(),
        sim: &sim,
        dir: tmp.path(),
    };
    let v = version.as_str();

    let out = k.apply("web", DEPLOYMENT).await;
    assert!(out.contains("deployment.apps/web created"), "{v}: {out}");
    let out = k
        .ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert!(
        out.contains("deployment \"web\" successfully rolled out"),
        "{v}: {out}"
    );
    let first = settled(&store, v).await;
    let out = k.ok(&["get", "deploy,rs,pods"]).await;
    let line = |prefix: &str| {
        out.lines()
            .find(|l| l.starts_with(prefix))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
    };
    let deploy =
        line("deployment.apps/web ").unwrap_or_else(|| panic!("{v}: no deployment line:\n{out}"));
    assert_eq!(
        &deploy[1..4],
        ["3/3", "3", "3"],
        "{v} READY UP-TO-DATE AVAILABLE:\n{out}"
    );
    let rs = line(&format!("replicaset.apps/web-{first} "))
        .unwrap_or_else(|| panic!("{v}: no ReplicaSet line:\n{out}"));
    assert_eq!(
        &rs[1..4],
        ["3", "3", "3"],
        "{v} DESIRED CURRENT READY:\n{out}"
    );
    let running = out
        .lines()
        .filter(|l| {
            l.starts_with(&format!("pod/web-{first}-"))
                && l.contains(" 1/1 ")
                && l.contains(" Running ")
        })
        .count();
    assert_eq!(running, 3, "{v}:\n{out}");

    // A deleted pod is replaced by another name.
    let before = live(&store, "web-");
    let victim = before.iter().next().expect("a pod").clone();
    k.ok(&["delete", "pod", &victim, "--wait=false"]).await;
    let replaced = wait_until(Duration::from_secs(60), || {
        let now = live(&store, "web-");
        now.len() == 3 && !now.contains(&victim)
    })
    .await;
    assert!(
        replaced,
        "{v}: {victim} not replaced: {:?}",
        live(&store, "web-")
    );
    settled(&store, v).await;

    // rollout restart: every pod replaced by pods of a new ReplicaSet.
    let before = live(&store, "web-");
    k.ok(&["rollout", "restart", "deploy/web"]).await;
    let out = k
        .ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert!(out.contains("successfully rolled out"), "{v}: {out}");
    let second = settled(&store, v).await;
    assert_ne!(second, first, "{v}: restart made no new ReplicaSet");
    assert!(
        live(&store, "web-").is_disjoint(&before),
        "{v}: an old pod survived the restart"
    );

    // rollout history lists both revisions; undo goes back to the first template.
    let out = k.ok(&["rollout", "history", "deploy/web"]).await;
    let revisions: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(revisions, ["1", "2"], "{v}:\n{out}");
    let out = k.ok(&["rollout", "undo", "deploy/web"]).await;
    assert!(out.contains("rolled back"), "{v}: {out}");
    k.ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert_eq!(
        settled(&store, v).await,
        first,
        "{v}: undo did not return to the first ReplicaSet"
    );
    let out = k
        .ok(&[
            "get",
            "rs",
            &format!("web-{first}"),
            "-o",
            "jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}",
        ])
        .await;
    assert_eq!(out.trim(), "3", "{v}: the reused ReplicaSet's revision");
    let out = k.ok(&["rollout", "history", "deploy/web"]).await;
    let revisions: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(revisions, ["2", "3"], "{v}:\n{out}");

    // set image rolls to a new ReplicaSet as well.
    k.ok(&[
        "set",
        "image",
        "deploy/web",
        "hello=ghcr.io/example/hello:1.2",
    ])
    .await;
    let out = k
        .ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert!(out.contains("successfully rolled out"), "{v}: {out}");
    let third = settled(&store, v).await;
    assert!(
        third != first && third != second,
        "{v}: set image made no new ReplicaSet"
    );

    // scale to 0: no pod left.
    k.ok(&["scale", "deploy/web", "--replicas=0"]).await;
    let gone = wait_until(Duration::from_secs(60), || pods(&store, "web-").is_empty()).await;
    assert!(
        gone,
        "{v}: pods left after scale 0: {:?}",
        live(&store, "web-")
    );
    let out = k.ok(&["get", "deploy", "web", "--no-headers"]).await;
    assert_eq!(out.split_whitespace().nth(1), Some("0/0"), "{v}: {out}");

    // Deleting the Deployment takes its ReplicaSets along (the garbage collector).
    k.ok(&["delete", "deploy", "web"]).await;
    let collected = wait_until(Duration::from_secs(30), || {
        store
            .list(Resource::ReplicaSets, Some("default"))
            .0
            .is_empty()
    })
    .await;
    assert!(
        collected,
        "{v}: ReplicaSets left after deleting the Deployment"
    );

    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_on_path_drives_the_workloads() {
    let Some(bin) = kubectl() else { return };
    exercise(bin, "kubectl".into()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_1_27_drives_the_workloads() {
    let Some((version, bin)) = kubectl_versions().into_iter().find(|(v, _)| v == "1.27") else {
        return;
    };
    exercise(bin, version).await;
}

/// 1.28 … 1.33: every other minor version of the matrix, one after the other (1.27 above).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_other_kubectl_version_drives_the_workloads() {
    for (version, bin) in kubectl_versions().into_iter().filter(|(v, _)| v != "1.27") {
        exercise(bin, version).await;
    }
}
