//! Table test of the pod printer against every vector of `docs/protocols.md` §6.2
//! (1–32 restated from kubernetes `printers_test.go`, D1–D10 derived from §6.1; the vectors are
//! in crates/model/tests/printer_vectors), and the wide cells, AGE and last-restart time it prints.

use crate::printer_vectors;
use jiff::SignedDuration;
use k8s_openapi::api::core::v1::Pod;
use podscope_model::printer::{age, pod_row, print_pod, row_conditions};
use printer_vectors::{DAY, cond, containers, cs, now, phase_pod, pod, running, vectors};
use serde_json::{Value, json};

fn to_pod(v: &Value) -> Pod {
    serde_json::from_value(v.clone()).expect("test pod deserialises")
}

#[test]
fn every_protocols_vector() {
    let all = vectors();
    assert_eq!(
        all.len(),
        31 + 11,
        "vectors 1–31 here, 32 below, D1–D10 with D7 split in two"
    );
    let mut failures = Vec::new();
    for vec in &all {
        let p = to_pod(&vec.pod);
        let row = pod_row(&p, now());
        let got = (
            row.ready.as_str(),
            row.status.as_str(),
            row.restarts.as_str(),
        );
        if got != (vec.ready, vec.status, vec.restarts) {
            failures.push(format!(
                "vector {}: got {got:?}, want {:?}",
                vec.id,
                (vec.ready, vec.status, vec.restarts)
            ));
        }
        let conds = row_conditions(&p);
        match vec.row_condition {
            None => {
                if !conds.is_empty() {
                    failures.push(format!(
                        "vector {}: unexpected row conditions {conds:?}",
                        vec.id
                    ));
                }
            }
            Some(reason) => {
                let msg = if reason == "Succeeded" {
                    "The pod has completed successfully."
                } else {
                    "The pod failed."
                };
                let ok = conds.len() == 1
                    && conds[0].type_ == "Completed"
                    && conds[0].status == "True"
                    && conds[0].reason == reason
                    && conds[0].message == msg;
                if !ok {
                    failures.push(format!(
                        "vector {}: row conditions {conds:?}, want Completed/{reason}",
                        vec.id
                    ));
                }
            }
        }
        assert_eq!(row.name, "test");
        assert_eq!(
            row.age, "60m",
            "vector {}: created 1h ago prints 60m",
            vec.id
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn vector_32_wide_cells() {
    let mut v = phase_pod("podPhase");
    v["spec"]["nodeName"] = json!("test1");
    v["spec"]["readinessGates"] = json!([
        {"conditionType": "condition1"}, {"conditionType": "condition2"}, {"conditionType": "condition3"}]);
    v["status"]["podIPs"] = json!([{"ip": "1.1.1.1"}, {"ip": "2001:db8::"}]);
    v["status"]["nominatedNodeName"] = json!("node1");
    v["status"]["conditions"] = json!([cond("condition1", "True"), cond("condition2", "False")]);
    let row = pod_row(&to_pod(&v), now());
    assert_eq!(
        (
            row.ready.as_str(),
            row.status.as_str(),
            row.restarts.as_str()
        ),
        ("1/2", "podPhase", "6")
    );
    assert_eq!(row.ip, "1.1.1.1");
    assert_eq!(row.node, "test1");
    assert_eq!(row.nominated_node, "node1");
    assert_eq!(row.readiness_gates, "1/3");
}

#[test]
fn wide_cells_default_to_none() {
    let row = pod_row(&to_pod(&phase_pod("Running")), now());
    assert_eq!(
        (
            row.ip.as_str(),
            row.node.as_str(),
            row.nominated_node.as_str(),
            row.readiness_gates.as_str()
        ),
        ("<none>", "<none>", "<none>", "<none>")
    );
}

#[test]
fn age_unknown_without_creation_timestamp() {
    assert_eq!(age(None, now()), "<unknown>");
    assert_eq!(
        age(Some(now() - SignedDuration::from_secs(16)), now()),
        "16s"
    );
    let mut v = phase_pod("Running");
    v["metadata"]
        .as_object_mut()
        .expect("object")
        .remove("creationTimestamp");
    assert_eq!(pod_row(&to_pod(&v), now()).age, "<unknown>");
}

#[test]
fn last_restart_is_newest_finished_at() {
    // Vector 15: the newer of the two finishedAt values (5 d, not 20 d) is kept.
    let p = to_pod(&pod(
        json!({"containers": containers(&["c1", "c2"])}),
        json!({"phase": "Running", "containerStatuses": [
        cs("c1", true, 6, running(), Some(5 * DAY)), cs("c2", true, 3, running(), Some(20 * DAY))]}),
    ));
    let print = print_pod(&p);
    assert_eq!(
        print.last_restart,
        Some(now() - SignedDuration::from_secs(5 * DAY))
    );
    assert_eq!(print.restarts, 9);
    assert_eq!(print.ready_text(), "2/2");
}
