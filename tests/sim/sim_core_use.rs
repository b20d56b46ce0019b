//! The kubelet, scheduler and controllers using the core objects, through the live simulator
//! with real kubectl (`docs/kubelet-references.md`, `docs/controllers.md` §EndpointSlices,
//! §PersistentVolumes, §ServiceAccounts): a pod waiting in CreateContainerConfigError until its
//! ConfigMap or Secret key exists, a pod Pending on its PVC until a PV binds it, a Service's
//! EndpointSlice following its pods' readiness, and the `kube-api-access-*` volume admission
//! adds. The first ConfigMap is made with `kubectl create configmap`; the other objects are
//! written through the store (`Store::create_object`), and the slices read from it (the
//! simulator serves no `endpointslices` route yet).

use crate::common;
use std::sync::Arc;
use std::time::Duration;

use common::cluster::run;
use common::core_objects::{
    events_of, kubectl_apply, obj, running, status_column, waiting_message,
};
use common::sim::{start_dynamic_for_kubectl, wait_pod, waiting_reason};
use common::wait::wait_until;
use k8s_openapi::api::core::v1::Secret;
use podscope::sim::{Object, Resource};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_config_map_and_secret_key_hold_the_container_until_created() {
    // 5× time: the pod worker's 10 s retry is 2 s real.
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "envfrom",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: envfrom\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n    envFrom:\n    - configMapRef:\n        name: app-config\n",
    )
    .await;
    let p = wait_pod(&store, "envfrom", 20, |p| {
        waiting_reason(p, "app").as_deref() == Some("CreateContainerConfigError")
    })
    .await;
    assert_eq!(
        waiting_message(&p).as_deref(),
        Some("configmap \"app-config\" not found")
    );
    assert_eq!(
        status_column(&sim, dir, "envfrom").await,
        "CreateContainerConfigError"
    );
    assert!(
        events_of(&store, "envfrom").contains(&(
            "Failed".to_string(),
            "Error: configmap \"app-config\" not found".to_string()
        )),
        "events: {:?}",
        events_of(&store, "envfrom")
    );
    let (ok, out, err) = run(
        &sim,
        dir,
        &["create", "configmap", "app-config", "--from-literal=A=1"],
    )
    .await;
    assert!(ok, "kubectl create configmap: {err}");
    assert_eq!(out.trim(), "configmap/app-config created");
    wait_pod(&store, "envfrom", 30, running).await;
    assert_eq!(status_column(&sim, dir, "envfrom").await, "Running");

    // A Secret without the referenced key.
    store
        .create_object(obj(
            Resource::Secrets,
            serde_json::json!({"metadata": {"name": "db", "namespace": "default"}, "data": {"user": "YWRtaW4="}}),
        ))
        .expect("secret created");
    kubectl_apply(
        &sim,
        dir,
        "secretkey",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: secretkey\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n    env:\n    - name: PASSWORD\n      valueFrom:\n        secretKeyRef:\n          name: db\n          key: password\n",
    )
    .await;
    let p = wait_pod(&store, "secretkey", 20, |p| {
        waiting_reason(p, "app").as_deref() == Some("CreateContainerConfigError")
    })
    .await;
    assert_eq!(
        waiting_message(&p).as_deref(),
        Some("couldn't find key password in Secret default/db")
    );
    store
        .update_object(Resource::Secrets, "default", "db", |o| {
            if let Object::Secret(s) = o {
                let s: &mut Secret = Arc::make_mut(s);
                s.data.get_or_insert_with(Default::default).insert(
                    "password".into(),
                    k8s_openapi::ByteString(b"s3cret".to_vec()),
                );
            }
            Ok(())
        })
        .expect("secret updated");
    wait_pod(&store, "secretkey", 30, running).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_on_a_missing_claim_is_unschedulable_until_a_volume_binds_it() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "db",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: db\nspec:\n  containers:\n  - name: db\n    image: nginx:1.29\n    volumeMounts:\n    - name: data\n      mountPath: /data\n  volumes:\n  - name: data\n    persistentVolumeClaim:\n      claimName: data\n",
    )
    .await;
    let missing = "0/1 nodes are available: persistentvolumeclaim \"data\" not found. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";
    assert!(
        wait_until(Duration::from_secs(10), || events_of(&store, "db")
            .contains(&("FailedScheduling".to_string(), missing.to_string())))
        .await,
        "events: {:?}",
        events_of(&store, "db")
    );
    assert_eq!(status_column(&sim, dir, "db").await, "Pending");
    let (ok, out, _) = run(
        &sim,
        dir,
        &[
            "get",
            "pod",
            "db",
            "-o",
            "jsonpath={.status.conditions[0].reason}",
        ],
    )
    .await;
    assert!(ok);
    assert_eq!(out.trim(), "Unschedulable");
    store
        .create_object(obj(
            Resource::PersistentVolumeClaims,
            serde_json::json!({"metadata": {"name": "data", "namespace": "default"},
                "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
        ))
        .expect("pvc created");
    let unbound = "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";
    assert!(
        wait_until(Duration::from_secs(10), || events_of(&store, "db")
            .contains(&("FailedScheduling".to_string(), unbound.to_string())))
        .await,
        "events: {:?}, pod status {:?}, claim {:?}",
        events_of(&store, "db"),
        store.pod("default", "db").and_then(|p| p.status),
        store.object(Resource::PersistentVolumeClaims, "default", "data")
    );
    store
        .create_object(obj(
            Resource::PersistentVolumes,
            serde_json::json!({"metadata": {"name": "pv-1"},
                "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/mnt/pv-1"}}}),
        ))
        .expect("pv created");
    wait_pod(&store, "db", 30, running).await;
    let Some(Object::PersistentVolumeClaim(pvc)) =
        store.object(Resource::PersistentVolumeClaims, "default", "data")
    else {
        panic!("the claim is stored");
    };
    assert_eq!(
        pvc.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Bound")
    );
    assert_eq!(
        pvc.spec.as_ref().and_then(|s| s.volume_name.as_deref()),
        Some("pv-1")
    );
    let Some(Object::PersistentVolume(pv)) = store.object(Resource::PersistentVolumes, "", "pv-1")
    else {
        panic!("the volume is stored");
    };
    assert_eq!(
        pv.spec
            .as_ref()
            .and_then(|s| s.claim_ref.as_ref())
            .and_then(|c| c.name.as_deref()),
        Some("data")
    );
    assert_eq!(
        pv.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Bound")
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_config_map_volume_fails_the_mount_until_created() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "mounts",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: mounts\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n    volumeMounts:\n    - name: cfg\n      mountPath: /etc/cfg\n  volumes:\n  - name: cfg\n    configMap:\n      name: app-config\n",
    )
    .await;
    let want = (
        "FailedMount".to_string(),
        "MountVolume.SetUp failed for volume \"cfg\" : configmap \"app-config\" not found"
            .to_string(),
    );
    assert!(
        wait_until(Duration::from_secs(10), || events_of(&store, "mounts")
            .contains(&want))
        .await,
        "events: {:?}",
        events_of(&store, "mounts")
    );
    // The pod sync wrote the status before waiting.
    assert!(
        wait_until(Duration::from_secs(10), || store
            .pod("default", "mounts")
            .is_some_and(
                |p| waiting_reason(&p, "app").as_deref() == Some("ContainerCreating")
            ))
        .await
    );
    let p = store.pod("default", "mounts").expect("pod");
    assert_eq!(
        p.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Pending")
    );
    // The pod sync wrote the status before waiting: no sandbox yet, the container waiting
    // with the kubelet's default reason, which kubectl prints as STATUS.
    assert!(
        p.status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .any(|c| c.type_ == "PodReadyToStartContainers" && c.status == "False")
    );
    assert_eq!(
        status_column(&sim, dir, "mounts").await,
        "ContainerCreating"
    );
    store
        .create_object(obj(
            Resource::ConfigMaps,
            serde_json::json!({"metadata": {"name": "app-config", "namespace": "default"}, "data": {"a": "1"}}),
        ))
        .expect("configmap created");
    wait_pod(&store, "mounts", 30, running).await;
    sim.shutdown().await;
}
