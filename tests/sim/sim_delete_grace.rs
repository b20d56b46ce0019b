//! `deletionGracePeriodSeconds` and `deletionTimestamp` of a graceful pod delete, as
//! kube-apiserver's pod strategy sets them (`CheckGracefulDelete`): the request's grace, else
//! the pod's `terminationGracePeriodSeconds` (defaulted to 30); a later shorter delete moves
//! both earlier, a longer one changes nothing.

use crate::common;
use crate::workloads_support;
use jiff::SignedDuration;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};
use serde_json::json;
use workloads_support::start;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_delete_sets_and_shortens_the_grace_period() {
    let sim = start().await;
    let client = common::sim::client(&sim).await;
    let pods: Api<Pod> = Api::namespaced(client, "default");
    let pod: Pod = serde_json::from_value(json!({
        "metadata": {"name": "slow"},
        "spec": {"containers": [{"name": "c", "image": "busybox"}]}
    }))
    .expect("pod");
    pods.create(&PostParams::default(), &pod)
        .await
        .expect("created");
    let store = sim.store();
    common::sim::wait_pod(&store, "slow", 20, |p| {
        p.spec
            .as_ref()
            .and_then(|s| s.node_name.as_deref())
            .is_some()
    })
    .await;
    let now = store.now();
    let at = |secs: i64| {
        now.checked_add(SignedDuration::from_secs(secs))
            .expect("time")
    };

    let deleted = pods
        .delete("slow", &DeleteParams::default())
        .await
        .expect("delete")
        .left()
        .expect("kept while terminating");
    assert_eq!(deleted.metadata.deletion_grace_period_seconds, Some(30));
    assert_eq!(
        deleted.metadata.deletion_timestamp.map(|t| t.0),
        Some(at(30))
    );

    let shorter = pods
        .delete(
            "slow",
            &DeleteParams {
                grace_period_seconds: Some(5),
                ..DeleteParams::default()
            },
        )
        .await
        .expect("delete")
        .left()
        .expect("kept");
    assert_eq!(shorter.metadata.deletion_grace_period_seconds, Some(5));
    assert_eq!(
        shorter.metadata.deletion_timestamp.map(|t| t.0),
        Some(at(5))
    );

    let longer = pods
        .delete(
            "slow",
            &DeleteParams {
                grace_period_seconds: Some(20),
                ..DeleteParams::default()
            },
        )
        .await
        .expect("delete")
        .left()
        .expect("kept");
    assert_eq!(longer.metadata.deletion_grace_period_seconds, Some(5));
    assert_eq!(longer.metadata.deletion_timestamp.map(|t| t.0), Some(at(5)));
    sim.shutdown().await;
}
