//! The controller model refereed by real kubectl (the one on PATH and `kubectl.1.27`):
//! - a Deployment: `apply` → 3 pods Running, `get deploy,rs,pods` shows them ready, `rollout
//!   status` ends `successfully rolled out`; a deleted pod is replaced under another name;
//!   `rollout restart` replaces every pod by pods of a new ReplicaSet; `rollout history` lists
//!   the revisions; `rollout undo` returns to the previous template's ReplicaSet; `set image`
//!   rolls; `scale --replicas=0` leaves no pod; `delete deploy` takes the ReplicaSets along;
//! - a StatefulSet: a deleted pod comes back under the same name; `rollout restart|status sts`
//!   re-creates every pod (kubectl's `partitioned roll out complete`, as for any StatefulSet with
//!   the defaulted `partition: 0`);
//! - a Job with `backoffLimit: 2` ends `BackoffLimitExceeded`; `delete job` takes its pods along;
//! - a DaemonSet runs one pod pinned to the simulator's node (`rollout status ds`);
//! - a CronJob `* * * * *` makes a Job that completes.
//!
//! The simulated clock runs 10× faster (grace periods, back-offs); every wait has a deadline.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use podscope::sim::{Object, Resource, Simulator, Store};

use common::cluster::{kubectl, kubectl_versions, run_bin};
use common::wait::wait_until;

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: hello
        image: ghcr.io/example/hello:1.0
        env:
        - {name: PORT, value: \"8080\"}
        ports:
        - {name: http, containerPort: 8080}
        readinessProbe:
          httpGet: {path: /readyz, port: http}
          periodSeconds: 2
";

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

/// kubectl `bin` against one simulator, with its own cache dir.
struct Kubectl<'a> {
    bin: PathBuf,
    version: String,
    sim: &'a Simulator,
    dir: &'a Path,
}

impl Kubectl<'_> {
    /// Runs kubectl; asserts it succeeded; returns stdout.
    async fn ok(&self, args: &[&str]) -> String {
        let cache = self.dir.join("cache");
        let (ok, out, err) =
            run_bin(&self.bin, self.sim.kubeconfig_path(), &cache, args, &[]).await;
        assert!(
            ok,
            "{} kubectl {}: {err}\n{out}",
            self.version,
            args.join(" ")
        );
        out
    }

    /// `kubectl apply -f` of `yaml`.
    async fn apply(&self, name: &str, yaml: &str) -> String {
        let file = self.dir.join(format!("{name}.yaml"));
        std::fs::write(&file, yaml).expect("manifest written");
        self.ok(&["apply", "-f", &file.to_string_lossy()]).await
    }
}

fn pods(store: &Store, prefix: &str) -> Vec<Pod> {
    store
        .list(Resource::Pods, Some("default"))
        .0
        .into_iter()
        .filter_map(|o| match o {
            Object::Pod(p) => Some((*p).clone()),
            _ => None,
        })
        .filter(|p| p.metadata.name.as_deref().unwrap_or("").starts_with(prefix))
        .collect()
}

/// How many Jobs named `prefix…` have the condition `type_` True.
fn finished_jobs(store: &Store, prefix: &str, type_: &str) -> usize {
    let done = |o: &Object| {
        let Object::Job(j) = o else { return false };
        let named = j
            .metadata
            .name
            .as_deref()
            .is_some_and(|n| n.starts_with(prefix));
        let conds = j
            .status
            .as_ref()
            .and_then(|s| s.conditions.clone())
            .unwrap_or_default();
        named && conds.iter().any(|c| c.type_ == type_ && c.status == "True")
    };
    store
        .list(Resource::Jobs, Some("default"))
        .0
        .iter()
        .filter(|o| done(o))
        .count()
}

/// Names of the pods of `prefix` that are not being deleted.
fn live(store: &Store, prefix: &str) -> BTreeSet<String> {
    pods(store, prefix)
        .into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter_map(|p| p.metadata.name)
        .collect()
}

/// Names of the ready pods of `prefix` (not being deleted) and of the pods there are at all.
fn ready_and_all(store: &Store, prefix: &str) -> (BTreeSet<String>, usize) {
    let all = pods(store, prefix);
    let ready = all
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none() && common::sim::all_ready(p))
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    (ready, all.len())
}

/// The ReplicaSet names the pods of the Deployment `web` belong to (`pod-template-hash`).
fn hashes(store: &Store) -> BTreeSet<String> {
    pods(store, "web-")
        .into_iter()
        .filter_map(|p| p.metadata.labels?.get("pod-template-hash").cloned())
        .collect()
}

/// Waits until `web` has exactly 3 ready pods, all of one ReplicaSet, and nothing else (old
/// pods gone); returns that ReplicaSet's hash.
async fn settled(store: &Store, version: &str) -> String {
    let done = wait_until(Duration::from_secs(90), || {
        let (ready, all) = ready_and_all(store, "web-");
        ready.len() == 3 && all == 3 && hashes(store).len() == 1
    })
    .await;
    assert!(
        done,
        "{version}: web did not settle: {:?} {:?}",
        live(store, "web-"),
        hashes(store)
    );
    hashes(store).into_iter().next().expect("one hash")
}

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

    let out = k.apply("web", DEPLOYMENT).await;
    assert!(out.contains("deployment.apps/web created"), "{v}: {out}");
    let out = k
        .ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert!(
        out.contains("deployment \"web\" successfully rolled out"),
        "{v}: {out}"
    );
    let first = settled(&store, v).await;
    let out = k.ok(&["get", "deploy,rs,pods"]).await;
    let line = |prefix: &str| {
        out.lines()
            .find(|l| l.starts_with(prefix))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
    };
    let deploy =
        line("deployment.apps/web ").unwrap_or_else(|| panic!("{v}: no deployment line:\n{out}"));
    assert_eq!(
        &deploy[1..4],
        ["3/3", "3", "3"],
        "{v} READY UP-TO-DATE AVAILABLE:\n{out}"
    );
    let rs = line(&format!("replicaset.apps/web-{first} "))
        .unwrap_or_else(|| panic!("{v}: no ReplicaSet line:\n{out}"));
    assert_eq!(
        &rs[1..4],
        ["3", "3", "3"],
        "{v} DESIRED CURRENT READY:\n{out}"
    );
    let running = out
        .lines()
        .filter(|l| {
            l.starts_with(&format!("pod/web-{first}-"))
                && l.contains(" 1/1 ")
                && l.contains(" Running ")
        })
        .count();
    assert_eq!(running, 3, "{v}:\n{out}");

    // A deleted pod is replaced by another name.
    let before = live(&store, "web-");
    let victim = before.iter().next().expect("a pod").clone();
    k.ok(&["delete", "pod", &victim, "--wait=false"]).await;
    let replaced = wait_until(Duration::from_secs(60), || {
        let now = live(&store, "web-");
        now.len() == 3 && !now.contains(&victim)
    })
    .await;
    assert!(
        replaced,
        "{v}: {victim} not replaced: {:?}",
        live(&store, "web-")
    );
    settled(&store, v).await;

    // rollout restart: every pod replaced by pods of a new ReplicaSet.
    let before = live(&store, "web-");
    k.ok(&["rollout", "restart", "deploy/web"]).await;
    let out = k
        .ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert!(out.contains("successfully rolled out"), "{v}: {out}");
    let second = settled(&store, v).await;
    assert_ne!(second, first, "{v}: restart made no new ReplicaSet");
    assert!(
        live(&store, "web-").is_disjoint(&before),
        "{v}: an old pod survived the restart"
    );

    // rollout history lists both revisions; undo goes back to the first template.
    let out = k.ok(&["rollout", "history", "deploy/web"]).await;
    let revisions: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(revisions, ["1", "2"], "{v}:\n{out}");
    let out = k.ok(&["rollout", "undo", "deploy/web"]).await;
    assert!(out.contains("rolled back"), "{v}: {out}");
    k.ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert_eq!(
        settled(&store, v).await,
        first,
        "{v}: undo did not return to the first ReplicaSet"
    );
    let out = k
        .ok(&[
            "get",
            "rs",
            &format!("web-{first}"),
            "-o",
            "jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}",
        ])
        .await;
    assert_eq!(out.trim(), "3", "{v}: the reused ReplicaSet's revision");
    let out = k.ok(&["rollout", "history", "deploy/web"]).await;
    let revisions: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(revisions, ["2", "3"], "{v}:\n{out}");

    // set image rolls to a new ReplicaSet as well.
    k.ok(&[
        "set",
        "image",
        "deploy/web",
        "hello=ghcr.io/example/hello:1.2",
    ])
    .await;
    let out = k
        .ok(&["rollout", "status", "deploy/web", "--timeout=90s"])
        .await;
    assert!(out.contains("successfully rolled out"), "{v}: {out}");
    let third = settled(&store, v).await;
    assert!(
        third != first && third != second,
        "{v}: set image made no new ReplicaSet"
    );

    // scale to 0: no pod left.
    k.ok(&["scale", "deploy/web", "--replicas=0"]).await;
    let gone = wait_until(Duration::from_secs(60), || pods(&store, "web-").is_empty()).await;
    assert!(
        gone,
        "{v}: pods left after scale 0: {:?}",
        live(&store, "web-")
    );
    let out = k.ok(&["get", "deploy", "web", "--no-headers"]).await;
    assert_eq!(out.split_whitespace().nth(1), Some("0/0"), "{v}: {out}");

    // Deleting the Deployment takes its ReplicaSets along (the garbage collector).
    k.ok(&["delete", "deploy", "web"]).await;
    let collected = wait_until(Duration::from_secs(30), || {
        store
            .list(Resource::ReplicaSets, Some("default"))
            .0
            .is_empty()
    })
    .await;
    assert!(
        collected,
        "{v}: ReplicaSets left after deleting the Deployment"
    );

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
async fn kubectl_on_path_drives_the_workloads() {
    let Some(bin) = kubectl() else { return };
    exercise(bin, "kubectl".into()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_1_27_drives_the_workloads() {
    let Some((version, bin)) = kubectl_versions().into_iter().find(|(v, _)| v == "1.27") else {
        return;
    };
    exercise(bin, version).await;
}
