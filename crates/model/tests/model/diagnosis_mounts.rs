//! Volumes the kubelet cannot mount: `FailedMount` / `FailedAttachVolume` for missing Secrets,
//! ConfigMaps, keys and PVCs, Multi-Attach, timeouts; stale events ignored.

use crate::diagnosis_support;
use diagnosis_support::*;
use podscope_model::PodSummary;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::{Lookup, ObjectRef, Related};
use serde_json::{Value, json};

fn creating(spec: Value) -> PodSummary {
    let names: Vec<String> = spec["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .map(|c| c["name"].as_str().expect("name").to_owned())
        .collect();
    let statuses: Vec<Value> = names
        .iter()
        .map(|n| waiting(n, "ContainerCreating", ""))
        .collect();
    pod_with(
        spec,
        json!({"phase": "Pending", "containerStatuses": statuses}),
    )
}

fn mount_spec() -> Value {
    json!({
        "containers": [
            {"name": "side", "image": "s"},
            {"name": "app", "image": "a", "volumeMounts": [{"name": "cfg", "mountPath": "/etc/app"}, {"name": "data", "mountPath": "/data"}]}
        ],
        "volumes": [
            {"name": "cfg", "configMap": {"name": "app-config", "items": [{"key": "app.yaml", "path": "app.yaml"}]}},
            {"name": "data", "persistentVolumeClaim": {"claimName": "data-0"}}
        ]
    })
}

#[test]
fn failed_mount_missing_configmap_once_for_the_pod() {
    for msg in [
        "MountVolume.SetUp failed for volume \"cfg\" : configmap \"app-config\" not found",
        "MountVolume.SetUp failed for volume \"cfg\" : configmaps \"app-config\" not found",
    ] {
        let p = creating(mount_spec());
        let e = vec![
            event(
                "FailedMount",
                "Unable to attach or mount volumes: unmounted volumes=[cfg], unattached volumes=[cfg data]: timed out waiting for the condition",
                "",
                2,
                20,
            ),
            event("FailedMount", msg, "", 9, 30),
        ];
        let f = run(&p, &e, now());
        assert_eq!(
            f.iter().filter(|f| f.rule == "missing-configmap").count(),
            1
        );
        let f = find(&f, "missing-configmap");
        // A volume holds back every container of the pod: the finding is about the pod.
        assert_eq!(f.container.as_deref(), None);
        has(
            f,
            &[
                "volume cfg cannot be mounted: ConfigMap app-config does not exist in namespace shop",
                "no container of the pod can start",
                "volume cfg ← configMap app-config item app.yaml → app.yaml, mounted by container app at /etc/app (required)",
                "event FailedMount (×9",
                "unmounted volumes=[cfg]",
                "kubectl create configmap app-config -n shop --from-literal=app.yaml=…",
            ],
        );
        assert_eq!(f.checks, vec![ObjectRef::ConfigMap("app-config".into())]);
    }
}

#[test]
fn failed_mount_secret_key_pvc_multi_attach_and_timeout() {
    let spec = json!({
        "containers": [{"name": "app", "image": "a", "volumeMounts": [{"name": "tls", "mountPath": "/tls"}]}],
        "volumes": [{"name": "tls", "secret": {"secretName": "tls-cert", "items": [{"key": "tls.crt", "path": "crt"}]}}]
    });
    let p = creating(spec.clone());
    let e = vec![event(
        "FailedMount",
        "MountVolume.SetUp failed for volume \"tls\" : secrets \"tls-cert\" not found",
        "",
        3,
        10,
    )];
    has(
        find(&run(&p, &e, now()), "missing-secret"),
        &["Secret tls-cert", "volume tls"],
    );

    let e = vec![event(
        "FailedMount",
        "MountVolume.SetUp failed for volume \"tls\" : references non-existent secret key: tls.crt",
        "",
        3,
        10,
    )];
    has(
        find(&run(&p, &e, now()), "missing-secret-key"),
        &["Secret tls-cert has no key tls.crt"],
    );

    let p = creating(mount_spec());
    let e = vec![event(
        "FailedMount",
        "MountVolume.SetUp failed for volume \"data\" : persistentvolumeclaim \"data-0\" not found",
        "",
        3,
        10,
    )];
    let f = run(&p, &e, now());
    let f = find(&f, "missing-pvc");
    assert_eq!(
        f.checks,
        vec![ObjectRef::PersistentVolumeClaim("data-0".into())]
    );

    let e = vec![event(
        "FailedAttachVolume",
        "Multi-Attach error for volume \"pvc-123\" Volume is already exclusively attached to one node and can't be attached to another",
        "",
        3,
        10,
    )];
    // The knowledge base's Multi-Attach row replaces the generic mount finding and keeps its
    // evidence (the volume behind the claim).
    let f = run(&p, &e, now());
    let f = find(&f, "volume-multi-attach-exclusive");
    assert!(
        f.action
            .as_deref()
            .is_some_and(|h| h.contains("ReadWriteOnce") || h.contains("node")),
        "{:?}",
        f.action
    );
    has(
        f,
        &[
            "Multi-Attach error",
            "PersistentVolume pvc-123 behind the pod's claim persistentVolumeClaim data-0",
        ],
    );
    // A volume holds back every container of the pod: the finding is about the pod.
    assert_eq!(f.container.as_deref(), None);

    let e = vec![event(
        "FailedMount",
        "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition",
        "",
        3,
        10,
    )];
    let mut related = Related::new();
    related.insert(
        ObjectRef::PersistentVolumeClaim("data-0".into()),
        Lookup::Found {
            keys: vec![],
            phase: Some("Pending".into()),
            conditions: vec![],
        },
    );
    let f = run_with(&p, &e, now(), &related, &OwnerStatus::Unknown);
    let f = find(&f, "volume-mount-failed");
    has(
        f,
        &[
            "volumes data are not mounted",
            "persistentVolumeClaim data-0",
            "PersistentVolumeClaim data-0: exists, phase Pending",
        ],
    );
}

#[test]
fn stale_mount_events_and_started_pods_are_ignored() {
    let p = creating(mount_spec());
    // An event from before this pod was created (a previous pod with the same name).
    let old = event(
        "FailedMount",
        "MountVolume.SetUp failed for volume \"cfg\" : configmap \"app-config\" not found",
        "",
        3,
        3000,
    );
    let f = run(&p, std::slice::from_ref(&old), now());
    assert!(f.iter().all(|f| f.rule != "missing-configmap"), "{f:#?}");
    let running = pod_with(
        mount_spec(),
        json!({"phase": "Running", "containerStatuses": [
            {"name": "side", "image": "s", "imageID": "", "ready": true, "restartCount": 0, "state": {"running": {}}},
            {"name": "app", "image": "a", "imageID": "", "ready": true, "restartCount": 0, "state": {"running": {}}}]}),
    );
    let fresh = event(
        "FailedMount",
        "MountVolume.SetUp failed for volume \"cfg\" : configmap \"app-config\" not found",
        "",
        3,
        30,
    );
    let f = run(&running, &[fresh], now());
    assert!(f.iter().all(|f| f.rule != "missing-configmap"), "{f:#?}");
}
