//! Discovery every client accepts (each document with and without a trailing slash, as
//! kube-apiserver answers both), `events.k8s.io/v1` (the stored Events in their newer shape,
//! `kubectl get events.events.k8s.io`), and kubectl 1.27 creating and deleting a namespace
//! with content (`docs/core-api.md`).

use crate::common;
use crate::workloads_support;
use std::time::Duration;

use common::cluster::{kubectl_versions, run_bin};
use common::sim::raw_get;
use common::wait::wait_until;
use k8s_openapi::api::core::v1::{Event, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use podscope::sim::Resource;
use serde_json::Value;
use workloads_support::{start, table};

/// The JSON body of a raw HTTP response.
fn body(raw: &str) -> Value {
    let text = raw.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {raw}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_answers_with_and_without_a_trailing_slash() {
    let sim = start().await;
    for path in [
        "/version",
        "/api",
        "/apis",
        "/api/v1",
        "/apis/apps/v1",
        "/apis/events.k8s.io",
    ] {
        let plain = raw_get(&sim, path).await;
        let slash = raw_get(&sim, &format!("{path}/")).await;
        assert!(plain.starts_with("HTTP/1.1 200"), "{path}: {plain}");
        assert!(slash.starts_with("HTTP/1.1 200"), "{path}/: {slash}");
        assert_eq!(body(&plain), body(&slash), "{path}");
    }
    let groups = body(&raw_get(&sim, "/apis").await);
    let names: Vec<&str> = groups["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .filter_map(|g| g["name"].as_str())
        .collect();
    for g in [
        "apps",
        "batch",
        "events.k8s.io",
        "coordination.k8s.io",
        "discovery.k8s.io",
    ] {
        assert!(names.contains(&g), "{g} in {names:?}");
    }
    let core = body(&raw_get(&sim, "/api/v1").await);
    let cm = core["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .find(|r| r["name"] == "configmaps")
        .expect("configmaps listed")
        .clone();
    assert_eq!(cm["singularName"], "configmap");
    assert_eq!(cm["shortNames"][0], "cm");
    assert_eq!(cm["namespaced"], true);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_are_served_as_events_k8s_io_v1_too() {
    let sim = start().await;
    sim.store()
        .add_event(Event {
            metadata: ObjectMeta {
                name: Some("web.1".into()),
                namespace: Some("default".into()),
                ..ObjectMeta::default()
            },
            involved_object: ObjectReference {
                kind: Some("Pod".into()),
                name: Some("web".into()),
                namespace: Some("default".into()),
                ..ObjectReference::default()
            },
            reason: Some("BackOff".into()),
            message: Some("Back-off restarting failed container".into()),
            count: Some(3),
            type_: Some("Warning".into()),
            ..Event::default()
        })
        .expect("event stored");
    let raw = raw_get(&sim, "/apis/events.k8s.io/v1/namespaces/default/events").await;
    assert!(raw.starts_with("HTTP/1.1 200"), "{raw}");
    let list = body(&raw);
    assert_eq!(list["apiVersion"], "events.k8s.io/v1");
    let e = &list["items"][0];
    assert_eq!(e["regarding"]["name"], "web");
    assert_eq!(e["note"], "Back-off restarting failed container");
    assert_eq!(e["deprecatedCount"], 3);
    let one = body(
        &raw_get(
            &sim,
            "/apis/events.k8s.io/v1/namespaces/default/events/web.1",
        )
        .await,
    );
    assert_eq!(one["kind"], "Event");
    assert_eq!(one["reason"], "BackOff");

    let versions = kubectl_versions();
    let tmp = tempfile::tempdir().expect("tempdir");
    for (version, bin) in versions.iter().filter(|(v, _)| v == "1.33" || v == "1.27") {
        let cache = tmp.path().join(version);
        let (ok, out, err) = run_bin(
            bin,
            sim.kubeconfig_path(),
            &cache,
            &["get", "events.events.k8s.io"],
            &[],
        )
        .await;
        assert!(ok, "{version}: {err}");
        let (header, rows) = table(&out);
        assert!(header.starts_with("LAST SEEN"), "{version}: {header}");
        assert!(rows[0].contains(&"BackOff".to_string()), "{version}: {out}");
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_1_27_creates_and_deletes_a_namespace_with_content() {
    let versions = kubectl_versions();
    let Some((_, bin)) = versions.iter().find(|(v, _)| v == "1.27") else {
        return;
    };
    let sim = start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    let cache = tmp.path().join("cache");
    let kc = sim.kubeconfig_path();
    let k = |args: &'static [&'static str]| run_bin(bin, kc, &cache, args, &[]);
    let (ok, out, err) = k(&["create", "namespace", "old"]).await;
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "namespace/old created");
    let (ok, _, err) = k(&[
        "create",
        "secret",
        "generic",
        "s",
        "--from-literal=k=v",
        "-n",
        "old",
    ])
    .await;
    assert!(ok, "{err}");
    let (_, data, _) = k(&[
        "get",
        "secret",
        "s",
        "-n",
        "old",
        "-o",
        "jsonpath={.data.k}",
    ])
    .await;
    assert_eq!(data, "dg==");
    let (ok, _, err) = k(&[
        "create",
        "configmap",
        "c",
        "--from-literal=a=b",
        "-n",
        "old",
    ])
    .await;
    assert!(ok, "{err}");
    let (_, out, _) = k(&["get", "cm", "c", "-n", "old"]).await;
    let (header, rows) = table(&out);
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["NAME", "DATA", "AGE"]
    );
    assert_eq!(rows[0][..2], ["c".to_string(), "1".to_string()]);
    let (ok, out, err) = k(&["delete", "namespace", "old"]).await;
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "namespace \"old\" deleted");
    let store = sim.store();
    assert!(
        wait_until(Duration::from_secs(10), || store
            .object(Resource::Namespaces, "", "old")
            .is_none())
        .await
    );
    assert!(store.list(Resource::Secrets, Some("old")).0.is_empty());
    let (ok, _, err) = k(&["delete", "namespace", "default"]).await;
    assert!(!ok);
    assert!(err.contains("this namespace may not be deleted"), "{err}");
    sim.shutdown().await;
}
