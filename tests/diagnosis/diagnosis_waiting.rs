//! The rules for what no specific family reads, on built pods: a container stuck in a waiting
//! reason of the runtime's (`CreateContainerError`, `PostStartHookError`), a sandbox the CNI
//! plugin cannot set up, Warning events on an otherwise fine pod, and a probe kill inferred
//! from the probe's failures when the Killing event is gone.

use crate::common;
use common::built::{crashlooping, diagnose, event, first, pod, said};
use podscope::model::diagnosis::Severity;
use serde_json::json;

fn waiting(reason: &str, message: &str) -> serde_json::Value {
    let mut p = pod();
    p["status"]["containerStatuses"][0]["ready"] = json!(false);
    p["status"]["containerStatuses"][0]["state"] =
        json!({"waiting": {"reason": reason, "message": message}});
    p
}

#[test]
fn a_runtime_waiting_reason_is_an_error_with_its_message() {
    let p = waiting(
        "CreateContainerError",
        "failed to generate container spec: failed to apply OCI options: no such file or directory",
    );
    let failed = event(
        "Failed",
        Some("app"),
        "Error: failed to generate container spec",
        4,
        "2025-03-01T11:59:30Z",
    );
    let f = first(&diagnose(&p, &[failed])).clone();
    assert_eq!(
        (f.rule, f.severity, f.container.as_deref()),
        ("container-waiting-error", Severity::Error, Some("app"))
    );
    assert!(
        f.headline.contains("stuck in CreateContainerError")
            && f.headline.contains("no such file or directory"),
        "{}",
        f.headline
    );
    let f = first(&diagnose(
        &waiting("PostStartHookError", "exec: \"/hooks/warm\": not found"),
        &[],
    ))
    .clone();
    assert!(
        f.headline.contains("postStart hook failed"),
        "{}",
        f.headline
    );
    assert!(
        f.action.as_deref().unwrap_or("").contains("lifecycle hook"),
        "{:?}",
        f.action
    );
}

#[test]
fn a_sandbox_the_cni_plugin_cannot_create() {
    let p = waiting("ContainerCreating", "");
    let e = event(
        "FailedCreatePodSandBox",
        None,
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"abc\": plugin type=\"calico\" failed (add): error getting ClusterInformation: connection is unauthorized",
        9,
        "2025-03-01T11:59:50Z",
    );
    let f = first(&diagnose(&p, &[e])).clone();
    assert_eq!((f.rule, f.container.as_deref()), ("sandbox-failed", None));
    assert!(
        f.headline.contains("node node-1") && f.headline.contains("CNI"),
        "{}",
        f.headline
    );
    assert!(said(&f).contains("plugin type=\"calico\""), "{}", said(&f));
}

#[test]
fn warning_events_on_a_fine_pod_are_not_hidden_behind_healthy() {
    let e = event(
        "DNSConfigForming",
        None,
        "Nameserver limits were exceeded, some nameservers have been omitted",
        30,
        "2025-03-01T11:59:00Z",
    );
    let mut e = e;
    e["type"] = json!("Warning");
    let all = diagnose(&pod(), &[e]);
    let f = first(&all);
    assert_eq!(
        (f.rule, f.severity),
        ("warning-event", Severity::Warning),
        "{all:?}"
    );
    assert!(
        f.headline.contains("kubelet reports DNSConfigForming")
            && f.headline.contains("Nameserver limits"),
        "{}",
        f.headline
    );
    assert!(!all.iter().any(|f| f.rule == "healthy"), "{all:?}");
    // An hour-old warning no longer speaks.
    let mut old = event(
        "DNSConfigForming",
        None,
        "Nameserver limits were exceeded",
        1,
        "2025-03-01T10:30:00Z",
    );
    old["type"] = json!("Warning");
    assert_eq!(first(&diagnose(&pod(), &[old])).rule, "healthy");
}

#[test]
fn a_probe_kill_is_inferred_when_the_killing_event_is_gone() {
    let mut p = crashlooping("Error", 143, 4);
    p["spec"]["containers"][0]["livenessProbe"] = json!({"tcpSocket": {"port": 8080}, "initialDelaySeconds": 40, "periodSeconds": 5, "failureThreshold": 3});
    let e = event(
        "Unhealthy",
        Some("app"),
        "Liveness probe failed: dial tcp 10.0.0.5:8080: connect: connection refused",
        12,
        "2025-03-01T11:58:55Z",
    );
    let f = first(&diagnose(&p, &[e])).clone();
    assert_eq!(f.rule, "liveness-kills-slow-start", "{}", said(&f));
    assert!(
        said(&f).contains("inferred from the liveness probe's failures"),
        "{}",
        said(&f)
    );
    assert_eq!(
        said(&f).matches("Liveness probe failed").count(),
        1,
        "{}",
        said(&f)
    );
}
