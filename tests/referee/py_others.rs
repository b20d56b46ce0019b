//! lightkube and kr8s (pinned in tests/python/requirements.txt) against the simulator: lists and
//! gets, server-side apply with field managers and conflicts, kr8s' client start-up (it reads
//! `/version` and the discovery documents first). tests/python/others.py does the calls.

use crate::common;
use common::python;
use common::sim::{scenario, wait_pod};
use podscope::sim::{SimConfig, Simulator};
use serde_json::json;

async fn start() -> Simulator {
    let sim = Simulator::start(SimConfig {
        scenarios: vec![scenario("hello.yaml")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    wait_pod(&sim.store(), "hello", 60, |p| {
        p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
    })
    .await;
    sim
}

/// Runs `others.py CHECK` against a fresh [`start`]ed simulator; `None` when the clients are
/// missing (skipped).
async fn check(name: &str) -> Option<serde_json::Value> {
    let python = python::python()?;
    let sim = start().await;
    Some(
        python::run_async(
            python,
            "others.py",
            sim.kubeconfig_path().to_path_buf(),
            &[name],
        )
        .await,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lightkube_lists_and_gets_pods() {
    let Some(out) = check("lightkube_pods").await else {
        return;
    };
    assert_eq!(
        out,
        json!({"pods": ["hello"], "phase": "Running", "containers": ["hello"]})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lightkube_server_side_apply_owns_fields_and_reports_conflicts() {
    let Some(out) = check("lightkube_apply").await else {
        return;
    };
    assert_eq!(out["created"], json!({"LEVEL": "debug"}), "{out}");
    assert_eq!(out["updated"], json!({"LEVEL": "info"}), "{out}");
    assert_eq!(
        out["managers"],
        json!([["podscope-test", "Apply"]]),
        "{out}"
    );
    // The API server's conflict: 409 Conflict naming the owner and the field.
    assert_eq!(out["conflict"][0], 409, "{out}");
    assert_eq!(out["conflict"][1], "Conflict", "{out}");
    assert_eq!(
        out["conflict"][2],
        "Apply failed with 1 conflict: conflict with \"podscope-test\": .data.LEVEL",
        "{out}"
    );
    assert_eq!(out["forced"], json!({"LEVEL": "warn"}), "{out}");
    assert_eq!(out["forcedManagers"], json!(["someone-else"]), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kr8s_starts_and_lists_pods_and_nodes() {
    let Some(out) = check("kr8s_api").await else {
        return;
    };
    assert!(
        out["gitVersion"]
            .as_str()
            .is_some_and(|v| v.starts_with("v1.")),
        "{out}"
    );
    assert_eq!(out["pods"], json!(["hello"]), "{out}");
    assert_eq!(out["nodes"], json!(["sim-node-1"]), "{out}");
}
