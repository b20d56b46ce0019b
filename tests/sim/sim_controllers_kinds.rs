//! The StatefulSet, DaemonSet, Job and CronJob controllers refereed by real kubectl (the one on
//! PATH and `kubectl.1.27`):
//! - a StatefulSet: a deleted pod comes back under the same name; `rollout restart|status sts`
//!   re-creates every pod (kubectl's `partitioned roll out complete`, as for any StatefulSet with
//!   the defaulted `partition: 0`);
//! - a Job with `backoffLimit: 2` ends `BackoffLimitExceeded`; `delete job` takes its pods along;
//! - a DaemonSet runs one pod pinned to the simulator's node (`rollout status ds`);
//! - a CronJob `* * * * *` makes a Job that completes.
//!
//! The simulated clock runs 10× faster (grace periods, back-offs); every wait has a deadline.

use crate::common;
use crate::controllers_support;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use common::cluster::{kubectl, kubectl_versions};
use common::wait::wait_until;
use controllers_support::*;

const STATEFULSET: &str = "apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  replicas: 3
  serviceName: db
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: hello
        image: ghcr.io/example/hello:1.0
        readinessProbe:
          httpGet: {path: /readyz, port: 8080}
          periodSeconds: 2
";

const JOB: &str = "apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  backoffLimit: 2
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: ghcr.io/example/hello:1.0
        env:
        - {name: PORT, value: abc}
";

const DAEMONSET: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: hello
        image: ghcr.io/example/hello:1.0
";

const CRONJOB: &str = "apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
spec:
  schedule: \"* * * * *\"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: report
            image: registry.example/report:1.0
            env:
            - {name: SIM_EXIT_CODE, value: \"0\"}
            - {name: SIM_EXIT_AFTER, value: \"1\"}
";

/// The whole story for a StatefulSet, a Job, a DaemonSet and a CronJob, with kubectl `bin`, on a fresh simulator.
async fn exercise(bin: PathBuf, version: String) {
    let sim = common::sim::start_dynamic(10.0).await;
    let store = sim.store();
    let tmp = tempfile::tempdir().expect("tempdir");
    let k = Kubectl {
        bin,
        version: version.clone(),
        sim: &sim,
        dir: tmp.path(),
    };
    let v = version.as_str();
    // A StatefulSet's deleted pod comes back under the same name.
    k.apply("db", STATEFULSET).await;
    let ready = wait_until(Duration::from_secs(90), || {
        ready_and_all(&store, "db-").0.len() == 3
    })
    .await;
    assert!(ready, "{v}: db pods not ready: {:?}", live(&store, "db-"));
    let uid = k
        .ok(&["get", "pod", "db-1", "-o", "jsonpath={.metadata.uid}"])
        .await;
    k.ok(&["delete", "pod", "db-1"]).await;
    let back = wait_until(Duration::from_secs(60), || {
        store.pod("default", "db-1").is_some_and(|p| {
            p.metadata.uid.as_deref() != Some(uid.trim()) && common::sim::all_ready(&p)
        })
    })
    .await;
    assert!(back, "{v}: db-1 did not come back");
    let out = k.ok(&["get", "pods", "-l", "app=db", "--no-headers"]).await;
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, ["db-0", "db-1", "db-2"], "{v}:\n{out}");
    let out = k
        .ok(&["rollout", "status", "sts/db", "--timeout=60s"])
        .await;
    assert!(
        out.contains("partitioned roll out complete: 3 new pods have been updated"),
        "{v}: {out}"
    );
    // rollout restart: every pod re-created (highest ordinal first) at the new revision.
    let uids: BTreeSet<String> = pods(&store, "db-")
        .into_iter()
        .filter_map(|p| p.metadata.uid)
        .collect();
    k.ok(&["rollout", "restart", "sts/db"]).await;
    let out = k
        .ok(&["rollout", "status", "sts/db", "--timeout=90s"])
        .await;
    assert!(
        out.contains("partitioned roll out complete: 3 new pods have been updated"),
        "{v}: {out}"
    );
    let now: BTreeSet<String> = pods(&store, "db-")
        .into_iter()
        .filter_map(|p| p.metadata.uid)
        .collect();
    assert!(
        now.is_disjoint(&uids) && now.len() == 3,
        "{v}: not every db pod was re-created"
    );

    // A Job that keeps failing ends BackoffLimitExceeded.
    k.apply("migrate", JOB).await;
    let jsonpath = "jsonpath={.status.conditions[?(@.type==\"Failed\")].reason}";
    let failed = wait_until(Duration::from_secs(90), || {
        finished_jobs(&store, "migrate", "Failed") == 1
    })
    .await;
    assert!(failed, "{v}: the Job did not fail");
    let out = k.ok(&["get", "job", "migrate", "-o", jsonpath]).await;
    assert_eq!(out.trim(), "BackoffLimitExceeded", "{v}");
    let out = k
        .ok(&["get", "pods", "-l", "job-name=migrate", "--no-headers"])
        .await;
    assert_eq!(
        out.lines().filter(|l| l.contains(" Error ")).count(),
        3,
        "{v}:\n{out}"
    );
    // kubectl deletes in the background: the pods go too, their job-tracking finalizer released.
    k.ok(&["delete", "job", "migrate"]).await;
    let gone = wait_until(Duration::from_secs(60), || {
        pods(&store, "migrate-").is_empty()
    })
    .await;
    assert!(
        gone,
        "{v}: the Job's pods stayed: {:?}",
        live(&store, "migrate-")
    );

    // A DaemonSet runs one pod on the node.
    k.apply("agent", DAEMONSET).await;
    let placed = wait_until(Duration::from_secs(60), || {
        ready_and_all(&store, "agent-").0.len() == 1
    })
    .await;
    assert!(placed, "{v}: no ready agent pod");
    let out = k
        .ok(&["rollout", "status", "ds/agent", "--timeout=60s"])
        .await;
    assert!(
        out.contains("daemon set \"agent\" successfully rolled out"),
        "{v}: {out}"
    );
    let out = k.ok(&["get", "ds", "agent", "--no-headers"]).await;
    let cols: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(
        &cols[1..6],
        ["1", "1", "1", "1", "1"],
        "{v} DESIRED CURRENT READY UP-TO-DATE AVAILABLE: {out}"
    );
    let out = k
        .ok(&[
            "get",
            "pods",
            "-l",
            "app=agent",
            "-o",
            "jsonpath={.items[0].spec.nodeName}",
        ])
        .await;
    assert_eq!(out, common::kubelet::seed_node().node_name, "{v}");
    let pinned = "jsonpath={.items[0].spec.affinity.nodeAffinity\
        .requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]}";
    let out = k
        .ok(&["get", "pods", "-l", "app=agent", "-o", pinned])
        .await;
    assert_eq!(
        out,
        common::kubelet::seed_node().node_name,
        "{v}: the pod is pinned to the node"
    );

    // A CronJob creates a Job at the next minute, which completes.
    k.apply("report", CRONJOB).await;
    let ran = wait_until(Duration::from_secs(60), || {
        finished_jobs(&store, "report-", "Complete") > 0
    })
    .await;
    assert!(ran, "{v}: the CronJob's Job did not complete");
    let out = k.ok(&["get", "jobs", "--no-headers"]).await;
    let line = out
        .lines()
        .find(|l| l.starts_with("report-"))
        .unwrap_or_else(|| panic!("{v}: no report Job:\n{out}"));
    let minutes = line
        .split_whitespace()
        .next()
        .and_then(|n| n.strip_prefix("report-"))
        .and_then(|m| m.parse::<i64>().ok());
    assert!(
        minutes.is_some_and(|m| m * 60 <= store.now().as_second()),
        "{v}: {line}"
    );
    assert!(
        line.contains(" Complete ") && line.contains(" 1/1 "),
        "{v}: {line}"
    );
    let out = k
        .ok(&[
            "get",
            "cronjob",
            "report",
            "-o",
            "jsonpath={.status.lastScheduleTime}",
        ])
        .await;
    assert!(!out.is_empty(), "{v}: no lastScheduleTime");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_on_path_drives_statefulsets_daemonsets_jobs_and_cronjobs() {
    let Some(bin) = kubectl() else { return };
    exercise(bin, "kubectl".into()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_1_27_drives_statefulsets_daemonsets_jobs_and_cronjobs() {
    let Some((version, bin)) = kubectl_versions().into_iter().find(|(v, _)| v == "1.27") else {
        return;
    };
    exercise(bin, version).await;
}
