//! The kubelet, scheduler and controllers using the core objects, through the live simulator
//! with real kubectl (`docs/kubelet-references.md`, `docs/controllers.md` §EndpointSlices,
//! §PersistentVolumes, §ServiceAccounts): a pod waiting in CreateContainerConfigError until its
//! ConfigMap or Secret key exists, a pod Pending on its PVC until a PV binds it, a Service's
//! EndpointSlice following its pods' readiness, and the `kube-api-access-*` volume admission
//! adds. The first ConfigMap is made with `kubectl create configmap`; the other objects are
//! written through the store (`Store::create_object`), and the slices read from it (the
//! simulator serves no `endpointslices` route yet).

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::cluster::run;
use common::sim::{start_dynamic_for_kubectl, wait_pod, waiting_reason};
use common::wait::wait_until;
use k8s_openapi::api::core::v1::{Pod, Secret};
use podscope::sim::{Object, Resource, Simulator, Store};

fn obj(resource: Resource, v: serde_json::Value) -> Object {
    Object::from_json(resource, v).expect("object decodes")
}

async fn kubectl_apply(sim: &Simulator, dir: &std::path::Path, name: &str, yaml: &str) {
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, yaml).expect("write manifest");
    let (ok, out, err) = run(sim, dir, &["apply", "-f", &path.to_string_lossy()]).await;
    assert!(ok, "kubectl apply {name}: {err}");
    assert_eq!(out.trim(), format!("pod/{name} created"));
}

fn waiting_message(p: &Pod) -> Option<String> {
    p.status
        .as_ref()?
        .container_statuses
        .as_ref()?
        .first()?
        .state
        .as_ref()?
        .waiting
        .as_ref()?
        .message
        .clone()
}

fn running(p: &Pod) -> bool {
    p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
}

/// kubectl's STATUS column for pod `name`.
async fn status_column(sim: &Simulator, dir: &std::path::Path, name: &str) -> String {
    let (ok, out, err) = run(sim, dir, &["get", "pod", name, "--no-headers"]).await;
    assert!(ok, "kubectl get pod {name}: {err}");
    out.split_whitespace().nth(2).unwrap_or("").to_string()
}

fn events_of(store: &Store, pod: &str) -> Vec<(String, String)> {
    store
        .list(Resource::Events, Some("default"))
        .0
        .iter()
        .filter_map(|o| match o {
            Object::Event(e) if e.involved_object.name.as_deref() == Some(pod) => Some((
                e.reason.clone().unwrap_or_default(),
                e.message.clone().unwrap_or_default(),
            )),
            _ => None,
        })
        .collect()
}

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

fn slice_readiness(store: &Store) -> Vec<(String, bool)> {
    store
        .list(Resource::EndpointSlices, Some("default"))
        .0
        .iter()
        .filter_map(|o| match o {
            Object::EndpointSlice(s)
                if s.metadata
                    .labels
                    .as_ref()
                    .and_then(|l| l.get("kubernetes.io/service-name"))
                    .is_some_and(|n| n == "web") =>
            {
                Some(s.clone())
            }
            _ => None,
        })
        .flat_map(|s| {
            s.endpoints
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(|e| {
                    let name = e.target_ref.and_then(|r| r.name).unwrap_or_default();
                    let ready = e.conditions.and_then(|c| c.ready).unwrap_or(false);
                    (name, ready)
                })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endpoint_slices_follow_readiness_and_pods_get_the_api_access_volume() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(2.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    store
        .create_object(obj(
            Resource::Services,
            serde_json::json!({"metadata": {"name": "web", "namespace": "default"},
                "spec": {"selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": "http"}]}}),
        ))
        .expect("service created");
    let pod = |name: &str, extra_env: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  labels:\n    app: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n    ports:\n    - name: http\n      containerPort: 8080\n    env:\n    - name: SIM_LOG\n      value: started\n{extra_env}    readinessProbe:\n      tcpSocket:\n        port: http\n      periodSeconds: 1\n      failureThreshold: 1\n"
        )
    };
    kubectl_apply(&sim, dir, "web-a", &pod("web-a", "")).await;
    // web-b answers for 20 s, then hangs: its readiness probe times out.
    kubectl_apply(
        &sim,
        dir,
        "web-b",
        &pod("web-b", "    - name: SIM_LIVE_FOR\n      value: \"20\"\n"),
    )
    .await;
    let want = vec![("web-a".to_string(), true), ("web-b".to_string(), true)];
    assert!(
        wait_until(Duration::from_secs(20), || {
            let mut got = slice_readiness(&store);
            got.sort();
            got == want
        })
        .await,
        "slice: {:?}",
        slice_readiness(&store)
    );
    let ip_a = store
        .pod("default", "web-a")
        .and_then(|p| p.status.and_then(|s| s.pod_ip))
        .expect("web-a has an IP");
    let Some(Object::EndpointSlice(s)) = store
        .list(Resource::EndpointSlices, Some("default"))
        .0
        .into_iter()
        .find(|o| {
            o.meta()
                .labels
                .as_ref()
                .and_then(|l| l.get("kubernetes.io/service-name"))
                .is_some_and(|n| n == "web")
        })
    else {
        panic!("web's slice");
    };
    assert!(
        s.metadata
            .name
            .as_deref()
            .is_some_and(|n| n.starts_with("web-") && n.len() == 9)
    );
    assert_eq!(s.address_type, "IPv4");
    assert_eq!(
        s.ports.as_ref().and_then(|p| p[0].port),
        Some(8080),
        "targetPort http resolved from the pod"
    );
    assert!(
        s.endpoints
            .iter()
            .flatten()
            .any(|e| e.addresses == vec![ip_a.clone()])
    );
    let want = vec![("web-a".to_string(), true), ("web-b".to_string(), false)];
    assert!(
        wait_until(Duration::from_secs(30), || {
            let mut got = slice_readiness(&store);
            got.sort();
            got == want
        })
        .await,
        "slice: {:?}",
        slice_readiness(&store)
    );
    let Some(Object::Endpoints(ep)) = store.object(Resource::Endpoints, "default", "web") else {
        panic!("the Endpoints object is stored");
    };
    let subset = &ep.subsets.as_ref().expect("subsets")[0];
    assert_eq!(
        subset
            .addresses
            .iter()
            .flatten()
            .map(|a| a.ip.clone())
            .collect::<Vec<_>>(),
        vec![ip_a]
    );
    assert_eq!(subset.not_ready_addresses.as_ref().map(Vec::len), Some(1));
    let (ok, out, err) = run(&sim, dir, &["describe", "svc", "web"]).await;
    assert!(ok, "kubectl describe svc: {err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("Endpoints:"))
        .unwrap_or_default();
    assert_eq!(
        line.split_whitespace().nth(1),
        Some(format!("{}:8080", subset.addresses.as_ref().expect("ready")[0].ip).as_str()),
        "{out}"
    );

    // Admission: the API-access volume and its mount, as kubectl reads them back.
    let (ok, out, err) = run(&sim, dir, &["get", "pod", "web-a", "-o", "json"]).await;
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    let spec = &json["spec"];
    assert_eq!(spec["serviceAccountName"], "default");
    let vol = &spec["volumes"][0];
    let vname = vol["name"].as_str().expect("volume name");
    assert!(
        vname.starts_with("kube-api-access-") && vname.len() == 21,
        "{vname}"
    );
    assert_eq!(
        vol["projected"]["sources"][0]["serviceAccountToken"],
        serde_json::json!({"expirationSeconds": 3607, "path": "token"})
    );
    assert_eq!(
        vol["projected"]["sources"][1]["configMap"]["name"],
        "kube-root-ca.crt"
    );
    assert_eq!(
        spec["containers"][0]["volumeMounts"][0],
        serde_json::json!({"name": vname, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true})
    );
    // The ServiceAccount controller published the account and the CA ConfigMap.
    assert!(
        store
            .object(Resource::ServiceAccounts, "default", "default")
            .is_some()
    );
    assert!(
        store
            .object(Resource::ConfigMaps, "default", "kube-root-ca.crt")
            .is_some()
    );
    // A pod naming a ServiceAccount that does not exist is refused.
    let path = dir.join("robot.yaml");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: robot\nspec:\n  serviceAccountName: robot\n  containers:\n  - name: a\n    image: nginx:1.29\n",
    )
    .expect("write");
    let (ok, _, err) = run(&sim, dir, &["create", "-f", &path.to_string_lossy()]).await;
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "Error from server (Forbidden): error when creating \"".to_string()
            + &path.to_string_lossy()
            + "\": pods \"robot\" is forbidden: error looking up service account default/robot: serviceaccount \"robot\" not found"
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
