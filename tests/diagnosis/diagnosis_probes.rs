//! Probe, init-sequence and advice rules on built pods: readiness failing (refused, 503,
//! errored), a native sidecar whose startupProbe holds back the app, init containers numbered
//! with what never ran, and the probe mistakes reported as advice after the real problems.

use crate::common;
use common::built::{diagnose, event, first, pod, said};
use podscope::model::diagnosis::Severity;
use serde_json::{Value, json};

fn not_ready() -> Value {
    let mut p = pod();
    p["spec"]["containers"][0]["ports"] = json!([{"containerPort": 8080}]);
    p["spec"]["containers"][0]["readinessProbe"] =
        json!({"httpGet": {"path": "/ready", "port": 8080}, "periodSeconds": 5});
    p["status"]["containerStatuses"][0]["ready"] = json!(false);
    p
}

#[test]
fn readiness_failing_reads_the_probes_answer() {
    for (message, reading) in [
        (
            "Readiness probe failed: Get \"http://10.1.2.3:8080/ready\": dial tcp 10.1.2.3:8080: connect: connection refused",
            "nothing listens",
        ),
        (
            "Readiness probe failed: HTTP probe failed with statuscode: 503",
            "server error",
        ),
        (
            "Readiness probe failed: HTTP probe failed with statuscode: 404",
            "path or port is probably wrong",
        ),
        (
            "Readiness probe errored: rpc error: code = Unknown desc = failed to exec in container",
            "runtime could not run it",
        ),
    ] {
        let e = event(
            "Unhealthy",
            Some("app"),
            message,
            12,
            "2025-03-01T11:59:55Z",
        );
        let all = diagnose(&not_ready(), &[e]);
        let f = first(&all);
        assert_eq!(
            (f.rule, f.severity),
            ("readiness-failing", Severity::Warning),
            "{}",
            said(f)
        );
        assert!(
            f.headline.contains("running but not ready")
                && f.headline.contains("no Service traffic"),
            "{}",
            f.headline
        );
        assert!(said(f).contains(reading), "{message}: {}", said(f));
        assert!(
            said(f).contains("never restarts a container"),
            "{}",
            said(f)
        );
    }
}

#[test]
fn a_native_sidecar_whose_startup_probe_never_passes_holds_back_the_app() {
    let mut p = pod();
    p["spec"]["initContainers"] = json!([{"name": "proxy", "image": "registry.example/proxy:1", "restartPolicy": "Always",
        "startupProbe": {"httpGet": {"path": "/ready", "port": 15000}, "periodSeconds": 2, "failureThreshold": 600}}]);
    p["status"]["phase"] = json!("Pending");
    p["status"]["initContainerStatuses"] = json!([{"name": "proxy", "image": "registry.example/proxy:1", "imageID": "",
        "ready": false, "started": false, "restartCount": 0, "state": {"running": {"startedAt": "2025-03-01T11:50:00Z"}}}]);
    p["status"]["containerStatuses"][0] = json!({"name": "app", "image": "registry.example/app:1", "imageID": "",
        "ready": false, "restartCount": 0, "state": {"waiting": {"reason": "PodInitializing"}}});
    let e = event(
        "Unhealthy",
        Some("proxy"),
        "Startup probe failed: HTTP probe failed with statuscode: 503",
        300,
        "2025-03-01T11:59:58Z",
    );
    let f = first(&diagnose(&p, &[e])).clone();
    assert_eq!(
        (f.rule, f.container.as_deref()),
        ("sidecar-startup-blocking", Some("proxy"))
    );
    assert!(
        f.headline.contains("startupProbe has not passed") && f.headline.contains("app waits"),
        "{}",
        f.headline
    );
    assert!(
        said(&f).contains("init sequence: 1/1 proxy running, not started up"),
        "{}",
        said(&f)
    );
}

#[test]
fn init_containers_are_numbered_and_later_steps_never_ran() {
    let mut p = pod();
    p["spec"]["initContainers"] = json!([
        {"name": "wait-db", "image": "registry.example/busybox:1"},
        {"name": "migrate", "image": "registry.example/migrate:1"},
        {"name": "seed", "image": "registry.example/migrate:1"}
    ]);
    p["status"]["phase"] = json!("Pending");
    p["status"]["initContainerStatuses"] = json!([
        {"name": "wait-db", "image": "registry.example/busybox:1", "imageID": "", "ready": true, "restartCount": 0,
         "state": {"terminated": {"reason": "Completed", "exitCode": 0, "startedAt": "2025-03-01T11:00:05Z", "finishedAt": "2025-03-01T11:00:09Z"}}},
        {"name": "migrate", "image": "registry.example/migrate:1", "imageID": "", "ready": false, "restartCount": 7,
         "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting failed container=migrate pod=web_default(u-1)"}},
         "lastState": {"terminated": {"reason": "Error", "exitCode": 3, "startedAt": "2025-03-01T11:56:00Z", "finishedAt": "2025-03-01T11:56:02Z"}}},
        {"name": "seed", "image": "registry.example/migrate:1", "imageID": "", "ready": false, "restartCount": 0, "state": {"waiting": {"reason": "PodInitializing"}}}
    ]);
    p["status"]["containerStatuses"][0] = json!({"name": "app", "image": "registry.example/app:1", "imageID": "",
        "ready": false, "restartCount": 0, "state": {"waiting": {"reason": "PodInitializing"}}});
    let f = first(&diagnose(&p, &[])).clone();
    assert_eq!(f.container.as_deref(), Some("migrate"));
    assert!(
        f.headline
            .starts_with("init container 2/3 migrate exits with code 3"),
        "{}",
        f.headline
    );
    let s = said(&f);
    assert!(
        s.contains("init sequence: 1/3 wait-db done, 2/3 migrate FAILING, 3/3 seed not started"),
        "{s}"
    );
    assert!(
        s.contains("app not started") && s.contains("kubectl logs web -c migrate"),
        "{s}"
    );
}

#[test]
fn probe_mistakes_are_advice_after_the_real_problem() {
    let mut p = pod();
    let probe = json!({"exec": {"command": ["pg_isready"]}, "initialDelaySeconds": 90, "periodSeconds": 10});
    p["spec"]["containers"][0]["ports"] = json!([{"containerPort": 5432}]);
    p["spec"]["containers"][0]["livenessProbe"] = probe.clone();
    p["spec"]["containers"][0]["readinessProbe"] = probe;
    let all = diagnose(&p, &[]);
    assert_eq!(all[0].rule, "healthy", "{all:?}");
    let rules: Vec<&str> = all.iter().skip(1).map(|f| f.rule).collect();
    for want in [
        "probe-liveness-equals-readiness",
        "probe-no-startup",
        "probe-exec-timeout",
    ] {
        assert!(rules.contains(&want), "{want} missing from {rules:?}");
    }
    assert!(all.iter().skip(1).all(|f| f.severity == Severity::Warning));
    // A port without a readiness probe.
    let mut p = pod();
    p["spec"]["containers"][0]["ports"] = json!([{"containerPort": 80}]);
    let all = diagnose(&p, &[]);
    assert!(
        all.iter().any(|f| f.rule == "probe-no-readiness"),
        "{all:?}"
    );
}

#[test]
fn hostile_text_is_bounded_and_neutralised() {
    let huge = format!(
        "Readiness probe failed: {}\u{1b}[2J\u{202e}evil",
        "x".repeat(100_000)
    );
    let e = event("Unhealthy", Some("app"), &huge, 1, "2025-03-01T11:59:55Z");
    let mut p = not_ready();
    p["status"]["containerStatuses"][0]["lastState"] =
        json!({"terminated": {"exitCode": 1, "message": "\u{1b}]0;pwned\u{7}\u{202e}"}});
    let all = diagnose(&p, &[e, json!({"metadata": {}, "involvedObject": {}})]);
    for f in &all {
        for s in std::iter::once(f.headline.as_str())
            .chain(f.evidence.iter().map(|e| e.text.as_str()))
            .chain(f.action.as_deref())
        {
            assert!(s.len() <= 4200, "{} bytes", s.len());
            assert!(
                !s.contains('\u{1b}') && !s.contains('\u{202e}') && !s.contains('\u{7}'),
                "{s:?}"
            );
        }
    }
    assert!(
        all.iter()
            .any(|f| f.evidence.iter().any(|e| e.contains("bytes more]"))),
        "{all:?}"
    );
}
