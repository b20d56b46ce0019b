//! `ContainerSummary::spec` built from real pod specs: cases 17 (env from a ConfigMap) and 18
//! (an init container's env from a Secret), the seed's hello pod (a native sidecar sharing an
//! emptyDir), and the shared pod with every kind of env var, mount and securityContext field.

use crate::container_spec_support;
use std::path::Path;

use k8s_openapi::api::core::v1::Pod;
use podscope_model::PodSummary;
use podscope_model::container_spec::{
    ContainerSpec, EnvSource, EnvValue, MAX_ITEMS, MAX_VALUE_CHARS,
};

fn case_pod(case: &str) -> PodSummary {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(case)
        .join("pod.json");
    let pod: Pod = serde_json::from_str(&std::fs::read_to_string(&path).expect("pod.json"))
        .expect("pod.json decodes");
    PodSummary::from_pod(&pod)
}

fn spec_of<'a>(pod: &'a PodSummary, name: &str) -> &'a ContainerSpec {
    &pod.containers
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("container {name}"))
        .spec
}

fn env_texts(spec: &ContainerSpec) -> Vec<String> {
    spec.env.iter().map(|e| e.text()).collect()
}

fn mount_texts(spec: &ContainerSpec) -> Vec<String> {
    spec.mounts.iter().map(|m| m.text()).collect()
}

const SA: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

#[test]
fn case_17_env_from_a_configmap_and_the_api_access_volume() {
    let pod = case_pod("17-createcontainerconfigerror-configmap");
    let spec = spec_of(&pod, "tuner");
    assert_eq!(spec.command_line(), "image default");
    assert_eq!(
        env_texts(spec),
        [
            "CLUSTER_TYPE ← ConfigMap tuner-config key cluster_type",
            "MONITORING_AGENT ← ConfigMap tuner-config key monitoring_agent",
        ]
    );
    assert_eq!(
        mount_texts(spec),
        [format!("{SA} ← projected kube-api-access-a1s2d (ro)")]
    );
    assert!(spec.env_from.is_empty());
    // `securityContext: {}` on the pod and none on the container: nothing set.
    assert!(spec.security_context.is_empty());
}

#[test]
fn case_18_an_init_containers_secret_key_ref_names_the_secret_and_key_only() {
    let pod = case_pod("18-init-createcontainerconfigerror-secret");
    let init = spec_of(&pod, "render-index");
    assert_eq!(init.command[..2], ["sh", "-c"]);
    assert!(
        init.command_line()
            .starts_with("sh -c sed \"s/__NAME__/$SITE_OWNER/\"")
    );
    assert_eq!(
        env_texts(init),
        [
            "SITE_OWNER=team-a",
            "SITE_PASSWORD ← Secret site-password key password"
        ]
    );
    assert_eq!(
        mount_texts(init),
        [
            "/etc/config-template ← configMap site-template".to_owned(),
            "/etc/config ← emptyDir config".to_owned(),
            format!("{SA} ← projected kube-api-access-g7h8j (ro)"),
        ]
    );
    let site = spec_of(&pod, "site");
    assert_eq!(
        mount_texts(site)[0],
        "/usr/share/nginx/html ← emptyDir config"
    );
}

#[test]
fn the_seed_hello_pod_sidecar_shares_the_emptydir_read_only() {
    let text = std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("assets/scenarios/hello.yaml"),
    )
    .expect("hello.yaml");
    let pod: Pod = serde_yaml_ng::from_str(&text).expect("hello.yaml decodes");
    let pod = PodSummary::from_pod(&pod);
    let render = spec_of(&pod, "render-config");
    // The heredoc's newlines are neutralised to ␊ (one line on a terminal).
    assert_eq!(render.command.len(), 3);
    assert!(render.command[2].starts_with("cat > /etc/nginx/conf.d/default.conf <<'EOF'␊"));
    assert!(!render.command[2].contains('\n'));
    assert_eq!(
        mount_texts(render),
        ["/etc/nginx/conf.d ← emptyDir nginx-conf"]
    );
    let proxy = spec_of(&pod, "proxy");
    assert_eq!(proxy.command_line(), "image default");
    assert_eq!(
        mount_texts(proxy),
        ["/etc/nginx/conf.d ← emptyDir nginx-conf (ro)"]
    );
    let hello = spec_of(&pod, "hello");
    assert!(hello.env.is_empty() && hello.mounts.is_empty());
}

#[test]
fn every_kind_of_env_mount_and_security_setting() {
    let pod = PodSummary::from_pod(&container_spec_support::pod());
    let spec = spec_of(&pod, "api");
    assert_eq!(
        spec.command_line(),
        "/app/server --port=8080 --config=/etc/cfg/app.conf"
    );
    assert_eq!(
        env_texts(spec),
        [
            "PORT=8080",
            "DB_HOST ← ConfigMap cfg key db_host optional",
            "DB_PASSWORD ← Secret db key password",
            "POD_NAME ← field metadata.name",
            "MEM_LIMIT ← resource limits.memory divisor 1Mi",
        ]
    );
    let env_from: Vec<String> = spec.env_from.iter().map(|e| e.text()).collect();
    assert_eq!(env_from, ["ConfigMap cfg prefix CFG_", "Secret db"]);
    assert_eq!(
        mount_texts(spec),
        [
            "/etc/cfg ← configMap cfg (ro)",
            "/etc/tls/tls.crt ← secret db subPath tls.crt (ro)",
            "/cache ← emptyDir cache",
            "/var/log/host ← hostPath /var/log",
        ]
    );
    assert_eq!(
        spec.security_context.words(),
        [
            "runAsUser 1000 (pod)",
            "runAsNonRoot true (pod)",
            "readOnlyRootFilesystem true",
            "allowPrivilegeEscalation false",
            "capabilities add NET_BIND_SERVICE",
            "capabilities drop ALL",
        ]
    );
    let json = serde_json::to_value(spec).expect("serialises");
    assert_eq!(
        json["env"][2],
        serde_json::json!({"name": "DB_PASSWORD", "from": {"kind": "Secret", "name": "db", "key": "password", "optional": false}})
    );
    assert_eq!(
        json["env"][0],
        serde_json::json!({"name": "PORT", "value": "8080"})
    );
    assert_eq!(
        json["env"][3]["from"],
        serde_json::json!({"kind": "field", "fieldPath": "metadata.name"})
    );
    assert_eq!(
        json["mounts"][1],
        serde_json::json!({"path": "/etc/tls/tls.crt", "volume": "tls", "source": {"type": "secret", "name": "db"}, "readOnly": true, "subPath": "tls.crt"})
    );
    assert_eq!(
        json["securityContext"],
        serde_json::json!({"runAsUser": 1000, "runAsNonRoot": true, "readOnlyRootFilesystem": true, "allowPrivilegeEscalation": false, "capabilities": {"add": ["NET_BIND_SERVICE"], "drop": ["ALL"]}})
    );
}

#[test]
fn the_containers_own_security_context_wins_over_the_pods() {
    let mut pod = container_spec_support::pod();
    let spec = pod.spec.as_mut().expect("spec");
    let sc = spec.containers[0].security_context.as_mut().expect("sc");
    sc.run_as_user = Some(0);
    sc.privileged = Some(true);
    let pod = PodSummary::from_pod(&pod);
    let words = spec_of(&pod, "api").security_context.words();
    assert_eq!(words[0], "runAsUser 0");
    assert!(words.contains(&"privileged true".to_owned()), "{words:?}");
}

#[test]
fn a_value_beside_a_secret_key_ref_is_never_kept() {
    // The API rejects `value` with `valueFrom`; a pod that has both still shows only the ref.
    let mut pod = container_spec_support::pod();
    let spec = pod.spec.as_mut().expect("spec");
    let env = spec.containers[0].env.as_mut().expect("env");
    env[2].value = Some(container_spec_support::SECRET_VALUE.to_owned());
    let summary = PodSummary::from_pod(&pod);
    let spec = spec_of(&summary, "api");
    assert!(matches!(
        &spec.env[2].value,
        EnvValue::From(EnvSource::Secret { name, key, .. }) if name == "db" && key == "password"
    ));
    let all = format!("{spec:?}{}", serde_json::to_string(spec).expect("json"));
    assert!(!all.contains(container_spec_support::SECRET_VALUE));
}

#[test]
fn values_are_sanitised_cut_and_lists_bounded() {
    let mut pod = container_spec_support::pod();
    let spec = pod.spec.as_mut().expect("spec");
    let env = spec.containers[0].env.as_mut().expect("env");
    env[0].value = Some(format!("\u{1b}[2J{}", "x".repeat(500)));
    for i in 0..60 {
        env.push(k8s_openapi::api::core::v1::EnvVar {
            name: format!("EXTRA_{i}"),
            value: Some(i.to_string()),
            ..Default::default()
        });
    }
    let summary = PodSummary::from_pod(&pod);
    let spec = spec_of(&summary, "api");
    let EnvValue::Value(v) = &spec.env[0].value else {
        panic!("a literal");
    };
    assert!(v.starts_with("␛[2J"), "{v}");
    assert_eq!(v.chars().count(), MAX_VALUE_CHARS + 1);
    assert!(v.ends_with('…'));
    assert_eq!(spec.env.len(), MAX_ITEMS);
    assert_eq!(spec.env_omitted, 65 - MAX_ITEMS);
}

#[test]
fn an_ephemeral_container_has_its_own_spec_and_the_pods_run_as_user() {
    // `kubectl debug -it api --image=busybox:1.37 --target=api` adds one like this.
    let mut pod = container_spec_support::pod();
    let spec = pod.spec.as_mut().expect("spec");
    spec.ephemeral_containers = Some(vec![k8s_openapi::api::core::v1::EphemeralContainer {
        name: "debugger-x7k2p".to_owned(),
        image: Some("busybox:1.37".to_owned()),
        target_container_name: Some("api".to_owned()),
        stdin: Some(true),
        tty: Some(true),
        volume_mounts: Some(vec![k8s_openapi::api::core::v1::VolumeMount {
            name: "cache".to_owned(),
            mount_path: "/cache".to_owned(),
            ..Default::default()
        }]),
        ..Default::default()
    }]);
    let summary = PodSummary::from_pod(&pod);
    let debugger = spec_of(&summary, "debugger-x7k2p");
    assert_eq!(debugger.command_line(), "image default");
    assert!(debugger.env.is_empty());
    assert_eq!(mount_texts(debugger), ["/cache ← emptyDir cache"]);
    assert_eq!(
        debugger.security_context.words(),
        ["runAsUser 1000 (pod)", "runAsNonRoot true (pod)"]
    );
}
