//! The container detail's spec (`ui::container_spec`): the shared pod — env from a ConfigMap,
//! a Secret, the downward API; envFrom; configMap, secret, emptyDir and hostPath mounts; a
//! securityContext merged with the pod's — running, at 80×24 (the summary line), 120×40 and
//! 200×60 (the full lists). The Secret's value never appears.

use crate::common;
use crate::container_spec_support;
use common::{render, text};
use container_spec_support::{SECRET_BASE64, SECRET_VALUE};
use k8s_openapi::api::core::v1::Pod;
use podscope::app::{Msg, State, update};
use podscope::model::PodSummary;
use podscope::ui::theme::Theme;

/// The shared pod, scheduled and running for 5 minutes, its container ready.
fn running_pod() -> Pod {
    let mut pod = serde_json::to_value(container_spec_support::pod()).expect("pod to JSON");
    pod["metadata"]["uid"] = "5d0c6a3e-0000-4000-8000-000000000001".into();
    pod["metadata"]["creationTimestamp"] = "2026-03-01T10:00:00Z".into();
    pod["spec"]["nodeName"] = "node-1".into();
    pod["status"] = serde_json::json!({
        "phase": "Running",
        "podIP": "10.244.0.12",
        "qosClass": "Burstable",
        "conditions": [
            {"type": "Initialized", "status": "True", "lastTransitionTime": "2026-03-01T10:00:00Z"},
            {"type": "Ready", "status": "True", "lastTransitionTime": "2026-03-01T10:00:05Z"},
            {"type": "ContainersReady", "status": "True", "lastTransitionTime": "2026-03-01T10:00:05Z"},
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-03-01T10:00:00Z"}
        ],
        "containerStatuses": [{
            "name": "api", "image": "ghcr.io/example/hello:1.0", "imageID": "",
            "ready": true, "started": true, "restartCount": 0,
            "state": {"running": {"startedAt": "2026-03-01T10:00:03Z"}}
        }]
    });
    serde_json::from_value(pod).expect("a Pod")
}

fn state() -> State {
    let now: jiff::Timestamp = "2026-03-01T10:05:00Z".parse().expect("time");
    let pod = PodSummary::from_pod(&running_pod());
    let mut s = State::new(&pod.namespace, &pod.name, now, Theme::colored());
    update(&mut s, Msg::Tick(now));
    update(&mut s, Msg::PodApplied(Box::new(pod)));
    update(&mut s, Msg::EventsReset(Vec::new()));
    s
}

fn check(w: u16, h: u16, must_show: &[&str]) -> String {
    let backend = render(&state(), w, h);
    let screen = text(&backend);
    for s in must_show {
        assert!(screen.contains(s), "missing `{s}` at {w}x{h} in\n{screen}");
    }
    assert!(!screen.contains(SECRET_VALUE) && !screen.contains(SECRET_BASE64));
    insta::assert_snapshot!(format!("container-spec@{w}x{h}"), backend);
    screen
}

#[test]
fn the_detail_shows_the_spec_compactly_at_80x24() {
    let screen = check(
        80,
        24,
        &[
            "State      Running",
            "Command    /app/server --port=8080 --config=/etc/cfg/app.conf",
        ],
    );
    // No list of env vars at this height: they would push the events off.
    assert!(!screen.contains("DB_HOST ←"), "{screen}");
}

#[test]
fn the_full_lists_show_when_there_is_room() {
    let full = [
        "Command    /app/server --port=8080 --config=/etc/cfg/app.conf",
        "Env        PORT=8080",
        "DB_HOST ← ConfigMap cfg key db_host optional",
        "DB_PASSWORD ← Secret db key password",
        "POD_NAME ← field metadata.name",
        "MEM_LIMIT ← resource limits.memory divisor 1Mi",
        "Env From   ConfigMap cfg prefix CFG_",
        "Secret db",
        "Mounts     /etc/cfg ← configMap cfg (ro)",
        "/etc/tls/tls.crt ← secret db subPath tls.crt (ro)",
        "/cache ← emptyDir cache",
        "/var/log/host ← hostPath /var/log",
        "Security   runAsUser 1000 (pod), runAsNonRoot true (pod), readOnlyRootFilesystem true,",
    ];
    check(120, 40, &full);
    check(200, 60, &full);
}
