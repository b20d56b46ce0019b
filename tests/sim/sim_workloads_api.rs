//! Real kubectl against the simulator's apps/v1 API (no controllers run here, so every status
//! is empty): a Deployment through `apply -f` validated by the server (kubectl 1.33 and 1.27),
//! `get -o json` equal to the stored object, the Table, `set image` (a strategic merge patch
//! by container name), `scale` (the `scale` subresource), `rollout restart` and `delete`. The
//! other kinds are in `sim_workloads_api_kinds.rs`.

use crate::common;
use crate::workloads_support;
use common::cluster::{kubectl, kubectl_versions, run, run_bin};
use podscope::sim::{Resource, Simulator};
use serde_json::Value;
use workloads_support::{ok, start, table, write};

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: hello
        image: ghcr.io/example/hello:1.0
        ports:
        - containerPort: 8080
      - name: sidecar
        image: busybox:1.36
";

fn deployment(sim: &Simulator) -> Value {
    sim.store()
        .object(Resource::Deployments, "default", "web")
        .expect("deployment stored")
        .to_json()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_drives_a_deployment_through_apply_set_image_scale_restart_and_delete() {
    if kubectl().is_none() {
        return;
    }
    let sim = start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    let cache = tmp.path().join("cache");
    let file = write(tmp.path(), "deploy.yaml", DEPLOYMENT);

    // Validation is left to the server (no --validate=false), which checks fields strictly.
    let out = ok(&sim, &cache, &["apply", "-f", &file]).await;
    assert_eq!(out.trim(), "deployment.apps/web created");
    let bad = write(
        tmp.path(),
        "bad.yaml",
        &DEPLOYMENT.replace("replicas: 2", "replica: 2"),
    );
    let (success, _, err) = run(&sim, &cache, &["apply", "-f", &bad]).await;
    assert!(!success);
    assert!(
        err.contains("strict decoding error: unknown field \"spec.replica\""),
        "{err}"
    );

    // `get -o json` is the stored object, with the server's defaults and metadata.
    let got: Value =
        serde_json::from_str(&ok(&sim, &cache, &["get", "deploy", "web", "-o", "json"]).await)
            .expect("json");
    let mut stored = deployment(&sim);
    // kubectl hides metadata.managedFields unless asked (`--show-managed-fields`).
    if let Some(meta) = stored["metadata"].as_object_mut() {
        meta.remove("managedFields");
    }
    assert_eq!(got, stored);
    assert_eq!(got["metadata"]["generation"], 1);
    assert_eq!(got["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
        "IfNotPresent"
    );
    // …and it goes back unchanged: no spec change, no new generation.
    let back = write(tmp.path(), "back.json", &got.to_string());
    let out = ok(&sim, &cache, &["replace", "-f", &back]).await;
    assert_eq!(out.trim(), "deployment.apps/web replaced");
    assert_eq!(deployment(&sim)["metadata"]["generation"], 1);

    let (header, rows) = table(&ok(&sim, &cache, &["get", "deploy"]).await);
    assert_eq!(header, "NAME   READY   UP-TO-DATE   AVAILABLE   AGE");
    assert_eq!(rows, vec![vec!["web", "0/2", "0", "0", "0s"]]);
    let (header, rows) = table(&ok(&sim, &cache, &["get", "deploy", "-o", "wide"]).await);
    assert!(
        header.ends_with("CONTAINERS      IMAGES                                   SELECTOR"),
        "{header}"
    );
    assert_eq!(
        rows[0][5..],
        [
            "hello,sidecar",
            "ghcr.io/example/hello:1.0,busybox:1.36",
            "app=web"
        ]
    );

    // set image: a strategic merge patch that merges containers by name.
    ok(
        &sim,
        &cache,
        &[
            "set",
            "image",
            "deploy/web",
            "hello=ghcr.io/example/hello:1.1",
        ],
    )
    .await;
    let d = deployment(&sim);
    let containers = &d["spec"]["template"]["spec"]["containers"];
    assert_eq!(containers[0]["image"], "ghcr.io/example/hello:1.1");
    assert_eq!(containers[0]["ports"][0]["containerPort"], 8080);
    assert_eq!(containers[1]["name"], "sidecar");
    assert_eq!(containers[1]["image"], "busybox:1.36");
    assert_eq!(d["metadata"]["generation"], 2);

    // scale goes through the scale subresource into spec.replicas.
    let out = ok(&sim, &cache, &["scale", "deploy/web", "--replicas=3"]).await;
    assert_eq!(out.trim(), "deployment.apps/web scaled");
    let replicas = ok(
        &sim,
        &cache,
        &["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"],
    )
    .await;
    assert_eq!(replicas, "3");
    assert_eq!(deployment(&sim)["metadata"]["generation"], 3);
    let scale: Value = serde_json::from_str(
        &ok(
            &sim,
            &cache,
            &[
                "get",
                "--raw",
                "/apis/apps/v1/namespaces/default/deployments/web/scale",
            ],
        )
        .await,
    )
    .expect("scale json");
    assert_eq!(scale["kind"], "Scale");
    assert_eq!(scale["spec"]["replicas"], 3);
    assert_eq!(scale["status"]["selector"], "app=web");

    ok(&sim, &cache, &["rollout", "restart", "deploy/web"]).await;
    let d = deployment(&sim);
    let restarted =
        &d["spec"]["template"]["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"];
    assert!(restarted.is_string(), "{d}");
    assert_eq!(d["metadata"]["generation"], 4);

    let out = ok(&sim, &cache, &["delete", "deploy", "web"]).await;
    assert_eq!(out.trim(), "deployment.apps \"web\" deleted");
    assert!(
        sim.store()
            .object(Resource::Deployments, "default", "web")
            .is_none()
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_1_27_applies_a_deployment_validated_by_the_server() {
    let Some((_, bin)) = kubectl_versions().into_iter().find(|(v, _)| v == "1.27") else {
        return;
    };
    let sim = start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = write(tmp.path(), "deploy.yaml", DEPLOYMENT);
    let (success, out, err) = run_bin(
        &bin,
        sim.kubeconfig_path(),
        &tmp.path().join("c"),
        &["apply", "-f", &file],
        &[],
    )
    .await;
    assert!(success, "{err}");
    assert_eq!(out.trim(), "deployment.apps/web created");
    let (success, out, err) = run_bin(
        &bin,
        sim.kubeconfig_path(),
        &tmp.path().join("c"),
        &["get", "deploy"],
        &[],
    )
    .await;
    assert!(success, "{err}");
    assert_eq!(table(&out).0, "NAME   READY   UP-TO-DATE   AVAILABLE   AGE");
    sim.shutdown().await;
}
