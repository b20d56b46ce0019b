//! The diagnosis reached live: each dynamic scenario (a simulated re-run of a real case) runs on
//! the kubelet model, and `podscope --once -o json` against it must reach the same first rule
//! and severity as the static case it re-creates (container names differ where the scenario
//! renamed them: the seed's `crash` runs `hello`, case 01 `db`); the TUI in tmux shows the liveness kill's
//! headline in its Diagnosis block.

use crate::common;
use std::time::Duration;

use common::tmux::{end, missing, new_session, wait_for};
use common::wait::wait_until_blocking;
use podscope::model::deletion::OwnerStatus;
use podscope::sim::{SimClock, SimConfig, Simulator};

/// `(scenario, pod, namespace, static case)`.
const PAIRS: [(&str, &str, &str, &str); 7] = [
    ("crash", "crash", "default", "01-crashloop-exit1-db"),
    (
        "oomkilled",
        "coord-2",
        "default",
        "04-crashloop-oomkilled-jvm",
    ),
    (
        "liveness-slow-start",
        "catalog-db-0",
        "default",
        "07-liveness-kills-slow-start-exit143",
    ),
    (
        "readiness-failing",
        "profiler-7f8d9c6b5-kq2xz",
        "default",
        "19-readiness-failing-running-0of1",
    ),
    (
        "init-error",
        "site-builder",
        "default",
        "09-init-error-exit127-tool-missing",
    ),
    (
        "image-pull",
        "drain-leader-6d9b7c5f8-h4k2s",
        "default",
        "13-imagepullbackoff-tag-not-found",
    ),
    (
        "job-sidecar",
        "nightly-export-28731540-7xq2m",
        "default",
        "12-native-sidecar-job-completed",
    ),
];

async fn start(scenario: &str) -> Simulator {
    let start = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        scenarios: vec![scenario.into()],
        clock: SimClock::scaled(start, 20.0),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// The first finding's `(rule, severity)` from `podscope --once -o json`, if it ran.
fn first_finding(sim: &Simulator, ns: &str, pod: &str) -> Option<(String, String)> {
    let out = common::sim::podscope_once(sim.kubeconfig_path(), ns, pod, sim.store().now());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let first = doc["diagnosis"].as_array()?.first()?.clone();
    Some((
        first["rule"].as_str()?.to_owned(),
        first["severity"].as_str()?.to_owned(),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_dynamic_scenario_reaches_its_static_cases_rule() {
    for (scenario, pod, ns, case) in PAIRS {
        let want = common::diagnosis::diagnosis(case, OwnerStatus::Unknown);
        let want = want.first().expect("the static case has a finding");
        let severity = serde_json::to_value(want.severity).expect("severity serialises");
        let want = (
            want.rule.to_owned(),
            severity.as_str().unwrap_or("").to_owned(),
        );
        let sim = start(scenario).await;
        // Wait on the condition: the scenario's kubelet model reaching the case's state (each
        // check runs podscope, hence the 250 ms between checks).
        let mut last = None;
        let reached = tokio::task::block_in_place(|| {
            wait_until_blocking(Duration::from_secs(60), Duration::from_millis(250), || {
                last = first_finding(&sim, ns, pod);
                last.as_ref() == Some(&want)
            })
        });
        assert!(
            reached,
            "{scenario}: wanted {want:?} (as case {case}), last seen {last:?}"
        );
        sim.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_shows_the_liveness_kill_live_at_80x24() {
    if missing("the live diagnosis tmux test") {
        return;
    }
    let sim = start("liveness-slow-start").await;
    let session = format!("podscope-diag-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {} -n default catalog-db-0",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display()
    );
    tokio::task::block_in_place(|| {
        new_session(&session, 80, 24, &cmd);
        wait_for(&session, "the liveness kill's headline", 60, |s| {
            s.contains("liveness probe") && s.contains("db")
        });
        end(&session);
    });
    sim.shutdown().await;
}
