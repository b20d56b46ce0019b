//! Server-side apply with real kubectl 1.27 and 1.33 (`docs/server-side-apply.md`): `kubectl
//! apply --server-side` creates and updates, `--show-managed-fields` shows the `kubectl` Apply
//! entry, a client-side write followed by a server-side apply of another value is a 409 with
//! kubectl's conflict message, and `--force-conflicts` takes the field over. For a Pod (a
//! label, the pod spec being immutable here) and a Deployment (the container image).

use crate::common;
use crate::workloads_support;
use std::path::Path;

use common::cluster::{kubectl_versions, run_bin};
use podscope::sim::Simulator;
use serde_json::Value;
use workloads_support::{start, write};

async fn kubectl(
    sim: &Simulator,
    bin: &Path,
    cache: &Path,
    args: &[&str],
) -> (bool, String, String) {
    run_bin(bin, sim.kubeconfig_path(), cache, args, &[]).await
}

async fn ok(sim: &Simulator, bin: &Path, cache: &Path, args: &[&str]) -> String {
    let (success, out, err) = kubectl(sim, bin, cache, args).await;
    assert!(success, "kubectl {args:?} failed: {err}");
    out
}

async fn get_json(sim: &Simulator, bin: &Path, cache: &Path, what: &[&str]) -> Value {
    let mut args = vec!["get"];
    args.extend_from_slice(what);
    args.extend_from_slice(&["-o", "json", "--show-managed-fields"]);
    serde_json::from_str(&ok(sim, bin, cache, &args).await).expect("json")
}

fn entry<'a>(obj: &'a Value, manager: &str, operation: &str) -> &'a Value {
    obj["metadata"]["managedFields"]
        .as_array()
        .and_then(|l| {
            l.iter()
                .find(|e| e["manager"] == manager && e["operation"] == operation)
        })
        .unwrap_or(&Value::Null)
}

fn pod_yaml(tier: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: hello\n  labels:\n    tier: {tier}\nspec:\n  containers:\n  - name: hello\n    image: busybox:1.36\n"
    )
}

fn deployment_yaml(image: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    spec:\n      containers:\n      - name: hello\n        image: {image}\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_apply_with_kubectl_127_and_133() {
    let versions: Vec<_> = kubectl_versions()
        .into_iter()
        .filter(|(v, _)| v == "1.27" || v == "1.33")
        .collect();
    for (version, bin) in versions {
        let sim = start().await;
        let dir = tempfile::tempdir().expect("tmp");
        let cache = dir.path();
        let bin = bin.as_path();

        // A Pod: created, then its label changed by a second apply.
        let f = write(cache, "pod.yaml", &pod_yaml("web"));
        let out = ok(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
        assert_eq!(out.trim(), "pod/hello serverside-applied", "{version}");
        let f = write(cache, "pod.yaml", &pod_yaml("db"));
        ok(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
        let pod = get_json(&sim, bin, cache, &["pod", "hello"]).await;
        assert_eq!(pod["metadata"]["labels"]["tier"], "db", "{version}");
        let fields = &entry(&pod, "kubectl", "Apply")["fieldsV1"];
        assert_eq!(
            fields["f:spec"]["f:containers"]["k:{\"name\":\"hello\"}"],
            serde_json::json!({".": {}, "f:image": {}, "f:name": {}}),
            "{version}: {pod}"
        );
        assert_eq!(entry(&pod, "kubectl", "Apply")["fieldsType"], "FieldsV1");
        let plain: Value = serde_json::from_str(
            &ok(&sim, bin, cache, &["get", "pod", "hello", "-o", "json"]).await,
        )
        .expect("json");
        assert!(
            plain["metadata"].get("managedFields").is_none(),
            "hidden by default"
        );

        // A client-side label write owns the label: applying another value conflicts.
        ok(
            &sim,
            bin,
            cache,
            &["label", "pod", "hello", "tier=cache", "--overwrite"],
        )
        .await;
        let f = write(cache, "pod.yaml", &pod_yaml("web"));
        let (success, _, err) =
            kubectl(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
        assert!(!success, "{version}");
        assert!(
            err.contains("Apply failed with 1 conflict: conflict with \"kubectl-label\" using v1: .metadata.labels.tier"),
            "{version}: {err}"
        );
        ok(
            &sim,
            bin,
            cache,
            &["apply", "--server-side", "--force-conflicts", "-f", &f],
        )
        .await;
        let pod = get_json(&sim, bin, cache, &["pod", "hello"]).await;
        assert_eq!(pod["metadata"]["labels"]["tier"], "web", "{version}");
        assert_eq!(
            entry(&pod, "kubectl-label", "Update"),
            &Value::Null,
            "{version}: {pod}"
        );

        // A Deployment: created, its image changed by a second apply.
        let f = write(cache, "deploy.yaml", &deployment_yaml("busybox:1.36"));
        let out = ok(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
        assert_eq!(
            out.trim(),
            "deployment.apps/web serverside-applied",
            "{version}"
        );
        let f = write(cache, "deploy.yaml", &deployment_yaml("busybox:1.37"));
        ok(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
        let d = get_json(&sim, bin, cache, &["deployment", "web"]).await;
        let containers = &d["spec"]["template"]["spec"]["containers"];
        assert_eq!(containers[0]["image"], "busybox:1.37", "{version}");
        let fields = &entry(&d, "kubectl", "Apply")["fieldsV1"];
        assert_eq!(
            fields["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"hello\"}"]["f:image"],
            serde_json::json!({}),
            "{version}: {d}"
        );
        assert_eq!(
            fields["f:spec"]["f:selector"],
            serde_json::json!({}),
            "atomic selector"
        );

        // kubectl set image (client-side) takes the image; another applied image conflicts.
        ok(
            &sim,
            bin,
            cache,
            &["set", "image", "deployment/web", "hello=busybox:1.38"],
        )
        .await;
        let f = write(cache, "deploy.yaml", &deployment_yaml("busybox:1.39"));
        let (success, _, err) =
            kubectl(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
        assert!(!success, "{version}");
        assert!(
            err.contains("Apply failed with 1 conflict: conflict with \"kubectl-set\" using apps/v1: .spec.template.spec.containers[name=\"hello\"].image"),
            "{version}: {err}"
        );
        ok(
            &sim,
            bin,
            cache,
            &["apply", "--server-side", "--force-conflicts", "-f", &f],
        )
        .await;
        let d = get_json(&sim, bin, cache, &["deployment", "web"]).await;
        assert_eq!(
            d["spec"]["template"]["spec"]["containers"][0]["image"],
            "busybox:1.39"
        );
        sim.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configmap_created_by_kubectl_create_conflicts_with_an_apply() {
    let Some((_, bin)) = kubectl_versions().into_iter().find(|(v, _)| v == "1.33") else {
        return;
    };
    let sim = start().await;
    let dir = tempfile::tempdir().expect("tmp");
    let cache = dir.path();
    let bin = bin.as_path();
    ok(
        &sim,
        bin,
        cache,
        &["create", "configmap", "conf", "--from-literal=mode=fast"],
    )
    .await;
    let cm = get_json(&sim, bin, cache, &["configmap", "conf"]).await;
    assert_eq!(
        entry(&cm, "kubectl-create", "Update")["fieldsV1"]["f:data"],
        serde_json::json!({".": {}, "f:mode": {}}),
        "{cm}"
    );
    let yaml = |mode: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: conf\ndata:\n  mode: {mode}\n")
    };
    let f = write(cache, "cm.yaml", &yaml("slow"));
    let (success, _, err) = kubectl(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
    assert!(!success);
    assert!(
        err.contains(
            "Apply failed with 1 conflict: conflict with \"kubectl-create\" using v1: .data.mode"
        ),
        "{err}"
    );
    // The same value is shared ownership; a forced apply takes the field.
    let f = write(cache, "cm.yaml", &yaml("fast"));
    ok(&sim, bin, cache, &["apply", "--server-side", "-f", &f]).await;
    let f = write(cache, "cm.yaml", &yaml("slow"));
    ok(
        &sim,
        bin,
        cache,
        &["apply", "--server-side", "--force-conflicts", "-f", &f],
    )
    .await;
    let cm = get_json(&sim, bin, cache, &["configmap", "conf"]).await;
    assert_eq!(cm["data"]["mode"], "slow");
    // The creator keeps only the `data` map itself (`f:data: {}`), not the key.
    let created = &entry(&cm, "kubectl-create", "Update")["fieldsV1"];
    assert_eq!(created["f:data"], serde_json::json!({}), "{cm}");
    assert_eq!(
        entry(&cm, "kubectl", "Apply")["fieldsV1"],
        serde_json::json!({"f:data": {"f:mode": {}}}),
        "{cm}"
    );
    sim.shutdown().await;
}
