//! Real kubectl against the simulator's apps/v1 and batch/v1 API (no controllers run here, so
//! every status is empty): `apply -f` validated by the server (kubectl 1.33 and 1.27), `get -o
//! json` equal to the stored object, the server-side Tables' headers, `set image` (a strategic
//! merge patch by container name), `scale` (the `scale` subresource), `rollout restart`,
//! `delete`, `api-resources`, and label-selected LIST and WATCH through kube-rs.

mod common;

use std::path::Path;
use std::time::Duration;

use common::cluster::{kubectl, kubectl_versions, run, run_bin};
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::ReplicaSet;
use kube::api::{Api, ListParams, WatchEvent, WatchParams};
use podscope::sim::{Object, Resource, SimClock, SimConfig, Simulator};
use serde_json::Value;

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

const OTHERS: &str = "apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web-7d4b9c, labels: {app: web}}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: hello, image: ghcr.io/example/hello:1.0}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: db-5f6c8d, labels: {app: db}}
spec:
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: busybox:1.36}]
";

const BATCH: &str = "apiVersion: batch/v1
kind: Job
metadata: {name: pi}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: pi, image: perl:5.34, command: [perl, -e, 'print 1']}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: '*/5 * * * *'
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: tick, image: busybox:1.36}]
";

async fn start() -> Simulator {
    let t: jiff::Timestamp = "2025-03-01T12:00:00Z".parse().expect("time");
    Simulator::start(SimConfig {
        clock: SimClock::Frozen(t),
        // The API layer alone: no controller acts on the stored workloads.
        controllers: false,
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("manifest written");
    path.to_string_lossy().into_owned()
}

/// kubectl `args` against `sim`, which must succeed; its stdout.
async fn ok(sim: &Simulator, cache: &Path, args: &[&str]) -> String {
    let (success, out, err) = run(sim, cache, args).await;
    assert!(success, "kubectl {args:?} failed: {err}");
    out
}

fn deployment(sim: &Simulator) -> Value {
    sim.store()
        .object(Resource::Deployments, "default", "web")
        .expect("deployment stored")
        .to_json()
}

/// The header line and the whitespace-split rows of a table print.
fn table(out: &str) -> (String, Vec<Vec<String>>) {
    let mut lines = out.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next().unwrap_or("").trim_end().to_string();
    let rows = lines
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    (header, rows)
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
    let stored = deployment(&sim);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_lists_every_workload_kind_with_its_columns() {
    if kubectl().is_none() {
        return;
    }
    let sim = start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    let cache = tmp.path().join("cache");
    let out = ok(
        &sim,
        &cache,
        &["apply", "-f", &write(tmp.path(), "o.yaml", OTHERS)],
    )
    .await;
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "replicaset.apps/web-7d4b9c created",
            "replicaset.apps/db-5f6c8d created",
            "statefulset.apps/db created",
            "daemonset.apps/agent created"
        ]
    );
    let out = ok(
        &sim,
        &cache,
        &["apply", "-f", &write(tmp.path(), "b.yaml", BATCH)],
    )
    .await;
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        ["job.batch/pi created", "cronjob.batch/tick created"]
    );
    let out = ok(&sim, &cache, &["get", "rs,sts,ds,job,cronjob"]).await;
    let headers: Vec<Vec<&str>> = out
        .split("\n\n")
        .map(|block| {
            block
                .lines()
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect()
        })
        .collect();
    assert_eq!(
        headers,
        vec![
            vec!["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
            vec!["NAME", "READY", "AGE"],
            vec![
                "NAME",
                "DESIRED",
                "CURRENT",
                "READY",
                "UP-TO-DATE",
                "AVAILABLE",
                "NODE",
                "SELECTOR",
                "AGE"
            ],
            vec!["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"],
            vec![
                "NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST", "SCHEDULE", "AGE"
            ],
        ],
        "{out}"
    );
    let (_, rows) = table(&ok(&sim, &cache, &["get", "job", "pi"]).await);
    assert_eq!(rows, vec![vec!["pi", "Running", "0/1", "0s"]]);
    let (_, rows) = table(&ok(&sim, &cache, &["get", "cronjob", "tick"]).await);
    assert_eq!(
        rows,
        vec![vec![
            "tick", "*/5", "*", "*", "*", "*", "<none>", "False", "0", "<none>", "0s"
        ]]
    );
    // The Job got the selector the API server generates from its uid.
    let job = sim
        .store()
        .object(Resource::Jobs, "default", "pi")
        .expect("job")
        .to_json();
    let uid = job["metadata"]["uid"].as_str().expect("uid");
    assert_eq!(
        job["spec"]["selector"]["matchLabels"]["batch.kubernetes.io/controller-uid"],
        uid
    );
    assert_eq!(
        job["spec"]["template"]["metadata"]["labels"]["batch.kubernetes.io/job-name"],
        "pi"
    );

    let (_, rows) = table(&ok(&sim, &cache, &["get", "rs", "-l", "app=web"]).await);
    assert_eq!(rows, vec![vec!["web-7d4b9c", "1", "0", "0", "0s"]]);

    let out = ok(&sim, &cache, &["api-resources", "--api-group=apps"]).await;
    let names: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        names,
        vec![
            vec!["daemonsets", "ds", "apps/v1", "true", "DaemonSet"],
            vec!["deployments", "deploy", "apps/v1", "true", "Deployment"],
            vec!["replicasets", "rs", "apps/v1", "true", "ReplicaSet"],
            vec!["statefulsets", "sts", "apps/v1", "true", "StatefulSet"],
        ]
    );
    let out = ok(&sim, &cache, &["api-resources", "--api-group=batch"]).await;
    let names: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        names,
        vec![
            vec!["cronjobs", "cj", "batch/v1", "true", "CronJob"],
            vec!["jobs", "batch/v1", "true", "Job"],
        ]
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn label_selected_list_and_watch_see_only_matching_replicasets() {
    let sim = start().await;
    let store = sim.store();
    for (name, app) in [("web-1", "web"), ("db-1", "db")] {
        let rs: ReplicaSet = serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": "default", "labels": {"app": app}},
            "spec": {"selector": {"matchLabels": {"app": app}},
                     "template": {"metadata": {"labels": {"app": app}},
                                  "spec": {"containers": [{"name": "c", "image": "busybox:1.36"}]}}},
        }))
        .expect("replicaset");
        store
            .create_object(Object::ReplicaSet(rs.into()))
            .expect("created");
    }
    let api: Api<ReplicaSet> = Api::namespaced(common::sim::client(&sim).await, "default");
    let listed = api
        .list(&ListParams::default().labels("app=web"))
        .await
        .expect("list");
    let names: Vec<String> = listed
        .items
        .iter()
        .filter_map(|r| r.metadata.name.clone())
        .collect();
    assert_eq!(names, ["web-1"]);

    let rv = listed
        .metadata
        .resource_version
        .clone()
        .expect("list resourceVersion");
    let mut events = api
        .watch(&WatchParams::default().labels("app=web"), &rv)
        .await
        .expect("watch")
        .boxed();
    common::sim::wait_watchers(&sim, 1).await;
    let label = |name: &str| {
        store
            .update_object(Resource::ReplicaSets, "default", name, |o| {
                o.meta_mut()
                    .labels
                    .get_or_insert_default()
                    .insert("seen".into(), "yes".into());
                Ok(())
            })
            .expect("labelled");
    };
    // The db change is filtered out; the first event the watch delivers is web's.
    label("db-1");
    label("web-1");
    let first = tokio::time::timeout(Duration::from_secs(10), events.try_next())
        .await
        .expect("an event within 10 s")
        .expect("stream ok")
        .expect("not ended");
    match first {
        WatchEvent::Modified(rs) => assert_eq!(rs.metadata.name.as_deref(), Some("web-1")),
        other => panic!("unexpected event {other:?}"),
    }
    sim.shutdown().await;
}
