//! What the kubelet gives a container from the API, seen through the live simulator with real
//! kubectl (`docs/kubelet-references.md`): the environment with every `valueFrom` and `envFrom`
//! resolved, ConfigMap/Secret volume files and the `kube-api-access-…` files at their
//! `mountPath` (through `kubectl exec`), the STATUS of a pod whose volume waits
//! (`ContainerCreating`, `Init:0/1`), and `events.k8s.io/v1` watches in that group's shape with
//! its field selectors (`docs/core-api.md` §5).

use crate::common;
use std::time::Duration;

use common::cluster::run;
use common::core_objects::{kubectl_apply, obj, running, status_column};
use common::sim::{raw_get, start_dynamic_for_kubectl, wait_pod};
use common::wait::wait_until;

use podscope::sim::{Resource, Simulator};

/// `kubectl exec POD -c app -- ARGS…`: stdout (the command must succeed).
async fn exec(sim: &Simulator, dir: &std::path::Path, pod: &str, args: &[&str]) -> String {
    let mut all = vec!["exec", pod, "-c", "app", "--"];
    all.extend_from_slice(args);
    let (ok, out, err) = run(sim, dir, &all).await;
    assert!(ok, "kubectl exec {args:?}: {err}");
    out
}

const POD: &str = r#"apiVersion: v1
kind: Pod
metadata:
  name: refs
spec:
  containers:
  - name: app
    image: nginx:1.29
    resources:
      limits:
        memory: 128Mi
    envFrom:
    - prefix: CFG_
      configMapRef:
        name: app-config
    env:
    - name: FROM_CM
      valueFrom:
        configMapKeyRef:
          name: app-config
          key: b
    - name: PASSWORD
      valueFrom:
        secretKeyRef:
          name: db
          key: password
    - name: POD_NAME
      valueFrom:
        fieldRef:
          fieldPath: metadata.name
    - name: POD_NAMESPACE
      valueFrom:
        fieldRef:
          fieldPath: metadata.namespace
    - name: NODE_NAME
      valueFrom:
        fieldRef:
          fieldPath: spec.nodeName
    - name: POD_IP
      valueFrom:
        fieldRef:
          fieldPath: status.podIP
    - name: MEM_MI
      valueFrom:
        resourceFieldRef:
          resource: limits.memory
          divisor: 1Mi
    volumeMounts:
    - name: cfg
      mountPath: /etc/cfg
    - name: sec
      mountPath: /etc/sec
  volumes:
  - name: cfg
    configMap:
      name: app-config
  - name: sec
    secret:
      secretName: db
      items:
      - key: password
        path: pw/password
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_container_sees_resolved_env_and_mounted_files() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    store
        .create_object(obj(
            Resource::ConfigMaps,
            serde_json::json!({"metadata": {"name": "app-config", "namespace": "default"}, "data": {"a": "1", "b": "two"}}),
        ))
        .expect("configmap created");
    store
        .create_object(obj(
            Resource::Secrets,
            serde_json::json!({"metadata": {"name": "db", "namespace": "default"}, "data": {"password": "czNjcmV0", "user": "YWRtaW4="}}),
        ))
        .expect("secret created");
    kubectl_apply(&sim, dir, "refs", POD).await;
    let p = wait_pod(&store, "refs", 30, running).await;
    let ip = p
        .status
        .as_ref()
        .and_then(|s| s.pod_ip.clone())
        .expect("podIP");
    let node = p
        .spec
        .as_ref()
        .and_then(|s| s.node_name.clone())
        .expect("nodeName");

    let env = exec(&sim, dir, "refs", &["env"]).await;
    let lines: Vec<&str> = env.lines().collect();
    for want in [
        "CFG_a=1".to_string(),
        "CFG_b=two".to_string(),
        "FROM_CM=two".to_string(),
        "PASSWORD=s3cret".to_string(),
        "POD_NAME=refs".to_string(),
        "POD_NAMESPACE=default".to_string(),
        format!("NODE_NAME={node}"),
        format!("POD_IP={ip}"),
        "MEM_MI=128".to_string(),
    ] {
        assert!(lines.contains(&want.as_str()), "{want} not in:\n{env}");
    }
    assert_eq!(
        exec(&sim, dir, "refs", &["sh", "-c", "echo $PASSWORD"]).await,
        "s3cret\n"
    );
    assert_eq!(exec(&sim, dir, "refs", &["cat", "/etc/cfg/a"]).await, "1");
    assert_eq!(exec(&sim, dir, "refs", &["ls", "/etc/cfg"]).await, "a\nb\n");
    assert_eq!(
        exec(&sim, dir, "refs", &["cat", "/etc/sec/pw/password"]).await,
        "s3cret"
    );
    let sa = "/var/run/secrets/kubernetes.io/serviceaccount";
    assert_eq!(
        exec(&sim, dir, "refs", &["ls", sa]).await,
        "ca.crt\nnamespace\ntoken\n"
    );
    assert_eq!(
        exec(&sim, dir, "refs", &["cat", &format!("{sa}/namespace")]).await,
        "default"
    );
    let ca = exec(&sim, dir, "refs", &["cat", &format!("{sa}/ca.crt")]).await;
    assert!(ca.starts_with("-----BEGIN CERTIFICATE-----"), "{ca}");
    let token = exec(&sim, dir, "refs", &["cat", &format!("{sa}/token")]).await;
    assert_eq!(token.split('.').count(), 3, "a JWT: {token}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_waiting_for_a_volume_shows_container_creating_or_init() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "plain",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: plain\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n    volumeMounts:\n    - name: cfg\n      mountPath: /etc/cfg\n  volumes:\n  - name: cfg\n    configMap:\n      name: missing\n",
    )
    .await;
    kubectl_apply(
        &sim,
        dir,
        "withinit",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: withinit\nspec:\n  initContainers:\n  - name: setup\n    image: busybox:1.36\n    command: [\"true\"]\n    volumeMounts:\n    - name: sec\n      mountPath: /etc/sec\n  containers:\n  - name: app\n    image: nginx:1.29\n  volumes:\n  - name: sec\n    secret:\n      secretName: missing\n",
    )
    .await;
    let waiting = |name: &'static str, reason: &'static str| {
        let store = store.clone();
        move || {
            store.pod("default", name).is_some_and(|p| {
                p.status
                    .iter()
                    .flat_map(|s| s.container_statuses.iter().flatten())
                    .any(|c| {
                        c.state
                            .as_ref()
                            .and_then(|s| s.waiting.as_ref())
                            .and_then(|w| w.reason.as_deref())
                            == Some(reason)
                    })
            })
        }
    };
    assert!(
        wait_until(
            Duration::from_secs(15),
            waiting("plain", "ContainerCreating")
        )
        .await
    );
    assert!(
        wait_until(
            Duration::from_secs(15),
            waiting("withinit", "PodInitializing")
        )
        .await
    );
    assert_eq!(status_column(&sim, dir, "plain").await, "ContainerCreating");
    assert_eq!(status_column(&sim, dir, "withinit").await, "Init:0/1");
    let p = store.pod("default", "plain").expect("pod");
    let status = p.status.expect("status");
    assert!(status.host_ip.is_some() && status.start_time.is_some());
    assert_eq!(status.pod_ip, None);
    sim.shutdown().await;
}

/// The `{"type":…}` lines of a raw watch response (chunk framing dropped).
fn watch_events(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .filter(|l| l.starts_with("{\"type\""))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_k8s_io_watches_stream_their_own_shape() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let store = sim.store();
    let dir = cache.path();
    kubectl_apply(
        &sim,
        dir,
        "web",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n",
    )
    .await;
    wait_pod(&store, "web", 30, running).await;
    let base = "/apis/events.k8s.io/v1/namespaces/default/events?watch=true&timeoutSeconds=1";
    let text = raw_get(
        &sim,
        &format!("{base}&fieldSelector=regarding.name%3Dweb,reason%3DScheduled,type%3DNormal"),
    )
    .await;
    let events = watch_events(&text);
    assert_eq!(events.len(), 1, "{text}");
    let o = &events[0]["object"];
    assert_eq!(events[0]["type"], "ADDED");
    assert_eq!(o["apiVersion"], "events.k8s.io/v1");
    assert_eq!(o["kind"], "Event");
    assert_eq!(o["regarding"]["name"], "web");
    assert_eq!(o["reportingController"], "default-scheduler");
    assert!(
        o["note"]
            .as_str()
            .is_some_and(|n| n.starts_with("Successfully assigned default/web to "))
    );
    assert!(o.get("message").is_none() && o.get("involvedObject").is_none());

    let text = raw_get(
        &sim,
        &format!("{base}&fieldSelector=regarding.kind%3DPod,reportingController%3Dkubelet"),
    )
    .await;
    let events = watch_events(&text);
    assert!(!events.is_empty(), "{text}");
    assert!(
        events
            .iter()
            .all(|e| e["object"]["reportingController"] == "kubelet"),
        "{text}"
    );

    let text = raw_get(
        &sim,
        &format!("{base}&fieldSelector=involvedObject.name%3Dweb"),
    )
    .await;
    assert!(text.starts_with("HTTP/1.1 400"), "{text}");
    assert!(
        text.contains("field label not supported: involvedObject.name"),
        "{text}"
    );
    sim.shutdown().await;
}
