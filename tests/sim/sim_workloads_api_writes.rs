//! The workload write rules over HTTP, through kube-rs (no controllers run: status is what the
//! test writes): `generateName`, server-side defaults and the Job selector, 422/409 wording,
//! `…/status` writes only status and keeps the generation, the main resource keeps the stored
//! status, `…/scale`, and DELETE's answers (Status on removal, the object while finalizers
//! hold it, Jobs orphaning by default).

use crate::common;
use crate::workloads_support;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::batch::v1::Job;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use podscope::sim::Resource;
use serde_json::{Value, json};
use workloads_support::start;

fn deployment(name: Value, labels: Value) -> Deployment {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": name,
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": labels},
                         "spec": {"containers": [{"name": "hello", "image": "ghcr.io/example/hello:1.0"}]}},
        },
    }))
    .expect("deployment")
}

fn api_error(e: kube::Error) -> (u16, String) {
    match e {
        kube::Error::Api(s) => (s.code, s.message),
        other => panic!("not an API error: {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_defaults_status_scale_and_conflicts() {
    let sim = start().await;
    let client = common::sim::client(&sim).await;
    let api: Api<Deployment> = Api::namespaced(client.clone(), "default");
    let pp = PostParams::default();

    let made = api
        .create(
            &pp,
            &deployment(json!({"generateName": "web-"}), json!({"app": "web"})),
        )
        .await
        .expect("created");
    let name = made.metadata.name.clone().expect("name");
    assert_eq!(name.len(), "web-".len() + 5, "{name}");
    assert_eq!(made.metadata.generation, Some(1));
    assert_eq!(made.spec.replicas, Some(1));
    assert_eq!(made.spec.revision_history_limit, Some(10));

    let bad = deployment(json!({"name": "bad"}), json!({"app": "other"}));
    let (code, message) = api_error(api.create(&pp, &bad).await.expect_err("selector mismatch"));
    assert_eq!(code, 422);
    assert_eq!(
        message,
        "Deployment.apps \"bad\" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`"
    );
    let (code, message) = api_error(api.create(&pp, &made).await.expect_err("exists"));
    assert_eq!(
        (code, message.as_str()),
        (
            409,
            format!("deployments.apps \"{name}\" already exists").as_str()
        )
    );

    // …/status writes only status; the generation stays.
    let status = json!({"status": {"replicas": 1, "readyReplicas": 1, "observedGeneration": 1},
                        "spec": {"replicas": 7}});
    let after = api
        .patch_status(&name, &PatchParams::default(), &Patch::Merge(&status))
        .await
        .expect("status patched");
    assert_eq!(
        after.status.as_ref().and_then(|s| s.ready_replicas),
        Some(1)
    );
    assert_eq!(after.spec.replicas, Some(1));
    assert_eq!(after.metadata.generation, Some(1));
    // The main resource keeps the stored status.
    let after = api
        .patch(
            &name,
            &PatchParams::default(),
            &Patch::Merge(
                json!({"status": {"replicas": 9}, "metadata": {"labels": {"tier": "front"}}}),
            ),
        )
        .await
        .expect("patched");
    assert_eq!(after.status.as_ref().map(|s| s.replicas), Some(Some(1)));
    assert_eq!(
        after.metadata.generation,
        Some(1),
        "a label is no spec change"
    );

    // …/scale reads and writes spec.replicas.
    let scale = api.get_scale(&name).await.expect("scale");
    assert_eq!(scale.spec.as_ref().and_then(|s| s.replicas), Some(1));
    assert_eq!(scale.status.as_ref().map(|s| s.replicas), Some(1));
    assert_eq!(
        scale
            .status
            .as_ref()
            .and_then(|s| s.selector.clone())
            .as_deref(),
        Some("app=web")
    );
    api.patch_scale(
        &name,
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"replicas": 4}})),
    )
    .await
    .expect("scaled");
    let stored = api.get(&name).await.expect("get");
    assert_eq!(stored.spec.replicas, Some(4));
    assert_eq!(stored.metadata.generation, Some(2));

    // Protobuf bodies are decoded for the kinds `kubectl create` sends (Deployment, Job,
    // CronJob: tests/sim/sim_kubectl_create.rs), not for a StatefulSet.
    let body = "k8s\u{0}";
    let req = format!(
        "POST /apis/apps/v1/namespaces/default/statefulsets HTTP/1.1\r\nhost: {}\r\nauthorization: Bearer {}\r\nconnection: close\r\ncontent-type: application/vnd.kubernetes.protobuf\r\ncontent-length: {}\r\n\r\n{body}",
        common::sim::host(&sim),
        sim.token().expect("token"),
        body.len()
    );
    let answer = common::sim::send(&sim, req.as_bytes()).await;
    assert!(
        answer.starts_with("HTTP/1.1 415 Unsupported Media Type"),
        "{answer}"
    );
    assert!(
        answer.contains("\"reason\":\"UnsupportedMediaType\""),
        "{answer}"
    );

    // A stale resourceVersion is a conflict.
    let mut stale = stored.clone();
    stale.metadata.resource_version = Some("1".into());
    stale.spec.replicas = Some(5);
    let (code, message) = api_error(api.replace(&name, &pp, &stale).await.expect_err("stale"));
    assert_eq!(code, 409);
    assert_eq!(
        message,
        format!(
            "Operation cannot be fulfilled on deployments.apps \"{name}\": the object has been modified; please apply your changes to the latest version and try again"
        )
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_answers_status_or_the_held_object() {
    let sim = start().await;
    let client = common::sim::client(&sim).await;
    let api: Api<Deployment> = Api::namespaced(client.clone(), "default");
    let pp = PostParams::default();
    let web = api
        .create(
            &pp,
            &deployment(json!({"name": "web"}), json!({"app": "web"})),
        )
        .await
        .expect("created");
    let answer = api
        .delete("web", &DeleteParams::background())
        .await
        .expect("deleted");
    let status = answer.right().expect("a Status once the object is gone");
    let d = status.details.expect("details");
    assert_eq!(
        (d.name.as_str(), d.group.as_str(), d.kind.as_str()),
        ("web", "apps", "deployments")
    );
    assert_eq!(Some(d.uid), web.metadata.uid);
    let (code, message) = api_error(api.get("web").await.expect_err("gone"));
    assert_eq!(
        (code, message.as_str()),
        (404, "deployments.apps \"web\" not found")
    );

    // A finalizer holds it until an update removes it.
    let held = deployment(
        json!({"name": "held", "finalizers": ["example.com/hold"]}),
        json!({"app": "web"}),
    );
    api.create(&pp, &held).await.expect("created");
    let answer = api
        .delete("held", &DeleteParams::background())
        .await
        .expect("deleted");
    let kept = answer
        .left()
        .expect("the object while a finalizer holds it");
    assert!(kept.metadata.deletion_timestamp.is_some());
    api.patch(
        "held",
        &PatchParams::default(),
        &Patch::Json::<()>(
            serde_json::from_value(json!([{"op": "remove", "path": "/metadata/finalizers"}]))
                .expect("patch"),
        ),
    )
    .await
    .expect("finalizer removed");
    assert!(
        sim.store()
            .object(Resource::Deployments, "default", "held")
            .is_none()
    );

    // A Job deleted without a propagationPolicy orphans its pods (the `orphan` finalizer).
    let jobs: Api<Job> = Api::namespaced(client, "default");
    let job: Job = serde_json::from_value(json!({
        "metadata": {"name": "pi"},
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl:5.34"}]}}},
    }))
    .expect("job");
    jobs.create(&pp, &job).await.expect("job created");
    let answer = jobs
        .delete("pi", &DeleteParams::default())
        .await
        .expect("deleted");
    let kept = answer
        .left()
        .expect("the Job, held by the orphan finalizer");
    assert_eq!(kept.metadata.finalizers, Some(vec!["orphan".to_string()]));
    assert!(kept.metadata.deletion_timestamp.is_some());
    sim.shutdown().await;
}
