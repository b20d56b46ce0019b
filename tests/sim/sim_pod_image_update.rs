//! The spec update the API server allows on a pod: `kubectl set image pod/…` restarts the
//! container with the new image, a missing image fails the pull, and other spec changes are
//! refused 422 (`docs/simulator-kubelet.md` §1, §4).

use crate::common;
use std::time::Duration;

use common::cluster::{run, run_file};
use common::pod_json::{events_of, pod_json, status};
use common::sim::{all_ready, scenario, start_dynamic_for_kubectl, wait_pod};
use serde_json::Value;

/// `kubectl set image pod/hello`: accepted, the container is killed (`Container hello
/// definition changed, will be restarted`) and started with the new image, `restartCount` 1,
/// the old instance in `lastState`; a missing image gives `ErrImagePull`/`ImagePullBackOff`; a
/// change of another field is refused with the API server's message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_image_restarts_the_container() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(4.0).await else {
        return;
    };
    let (ok, _, err) = run_file(&sim, cache.path(), "apply", &scenario("hello.yaml")).await;
    assert!(ok, "apply: {err}");
    wait_pod(&sim.store(), "hello", 60, all_ready).await;
    let (ok, out, err) = run(
        &sim,
        cache.path(),
        &[
            "set",
            "image",
            "pod/hello",
            "hello=ghcr.io/example/hello:2.0",
        ],
    )
    .await;
    assert!(ok, "set image: {err}");
    assert_eq!(out, "pod/hello image updated\n");
    let jsonpath = "jsonpath={.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].image} {.status.containerStatuses[0].ready}";
    let mut last = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while tokio::time::Instant::now() < deadline {
        let (ok, out, _) = run(&sim, cache.path(), &["get", "pod", "hello", "-o", jsonpath]).await;
        last = out;
        if ok && last == "1 ghcr.io/example/hello:2.0 true" {
            break;
        }
    }
    assert_eq!(last, "1 ghcr.io/example/hello:2.0 true");
    let pod = pod_json(&sim, cache.path()).await;
    let st = status(&pod, "containerStatuses", "hello");
    let before = &st["lastState"]["terminated"];
    assert_eq!(
        (&before["exitCode"], &before["reason"]),
        (&Value::from(0), &Value::from("Completed")),
        "{st}"
    );
    assert_ne!(before["containerID"], st["containerID"], "{st}");
    let evs = events_of(&sim, cache.path(), "spec.containers{hello}").await;
    assert!(
        evs.contains(&(
            "Killing".into(),
            "Container hello definition changed, will be restarted".into()
        )),
        "{evs:?}"
    );
    let (ok, logs, err) = run(&sim, cache.path(), &["logs", "hello", "-c", "hello"]).await;
    assert!(ok, "{err}");
    assert!(
        logs.ends_with(" hello 2.0 listening on [::]:8080\n"),
        "{logs}"
    );

    let (ok, _, err) = run(
        &sim,
        cache.path(),
        &[
            "set",
            "image",
            "pod/hello",
            "hello=ghcr.io/example/hello:missing",
        ],
    )
    .await;
    assert!(ok, "set image: {err}");
    let mut reason = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while tokio::time::Instant::now() < deadline {
        let (_, out, _) = run(
            &sim,
            cache.path(),
            &[
                "get",
                "pod",
                "hello",
                "-o",
                "jsonpath={.status.containerStatuses[0].state.waiting.reason}",
            ],
        )
        .await;
        reason = out;
        if reason == "ErrImagePull" || reason == "ImagePullBackOff" {
            break;
        }
    }
    assert!(
        reason == "ErrImagePull" || reason == "ImagePullBackOff",
        "{reason}"
    );

    let refused = "Pod \"hello\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n- spec.containers[0]";
    let rename = r#"[{"op":"replace","path":"/spec/containers/0/name","value":"renamed"}]"#;
    let (ok, _, err) = run(
        &sim,
        cache.path(),
        &["patch", "pod", "hello", "--type=json", "-p", rename],
    )
    .await;
    assert!(!ok);
    assert!(err.contains(refused), "{err}");
    let port = r#"{"spec":{"containers":[{"name":"hello","ports":[{"containerPort":9090}]}]}}"#;
    let (ok, _, err) = run(&sim, cache.path(), &["patch", "pod", "hello", "-p", port]).await;
    assert!(!ok);
    assert!(err.contains(refused), "{err}");
}
