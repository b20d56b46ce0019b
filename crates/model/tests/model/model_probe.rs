//! `describe_probe` against kubectl's captured output (`docs/protocols.md` §7, the seeds) and the
//! probes of the case pods in `assets/cases/*/pod.json`.

use std::path::Path;

use k8s_openapi::api::core::v1::{Pod, Probe};
use podscope_model::probe::describe_probe;

fn probe(v: serde_json::Value) -> Probe {
    serde_json::from_value(v).expect("probe json")
}

fn case_probe(case: &str, container: &str, which: &str) -> String {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(case)
        .join("pod.json");
    let text = std::fs::read_to_string(&path).expect("case pod.json readable");
    let pod: Pod = serde_json::from_str(&text).expect("case pod.json parses");
    let spec = pod.spec.expect("pod has a spec");
    let c = spec
        .containers
        .iter()
        .find(|c| c.name == container)
        .expect("container exists");
    let p = match which {
        "liveness" => c.liveness_probe.as_ref(),
        "readiness" => c.readiness_probe.as_ref(),
        _ => c.startup_probe.as_ref(),
    };
    describe_probe(p.expect("probe exists"))
}

#[test]
fn seed_captured_probes() {
    // The seed article's captured `kubectl describe` output (its probe lines), as real kubectl prints it.
    let cases = [
        (
            serde_json::json!({"httpGet": {"path": "/nginx-health", "port": "proxy", "scheme": "HTTP"},
            "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}),
            "http-get http://:proxy/nginx-health delay=0s timeout=1s period=10s #success=1 #failure=3",
        ),
        (
            serde_json::json!({"httpGet": {"path": "/nginx-health", "port": "proxy", "scheme": "HTTP"},
            "timeoutSeconds": 1, "periodSeconds": 1, "successThreshold": 1, "failureThreshold": 10}),
            "http-get http://:proxy/nginx-health delay=0s timeout=1s period=1s #success=1 #failure=10",
        ),
        (
            serde_json::json!({"httpGet": {"path": "/readyz", "port": "http", "scheme": "HTTP"},
            "timeoutSeconds": 2, "periodSeconds": 5, "successThreshold": 1, "failureThreshold": 2}),
            "http-get http://:http/readyz delay=0s timeout=2s period=5s #success=1 #failure=2",
        ),
        (
            serde_json::json!({"httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP"},
            "timeoutSeconds": 1, "periodSeconds": 2, "successThreshold": 1, "failureThreshold": 15}),
            "http-get http://:http/healthz delay=0s timeout=1s period=2s #success=1 #failure=15",
        ),
    ];
    for (v, want) in cases {
        assert_eq!(describe_probe(&probe(v)), want);
    }
}

#[test]
fn case_pod_probes() {
    let cases = [
        (
            "01-crashloop-exit1-db",
            "db",
            "liveness",
            "exec [/bin/bash -c mysqladmin ping -u root -p${MYSQL_ROOT_PASSWORD}] delay=30s timeout=5s period=10s #success=1 #failure=3",
        ),
        (
            "01-crashloop-exit1-db",
            "db",
            "readiness",
            "exec [/bin/bash -c mysql -u root -p${MYSQL_ROOT_PASSWORD} -e 'SELECT 1'] delay=5s timeout=2s period=5s #success=1 #failure=3",
        ),
        (
            "03-runcontainererror-starterror-exit128",
            "edge-agent",
            "liveness",
            "http-get https://127.0.0.1:10257/healthz delay=10s timeout=15s period=10s #success=1 #failure=8",
        ),
        (
            "03-runcontainererror-starterror-exit128",
            "edge-agent",
            "startup",
            "http-get https://127.0.0.1:10257/healthz delay=10s timeout=15s period=10s #success=1 #failure=24",
        ),
        (
            "04-crashloop-oomkilled-jvm",
            "coord",
            "liveness",
            "tcp-socket :2181 delay=20s timeout=1s period=10s #success=1 #failure=3",
        ),
        (
            "19-readiness-failing-running-0of1",
            "profiler",
            "liveness",
            "http-get http://:4040/ready delay=180s timeout=30s period=10s #success=1 #failure=10",
        ),
        (
            "20-readiness-sidecar-not-ready-1of2",
            "mesh-proxy",
            "readiness",
            "http-get http://:15021/healthz/ready delay=1s timeout=3s period=2s #success=1 #failure=30",
        ),
        (
            "32-portforward-pod-does-not-exist-wrong-node-ip",
            "web",
            "liveness",
            "http-get http://:http/ delay=0s timeout=1s period=10s #success=1 #failure=3",
        ),
    ];
    for (case, container, which, want) in cases {
        assert_eq!(
            case_probe(case, container, which),
            want,
            "{case} {container} {which}"
        );
    }
}
