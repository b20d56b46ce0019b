//! A relabelled pod is released by its ReplicaSet, refereed by real kubectl:
//! `kubectl label pod web-… app=quarantine --overwrite` on a Deployment's pod leaves that pod
//! running with no ownerReferences (as kube-controller-manager's `ClaimPods` releases a pod its
//! selector no longer matches) and a replacement pod makes the count 3 again.
//!
//! The simulated clock runs 10× faster; every wait has a deadline.

use crate::common;
use crate::controllers_support;
use std::time::Duration;

use common::cluster::kubectl;
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
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relabelled_pod_is_released_and_replaced() {
    let Some(bin) = kubectl() else { return };
    let sim = common::sim::start_dynamic(10.0).await;
    let store = sim.store();
    let tmp = tempfile::tempdir().expect("tempdir");
    let k = Kubectl {
        bin,
        version: "kubectl".into(),
        sim: &sim,
        dir: tmp.path(),
    };
    k.apply("web", DEPLOYMENT).await;
    settled(&store, "kubectl").await;
    let before = live(&store, "web-");
    let quarantined = before.iter().next().expect("a pod").clone();

    let out = k
        .ok(&[
            "label",
            "pod",
            &quarantined,
            "app=quarantine",
            "--overwrite",
        ])
        .await;
    assert!(out.contains(&format!("pod/{quarantined} labeled")), "{out}");

    let released = wait_until(Duration::from_secs(60), || {
        let owned = |p: &k8s_openapi::api::core::v1::Pod| {
            p.metadata
                .owner_references
                .as_ref()
                .is_some_and(|r| !r.is_empty())
        };
        let pods = pods(&store, "web-");
        let old_free = pods
            .iter()
            .any(|p| p.metadata.name.as_deref() == Some(quarantined.as_str()) && !owned(p));
        let others = pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none() && owned(p))
            .count();
        old_free && others == 3
    })
    .await;
    assert!(released, "{:?}", live(&store, "web-"));
    // kubectl sees it too: the old pod has no ownerReferences, three pods carry app=web.
    let owners = k
        .ok(&[
            "get",
            "pod",
            &quarantined,
            "-o",
            "jsonpath={.metadata.ownerReferences}",
        ])
        .await;
    assert_eq!(owners.trim(), "", "{owners}");
    let out = k.ok(&["get", "pods", "-l", "app=web", "-o", "name"]).await;
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(!out.contains(&quarantined), "{out}");
    sim.shutdown().await;
}
