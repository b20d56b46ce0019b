//! podscope against the simulator over HTTPS: the written kubeconfig (CA + bearer token) works,
//! a wrong token is a one-line `unauthorized (401)` with exit code 2, RBAC denials are one-line
//! `forbidden (403)` errors naming verb, resource and namespace, and a denied watch reaches the
//! app as `Msg::PodWatchFailed`.

use crate::common;
use std::process::Output;
use std::time::Duration;

use common::sim::podscope_once;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use podscope::app::Msg;
use podscope::cluster::watch::watch_pod;
use podscope::sim::Simulator;

const CASE: &str = "01-crashloop-exit1-db";

async fn start(deny: &[(&str, &str)]) -> (Simulator, common::cases::Expected, String) {
    common::sim::start_case(CASE, deny).await
}

fn one_line_error(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "expected a one-line error, got:\n{err}"
    );
    err
}

/// `podscope --once` against the case on a simulator denying `deny`: exit code 2 and a one-line
/// error; returns the error, the namespace and the pod's name.
async fn once_refused(deny: &[(&str, &str)]) -> (String, String, String) {
    let (sim, exp, ns) = start(deny).await;
    let out = tokio::task::block_in_place(|| {
        podscope_once(sim.kubeconfig_path(), &ns, &exp.name, exp.now)
    });
    sim.shutdown().await;
    assert_eq!(out.status.code(), Some(2), "exit code");
    (one_line_error(&out), ns, exp.name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_json_over_https_with_the_written_kubeconfig() {
    let (sim, exp, ns) = start(&[]).await;
    assert!(sim.url().starts_with("https://127.0.0.1:"), "{}", sim.url());
    let kc = std::fs::read_to_string(sim.kubeconfig_path()).expect("kubeconfig");
    assert!(kc.contains("certificate-authority-data: "), "{kc}");
    assert!(
        kc.contains(&format!("token: {}", sim.token().expect("token"))),
        "{kc}"
    );
    let out = tokio::task::block_in_place(|| {
        podscope_once(sim.kubeconfig_path(), &ns, &exp.name, exp.now)
    });
    assert!(
        out.status.success(),
        "podscope over https failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["pod"]["name"], exp.name.as_str());
    assert_eq!(doc["pod"]["status"], exp.status.as_str());
    assert_eq!(doc["pod"]["ready"], exp.ready.as_str());
    assert_eq!(doc["pod"]["restarts"], exp.restarts.as_str());
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_token_is_unauthorized_exit_2() {
    let (sim, exp, ns) = start(&[]).await;
    let token = sim.token().expect("token").to_string();
    let kc = std::fs::read_to_string(sim.kubeconfig_path()).expect("kubeconfig");
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad-token.kubeconfig");
    std::fs::write(&bad, kc.replace(&token, "not-the-token")).expect("write");
    let out = tokio::task::block_in_place(|| podscope_once(&bad, &ns, &exp.name, exp.now));
    assert_eq!(out.status.code(), Some(2), "exit code");
    let err = one_line_error(&out);
    assert!(err.contains("unauthorized (401)"), "{err}");
    assert!(err.contains("Unauthorized"), "{err}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_get_is_forbidden_exit_2() {
    let (err, ns, name) = once_refused(&[("get", "pods")]).await;
    assert!(
        err.contains(&format!(
            "forbidden (403): cannot get pods in namespace \"{ns}\""
        )),
        "{err}"
    );
    // The server's own message, as kube-apiserver words it.
    assert!(
        err.contains(&format!(
            "pods \"{name}\" is forbidden: User \"podscope-sim\" cannot get resource \"pods\" in API group \"\" in the namespace \"{ns}\""
        )),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_events_list_is_forbidden_exit_2() {
    let (err, ns, _) = once_refused(&[("list", "events")]).await;
    assert!(
        err.contains(&format!(
            "forbidden (403): cannot list events in namespace \"{ns}\""
        )),
        "{err}"
    );
    assert!(
        err.contains("events is forbidden: User \"podscope-sim\" cannot list resource \"events\""),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_watch_reaches_the_app_as_pod_watch_failed() {
    let (sim, exp, ns) = start(&[("watch", "pods")]).await;
    let target = common::sim::target(&sim, &ns, &exp.name).await;
    let (tx, mut rx) = tokio::sync::mpsc::channel(64);
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &ns);
    let task = tokio::spawn(watch_pod(
        api,
        ns.clone(),
        exp.name.clone(),
        podscope::cluster::TargetTx::new(tx, podscope::app::generation::Generation::FIRST),
    ));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    let mut applied = false;
    let failure = loop {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("a PodWatchFailed within 15 s")
            .expect("channel open")
            .untagged();
        match msg {
            // The LIST is allowed: the pod arrives first.
            Msg::PodApplied(p) => {
                assert_eq!(p.name, exp.name);
                applied = true;
            }
            Msg::PodWatchFailed(reason) => break reason,
            _ => {}
        }
    };
    task.abort();
    assert!(applied, "the allowed LIST delivered the pod first");
    assert!(failure.contains("forbidden (403)"), "{failure}");
    assert!(failure.contains("watch pods"), "{failure}");
    assert!(
        failure.contains("cannot watch resource \"pods\" in API group \"\""),
        "{failure}"
    );
    sim.shutdown().await;
}
