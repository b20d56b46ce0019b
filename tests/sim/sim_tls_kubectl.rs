//! Real kubectl against the simulator over HTTPS with the kubeconfig it writes: `get` works and
//! prints the case's columns, a wrong token is `Unauthorized`, a denied verb is `Forbidden` with
//! kube-apiserver's message, `create -f` and `apply -f` of a Pod manifest pass validation (no
//! `--validate=false`) and reach the server (POST, then apply's PATCH, then `unchanged`), and
//! `explain pod.spec.containers` works.
//! Each test skips (with a printed reason) when kubectl is not on PATH.

use crate::common;
use podscope::sim::Simulator;

const CASE: &str = "01-crashloop-exit1-db";

async fn start(deny: &[(&str, &str)]) -> (Simulator, common::cases::Expected, String) {
    common::sim::start_case(CASE, deny).await
}

use common::cluster::run_with as kubectl;

fn have_kubectl() -> bool {
    common::cluster::kubectl().is_some()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_pod_over_https() {
    if !have_kubectl() {
        return;
    }
    let (sim, exp, ns) = start(&[]).await;
    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = kubectl(
        sim.kubeconfig_path(),
        cache.path(),
        &["get", "pod", &exp.name, "-n", &ns, "--no-headers"],
    )
    .await;
    sim.shutdown().await;
    assert!(ok, "{err}");
    let cells: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(cells.first().copied(), Some(exp.name.as_str()), "{out}");
    assert_eq!(cells.get(1).copied(), Some(exp.ready.as_str()), "{out}");
    assert_eq!(cells.get(2).copied(), Some(exp.status.as_str()), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_token_is_unauthorized() {
    if !have_kubectl() {
        return;
    }
    let (sim, exp, ns) = start(&[]).await;
    let token = sim.token().expect("token").to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.kubeconfig");
    let kc = std::fs::read_to_string(sim.kubeconfig_path()).expect("kubeconfig");
    std::fs::write(&bad, kc.replace(&token, "wrong")).expect("write");
    let (ok, _, err) = kubectl(
        &bad,
        &dir.path().join("cache"),
        &["get", "pod", &exp.name, "-n", &ns],
    )
    .await;
    sim.shutdown().await;
    assert!(!ok);
    // kubectl's wording for a 401 during discovery; kubectl 1.32 (aggregated discovery Accept)
    // prints client-go's text for the status code, as it does against a real apiserver.
    assert!(
        err.contains("error: You must be logged in to the server (the server has asked for the client to provide credentials)")
            || err.contains("error: You must be logged in to the server (Unauthorized)"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_get_is_forbidden_with_the_apiserver_message() {
    if !have_kubectl() {
        return;
    }
    let (sim, exp, ns) = start(&[("get", "pods")]).await;
    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, _, err) = kubectl(
        sim.kubeconfig_path(),
        cache.path(),
        &["get", "pod", &exp.name, "-n", &ns],
    )
    .await;
    // Listing is still allowed.
    let (list_ok, list_out, list_err) = kubectl(
        sim.kubeconfig_path(),
        cache.path(),
        &["get", "pods", "-n", &ns, "--no-headers"],
    )
    .await;
    sim.shutdown().await;
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "Error from server (Forbidden): pods \"{}\" is forbidden: User \"podscope-sim\" cannot get resource \"pods\" in API group \"\" in the namespace \"{ns}\"",
            exp.name
        )
    );
    assert!(list_ok, "{list_err}");
    assert!(list_out.starts_with(&exp.name), "{list_out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_and_apply_validate_and_reach_the_server() {
    if !have_kubectl() {
        return;
    }
    let (sim, _exp, ns) = start(&[]).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = dir.path().join("pod.yaml");
    std::fs::write(&manifest, common::cluster::pod_manifest("web")).expect("write manifest");
    let file = manifest.to_string_lossy().into_owned();
    let cache = dir.path().join("cache");
    // `create` POSTs; `apply` then finds the pod (without the last-applied annotation, which
    // it adds with a strategic merge PATCH); a second `apply` has nothing to send.
    let steps = [
        ("create", "POST", "pods?fieldManager=", "pod/web created"),
        (
            "apply",
            "PATCH",
            "pods/web?fieldManager=",
            "pod/web configured",
        ),
        ("apply", "", "", "pod/web unchanged"),
    ];
    for (verb, method, path, printed) in steps {
        let (ok, out, err) = kubectl(
            sim.kubeconfig_path(),
            &cache,
            &[verb, "-f", &file, "-n", &ns, "-v=6"],
        )
        .await;
        assert!(ok, "{verb}: {err}");
        assert_eq!(out.trim(), printed, "{verb}");
        // Validation passed: no "error validating", and kubectl sent the write with
        // server-side strict field validation.
        assert!(!err.contains("error validating"), "{verb}: {err}");
        if method.is_empty() {
            assert!(
                !err.contains("verb=\"PATCH\""),
                "{verb} sent a patch:\n{err}"
            );
            continue;
        }
        assert!(
            err.contains(&format!(
                "verb=\"{method}\" url=\"{}/api/v1/namespaces/{ns}/{path}",
                sim.url()
            )),
            "{verb} did not {method}:\n{err}"
        );
        assert!(err.contains("fieldValidation=Strict"), "{verb}: {err}");
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explain_pod_spec_containers() {
    if !have_kubectl() {
        return;
    }
    let (sim, _exp, _ns) = start(&[]).await;
    let cache = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = kubectl(
        sim.kubeconfig_path(),
        cache.path(),
        &["explain", "pod.spec.containers"],
    )
    .await;
    sim.shutdown().await;
    assert!(ok, "{err}");
    assert!(out.contains("KIND:       Pod"), "{out}");
    assert!(out.contains("FIELD: containers <[]Container>"), "{out}");
    assert!(out.contains("livenessProbe\t<Probe>"), "{out}");
    assert!(out.contains("image\t<string>"), "{out}");
}
