//! `podscope logs -f` follows a container across restarts, every line exactly once with the
//! restart marker on stderr between instances: over HTTP on a static case whose status the test
//! rewrites, and over a WebSocket on the dynamic simulator's OOMKilled JVM.

use crate::common;
use std::time::Duration;

use common::cluster::{case, file_lines, name_ns};
use common::run::{spawn_podscope, wait_closed, wait_for_line};
use common::sim::{scenario, start_frozen, wait_watchers};
use common::wait::wait_until;
use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{
    ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStateWaiting,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use podscope::sim::{LogLine, SimClock, SimConfig, Simulator, parse_scenario};

/// `base + secs`.
fn at(base: Timestamp, secs: i64) -> Timestamp {
    base.checked_add(SignedDuration::from_secs(secs))
        .expect("in range")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_survives_a_crash_loop_restart() {
    let dir = case("29-");
    let (name, ns) = name_ns(&dir);
    let sim = start_frozen(std::slice::from_ref(&dir)).await;
    let store = sim.store();
    let pod = store.pod(&ns, &name).expect("pod");
    let flaky = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|l| l.iter().find(|c| c.name == "flaky"))
        .expect("flaky status")
        .clone();
    let old_id = flaky.container_id.clone().expect("running containerID");
    let new_id = "containerd://00000000000000000000000000000000000000000000000000000000000000f1";
    let now = store.now();
    let log = |id: &str, secs: i64, text: &str| {
        store.append_log(
            &ns,
            &name,
            id,
            LogLine {
                time: at(now, secs),
                text: text.to_owned(),
            },
        );
    };
    log(&old_id, 1, "x1");
    log(&old_id, 2, "x2");

    let (mut child, out, err) =
        spawn_podscope(&sim, &["logs", &name, "-n", &ns, "-c", "flaky", "-f"]);
    wait_for_line(&out, "x2").await;

    // The instance writes one more line, is OOMKilled after 45 s, and waits in CrashLoopBackOff.
    log(&old_id, 3, "x3");
    let started = flaky
        .state
        .as_ref()
        .and_then(|s| s.running.as_ref())
        .and_then(|r| r.started_at.clone())
        .expect("startedAt")
        .0;
    let terminated = ContainerStateTerminated {
        exit_code: 137,
        reason: Some("OOMKilled".into()),
        started_at: Some(Time(started)),
        finished_at: Some(Time(at(started, 45))),
        container_id: Some(old_id.clone()),
        ..Default::default()
    };
    let set = |f: &dyn Fn(&mut k8s_openapi::api::core::v1::ContainerStatus)| {
        store
            .update_pod(&ns, &name, |p| {
                let l = p
                    .status
                    .as_mut()
                    .and_then(|s| s.container_statuses.as_mut());
                if let Some(c) = l.and_then(|l| l.iter_mut().find(|c| c.name == "flaky")) {
                    f(c);
                }
            })
            .expect("pod updated");
    };
    set(&|c| {
        c.ready = false;
        c.last_state = Some(ContainerState {
            terminated: Some(terminated.clone()),
            ..Default::default()
        });
        c.state = Some(ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: Some("CrashLoopBackOff".into()),
                message: Some(format!(
                    "back-off 40s restarting failed container=flaky pod={name}_{ns}(uid)"
                )),
            }),
            ..Default::default()
        });
    });
    wait_for_line(&out, "x3").await;
    // The stream ended with the instance; podscope watches the pod for the next one. Start it
    // once that watch is open, so podscope sees the back-off first, as on a real cluster.
    wait_watchers(&sim, 1).await;

    // The new instance starts and writes.
    log(new_id, 60, "n1");
    log(new_id, 61, "n2");
    set(&|c| {
        c.restart_count = 4;
        c.container_id = Some(new_id.to_owned());
        c.state = Some(ContainerState {
            running: Some(ContainerStateRunning {
                started_at: Some(Time(at(now, 59))),
            }),
            ..Default::default()
        });
    });
    wait_for_line(&out, "n2").await;
    wait_for_line(&err, "restarted").await;

    // Deleting the pod ends the command with 0.
    store.delete_pod(&ns, &name).expect("deleted");
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("podscope exits after the pod is deleted")
        .expect("wait");
    assert_eq!(status.code(), Some(0));
    wait_closed(&out).await;
    wait_closed(&err).await;

    let mut want = file_lines(&dir, "logs-current.txt");
    want.extend(["x1", "x2", "x3", "n1", "n2"].map(str::to_owned));
    assert_eq!(
        *out.lock().expect("lock"),
        want,
        "every line exactly once, in order"
    );
    assert_eq!(
        *err.lock().expect("lock"),
        ["── restarted: OOMKilled, exit 137 (SIGKILL) after 45s, back-off 40s ──"]
    );
    sim.shutdown().await;
}

/// The dynamic simulator's OOMKilled JVM (OOMKilled 45 s after each start) at 20× real time:
/// `podscope logs -f --log-transport websocket` prints every instance's lines once, with the
/// restart marker on stderr between them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_over_websocket_survives_restarts() {
    let scenario = scenario("oomkilled.yaml");
    let text = std::fs::read_to_string(&scenario).expect("scenario");
    let pods = parse_scenario("oomkilled.yaml", &text).expect("parses");
    let sim_log: Vec<String> = pods[0].spec.as_ref().expect("spec").containers[0]
        .env
        .iter()
        .flatten()
        .find(|e| e.name == "SIM_LOG")
        .and_then(|e| e.value.clone())
        .expect("SIM_LOG")
        .lines()
        .map(str::to_owned)
        .collect();
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    let sim = Simulator::start(SimConfig {
        clock: SimClock::scaled(start, 20.0),
        scenarios: vec![scenario],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    assert!(sim.url().starts_with("https://"));
    // As kubectl, `logs` refuses a container that has not started yet (ContainerCreating).
    let store = sim.store();
    let running = wait_until(Duration::from_secs(20), || {
        store
            .pod("default", "coord-2")
            .and_then(|p| p.status)
            .and_then(|s| s.container_statuses)
            .is_some_and(|c| {
                c.iter()
                    .any(|c| c.state.as_ref().is_some_and(|s| s.running.is_some()))
            })
    })
    .await;
    assert!(running, "coord-2 did not start");

    let (mut child, out, err) = spawn_podscope(
        &sim,
        &[
            "logs",
            "coord-2",
            "-n",
            "default",
            "-f",
            "--log-transport",
            "websocket",
        ],
    );
    let marker = "── restarted: OOMKilled, exit 137 (SIGKILL) after 45s";
    let waited = wait_until(Duration::from_secs(60), || {
        let markers = err
            .lock()
            .expect("lock")
            .iter()
            .filter(|l| l.starts_with(marker))
            .count();
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "podscope exited early with {status}: {:?}",
                err.lock().expect("lock")
            );
        }
        markers >= 2 && out.lock().expect("lock").len() >= 2 * sim_log.len()
    })
    .await;
    let _ = child.start_kill();
    let _ = child.wait().await;
    assert!(
        waited,
        "two restarts not seen; stdout {:?}, stderr {:?}",
        out.lock().expect("lock"),
        err.lock().expect("lock")
    );
    let out = out.lock().expect("lock").clone();
    // Two complete instances, each exactly its SIM_LOG lines once, in order.
    assert_eq!(out[..sim_log.len()], sim_log[..]);
    assert_eq!(out[sim_log.len()..2 * sim_log.len()], sim_log[..]);
    let err = err.lock().expect("lock").clone();
    assert!(err[0].starts_with(marker), "{err:?}");
    sim.shutdown().await;
}
