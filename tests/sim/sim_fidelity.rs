//! Simulator fidelity checked with real kubectl: the scheduler's node filters (`nodeSelector`,
//! required node affinity, taints; `docs/kubelet-references.md` §Scheduling) and the pod
//! defaults the API server applies (`fieldRef.apiVersion`, canonical quantities;
//! `docs/core-api.md` §Pod defaults).

use crate::common;
use common::cluster::run;
use common::core_objects::{events_of, kubectl_apply, running, status_column};
use common::sim::{start_dynamic_for_kubectl, wait_pod};

const AFFINITY: &str = "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";

fn scheduled_condition(p: &k8s_openapi::api::core::v1::Pod) -> Option<(String, String)> {
    let c = p
        .status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == "PodScheduled")?;
    Some((
        c.reason.clone().unwrap_or_default(),
        c.message.clone().unwrap_or_default(),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_selector_holds_the_pod_until_the_node_is_labelled() {
    // The dynamic simulator's node is the seed's `k8s-node-2`.
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "ssd",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ssd\nspec:\n  nodeSelector:\n    disktype: ssd\n  containers:\n  - name: app\n    image: nginx:1.29\n",
    )
    .await;
    let p = wait_pod(&store, "ssd", 20, |p| scheduled_condition(p).is_some()).await;
    assert_eq!(
        scheduled_condition(&p),
        Some(("Unschedulable".to_string(), AFFINITY.to_string()))
    );
    assert_eq!(p.spec.as_ref().and_then(|s| s.node_name.clone()), None);
    assert_eq!(status_column(&sim, dir, "ssd").await, "Pending");
    assert!(
        events_of(&store, "ssd").contains(&("FailedScheduling".to_string(), AFFINITY.to_string())),
        "events: {:?}",
        events_of(&store, "ssd")
    );

    let (ok, out, err) = run(&sim, dir, &["label", "node", "k8s-node-2", "disktype=ssd"]).await;
    assert!(ok, "kubectl label: {err}");
    assert_eq!(out.trim(), "node/k8s-node-2 labeled");
    let p = wait_pod(&store, "ssd", 30, running).await;
    assert_eq!(
        p.spec.as_ref().and_then(|s| s.node_name.as_deref()),
        Some("k8s-node-2")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_affinity_and_taints_are_filters() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "affine",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: affine\nspec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - key: kubernetes.io/hostname\n            operator: NotIn\n            values: [k8s-node-2]\n  containers:\n  - name: app\n    image: nginx:1.29\n",
    )
    .await;
    let p = wait_pod(&store, "affine", 20, |p| scheduled_condition(p).is_some()).await;
    assert_eq!(
        scheduled_condition(&p).map(|c| c.1),
        Some(AFFINITY.to_string())
    );

    let (ok, _, err) = run(
        &sim,
        dir,
        &["taint", "node", "k8s-node-2", "dedicated=gpu:NoSchedule"],
    )
    .await;
    assert!(ok, "kubectl taint: {err}");
    kubectl_apply(
        &sim,
        dir,
        "plain",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: plain\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n",
    )
    .await;
    let p = wait_pod(&store, "plain", 20, |p| scheduled_condition(p).is_some()).await;
    assert_eq!(
        scheduled_condition(&p).map(|c| c.1),
        Some("0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.".to_string())
    );
    let (ok, _, err) = run(
        &sim,
        dir,
        &["taint", "node", "k8s-node-2", "dedicated=gpu:NoSchedule-"],
    )
    .await;
    assert!(ok, "kubectl taint -: {err}");
    wait_pod(&store, "plain", 30, running).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn field_refs_default_and_quantities_are_canonical() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "forms",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: forms\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n    env:\n    - name: POD\n      valueFrom:\n        fieldRef:\n          fieldPath: metadata.name\n    resources:\n      requests:\n        cpu: \"0.5\"\n        memory: 1024Mi\n        ephemeral-storage: 2048Mi\n      limits:\n        cpu: 1000m\n        memory: 1.5Gi\n  volumes:\n  - name: info\n    downwardAPI:\n      items:\n      - path: labels\n        fieldRef:\n          fieldPath: metadata.labels\n",
    )
    .await;
    let (ok, out, err) = run(&sim, dir, &["get", "pod", "forms", "-o", "json"]).await;
    assert!(ok, "kubectl get: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let c = &v["spec"]["containers"][0];
    assert_eq!(c["env"][0]["valueFrom"]["fieldRef"]["apiVersion"], "v1");
    assert_eq!(
        c["resources"],
        serde_json::json!({
            "requests": {"cpu": "500m", "memory": "1Gi", "ephemeral-storage": "2Gi"},
            "limits": {"cpu": "1", "memory": "1536Mi"}
        })
    );
    assert_eq!(
        v["spec"]["volumes"][0]["downwardAPI"]["items"][0]["fieldRef"]["apiVersion"],
        "v1"
    );

    // A Deployment's pod template is defaulted the same way.
    let path = dir.join("web.yaml");
    std::fs::write(
        &path,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.29\n        resources:\n          requests:\n            cpu: \"0.25\"\n",
    )
    .expect("write manifest");
    let (ok, _, err) = run(&sim, dir, &["apply", "-f", &path.to_string_lossy()]).await;
    assert!(ok, "kubectl apply web: {err}");
    let (ok, out, err) = run(
        &sim,
        dir,
        &[
            "get",
            "deployment",
            "web",
            "-o",
            "jsonpath={.spec.template.spec.containers[0].resources.requests.cpu}",
        ],
    )
    .await;
    assert!(ok, "kubectl get deployment: {err}");
    assert_eq!(out, "250m");
}
