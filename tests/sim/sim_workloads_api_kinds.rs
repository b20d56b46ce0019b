//! Real kubectl against every apps/v1 and batch/v1 kind (no controllers run here): `apply -f`
//! of ReplicaSets, a StatefulSet, a DaemonSet, a Job and a CronJob, `get rs,sts,ds,job,cronjob`
//! with each kind's columns, a Job's generated selector, `get -l`, `api-resources` with the
//! short names, and label-selected LIST and WATCH through kube-rs.

use crate::common;
use crate::workloads_support;
use std::time::Duration;

use common::cluster::kubectl;
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::ReplicaSet;
use kube::api::{Api, ListParams, WatchEvent, WatchParams};
use podscope::sim::{Object, Resource};
use workloads_support::{ok, start, table, write};

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
