//! The simulator counts what it serves (`Simulator::traffic`): a LIST is one request with its
//! body's bytes, a watch one request counted as a watch whose streamed events add bytes as
//! they leave.

use crate::common;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::{ListParams, WatchParams};
use podscope::sim::{SimConfig, Simulator};

#[tokio::test]
async fn lists_and_watches_are_counted_with_their_bytes() {
    let sim = Simulator::start(SimConfig {
        scenarios: vec!["hello".into()],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let client = podscope::test_support::sim_client(&sim)
        .await
        .expect("client");
    let pods: Api<Pod> = Api::namespaced(client, "default");

    let before = sim.traffic();
    let list = pods.list(&ListParams::default()).await.expect("list");
    let listed = serde_json::to_vec(&list).expect("json").len() as u64;
    let one = sim.traffic().since(before);
    assert_eq!((one.requests, one.watches), (1, 0));
    // The served body is the list as the server wrote it: within a few bytes of its re-encoding.
    assert!(
        one.bytes.abs_diff(listed) < listed / 4,
        "{one:?} vs {listed}"
    );

    let before = sim.traffic();
    let mut stream = pods
        .watch(&WatchParams::default().timeout(1), "0")
        .await
        .expect("watch")
        .boxed();
    let first = stream.next().await.expect("an event").expect("ok");
    drop(first);
    assert!(
        common::wait::wait_until(Duration::from_secs(10), || sim
            .traffic()
            .since(before)
            .bytes
            > 0)
        .await
    );
    let watch = sim.traffic().since(before);
    assert_eq!((watch.requests, watch.watches), (1, 1));
    sim.shutdown().await;
}
