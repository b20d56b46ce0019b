//! Real kubectl against the simulator for every case: READY, STATUS, RESTARTS, AGE must equal the
//! first row of the case's expected.md table (clock frozen at its snapshot time).

use crate::common;
use common::cases::expected;
use std::path::Path;

use common::cluster::{case, case_dirs, case_name, kubectl, name_ns, run as run_kubectl};
use common::sim::start_frozen;
use podscope::sim::{Simulator, load_fixture};

/// `kubectl get pod NAME -n NS --no-headers` against `sim`: (success, stdout, stderr).
async fn get_row(sim: &Simulator, cache: &Path, name: &str, ns: &str) -> (bool, String, String) {
    run_kubectl(sim, cache, &["get", "pod", name, "-n", ns, "--no-headers"]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_get_pod_matches_expected_for_every_case() {
    if kubectl().is_none() {
        return;
    }
    let cache = tempfile::tempdir().expect("tempdir");
    let dirs = case_dirs();
    assert!(
        dirs.len() >= 20,
        "expected the case folders under assets/cases"
    );
    let mut failures = Vec::new();
    for dir in &dirs {
        let fx = load_fixture(dir).expect("fixture loads");
        let name = fx.pod.metadata.name.clone().expect("pod name");
        let ns = fx
            .pod
            .metadata
            .namespace
            .clone()
            .unwrap_or_else(|| "default".into());
        let sim = start_frozen(std::slice::from_ref(dir)).await;
        let (ok, out, err) = get_row(&sim, cache.path(), &name, &ns).await;
        sim.shutdown().await;
        assert!(ok, "{}: kubectl failed: {err}", dir.display());
        let tokens: Vec<&str> = out.split_whitespace().collect();
        assert!(tokens.len() >= 5, "{}: short row {out:?}", dir.display());
        let got = [
            ("NAME", tokens[0].to_string()),
            ("READY", tokens[1].to_string()),
            ("STATUS", tokens[2].to_string()),
            ("RESTARTS", tokens[3..tokens.len() - 1].join(" ")),
            ("AGE", tokens[tokens.len() - 1].to_string()),
        ];
        let expected = expected(&case_name(dir));
        let expected = expected.columns();
        for (col, value) in got {
            let want = expected
                .iter()
                .find(|(h, _)| *h == col)
                .map(|(_, v)| v.to_string());
            if want.as_deref() != Some(value.as_str()) {
                failures.push(format!(
                    "{}: {col} got {value:?} want {want:?}",
                    dir.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shift_to_now_with_real_clock_looks_like_the_snapshot() {
    if kubectl().is_none() {
        return;
    }
    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    let sim = podscope::sim::Simulator::start(podscope::sim::SimConfig {
        fixtures: vec![dir.clone()],
        shift_to_now: true,
        ..Default::default()
    })
    .await
    .expect("starts");
    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = get_row(&sim, cache.path(), &name, &ns).await;
    sim.shutdown().await;
    assert!(ok, "{err}");
    let age = expected(&case_name(&dir)).age;
    let secs: u64 = age
        .trim_end_matches('s')
        .parse()
        .expect("case 01's AGE is in seconds");
    let tokens: Vec<&str> = out.split_whitespace().collect();
    let got = tokens
        .last()
        .expect("AGE cell")
        .trim_end_matches('s')
        .parse::<u64>()
        .expect("seconds");
    assert!(
        (secs..=secs + 3).contains(&got),
        "AGE {got}s should be about {age} right after start"
    );
}

#[tokio::test]
async fn refuses_non_loopback_listen_addresses() {
    let err = podscope::sim::Simulator::start(podscope::sim::SimConfig {
        listen: "0.0.0.0:0".parse().expect("addr"),
        ..Default::default()
    })
    .await
    .err()
    .expect("refused");
    assert!(err.to_string().contains("only binds loopback"), "{err}");
}
