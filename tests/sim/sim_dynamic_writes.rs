//! Writes and log errors against live pods with real kubectl: the kubelet's `waiting to start`
//! and `previous terminated container … not found` messages (docs/protocols.md §2.3), label /
//! JSON patch / status patch, a stale-resourceVersion replace (409 Conflict), a forbidden spec
//! change (422), a malformed body (400), and a forced delete.

use crate::common;
use common::cluster::{run, run_file};
use common::sim::{request, scenario, start_dynamic_for_kubectl, wait_pod, waiting_reason};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_of_live_pods_use_the_kubelet_messages() {
    // Slow clock (0.2×): ContainerCreating lasts 1 virtual second = 5 s real.
    let Some((sim, cache)) = start_dynamic_for_kubectl(0.2).await else {
        return;
    };
    let store = sim.store();
    for f in ["hello.yaml", "crash.yaml"] {
        let p = scenario(f);
        let (ok, _, err) = run_file(&sim, cache.path(), "create", &p).await;
        assert!(ok, "create {f}: {err}");
    }
    wait_pod(&store, "crash", 20, |p| {
        waiting_reason(p, "hello").as_deref() == Some("ContainerCreating")
    })
    .await;
    let (ok, _, err) = run(&sim, cache.path(), &["logs", "crash"]).await;
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "Error from server (BadRequest): container \"hello\" in pod \"crash\" is waiting to start: ContainerCreating"
    );
    wait_pod(&store, "hello", 20, |p| {
        waiting_reason(p, "hello").as_deref() == Some("PodInitializing")
    })
    .await;
    let (ok, _, err) = run(&sim, cache.path(), &["logs", "hello"]).await;
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "Error from server (BadRequest): container \"hello\" in pod \"hello\" is waiting to start: PodInitializing"
    );
    let (ok, _, err) = run(&sim, cache.path(), &["logs", "hello", "--previous"]).await;
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "Error from server (BadRequest): previous terminated container \"hello\" in pod \"hello\" not found"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn patch_replace_conflict_and_bad_bodies() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(1.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    let p = scenario("crash.yaml");
    let (ok, _, err) = run_file(&sim, dir, "create", &p).await;
    assert!(ok, "{err}");
    let (ok, _, err) = run_file(&sim, dir, "create", &p).await;
    assert!(!ok);
    assert!(
        err.contains("Error from server (AlreadyExists)")
            && err.contains("pods \"crash\" already exists"),
        "{err}"
    );

    let (ok, old, err) = run(&sim, dir, &["get", "pod", "crash", "-o", "json"]).await;
    assert!(ok, "{err}");
    let (ok, out, err) = run(&sim, dir, &["label", "pod", "crash", "team=payments"]).await;
    assert!(ok, "label: {err}");
    assert_eq!(out.trim(), "pod/crash labeled");
    let labels = store
        .pod("default", "crash")
        .and_then(|p| p.metadata.labels);
    assert_eq!(
        labels.and_then(|l| l.get("team").cloned()).as_deref(),
        Some("payments")
    );
    let (ok, _, err) = run(
        &sim,
        dir,
        &[
            "patch",
            "pod",
            "crash",
            "--type=json",
            "-p",
            r#"[{"op":"add","path":"/metadata/annotations","value":{"note":"x"}}]"#,
        ],
    )
    .await;
    assert!(ok, "json patch: {err}");
    let ann = store
        .pod("default", "crash")
        .and_then(|p| p.metadata.annotations);
    assert_eq!(
        ann.and_then(|a| a.get("note").cloned()).as_deref(),
        Some("x")
    );

    // The object read before the label is stale now.
    let stale = dir.join("stale.json");
    std::fs::write(&stale, old).expect("write");
    let (ok, _, err) = run_file(&sim, dir, "replace", &stale).await;
    assert!(!ok);
    assert!(
        err.contains("Error from server (Conflict)")
            && err.contains("Operation cannot be fulfilled on pods \"crash\": the object has been modified; please apply your changes to the latest version and try again"),
        "{err}"
    );

    let (ok, _, err) = run(
        &sim,
        dir,
        &[
            "patch",
            "pod",
            "crash",
            "--type=merge",
            "-p",
            r#"{"spec":{"restartPolicy":"Never"}}"#,
        ],
    )
    .await;
    assert!(!ok);
    assert!(
        err.contains("Pod \"crash\" is invalid: spec: Forbidden: pod updates may not change fields other than"),
        "{err}"
    );

    let (ok, out, err) = run(
        &sim,
        dir,
        &[
            "patch",
            "pod",
            "crash",
            "--subresource=status",
            "--type=merge",
            "-p",
            r#"{"status":{"message":"patched"}}"#,
            "-o",
            "jsonpath={.status.message}",
        ],
    )
    .await;
    assert!(ok, "status patch: {err}");
    assert_eq!(out, "patched");

    // A malformed body is a 400 Status naming the problem.
    let resp = request(
        &sim,
        "POST /api/v1/namespaces/default/pods",
        Some("{not json"),
    )
    .await;
    assert!(resp.starts_with("HTTP/1.1 400"), "{resp}");
    assert!(
        resp.contains("\"reason\":\"BadRequest\"") && resp.contains("json parse error"),
        "{resp}"
    );
    let resp = request(
        &sim,
        "PATCH /api/v1/namespaces/default/pods/crash",
        Some("{}"),
    )
    .await;
    assert!(resp.starts_with("HTTP/1.1 415"), "{resp}");

    let (ok, _, err) = run(
        &sim,
        dir,
        &["delete", "pod", "crash", "--grace-period=0", "--force"],
    )
    .await;
    assert!(ok, "force delete: {err}");
    assert!(store.pod("default", "crash").is_none());
    sim.shutdown().await;
}

/// An ephemeral container's status (written by the `ephemeralcontainers` handler) survives the
/// kubelet model's later status rewrites: here the crash pod's restarts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ephemeral_status_survives_the_kubelets_rewrites() {
    use k8s_openapi::api::core::v1::{EphemeralContainer, Pod};
    use kube::api::{Api, Patch, PatchParams, PostParams};
    let sim = common::sim::start_dynamic(1.0).await;
    let store = sim.store();
    let api: Api<Pod> = Api::namespaced(common::sim::client(&sim).await, "default");
    let text = std::fs::read_to_string(scenario("crash.yaml")).expect("crash.yaml");
    let pod: Pod = serde_yaml_ng::from_str(&text).expect("pod yaml");
    api.create(&PostParams::default(), &pod)
        .await
        .expect("created");
    wait_pod(&store, "crash", 20, |p| {
        p.status
            .as_ref()
            .is_some_and(|s| s.phase.as_deref() == Some("Running"))
    })
    .await;
    let debugger = EphemeralContainer {
        name: "debugger-x1".to_owned(),
        image: Some("busybox:1.37".to_owned()),
        target_container_name: Some("hello".to_owned()),
        ..Default::default()
    };
    let patch = serde_json::json!({"spec": {"ephemeralContainers": [debugger]}});
    api.patch_ephemeral_containers("crash", &PatchParams::default(), &Patch::Strategic(patch))
        .await
        .expect("ephemeral container added");
    let has_debugger = |p: &Pod| {
        p.status
            .as_ref()
            .and_then(|s| s.ephemeral_container_statuses.as_ref())
            .is_some_and(|l| l.iter().any(|c| c.name == "debugger-x1"))
    };
    let before = wait_pod(&store, "crash", 20, has_debugger).await;
    let restarts = |p: &Pod| {
        p.status
            .as_ref()
            .and_then(|s| s.container_statuses.as_ref())
            .and_then(|l| l.first())
            .map_or(0, |c| c.restart_count)
    };
    let start = restarts(&before);
    let after = wait_pod(&store, "crash", 30, |p| restarts(p) >= start + 2).await;
    assert!(has_debugger(&after), "{:?}", after.status);
    sim.shutdown().await;
}
