//! The built-in `job-sidecar` scenario (assets/scenarios/job-sidecar.yaml, the dynamic version of
//! case 12) run by the kubelet model ends as case 12's pod.json and expected.md show it:
//! 0/2 Completed, phase Succeeded, the main container exit 0 Completed, and the native sidecar,
//! which ignores SIGTERM, SIGKILLed (exit 137, reason Error) when the pod's 5 s grace period
//! ends after the main container completed.

use crate::common;
use std::path::Path;

use common::kubelet::*;
use k8s_openapi::api::core::v1::{ContainerStateTerminated, Pod};
use podscope::model::printer::pod_row;
use podscope::sim::kubelet::{Change, SIDECAR_DELAY};
use podscope::sim::{parse_scenario, scenario_text};

const CASE: &str = "12-native-sidecar-job-completed";

/// `(init container terminated, main container terminated)` of a pod.
fn terminated(pod: &Pod) -> (ContainerStateTerminated, ContainerStateTerminated) {
    let status = pod.status.as_ref().expect("status");
    let term = |list: &Option<Vec<k8s_openapi::api::core::v1::ContainerStatus>>| {
        list.as_ref()
            .and_then(|v| v.first())
            .and_then(|c| c.state.as_ref())
            .and_then(|s| s.terminated.clone())
            .expect("a terminated container")
    };
    (
        term(&status.init_container_statuses),
        term(&status.container_statuses),
    )
}

fn secs_between(a: &ContainerStateTerminated, b: &ContainerStateTerminated) -> i64 {
    let t = |x: &ContainerStateTerminated| x.finished_at.as_ref().expect("finishedAt").0;
    t(b).duration_since(t(a)).as_secs()
}

#[test]
fn job_sidecar_scenario_ends_like_case_12() {
    let case_pod: Pod = serde_json::from_str(
        &std::fs::read_to_string(common::cluster::cases_dir().join(CASE).join("pod.json"))
            .expect("pod.json"),
    )
    .expect("a Pod");
    let expected = common::cases::expected(CASE);

    let text = scenario_text(Path::new("job-sidecar")).expect("built-in scenario");
    let mut pods = parse_scenario("job-sidecar", &text).expect("scenario parses");
    assert_eq!(pods.len(), 1);
    let mut pod = pods.remove(0);
    pod.metadata.namespace = Some("default".into());
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod, t0(), &mut tl);
    let end = t0() + secs(200.0);
    run_until(&mut k, end, &mut tl);
    let last = last_pod(&tl);

    let row = pod_row(&last, end);
    assert_eq!(
        (
            row.ready.as_str(),
            row.status.as_str(),
            row.restarts.as_str()
        ),
        (
            expected.ready.as_str(),
            expected.status.as_str(),
            expected.restarts.as_str()
        )
    );
    let phase = |p: &Pod| p.status.as_ref().and_then(|s| s.phase.clone());
    assert_eq!(phase(&last), phase(&case_pod));

    let (sidecar, main) = terminated(&last);
    let (case_sidecar, case_main) = terminated(&case_pod);
    assert_eq!(
        (sidecar.exit_code, sidecar.reason.as_deref()),
        (case_sidecar.exit_code, case_sidecar.reason.as_deref()),
        "sidecar"
    );
    assert_eq!(
        (main.exit_code, main.reason.as_deref()),
        (case_main.exit_code, case_main.reason.as_deref()),
        "main"
    );
    // SIGKILL at the end of the grace period: in case 12 the sidecar finished
    // terminationGracePeriodSeconds (5 s) after the main container; in the model the grace
    // period runs from the sidecar's stop signal, SIDECAR_DELAY after the main container exited.
    let grace = case_pod
        .spec
        .as_ref()
        .and_then(|s| s.termination_grace_period_seconds)
        .expect("case 12 sets terminationGracePeriodSeconds");
    assert_eq!(secs_between(&case_main, &case_sidecar), grace);
    let exited_at = |init: bool| {
        tl.iter()
            .find_map(|(at, c)| match c {
                Change::Pod(p) => {
                    let (s, m) = (
                        p.status
                            .as_ref()?
                            .init_container_statuses
                            .as_ref()?
                            .first()?,
                        p.status.as_ref()?.container_statuses.as_ref()?.first()?,
                    );
                    let c = if init { s } else { m };
                    c.state.as_ref()?.terminated.as_ref().map(|_| *at)
                }
                _ => None,
            })
            .expect("the container exits")
    };
    assert_eq!(
        exited_at(true).duration_since(exited_at(false)),
        SIDECAR_DELAY + jiff::SignedDuration::from_secs(grace)
    );
    let truncated = secs_between(&main, &sidecar);
    assert!(
        truncated == grace || truncated == grace + 1,
        "finishedAt differ by {truncated} s"
    );

    // One Killing event, for the sidecar only (the main container was never stopped).
    let killing: Vec<String> = events(&tl)
        .into_iter()
        .filter(|e| e.2 == "Killing")
        .map(|e| e.4)
        .collect();
    assert_eq!(killing, ["Stopping container log-shipper"]);
}
