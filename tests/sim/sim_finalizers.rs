//! Finalizers in the simulator, as the API server's registry handles them: a deleted pod with
//! finalizers stays (with `deletionTimestamp` and, once its containers stopped,
//! `deletionGracePeriodSeconds: 0`) and is removed by the update that takes the last finalizer
//! away — case 21's remedy (`kubectl patch … --type=json` removing `/metadata/finalizers`).

use crate::common;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::{DeleteParams, PostParams};

/// The remedy podscope prints: a JSON patch (`application/json-patch+json`, what `kubectl patch
/// --type=json` sends) removing `/metadata/finalizers`; the answer's `metadata.name`.
async fn remove_finalizers(client: &kube::Client, ns: &str, name: &str) -> String {
    let req = http::Request::patch(format!("/api/v1/namespaces/{ns}/pods/{name}"))
        .header("Content-Type", "application/json-patch+json")
        .body(br#"[{"op":"remove","path":"/metadata/finalizers"}]"#.to_vec())
        .expect("request");
    let pod: Pod = client.request(req).await.expect("JSON patch accepted");
    pod.metadata.name.unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn case_21_is_removed_when_its_last_finalizer_is() {
    let case = "21-terminating-job-tracking-finalizer";
    let (sim, exp, ns) = common::sim::start_case(case, &[]).await;
    let target = common::sim::target(&sim, &ns, &exp.name).await;
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &ns);
    // Deleting it again changes nothing: the finalizer still holds it.
    api.delete(&exp.name, &DeleteParams::default())
        .await
        .expect("delete");
    let held = api.get(&exp.name).await.expect("still there");
    assert_eq!(
        held.metadata.finalizers.as_deref(),
        Some(&["batch.kubernetes.io/job-tracking".to_owned()][..])
    );
    assert_eq!(
        remove_finalizers(&target.client, &ns, &exp.name).await,
        exp.name
    );
    assert!(
        api.get_opt(&exp.name).await.expect("get").is_none(),
        "removed"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_pod_with_a_finalizer_outlives_its_termination() {
    let sim = common::sim::start_dynamic(1.0).await;
    let target = common::sim::target(&sim, "default", "held").await;
    let api: Api<Pod> = Api::namespaced(target.client.clone(), "default");
    let pod: Pod = serde_json::from_value(serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "held", "finalizers": ["example.com/hold"]},
        "spec": {"terminationGracePeriodSeconds": 1,
                 "containers": [{"name": "app", "image": "busybox:1.37", "command": ["sleep", "3600"]}]},
    }))
    .expect("pod");
    api.create(&PostParams::default(), &pod)
        .await
        .expect("create");
    let store = sim.store();
    common::sim::wait_pod(&store, "held", 20, |p| {
        p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
    })
    .await;
    api.delete("held", &DeleteParams::default())
        .await
        .expect("delete");
    // The kubelet stops it (grace 1 s); the registry then keeps it for the finalizer.
    let kept = common::sim::wait_pod(&store, "held", 20, |p| {
        p.metadata.deletion_grace_period_seconds == Some(0)
    })
    .await;
    assert!(kept.metadata.deletion_timestamp.is_some());
    assert_eq!(
        remove_finalizers(&target.client, "default", "held").await,
        "held"
    );
    assert!(api.get_opt("held").await.expect("get").is_none(), "removed");
    sim.shutdown().await;
}
