//! Helpers for the kubelet model tests: the seed's node, a virtual clock driver and
//! `kubectl get -w` rows.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Pod;
use podscope::model::BackoffCurve;
use podscope::model::printer::pod_row;
use podscope::sim::kubelet::{Change, Kubelet, KubeletConfig};

/// 2026-10-25T23:19:40Z: a whole second, so status times (truncated to seconds) stay exact.
pub fn t0() -> Timestamp {
    "2026-10-25T23:19:40Z".parse().expect("valid timestamp")
}

pub fn secs(s: f64) -> SignedDuration {
    SignedDuration::try_from_secs_f64(s).expect("finite")
}

/// The seed's node: `k8s-node-2` (192.168.10.21), pod IPs from 172.20.172.0/24.
pub fn seed_node() -> KubeletConfig {
    KubeletConfig {
        node_name: "k8s-node-2".into(),
        host_ip: "192.168.10.21".into(),
        pod_cidr_prefix: "172.20.172.".into(),
        curve: BackoffCurve::DEFAULT,
    }
}

/// A kubelet model on the seed's node.
pub fn kubelet() -> Kubelet {
    Kubelet::new(seed_node())
}

pub fn pod_from_yaml(yaml: &str) -> Pod {
    let mut pod: Pod = serde_yaml_ng::from_str(yaml).expect("manifest parses");
    pod.metadata
        .namespace
        .get_or_insert_with(|| "default".into());
    pod
}

/// Every change with the virtual time it happened at.
pub type Timeline = Vec<(Timestamp, Change)>;

/// Drives `advance` from wakeup to wakeup until `end` (inclusive), appending to `out`.
pub fn run_until(k: &mut Kubelet, end: Timestamp, out: &mut Timeline) {
    while let Some(at) = k.next_wakeup() {
        if at > end {
            break;
        }
        for c in k.advance(at) {
            out.push((at, c));
        }
    }
}

/// Admits `pod` at `at` and records the changes.
pub fn admit(k: &mut Kubelet, pod: Pod, at: Timestamp, out: &mut Timeline) {
    for c in k.admit(pod, at) {
        out.push((at, c));
    }
}

/// A `kubectl get pod -w` row: READY, STATUS, RESTARTS, AGE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub ready: String,
    pub status: String,
    pub restarts: String,
    pub age: String,
    pub at: Timestamp,
}

/// The rows `kubectl get -w` prints for every pod update in `timeline`.
pub fn rows(timeline: &Timeline) -> Vec<Row> {
    timeline
        .iter()
        .filter_map(|(at, c)| match c {
            Change::Pod(p) => {
                let r = pod_row(p, *at);
                Some(Row {
                    ready: r.ready,
                    status: r.status,
                    restarts: r.restarts,
                    age: r.age,
                    at: *at,
                })
            }
            _ => None,
        })
        .collect()
}

/// `(READY, STATUS, restart count)` with consecutive duplicates removed (rows differing only in
/// fields the table does not show, or in AGE / "(x ago)").
pub fn dedup(
    cells: impl IntoIterator<Item = (String, String, String)>,
) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    for (ready, status, restarts) in cells {
        let count = restarts.split(' ').next().unwrap_or("").to_string();
        let cell = (ready, status, count);
        if out.last() != Some(&cell) {
            out.push(cell);
        }
    }
    out
}

/// `kubectl apply -f hello-pod.yaml && kubectl get pod hello -w`, verbatim from the seed.
pub const SEED_HELLO_WATCH: &str = "NAME    READY   STATUS    RESTARTS   AGE
hello   0/2     Pending   0          0s
hello   0/2     Init:0/2   0          1s
hello   0/2     Init:0/2   0          2s
hello   0/2     Init:0/2   0          3s
hello   0/2     Init:0/2   0          4s
hello   0/2     Init:1/2   0          5s
hello   0/2     Init:1/2   0          5s
hello   0/2     PodInitializing   0          6s
hello   0/2     PodInitializing   0          6s
hello   1/2     PodInitializing   0          7s
hello   1/2     Running           0          7s
hello   1/2     Running           0          9s
hello   2/2     Running           0          9s
";

/// `kubectl apply -f crash.yaml && kubectl get pod crash -w`, verbatim from the seed.
pub const SEED_CRASH_WATCH: &str = "NAME    READY   STATUS    RESTARTS   AGE
crash   0/1     Pending   0          0s
crash   0/1     ContainerCreating   0          0s
crash   0/1     ContainerCreating   0          1s
crash   0/1     ContainerCreating   0          2s
crash   1/1     Running             0          3s
crash   0/1     Error               0          4s
crash   1/1     Running             1 (2s ago)   5s
crash   0/1     Error               1 (3s ago)   6s
crash   0/1     CrashLoopBackOff    1 (13s ago)   18s
crash   1/1     Running             2 (15s ago)   20s
crash   0/1     Error               2 (15s ago)   20s
crash   0/1     CrashLoopBackOff    2 (22s ago)   41s
crash   1/1     Running             3 (24s ago)   43s
crash   0/1     Error               3 (25s ago)   44s
";

/// Parses the seed's `kubectl get pod NAME -w` block (header skipped) into cells.
pub fn seed_rows(block: &str) -> Vec<(String, String, String)> {
    block
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("NAME"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let restarts = f[3..f.len() - 1].join(" ");
            (f[1].to_string(), f[2].to_string(), restarts)
        })
        .collect()
}

pub fn row_cells(rows: &[Row]) -> Vec<(String, String, String)> {
    rows.iter()
        .map(|r| (r.ready.clone(), r.status.clone(), r.restarts.clone()))
        .collect()
}

/// The last pod object in the timeline.
pub fn last_pod(timeline: &Timeline) -> Pod {
    timeline
        .iter()
        .rev()
        .find_map(|(_, c)| match c {
            Change::Pod(p) => Some((**p).clone()),
            _ => None,
        })
        .expect("at least one pod change")
}

/// Log lines of `container` instance `restart_count`, with their times.
pub fn logs(timeline: &Timeline, container: &str, restart_count: i32) -> Vec<(Timestamp, String)> {
    timeline
        .iter()
        .filter_map(|(_, c)| match c {
            Change::Log {
                container: name,
                restart_count: r,
                at,
                line,
                ..
            } if name == container && *r == restart_count => Some((*at, line.clone())),
            _ => None,
        })
        .collect()
}

/// Events as `(time, type, reason, fieldPath, message, count)` in emission order.
pub fn events(timeline: &Timeline) -> Vec<(Timestamp, String, String, String, String, i32)> {
    timeline
        .iter()
        .filter_map(|(at, c)| match c {
            Change::Event(e) => Some((
                *at,
                e.type_.clone().unwrap_or_default(),
                e.reason.clone().unwrap_or_default(),
                e.involved_object.field_path.clone().unwrap_or_default(),
                e.message.clone().unwrap_or_default(),
                e.count.unwrap_or(1),
            )),
            _ => None,
        })
        .collect()
}
