//! A Service's EndpointSlice (and legacy Endpoints) following its pods' readiness, and the
//! `kube-api-access-*` volume admission adds, through the live simulator with real kubectl
//! (`docs/controllers.md` §EndpointSlices, §ServiceAccounts).

use crate::common;
use std::time::Duration;

use common::cluster::run;
use common::core_objects::{kubectl_apply, obj};
use common::sim::start_dynamic_for_kubectl;
use common::wait::wait_until;
use podscope::sim::{Object, Resource, Store};

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
