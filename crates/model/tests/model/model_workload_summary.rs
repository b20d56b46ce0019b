//! Workload summaries from built objects (Deployment with its ReplicaSets, StatefulSet,
//! DaemonSet, Job, CronJob), the template diff and the header line.

use crate::workload_support;
use k8s_openapi::api::apps::v1::{DaemonSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::PodTemplateSpec;
use podscope_model::workload::diff::{changes_text, short_image, template_changes};
use podscope_model::workload::header::{no_pods, selector_line, workload_line};
use podscope_model::workload::summary::{
    from_cron_job, from_daemon_set, from_deployment, from_job, from_stateful_set, latest_job,
};
use podscope_model::workload::{TemplateChange, WorkloadKind};
use serde_json::{Value, json};
use workload_support::{deployment, pod, replica_set, running, template};

fn rollout_status() -> Value {
    json!({
        "replicas": 5, "readyReplicas": 3, "updatedReplicas": 2, "availableReplicas": 3,
        "conditions": [
            {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
            {"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
             "message": "ReplicaSet \"web-6c8f9\" has timed out progressing."}
        ]
    })
}

#[test]
fn deployment_summary_finds_the_new_replica_set_and_what_changed() {
    let mut foreign = replica_set("zzz", 9, "9.9", "1", 1, 1);
    foreign.metadata.owner_references = None;
    let sets = [
        replica_set("5a1b2", 1, "0.9", "8080", 0, 0),
        replica_set("7d9f8", 2, "1.0", "8080", 3, 3),
        replica_set("6c8f9", 3, "1.1", "abc", 2, 0),
        foreign,
    ];
    let s = from_deployment(&deployment(rollout_status()), &sets);
    assert_eq!(s.kind, WorkloadKind::Deployment);
    assert_eq!((s.name.as_str(), s.namespace.as_str()), ("web", "default"));
    assert_eq!(s.selector, "app=web");
    assert_eq!(
        (s.replicas, s.ready, s.updated, s.available),
        (Some(4), 3, 2, 3)
    );
    let names: Vec<_> = s
        .revisions
        .iter()
        .map(|r| (r.name.as_str(), r.revision, r.new))
        .collect();
    assert_eq!(
        names,
        [
            ("web-6c8f9", Some(3), true),
            ("web-7d9f8", Some(2), false),
            ("web-5a1b2", Some(1), false),
        ]
    );
    assert_eq!(s.revisions[0].hash, "6c8f9");
    assert_eq!(
        s.changes,
        [
            TemplateChange {
                container: "hello".into(),
                field: "image".into(),
                from: "ghcr.io/example/hello:1.0".into(),
                to: "ghcr.io/example/hello:1.1".into(),
            },
            TemplateChange {
                container: "hello".into(),
                field: "env PORT".into(),
                from: "8080".into(),
                to: "abc".into(),
            },
        ]
    );
    assert_eq!(
        changes_text(&s.changes),
        "hello: image ghcr.io/example/hello:1.0 → :1.1; env PORT 8080 → abc"
    );
    assert_eq!(
        workload_line(&s),
        "deploy/web  3/4 ready  updated 2/4  rollout: ReplicaSet web-6c8f9 (new) 0/2 ready, \
         web-7d9f8 (old) 3/3  Progressing: ProgressDeadlineExceeded"
    );
    assert_eq!(
        s.conditions[1].message,
        "ReplicaSet \"web-6c8f9\" has timed out progressing."
    );
}

#[test]
fn a_finished_rollout_compares_with_the_previous_revision_and_defaults_replicas() {
    let mut d =
        deployment(json!({"readyReplicas": 1, "updatedReplicas": 1, "availableReplicas": 1}));
    d.spec.replicas = None;
    let sets = [
        replica_set("7d9f8", 2, "1.0", "8080", 0, 0),
        replica_set("6c8f9", 3, "1.1", "abc", 1, 1),
    ];
    let s = from_deployment(&d, &sets);
    assert_eq!(s.replicas, Some(1), "spec.replicas defaults to 1");
    assert_eq!(s.changes.len(), 2, "{:?}", s.changes);
    assert_eq!(workload_line(&s), "deploy/web  1/1 ready  updated 1/1");
    let empty = from_deployment(&d, &[]);
    assert!(empty.revisions.is_empty() && empty.changes.is_empty());
    assert_eq!(
        no_pods(&empty),
        "deployment web selects app=web; no pods match"
    );
}

#[test]
fn other_kinds_read_their_own_status_fields() {
    let sts: StatefulSet = serde_json::from_value(json!({
        "metadata": {"name": "db", "namespace": "default", "uid": "s1"},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "db"}}, "serviceName": "db",
                 "template": template("1.0", "1", None)},
        "status": {"replicas": 3, "readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}
    }))
    .expect("sts");
    let s = from_stateful_set(&sts);
    assert_eq!(
        (s.replicas, s.ready, s.updated, s.available),
        (Some(3), 2, 3, 2)
    );
    assert_eq!(workload_line(&s), "sts/db  2/3 ready  updated 3/3");

    let ds: DaemonSet = serde_json::from_value(json!({
        "metadata": {"name": "agent", "namespace": "kube-system", "uid": "d1"},
        "spec": {"selector": {"matchLabels": {"app": "agent"}}, "template": template("1.0", "1", None)},
        "status": {"desiredNumberScheduled": 3, "currentNumberScheduled": 3, "numberMisscheduled": 0,
                   "numberReady": 2, "updatedNumberScheduled": 3, "numberAvailable": 2}
    }))
    .expect("ds");
    let s = from_daemon_set(&ds);
    assert_eq!(
        (s.replicas, s.ready, s.updated, s.available),
        (Some(3), 2, 3, 2)
    );
    assert_eq!(workload_line(&s), "ds/agent  2/3 ready  updated 3/3");

    let job = |name: &str, created: &str, status: Value| -> Job {
        serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": "default", "uid": format!("j-{name}"),
                         "creationTimestamp": created,
                         "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob",
                                              "name": "nightly", "uid": "cj1", "controller": true}]},
            "spec": {"completions": 1, "selector": {"matchLabels": {
                         "batch.kubernetes.io/controller-uid": format!("j-{name}")}},
                     "template": template("1.0", "1", None)},
            "status": status
        }))
        .expect("job")
    };
    let failed = job(
        "nightly-2",
        "2024-06-03T07:00:00Z",
        json!({
            "active": 1, "failed": 2, "ready": 0,
            "conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
                            "message": "Job has reached the specified backoff limit"}]
        }),
    );
    let s = from_job(&failed);
    assert_eq!(s.selector, "batch.kubernetes.io/controller-uid=j-nightly-2");
    assert_eq!(
        workload_line(&s),
        "job/nightly-2  0/1 complete  1 active  2 failed  Failed: BackoffLimitExceeded"
    );
    let older = job("nightly-1", "2024-06-02T07:00:00Z", json!({"succeeded": 1}));
    let cj: CronJob = serde_json::from_value(json!({
        "metadata": {"name": "nightly", "namespace": "default", "uid": "cj1"},
        "spec": {"schedule": "0 7 * * *", "jobTemplate": {"spec": {"template": template("1.0", "1", None)}}}
    }))
    .expect("cronjob");
    let jobs = [older, failed];
    let latest = latest_job(&jobs, "cj1");
    assert_eq!(
        latest.and_then(|j| j.metadata.name.as_deref()),
        Some("nightly-2")
    );
    let s = from_cron_job(&cj, latest);
    assert_eq!(
        (s.kind, s.name.as_str(), s.uid.as_str()),
        (WorkloadKind::CronJob, "nightly", "cj1")
    );
    assert_eq!(s.job.as_deref(), Some("nightly-2"));
    assert!(workload_line(&s).starts_with("cronjob/nightly  job nightly-2  0/1 complete"));
    assert_eq!(
        workload_line(&from_cron_job(&cj, None)),
        "cronjob/nightly  no jobs yet"
    );
}

fn spec(v: Value) -> PodTemplateSpec {
    serde_json::from_value(json!({"spec": v})).expect("template")
}

#[test]
fn template_diff_covers_every_field() {
    let old = spec(json!({
        "containers": [
            {"name": "app", "image": "web:1", "command": ["/app"], "args": ["--port", "80"],
             "env": [{"name": "A", "value": "1"}, {"name": "GONE", "value": "x"},
                     {"name": "PW", "valueFrom": {"secretKeyRef": {"name": "db", "key": "pw"}}}],
             "envFrom": [{"configMapRef": {"name": "cfg"}}],
             "resources": {"limits": {"memory": "128Mi"}, "requests": {"cpu": "100m"}},
             "readinessProbe": {"httpGet": {"path": "/ready", "port": 80, "scheme": "HTTP"}, "periodSeconds": 10}},
            {"name": "old-sidecar", "image": "proxy:1"}
        ],
        "volumes": [{"name": "conf", "configMap": {"name": "cfg-1"}}, {"name": "tmp", "emptyDir": {}}]
    }));
    let new = spec(json!({
        "containers": [
            {"name": "app", "image": "web:1", "command": ["/app"], "args": ["--port", "8080"],
             "env": [{"name": "A", "value": "2"}, {"name": "NEW", "value": "y"},
                     {"name": "PW", "valueFrom": {"secretKeyRef": {"name": "db2", "key": "pw"}}}],
             "envFrom": [{"configMapRef": {"name": "cfg"}, "prefix": "X_"}],
             "resources": {"limits": {"memory": "256Mi"}, "requests": {"cpu": "100m"}},
             "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080, "scheme": "HTTP"}, "periodSeconds": 10}},
            {"name": "new-sidecar", "image": "proxy:2"}
        ],
        "volumes": [{"name": "conf", "configMap": {"name": "cfg-2"}}, {"name": "data", "emptyDir": {}}]
    }));
    let changes = template_changes(&old, &new);
    let text: Vec<String> = changes
        .iter()
        .map(|c| format!("{}|{}|{}|{}", c.container, c.field, c.from, c.to))
        .collect();
    assert_eq!(
        text,
        [
            "app|args|--port 80|--port 8080",
            "app|env A|1|2",
            "app|env NEW||y",
            "app|env PW|from secret/db pw|from secret/db2 pw",
            "app|env GONE|x|",
            "app|envFrom|configmap/cfg|configmap/cfg prefix X_",
            "app|resources limits.memory|128Mi|256Mi",
            "app|readinessProbe|http-get http://:80/ready delay=0s timeout=0s period=10s #success=0 #failure=0|http-get http://:8080/ready delay=0s timeout=0s period=10s #success=0 #failure=0",
            "new-sidecar|container||proxy:2",
            "old-sidecar|container|proxy:1|",
            "|volume conf|configMap cfg-1|configMap cfg-2",
            "|volume data||emptyDir",
            "|volume tmp|emptyDir|",
        ]
    );
    let line = changes_text(&changes);
    assert!(
        line.starts_with("app: args --port 80 → --port 8080; env A 1 → 2; env NEW added y;"),
        "{line}"
    );
    assert!(line.contains("; env GONE removed (was x);"), "{line}");
    assert!(
        line.contains("; pod: volume conf configMap cfg-1 → configMap cfg-2"),
        "{line}"
    );
    assert!(template_changes(&old, &old).is_empty());
}

#[test]
fn images_shorten_only_when_the_repository_is_the_same() {
    assert_eq!(
        short_image("ghcr.io/example/hello:1.0", "ghcr.io/example/hello:1.1"),
        ":1.1"
    );
    assert_eq!(
        short_image("localhost:5000/app:1", "localhost:5000/app:2"),
        ":2"
    );
    assert_eq!(short_image("app@sha256:aa", "app@sha256:bb"), "@sha256:bb");
    assert_eq!(short_image("nginx:1", "httpd:1"), "httpd:1");
    assert_eq!(short_image("nginx", "nginx:1.27"), "nginx:1.27");
}

#[test]
fn selector_header_counts_pods() {
    let pods: Vec<_> = (0..500)
        .map(|i| {
            pod(
                &format!("web-{i}"),
                "6c8f9",
                1,
                "Running",
                running(),
                i % 100 != 0,
            )
        })
        .collect();
    assert_eq!(
        selector_line("app=web", &pods),
        "-l app=web  500 pods  5 not ready"
    );
    assert_eq!(selector_line("app=web", &[]), "-l app=web  no pods match");
}
