//! LIST pages and consistency (`docs/protocols.md` §1.7): `limit` with a `continue` token and
//! `metadata.remainingItemCount`, the tokens followed to the end, `kubectl get pods
//! --chunk-size=2`, 410 Expired for a token or an `Exact` resourceVersion that left the
//! history, an `Exact` read of an older state, and `resourceVersionMatch` without
//! `resourceVersion` refused as kube-apiserver's `ValidateListOptions` refuses it.

use crate::common;
use crate::workloads_support;
use common::cluster::run;
use common::sim::raw_get;
use k8s_openapi::api::core::v1::Pod;
use podscope::sim::Simulator;
use serde_json::{Value, json};
use workloads_support::start;

/// `GET path` → (HTTP status, JSON body).
async fn get(sim: &Simulator, path: &str) -> (u16, Value) {
    let text = raw_get(sim, path).await;
    let code = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (code, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| p["metadata"]["name"].as_str().unwrap_or("").to_string())
        .collect()
}

fn add_pod(sim: &Simulator, name: &str) {
    let pod: Pod = serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "busybox"}]}
    }))
    .expect("pod");
    sim.store().create_pod(pod).expect("created");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_and_continue_page_through_every_pod_once() {
    let sim = start().await;
    for n in ["p1", "p2", "p3", "p4", "p5"] {
        add_pod(&sim, n);
    }
    let base = "/api/v1/namespaces/default/pods";
    let (code, first) = get(&sim, &format!("{base}?limit=2")).await;
    assert_eq!(code, 200, "{first}");
    assert_eq!(names(&first), ["p1", "p2"]);
    assert_eq!(first["metadata"]["remainingItemCount"], 3);
    let list_rv = first["metadata"]["resourceVersion"].clone();
    let mut seen = names(&first);
    let mut token = first["metadata"]["continue"].as_str().map(String::from);
    // A write between pages does not show: every page is at the first page's RV.
    add_pod(&sim, "p0");
    while let Some(t) = token {
        let (code, page) = get(&sim, &format!("{base}?limit=2&continue={t}")).await;
        assert_eq!(code, 200, "{page}");
        assert_eq!(page["metadata"]["resourceVersion"], list_rv);
        seen.extend(names(&page));
        token = page["metadata"]["continue"].as_str().map(String::from);
        if token.is_none() {
            assert!(page["metadata"].get("remainingItemCount").is_none());
        }
    }
    assert_eq!(seen, ["p1", "p2", "p3", "p4", "p5"]);

    // A token whose RV left the history: 410 with the API server's message.
    let (_, first) = get(&sim, &format!("{base}?limit=2")).await;
    let t = first["metadata"]["continue"]
        .as_str()
        .expect("token")
        .to_string();
    add_pod(&sim, "p6");
    sim.store().expire_history();
    let (code, err) = get(&sim, &format!("{base}?limit=2&continue={t}")).await;
    assert_eq!((code, err["reason"].as_str()), (410, Some("Expired")));
    assert_eq!(
        err["message"],
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter."
    );

    // kubectl's chunked list follows the tokens of the Table pages.
    let dir = tempfile::tempdir().expect("tmp");
    let (ok, out, err) = run(
        &sim,
        dir.path(),
        &["get", "pods", "--chunk-size=2", "-o", "name"],
    )
    .await;
    assert!(ok, "{err}");
    let listed: Vec<&str> = out.lines().collect();
    assert_eq!(
        listed,
        [
            "pod/p0", "pod/p1", "pod/p2", "pod/p3", "pod/p4", "pod/p5", "pod/p6"
        ]
    );
    let (ok, out, err) = run(&sim, dir.path(), &["get", "pods", "--chunk-size=3"]).await;
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 8, "{out}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_version_match_exact_and_its_validation() {
    let sim = start().await;
    add_pod(&sim, "a");
    add_pod(&sim, "b");
    let base = "/api/v1/namespaces/default/pods";
    let (_, then) = get(&sim, base).await;
    let rv = then["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_string();
    add_pod(&sim, "c");
    let (code, exact) = get(
        &sim,
        &format!("{base}?resourceVersion={rv}&resourceVersionMatch=Exact"),
    )
    .await;
    assert_eq!(code, 200, "{exact}");
    assert_eq!(names(&exact), ["a", "b"]);
    assert_eq!(exact["metadata"]["resourceVersion"], rv.as_str());
    let (code, newer) = get(
        &sim,
        &format!("{base}?resourceVersion={rv}&resourceVersionMatch=NotOlderThan"),
    )
    .await;
    assert_eq!(
        (code, names(&newer)),
        (200, vec!["a".into(), "b".into(), "c".into()])
    );

    sim.store().expire_history();
    let (code, err) = get(
        &sim,
        &format!("{base}?resourceVersion={rv}&resourceVersionMatch=Exact"),
    )
    .await;
    assert_eq!(
        (code, err["reason"].as_str()),
        (410, Some("Expired")),
        "{err}"
    );
    assert!(
        err["message"]
            .as_str()
            .is_some_and(|m| m.starts_with(&format!("too old resource version: {rv} ("))),
        "{err}"
    );

    let (code, err) = get(&sim, &format!("{base}?resourceVersionMatch=Exact")).await;
    assert_eq!(code, 422, "{err}");
    assert_eq!(
        err["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
    );
    sim.shutdown().await;
}
