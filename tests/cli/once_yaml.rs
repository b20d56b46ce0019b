//! `podscope POD --once -o yaml` against the simulator running every built-in scenario of
//! `podscope demo`: for each pod, the YAML parsed and compared field by field with
//! `kubectl get pod POD -o yaml` read at the same `metadata.resourceVersion` (both are read
//! again until they agree on it), ignoring `metadata.managedFields` only (kubectl hides them;
//! so does podscope).

use crate::common;
use std::process::Command;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::ListParams;
use podscope::sim::{SimConfig, Simulator};
use serde_json::Value;

/// `podscope -n NS POD --once -o yaml`: (exit success, stdout, stderr).
fn podscope_yaml(sim: &Simulator, ns: &str, pod: &str) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .args(["-n", ns, pod, "--once", "-o", "yaml"])
        .env_remove("KUBECONFIG")
        .output()
        .expect("podscope runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn parse(text: &str) -> Value {
    let mut v: Value = serde_yaml_ng::from_str(text).expect("valid YAML");
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
    }
    v
}

fn rv(v: &Value) -> &str {
    v["metadata"]["resourceVersion"].as_str().unwrap_or("")
}

/// The paths where `a` and `b` differ (`.spec.containers[0].image`), for the failure message.
fn differences(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                let (va, vb) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                differences(va, vb, &format!("{path}.{k}"), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                differences(va, vb, &format!("{path}[{i}]"), out);
            }
        }
        _ if a != b => out.push(format!("{path}: podscope {a} / kubectl {b}")),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_yaml_is_kubectls_pod_for_every_scenario_pod() {
    let Some((sim, cache)) = async {
        common::cluster::kubectl()?;
        let sim = Simulator::start(SimConfig::demo())
            .await
            .expect("simulator starts");
        Some((sim, tempfile::tempdir().expect("tempdir")))
    }
    .await
    else {
        return;
    };
    let scenarios = SimConfig::demo().scenarios.len();
    let client = podscope::test_support::sim_client(&sim)
        .await
        .expect("client");
    let api: Api<Pod> = Api::all(client);
    // Every scenario has made its pods (the workloads' through their controllers).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let pods = loop {
        let list = api.list(&ListParams::default()).await.expect("list pods");
        if list.items.len() >= scenarios || tokio::time::Instant::now() >= deadline {
            break list.items;
        }
        tokio::time::sleep(common::wait::POLL * 10).await;
    };
    assert!(
        pods.len() >= scenarios,
        "{} pods for {scenarios} scenarios",
        pods.len()
    );

    let mut compared = Vec::new();
    for pod in &pods {
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        let name = pod.metadata.name.clone().unwrap_or_default();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let (ok, ours, err) = tokio::task::block_in_place(|| podscope_yaml(&sim, &ns, &name));
            let (kok, theirs, kerr) = common::cluster::run(
                &sim,
                cache.path(),
                &["get", "pod", "-n", &ns, &name, "-o", "yaml"],
            )
            .await;
            if !ok && !kok && err.contains("NotFound") && kerr.contains("NotFound") {
                break; // a Job's failed pod deleted meanwhile: nothing to compare
            }
            assert!(ok, "podscope --once -o yaml {ns}/{name}: {err}");
            assert!(kok, "kubectl get pod {ns}/{name}: {kerr}");
            assert!(
                ours.starts_with("apiVersion: v1\nkind: Pod\nmetadata:\n"),
                "{ours}"
            );
            assert!(
                !ours.contains("managedFields"),
                "{ns}/{name}: managedFields shown"
            );
            let (a, b) = (parse(&ours), parse(&theirs));
            if rv(&a) == rv(&b) {
                let mut diff = Vec::new();
                differences(&a, &b, "", &mut diff);
                assert!(
                    diff.is_empty(),
                    "{ns}/{name} at resourceVersion {}:\n{}",
                    rv(&a),
                    diff.join("\n")
                );
                compared.push(name.clone());
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{ns}/{name}: never read at one resourceVersion ({} / {})",
                rv(&a),
                rv(&b)
            );
        }
    }
    assert!(compared.len() >= scenarios, "compared {compared:?}");
    assert!(compared.iter().any(|n| n == "hello"), "{compared:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_yaml_of_a_workload_is_the_pod_it_would_diagnose() {
    let sim = Simulator::start(SimConfig {
        scenarios: vec![common::sim::scenario("rollout-stuck.yaml")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let client = podscope::test_support::sim_client(&sim)
        .await
        .expect("client");
    let api: Api<Pod> = Api::namespaced(client, "default");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while api
        .list(&ListParams::default())
        .await
        .expect("list pods")
        .items
        .is_empty()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no pod of deploy/web"
        );
        tokio::time::sleep(common::wait::POLL * 10).await;
    }
    let (ok, out, err) =
        tokio::task::block_in_place(|| podscope_yaml(&sim, "default", "deploy/web"));
    assert!(ok, "{err}");
    let pod = parse(&out);
    assert_eq!(pod["kind"], "Pod", "{out}");
    assert_eq!(
        pod["metadata"]["ownerReferences"][0]["kind"], "ReplicaSet",
        "{out}"
    );
    assert!(
        pod["metadata"]["name"]
            .as_str()
            .is_some_and(|n| n.starts_with("web-")),
        "{out}"
    );
}
