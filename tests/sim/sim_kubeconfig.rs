//! The kubeconfig the simulator writes selects the namespace a person will type commands in:
//! the live scenarios' when there are any (so against `podscope demo`'s cluster
//! `kubectl get pod crash` finds the pod it shows), else the first fixture's.

use std::path::PathBuf;

use podscope::sim::{SimConfig, Simulator};

fn context_namespace(sim: &Simulator) -> String {
    let text = std::fs::read_to_string(sim.kubeconfig_path()).expect("kubeconfig");
    let v: serde_json::Value = serde_yaml_ng::from_str(&text).expect("yaml");
    v["contexts"][0]["context"]["namespace"]
        .as_str()
        .expect("a namespace")
        .to_owned()
}

fn case(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("assets/cases")
        .join(name)
}

#[tokio::test]
async fn scenarios_select_their_namespace_over_the_fixtures() {
    let sim = Simulator::start(SimConfig {
        fixtures: vec![case("04-crashloop-oomkilled-jvm")],
        ..SimConfig::demo()
    })
    .await
    .expect("starts");
    assert_eq!(context_namespace(&sim), "default");
    sim.shutdown().await;
}

#[tokio::test]
async fn fixtures_alone_select_the_first_fixtures_namespace() {
    let sim = Simulator::start(SimConfig {
        fixtures: vec![case("04-crashloop-oomkilled-jvm")],
        ..SimConfig::default()
    })
    .await
    .expect("starts");
    assert_eq!(context_namespace(&sim), "data");
    sim.shutdown().await;
}
