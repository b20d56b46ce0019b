//! Image rules beyond pulls: malformed references (`InvalidImageName`), `ErrImageNeverPull`,
//! `ImageInspectError`, odd statuses, and `runtime_answer` for the state line.

use crate::diagnosis_support;
use diagnosis_support::*;
use podscope_model::PodSummary;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::images::{self, highlight, problems};
use podscope_model::diagnosis::{Inputs, LogTails, Related};
use podscope_model::event::EventSummary;
use serde_json::json;

#[test]
fn case_15_invalid_name_marks_the_leading_slash() {
    let (p, e, now) = case("15");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "image-invalid-name");
    assert_eq!(first.container.as_deref(), Some("app"));
    has(
        first,
        &[
            "/apps/75f1a2b0-demo:a28a0570",
            "leading '/'",
            "«/»apps/75f1a2b0-demo:a28a0570",
            "never tried to pull",
            "no Pulling event",
            "template",
            "event InspectFailed (×3",
        ],
    );
    assert!(
        first
            .action
            .as_deref()
            .is_some_and(|h| h.contains("statefulset/demo-app"))
    );
}

#[test]
fn never_pull_and_inspect_error() {
    let p = pod_with(
        json!({"containers": [{"name": "web", "image": "local/web:dev", "imagePullPolicy": "Never"}]}),
        json!({"phase": "Pending", "containerStatuses": [waiting("web", "ErrImageNeverPull", "Container image \"local/web:dev\" is not present with pull policy of Never")]}),
    );
    let f = run(&p, &[], now());
    let f = find(&f, "image-never-pull");
    has(f, &["local/web:dev", "node-1", "Never", "IfNotPresent"]);
    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG}]}),
        json!({"phase": "Pending", "containerStatuses": [waiting("web", "ImageInspectError", "Failed to inspect image \"x\": rpc error: code = Unknown desc = layer missing")]}),
    );
    let f = run(&p, &[], now());
    has(
        find(&f, "image-inspect-failed"),
        &["layer missing", "crictl inspecti"],
    );
}

#[test]
fn invalid_name_variants() {
    for (image, words, mark) in [
        ("https://registry.corp/web:1", "URL scheme", "«https://»"),
        ("registry.corp/Shop/Web:1", "uppercase", "«Shop»"),
        ("registry.corp/web :1", "whitespace", "«␠»"),
        ("registry.corp/web:", "empty tag", "«:»"),
        ("registry.corp/web@1234", "digest", "«@1234»"),
        ("registry.corp/web@sha256:abc", "64 lowercase hex", "«abc»"),
        (
            "{{ .Values.registry }}/web:1",
            "unrendered template",
            "«{{»",
        ),
        ("None:None", "uppercase", "«None»"),
        ("registry.corp//web:1", "empty path component", "«»"),
    ] {
        let p = pod_with(
            json!({"containers": [{"name": "web", "image": image}]}),
            json!({"phase": "Pending", "containerStatuses": [waiting("web", "InvalidImageName", &format!("Failed to apply default image tag \"{image}\": couldn't parse image reference \"{image}\": invalid reference format"))]}),
        );
        let f = run(&p, &[], now());
        let f = find(&f, "image-invalid-name");
        has(f, &[words, mark, "pod/web"]);
    }
    assert!(problems("registry.corp:5000/shop/web_app-x:1.0@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef").is_empty());
    assert!(problems("nginx").is_empty());
    assert!(problems("localhost/a__b/c---d:latest").is_empty());
    assert_eq!(highlight("abc", (1, 2)), "a«b»c");
    assert_eq!(highlight("abc", (2, 9)), "abc");
    assert_eq!(images::registry("nginx:1"), "docker.io");
    assert_eq!(
        images::registry("registry.corp:5000/a/b:1"),
        "registry.corp:5000"
    );
    assert_eq!(
        images::repository("registry.corp:5000/a/b:1"),
        "registry.corp:5000/a/b"
    );
}

#[test]
fn invalid_name_the_grammar_accepts_says_so() {
    let p = pod_with(
        json!({"containers": [{"name": "web", "image": "registry.corp/web:1"}]}),
        json!({"phase": "Pending", "containerStatuses": [waiting("web", "InvalidImageName", "invalid reference format")]}),
    );
    let f = run(&p, &[], now());
    has(
        find(&f, "image-invalid-name"),
        &[
            "nothing wrong by the reference grammar",
            "invalid reference format",
        ],
    );
}

#[test]
fn ephemeral_and_orphan_statuses_do_not_panic() {
    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG}],
               "ephemeralContainers": [{"name": "debugger", "image": "busybox:nope"}]}),
        json!({"phase": "Running",
               "containerStatuses": [
                   {"name": "web", "image": IMG, "imageID": "", "ready": true, "restartCount": 0,
                    "state": {"running": {"startedAt": ago(60)}}},
                   waiting("ghost", "ErrImagePull", "manifest unknown")],
               "ephemeralContainerStatuses": [waiting("debugger", "ErrImagePull", "manifest unknown")]}),
    );
    let f = run(&p, &[], now());
    let rules: Vec<_> = f.iter().filter(|f| f.rule == "image-not-found").collect();
    assert!(
        rules
            .iter()
            .any(|f| f.container.as_deref() == Some("debugger")
                && f.headline.starts_with("ephemeral container debugger"))
    );
    assert!(
        rules
            .iter()
            .any(|f| f.container.as_deref() == Some("ghost"))
    );
}

fn answer(p: &PodSummary, events: &[EventSummary], name: &str) -> Option<String> {
    let related = Related::new();
    let logs = LogTails::default();
    let inp = Inputs::new(p, events, &logs, &related, &OwnerStatus::Unknown, now());
    images::runtime_answer(&inp, p.container(name).expect("container"))
}

#[test]
fn runtime_answer_for_the_state_line() {
    let (p, e) = pulling(
        "ImagePullBackOff",
        "Back-off pulling image \"x\"",
        Some("manifest unknown"),
    );
    let a = answer(&p, &e, "web").expect("an answer");
    assert!(
        a.starts_with("Failed to pull image") && a.ends_with("manifest unknown"),
        "{a}"
    );

    let (p, _) = pulling(
        "ImagePullBackOff",
        "Back-off pulling image \"x\": ErrImagePull: code = NotFound",
        None,
    );
    assert_eq!(answer(&p, &[], "web").as_deref(), Some("code = NotFound"));

    let (p, e) = pulling("ImagePullBackOff", "Back-off pulling image \"x\"", None);
    assert_eq!(answer(&p, &e, "web"), None, "generic lines explain nothing");

    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG}]}),
        json!({"phase": "Pending", "containerStatuses": [waiting("web", "CreateContainerConfigError", "secret \"db\" not found")]}),
    );
    let e = vec![event(
        "Failed",
        "Error: secret \"db\" not found",
        "spec.containers{web}",
        3,
        5,
    )];
    assert_eq!(
        answer(&p, &e, "web").as_deref(),
        Some("Error: secret \"db\" not found")
    );

    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG}]}),
        json!({"phase": "Pending", "containerStatuses": [waiting("web", "ContainerCreating", "")]}),
    );
    let e = vec![event(
        "FailedMount",
        "MountVolume.SetUp failed for volume \"cfg\" : configmap \"app\" not found",
        "",
        3,
        5,
    )];
    assert!(answer(&p, &e, "web").is_some_and(|a| a.contains("configmap \"app\" not found")));

    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG}]}),
        json!({"phase": "Running", "containerStatuses": [{"name": "web", "image": IMG, "imageID": "", "ready": true, "restartCount": 0, "state": {"running": {}}}]}),
    );
    assert_eq!(answer(&p, &e, "web"), None);

    // A crash loop: the generic back-off lines and an old pull failure explain nothing; a
    // start failure does.
    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG}]}),
        json!({"phase": "Running", "containerStatuses": [waiting("web", "CrashLoopBackOff", "back-off 5m0s restarting failed container=web pod=web_shop(u1)")]}),
    );
    let e = vec![
        event(
            "BackOff",
            "Back-off restarting failed container web in pod web_shop(u1)",
            "spec.containers{web}",
            9,
            5,
        ),
        event(
            "Failed",
            "Failed to pull image \"x\": not found",
            "spec.containers{web}",
            1,
            900,
        ),
    ];
    assert_eq!(answer(&p, &e, "web"), None);
    let mut e = e;
    e.insert(
        0,
        event(
            "Failed",
            "Error: failed to create containerd task: exec: \"/app\": permission denied",
            "spec.containers{web}",
            3,
            4,
        ),
    );
    assert!(answer(&p, &e, "web").is_some_and(|a| a.contains("permission denied")));
}
