//! CrashLoopBackOff as the seed's `crash` pod shows it (hello with PORT=abc) and as
//! docs/protocols.md §5 specifies it: restart waits 0, 10, 20 s; back-off reset after a run
//! longer than 10 min; OOMKilled; restartPolicy Never; liveness kills; image pull back-off.

use crate::common;
use common::kubelet::*;
use jiff::Timestamp;
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use podscope::model::backoff::parse_waiting_message;

/// crash.yaml, verbatim from the seed.
pub(crate) const CRASH_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: crash
spec:
  containers:
  - name: hello
    image: ghcr.io/example/hello:1.0
    env:
    - name: PORT
      value: "abc"
"#;

fn try_status(pod: &Pod) -> Option<ContainerStatus> {
    pod.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|v| v.first().cloned())
}

fn status(pod: &Pod) -> ContainerStatus {
    try_status(pod).expect("container status")
}

fn run_pod(yaml: &str, seconds: f64) -> Timeline {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(yaml), t0(), &mut tl);
    run_until(&mut k, t0() + secs(seconds), &mut tl);
    tl
}

fn pods(tl: &Timeline) -> Vec<(Timestamp, Pod)> {
    tl.iter()
        .filter_map(|(at, c)| match c {
            podscope::sim::kubelet::Change::Pod(p) => Some((*at, (**p).clone())),
            _ => None,
        })
        .collect()
}

/// For each restart (restartCount 1, 2, …): `running.startedAt − lastState.finishedAt` in s.
fn restart_gaps(tl: &Timeline) -> Vec<i64> {
    let mut gaps = Vec::new();
    let mut seen = 0;
    for (_, pod) in pods(tl) {
        let Some(cs) = try_status(&pod) else { continue };
        let running = cs.state.as_ref().and_then(|s| s.running.as_ref());
        let last = cs.last_state.as_ref().and_then(|l| l.terminated.as_ref());
        if cs.restart_count > seen
            && let (Some(r), Some(last)) = (running, last)
        {
            let started = r.started_at.as_ref().expect("startedAt").0;
            let finished = last.finished_at.as_ref().expect("finishedAt").0;
            gaps.push(started.duration_since(finished).as_secs());
            seen = cs.restart_count;
        }
    }
    gaps
}

/// The back-off delays (s) in the CrashLoopBackOff waiting messages, deduplicated in order.
fn waiting_delays(tl: &Timeline) -> Vec<u64> {
    let mut out: Vec<(i32, u64)> = Vec::new();
    for (_, pod) in pods(tl) {
        let Some(cs) = try_status(&pod) else { continue };
        let Some(w) = cs.state.as_ref().and_then(|s| s.waiting.as_ref()) else {
            continue;
        };
        if w.reason.as_deref() != Some("CrashLoopBackOff") {
            continue;
        }
        let (d, _) = parse_waiting_message(w.message.as_deref().unwrap_or("")).expect("parses");
        let item = (cs.restart_count, d.as_secs());
        if out.last() != Some(&item) {
            out.push(item);
        }
    }
    out.into_iter().map(|(_, d)| d).collect()
}

#[test]
fn seed_crash_pod_rows_and_backoff() {
    let tl = run_pod(CRASH_POD, 36.0);
    let got = dedup(row_cells(&rows(&tl)));
    let want = dedup(seed_rows(SEED_CRASH_WATCH));
    assert_eq!(&got[..want.len()], &want[..], "full: {got:?}");
    // Restart 1 at the first sync after the exit (1 s), then after 10 s and 20 s of back-off.
    assert_eq!(restart_gaps(&tl), vec![1, 10, 20]);
    // The third exit waits 40 s (protocols.md §5.1: 10 s doubling).
    assert_eq!(waiting_delays(&tl), vec![10, 20, 40]);
}

#[test]
fn seed_crash_pod_waiting_message_last_state_and_previous_logs() {
    let tl = run_pod(CRASH_POD, 6.0);
    let pod = last_pod(&tl);
    let uid = pod.metadata.uid.clone().expect("uid");
    let cs = status(&pod);
    let waiting = cs.state.and_then(|s| s.waiting).expect("waiting");
    assert_eq!(waiting.reason.as_deref(), Some("CrashLoopBackOff"));
    assert_eq!(
        waiting.message.as_deref(),
        Some(
            format!("back-off 10s restarting failed container=hello pod=crash_default({uid})")
                .as_str()
        )
    );
    // lastState as the seed prints it: exitCode 1, reason Error, startedAt == finishedAt.
    let last = cs
        .last_state
        .and_then(|l| l.terminated)
        .expect("lastState.terminated");
    assert_eq!((last.exit_code, last.reason.as_deref()), (1, Some("Error")));
    assert_eq!(last.started_at, last.finished_at);
    assert!(
        last.container_id
            .as_deref()
            .is_some_and(|id| id.starts_with("containerd://"))
    );
    assert_eq!(cs.restart_count, 1);
    // `kubectl logs crash --previous`: `2026/10/25 23:19:43 listen: listen tcp: lookup tcp/abc: unknown port`.
    let prev = logs(&tl, "hello", 0);
    assert_eq!(prev.len(), 1);
    let (at, line) = &prev[0];
    assert_eq!(
        line,
        &format!(
            "{} listen: listen tcp: lookup tcp/abc: unknown port",
            at.strftime("%Y/%m/%d %H:%M:%S")
        )
    );
    // The Warning BackOff event with the kubelet's text.
    let backoff: Vec<_> = events(&tl)
        .into_iter()
        .filter(|e| e.2 == "BackOff")
        .collect();
    assert_eq!(backoff[0].1, "Warning");
    assert_eq!(
        backoff[0].4,
        format!("Back-off restarting failed container hello in pod crash_default({uid})")
    );
}

const OOM_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: jvm
spec:
  containers:
  - name: app
    image: registry.example/app:1.0
    resources:
      limits: {memory: 512Mi}
    env:
    - {name: SIM_OOM_AFTER, value: "3"}
"#;

#[test]
fn oom_program_is_oomkilled_137() {
    let tl = run_pod(OOM_POD, 12.0);
    let statuses: Vec<String> = dedup(row_cells(&rows(&tl)))
        .into_iter()
        .map(|c| c.1)
        .collect();
    assert_eq!(
        statuses,
        vec![
            "Pending",
            "ContainerCreating",
            "Running",
            "OOMKilled",
            "Running",
            "OOMKilled",
            "CrashLoopBackOff"
        ]
    );
    let cs = status(&last_pod(&tl));
    let last = cs
        .last_state
        .and_then(|l| l.terminated)
        .expect("terminated");
    assert_eq!(
        (last.exit_code, last.reason.as_deref()),
        (137, Some("OOMKilled"))
    );
    let qos = last_pod(&tl).status.and_then(|s| s.qos_class);
    assert_eq!(qos.as_deref(), Some("Burstable"));
}

const RESET_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: flaky
spec:
  containers:
  - name: flaky
    image: registry.example/flaky:2.0
    env:
    - {name: SIM_EXIT_CODE, value: "1"}
    - {name: SIM_EXIT_AFTER, value: "1,1,1,700,1"}
"#;

#[test]
fn backoff_resets_after_a_run_longer_than_ten_minutes() {
    let tl = run_pod(RESET_POD, 800.0);
    // Runs 0–2 crash at once: restarts after 1 s (sync), 10 s, 20 s. Run 3 lasts 700 s > 600 s:
    // the entry expired, so restart 4 is immediate and the next back-off starts over at 10 s.
    // Later crashes climb the curve again: 10 s, 20 s.
    assert_eq!(restart_gaps(&tl), vec![1, 10, 20, 1, 10, 20]);
    assert_eq!(waiting_delays(&tl)[..4], [10, 20, 10, 20]);
}

const NEVER_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: once
spec:
  restartPolicy: Never
  containers:
  - name: task
    image: registry.example/exit:2
"#;

#[test]
fn restart_policy_never_fails_without_restart() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(NEVER_POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(120.0), &mut tl);
    let pod = last_pod(&tl);
    assert_eq!(
        pod.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Failed")
    );
    let cs = status(&pod);
    assert_eq!(cs.restart_count, 0);
    let term = cs.state.and_then(|s| s.terminated).expect("terminated");
    assert_eq!((term.exit_code, term.reason.as_deref()), (2, Some("Error")));
    let last = rows(&tl).pop().expect("row");
    assert_eq!(
        (
            last.ready.as_str(),
            last.status.as_str(),
            last.restarts.as_str()
        ),
        ("0/1", "Error", "0")
    );
    assert!(events(&tl).iter().all(|e| e.2 != "BackOff"));
    assert_eq!(k.next_wakeup(), None, "nothing left to do");
}

const LIVENESS_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: hang
spec:
  containers:
  - name: api
    image: registry.example/api:3.1
    ports: [{name: http, containerPort: 8080}]
    env:
    - {name: SIM_LIVE_FOR, value: "5"}
    livenessProbe:
      httpGet: {path: /healthz, port: http}
      periodSeconds: 5
      failureThreshold: 2
"#;

#[test]
fn liveness_failures_kill_with_sigterm_143_and_restart() {
    let tl = run_pod(LIVENESS_POD, 30.0);
    let evs = events(&tl);
    let unhealthy: Vec<_> = evs.iter().filter(|e| e.2 == "Unhealthy").collect();
    assert_eq!(unhealthy[0].1, "Warning");
    assert!(unhealthy[0].4.starts_with(
        "Liveness probe failed: Get \"http://172.20.172.2:8080/healthz\": context deadline exceeded"
    ));
    let killing = evs.iter().find(|e| e.2 == "Killing").expect("Killing");
    assert_eq!(
        killing.4,
        "Container api failed liveness probe, will be restarted"
    );
    // Probes at start+1 s, +6 s (fails: hung after 5 s), +11 s (fails, threshold 2) → killed.
    let start = t0() + secs(2.0);
    assert_eq!(killing.0, start + secs(11.0));
    let restarted = pods(&tl)
        .into_iter()
        .filter_map(|(_, p)| try_status(&p))
        .find(|cs| cs.restart_count == 1)
        .expect("restarted");
    let last = restarted
        .last_state
        .and_then(|l| l.terminated)
        .expect("lastState");
    assert_eq!(
        (last.exit_code, last.reason.as_deref()),
        (143, Some("Error"))
    );
}

const PULL_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: typo
spec:
  containers:
  - name: app
    image: busybox:missing
"#;

#[test]
fn missing_image_gives_errimagepull_then_imagepullbackoff() {
    let tl = run_pod(PULL_POD, 40.0);
    let statuses: Vec<String> = dedup(row_cells(&rows(&tl)))
        .into_iter()
        .map(|c| c.1)
        .collect();
    assert_eq!(
        &statuses[..5],
        &[
            "Pending",
            "ContainerCreating",
            "ErrImagePull",
            "ImagePullBackOff",
            "ErrImagePull"
        ]
    );
    let evs = events(&tl);
    let failed = evs.iter().find(|e| e.2 == "Failed").expect("Failed");
    assert_eq!(
        failed.4,
        "Failed to pull image \"busybox:missing\": rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/busybox:missing\": failed to resolve reference \"docker.io/library/busybox:missing\": docker.io/library/busybox:missing: not found"
    );
    // Pulls at 1 s, then 10 s and 20 s after each failure (image back-off 10 s doubling).
    let pulls: Vec<i64> = evs
        .iter()
        .filter(|e| e.2 == "Pulling")
        .map(|e| e.0.duration_since(t0()).as_secs())
        .collect();
    assert_eq!(pulls, vec![1, 12, 33]);
    let cs = status(&last_pod(&tl));
    assert_eq!(cs.restart_count, 0);
}
