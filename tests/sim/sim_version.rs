//! One Kubernetes version everywhere (`docs/protocols.md` §1.10): `kubectl version` reports
//! the server's `gitVersion` equal to the Node's `kubeletVersion`, and `kubectl explain`, which
//! reads the served OpenAPI, lists the 1.33 PodSpec (`resources`, alpha in 1.32) and none of
//! the fields added after it (`hostnameOverride`, new in 1.34). Skips without kubectl.

use crate::common;
use common::cluster::run;
use common::sim::start_dynamic_for_kubectl;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_version_node_version_and_explained_fields_are_one_version() {
    let Some((sim, dir)) = start_dynamic_for_kubectl(1.0).await else {
        return;
    };
    let (ok, out, err) = run(&sim, dir.path(), &["version", "-o", "json"]).await;
    assert!(ok, "kubectl version: {err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let git = v["serverVersion"]["gitVersion"]
        .as_str()
        .expect("gitVersion");
    assert_eq!(git, podscope::sim::KUBERNETES_VERSION);
    assert_eq!(v["serverVersion"]["major"], "1", "{v}");
    assert_eq!(v["serverVersion"]["minor"], "33", "{v}");

    let (ok, out, err) = run(&sim, dir.path(), &["get", "nodes", "-o", "json"]).await;
    assert!(ok, "kubectl get nodes: {err}");
    let nodes: Value = serde_json::from_str(&out).expect("JSON");
    let info = &nodes["items"][0]["status"]["nodeInfo"];
    assert_eq!(info["kubeletVersion"], git, "{info}");
    assert_eq!(info["kubeProxyVersion"], git, "{info}");

    let (ok, out, err) = run(&sim, dir.path(), &["explain", "pod.spec"]).await;
    assert!(ok, "kubectl explain: {err}");
    let fields: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(fields.contains(&"containers"), "{out}");
    assert!(fields.contains(&"resources"), "{out}");
    assert!(fields.contains(&"schedulingGates"), "{out}");
    assert!(!fields.contains(&"hostnameOverride"), "{out}");
    assert!(!out.contains("hostnameOverride"), "{out}");
}
