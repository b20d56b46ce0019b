//! The workload Tables' cells against the printers' rules (`docs/workloads-api.md` §6).

use jiff::Timestamp;
use serde_json::{Value, json};

use super::table;
use crate::api::object::{Object, Resource};

fn now() -> Timestamp {
    "2025-03-01T12:00:00Z".parse().expect("time")
}

fn cells(res: Resource, doc: Value) -> Vec<Value> {
    let obj = Object::from_json(res, doc).expect("object");
    let t = table(res, &[obj], 1, now());
    let cols = t["columnDefinitions"].as_array().expect("columns").len();
    let cells = t["rows"][0]["cells"].as_array().expect("cells").clone();
    assert_eq!(cells.len(), cols, "{res:?}: one cell per column");
    cells
}

#[test]
fn deployment_cells_come_from_status_and_template() {
    let c = cells(
        Resource::Deployments,
        json!({
            "metadata": {"name": "web", "creationTimestamp": "2025-03-01T11:55:00Z"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                     "template": {"spec": {"containers": [{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:2"}]}}},
            "status": {"readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2},
        }),
    );
    assert_eq!(
        c,
        vec![
            json!("web"),
            json!("2/3"),
            json!(3),
            json!(2),
            json!("5m"),
            json!("a,b"),
            json!("x:1,y:2"),
            json!("app=web")
        ]
    );
}

#[test]
fn job_status_completions_and_duration() {
    let base = |spec: Value, status: Value| {
        cells(
            Resource::Jobs,
            json!({"metadata": {"name": "pi", "creationTimestamp": "2025-03-01T11:00:00Z"},
                   "spec": spec, "status": status}),
        )
    };
    let done = base(
        json!({"completions": 1, "template": {}}),
        json!({"succeeded": 1, "startTime": "2025-03-01T11:00:00Z", "completionTime": "2025-03-01T11:00:42Z",
               "conditions": [{"type": "Complete", "status": "True"}]}),
    );
    assert_eq!(done[1..4], [json!("Complete"), json!("1/1"), json!("42s")]);
    let running = base(
        json!({"parallelism": 3, "template": {}}),
        json!({"startTime": "2025-03-01T11:58:00Z"}),
    );
    assert_eq!(
        running[1..4],
        [json!("Running"), json!("0/1 of 3"), json!("2m")]
    );
    let failed = base(
        json!({"template": {}}),
        json!({"conditions": [{"type": "Failed", "status": "True"}]}),
    );
    assert_eq!(failed[1..4], [json!("Failed"), json!("0/1"), json!("")]);
    assert_eq!(failed[7], json!("<none>"), "no selector");
}

#[test]
fn daemonset_and_cronjob_cells() {
    let ds = cells(
        Resource::DaemonSets,
        json!({"metadata": {"name": "agent"}, "spec": {"selector": {"matchLabels": {"app": "agent"}}, "template": {}}}),
    );
    assert_eq!(
        ds[..8],
        [
            json!("agent"),
            json!(0),
            json!(0),
            json!(0),
            json!(0),
            json!(0),
            json!("<none>"),
            json!("<unknown>")
        ]
    );
    let cj = cells(
        Resource::CronJobs,
        json!({"metadata": {"name": "tick", "creationTimestamp": "2025-03-01T11:00:00Z"},
               "spec": {"schedule": "*/5 * * * *", "timeZone": "Etc/UTC", "jobTemplate": {}},
               "status": {"active": [{"name": "tick-1"}], "lastScheduleTime": "2025-03-01T11:55:00Z"}}),
    );
    assert_eq!(
        cj[..7],
        [
            json!("tick"),
            json!("*/5 * * * *"),
            json!("Etc/UTC"),
            json!("<unset>"),
            json!(1),
            json!("5m"),
            json!("60m")
        ]
    );
    let sts = cells(
        Resource::StatefulSets,
        json!({"metadata": {"name": "db"}, "spec": {"replicas": 2, "selector": {}, "template": {}}, "status": {"replicas": 2, "readyReplicas": 1}}),
    );
    assert_eq!(sts[..2], [json!("db"), json!("1/2")]);
}
