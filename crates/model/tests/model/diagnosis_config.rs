//! Configuration rules: `CreateContainerConfigError` (missing Secret/ConfigMap/key, other
//! messages) and volumes that cannot be mounted (`FailedMount`, `FailedAttachVolume`).

use crate::diagnosis_support;
use diagnosis_support::*;
use podscope_model::PodSummary;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::{Lookup, ObjectRef, Related, Severity};
use serde_json::{Value, json};

fn config_pod(spec: Value, message: &str) -> PodSummary {
    pod_with(
        spec,
        json!({"phase": "Pending", "containerStatuses": [waiting("app", "CreateContainerConfigError", message)]}),
    )
}

fn app_spec() -> Value {
    json!({
        "initContainers": [{"name": "setup", "image": "busybox",
            "envFrom": [{"secretRef": {"name": "db-creds"}}]}],
        "containers": [{"name": "app", "image": "app:1",
            "env": [
                {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db-creds", "key": "password"}}},
                {"name": "DB_USER", "valueFrom": {"secretKeyRef": {"name": "db-creds", "key": "user", "optional": true}}},
                {"name": "MODE", "valueFrom": {"configMapKeyRef": {"name": "app-config", "key": "mode"}}}
            ],
            "volumeMounts": [{"name": "creds", "mountPath": "/etc/creds"}, {"name": "all", "mountPath": "/etc/all"}]}],
        "volumes": [
            {"name": "creds", "secret": {"secretName": "db-creds", "items": [{"key": "ca.crt", "path": "ca.pem"}]}},
            {"name": "all", "projected": {"sources": [{"secret": {"name": "db-creds"}}, {"configMap": {"name": "app-config"}}]}}
        ],
        "imagePullSecrets": [{"name": "db-creds"}]
    })
}

#[test]
fn case_17_missing_configmap_lists_both_env_vars_and_keys() {
    let (p, e, now) = case("17");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "missing-configmap");
    assert_eq!(first.container.as_deref(), Some("tuner"));
    has(
        first,
        &[
            "ConfigMap tuner-config does not exist in namespace monitoring",
            "env CLUSTER_TYPE ← configMapKeyRef tuner-config/cluster_type in container tuner (required)",
            "env MONITORING_AGENT ← configMapKeyRef tuner-config/monitoring_agent in container tuner (required)",
            "event Failed (×164, last at 10:35:50, first at 10:01:36)",
            "kubectl create configmap tuner-config -n monitoring --from-literal=cluster_type=… --from-literal=monitoring_agent=…",
            "starts by itself",
            "couldn't find key",
            "no restart needed",
        ],
    );
    assert_eq!(
        first.checks,
        vec![ObjectRef::ConfigMap("tuner-config".into())]
    );
}

#[test]
fn case_18_init_missing_secret_old_plural_wording() {
    let (p, e, now) = case("18");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "missing-secret");
    assert_eq!(first.container.as_deref(), Some("render-index"));
    has(
        first,
        &[
            "Secret site-password does not exist in namespace default",
            "the containers after it cannot start",
            "secrets \"site-password\" not found",
            "env SITE_PASSWORD ← secretKeyRef site-password/password in init container render-index",
            "kubectl create secret generic site-password -n default --from-literal=password=…",
            "Helm",
        ],
    );
}

#[test]
fn every_reference_across_containers_volumes_and_pull_secrets() {
    for msg in [
        "secret \"db-creds\" not found",
        "secrets \"db-creds\" not found",
    ] {
        let p = config_pod(app_spec(), msg);
        let f = run(&p, &[], now());
        let f = find(&f, "missing-secret");
        has(
            f,
            &[
                "Secret db-creds does not exist in namespace shop",
                "refers to Secret db-creds 6 times",
                "envFrom secretRef db-creds in init container setup (required)",
                "env DB_PASSWORD ← secretKeyRef db-creds/password in container app (required)",
                "env DB_USER ← secretKeyRef db-creds/user in container app (optional)",
                "volume creds ← secret db-creds item ca.crt → ca.pem, mounted by container app at /etc/creds (required)",
                "volume all ← projected secret db-creds, mounted by container app at /etc/all (required)",
                "imagePullSecrets db-creds",
                "also uses ConfigMap app-config",
                "--from-literal=password=… --from-literal=user=… --from-literal=ca.crt=…",
            ],
        );
        assert!(f.checks.contains(&ObjectRef::Secret("db-creds".into())));
        assert!(
            f.checks
                .contains(&ObjectRef::ConfigMap("app-config".into()))
        );
    }
}

#[test]
fn configmap_plural_and_lookup_answers() {
    let p = config_pod(app_spec(), "configmaps \"app-config\" not found");
    let mut related = Related::new();
    related.insert(ObjectRef::ConfigMap("app-config".into()), Lookup::Absent);
    related.insert(
        ObjectRef::Secret("db-creds".into()),
        Lookup::Forbidden("secrets is forbidden".into()),
    );
    let f = run_with(&p, &[], now(), &related, &OwnerStatus::Unknown);
    let f = find(&f, "missing-configmap");
    assert_eq!(f.severity, Severity::Error);
    has(
        f,
        &[
            "ConfigMap app-config: absent (GET returned 404)",
            "Secret db-creds: could not be checked (403: secrets is forbidden)",
            "env MODE ← configMapKeyRef app-config/mode",
            "volume all ← projected configMap app-config",
        ],
    );
    // Created since: the kubelet will pick it up.
    related.insert(
        ObjectRef::ConfigMap("app-config".into()),
        Lookup::Found {
            keys: vec!["mode".into()],
            phase: None,
            conditions: vec![],
        },
    );
    let f = run_with(&p, &[], now(), &related, &OwnerStatus::Unknown);
    let f = find(&f, "missing-configmap");
    assert_eq!(f.severity, Severity::Warning);
    has(
        f,
        &["exists now", "ConfigMap app-config: exists, keys: mode"],
    );
}

#[test]
fn missing_key_is_its_own_rule_and_says_whether_the_key_is_there() {
    let p = config_pod(
        app_spec(),
        "couldn't find key password in Secret shop/db-creds",
    );
    let mut related = Related::new();
    related.insert(
        ObjectRef::Secret("db-creds".into()),
        Lookup::Found {
            keys: vec!["pass".into(), "user".into()],
            phase: None,
            conditions: vec![],
        },
    );
    let f = run_with(&p, &[], now(), &related, &OwnerStatus::Unknown);
    let f = find(&f, "missing-secret-key");
    assert_eq!(f.container.as_deref(), Some("app"));
    has(
        f,
        &[
            "Secret db-creds (namespace shop) exists but has no key password",
            "Secret db-creds: exists, keys: pass, user; key password is not among them",
            "kubectl patch secret db-creds -n shop",
            "stringData",
            "env DB_PASSWORD ← secretKeyRef db-creds/password",
        ],
    );
    related.insert(
        ObjectRef::Secret("db-creds".into()),
        Lookup::Found {
            keys: vec!["password".into()],
            phase: None,
            conditions: vec![],
        },
    );
    let f = run_with(&p, &[], now(), &related, &OwnerStatus::Unknown);
    let f = find(&f, "missing-secret-key");
    assert_eq!(f.severity, Severity::Warning);
    has(f, &["key password is there now"]);

    let p = config_pod(
        app_spec(),
        "couldn't find key mode in ConfigMap shop/app-config",
    );
    let f = run(&p, &[], now());
    has(
        find(&f, "missing-configmap-key"),
        &[
            "ConfigMap app-config",
            "no key mode",
            "kubectl patch configmap app-config",
        ],
    );
}

#[test]
fn other_messages_are_quoted_with_a_hint() {
    for (msg, words) in [
        (
            "container has runAsNonRoot and image will run as root (pod: \"web_shop(u1)\", container: app)",
            "runAsUser",
        ),
        (
            "container has runAsNonRoot and image has non-numeric user (nginx), cannot verify user is non-root",
            "numeric uid",
        ),
        (
            "failed to prepare subPath for volumeMount \"cfg\" of container \"app\"",
            "subPath",
        ),
        (
            "failed to sync secret cache: timed out waiting for the condition",
            "API server",
        ),
        ("something nobody has seen before", "kubelet's message"),
    ] {
        let p = config_pod(app_spec(), msg);
        // The first finding quotes the kubelet's message: a knowledge-base row's meaning when
        // one knows it, else the generic container-config-error.
        let f = run(&p, &[], now());
        has(&f[0], &[msg, words]);
        if f[0].rule.starts_with("runtime-run-as-non-root") {
            let t = common_text(&f[0]);
            assert!(
                !t.contains("no restart needed"),
                "a spec change is needed: {t}"
            );
        }
    }
}

#[test]
fn event_only_and_nothing_at_all() {
    let p = config_pod(app_spec(), "");
    let e = vec![event(
        "Failed",
        "Error: configmap \"app-config\" not found",
        "spec.containers{app}",
        12,
        4,
    )];
    let f = run(&p, &e, now());
    has(find(&f, "missing-configmap"), &["event Failed (×12"]);

    let p = pod(json!({
        "metadata": {"name": "web", "namespace": "shop", "creationTimestamp": ago(9000)},
        "spec": {"nodeName": "n", "containers": [{"name": "app", "image": "a"}]},
        "status": {"containerStatuses": [{"name": "app", "image": "a", "imageID": "", "ready": false,
            "restartCount": 0, "state": {"waiting": {"reason": "CreateContainerConfigError"}}}]}
    }));
    let f = run(&p, &[], now());
    has(
        find(&f, "container-config-error"),
        &["reason is not available", "keeps events about 1 h"],
    );
}

#[test]
fn huge_and_hostile_messages() {
    let msg = format!(
        "secret \"db-creds\" not found \u{1b}[31m{}",
        "y".repeat(100_000)
    );
    let p = config_pod(app_spec(), &msg);
    let f = run(&p, &[], now());
    let f = find(&f, "missing-secret");
    assert!(f.evidence.iter().all(|l| l.len() < 5000));
    assert!(text(f).contains('␛') && !text(f).contains('\u{1b}'));
}

fn common_text(f: &podscope_model::diagnosis::Finding) -> String {
    format!(
        "{}\n{}\n{}",
        f.headline,
        f.evidence.join("\n"),
        f.action.clone().unwrap_or_default()
    )
}
