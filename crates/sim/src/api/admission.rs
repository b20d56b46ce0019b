//! Creating pods the way the API server does (after [`super::decode`] decoded them): validate
//! the fields kubectl and the kubelet model need, apply the defaults, store, hand to the kubelet.
//!
//! Defaults (a subset of `pkg/apis/core/v1/defaults.go` plus admission): `restartPolicy: Always`,
//! `terminationGracePeriodSeconds: 30`, `dnsPolicy: ClusterFirst`, `schedulerName:
//! default-scheduler`, `serviceAccountName: default`, `enableServiceLinks: true`, `priority: 0`,
//! `securityContext: {}`, the two 300 s NoExecute tolerations; per container
//! `terminationMessagePath: /dev/termination-log`, `terminationMessagePolicy: File`,
//! `imagePullPolicy` (`Always` for `:latest` or no tag, else `IfNotPresent`), `resources: {}`,
//! port `protocol: TCP`, probe `timeoutSeconds 1, periodSeconds 10, successThreshold 1,
//! failureThreshold 3`, httpGet `scheme: HTTP`, `path: /`; `status.phase: Pending`; and for
//! pods and templates alike [`spec_defaults`] (`fieldRef.apiVersion: v1`, canonical quantities).
//!
//! Then the ServiceAccount plugin ([`service_account`]: the account must exist, the
//! `kube-api-access-*` volume and mounts) and the scheduler's volume check
//! (`crate::scheduler`: a pod on a missing or unbound PVC is held back instead of being
//! handed to the kubelet); `docs/kubelet-references.md`.

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::core::v1::{
    Container, PodSecurityContext, PodSpec, PodStatus, Probe, ResourceRequirements, Toleration,
};

use super::status::ApiError;
use super::store::Store;

pub mod service_account;
pub mod spec_defaults;

/// The fields the API server would reject, as `field: Required value` style causes.
pub(crate) fn validate(pod: &Pod) -> Vec<String> {
    let mut causes = Vec::new();
    let Some(spec) = pod.spec.as_ref() else {
        causes.push("spec.containers: Required value".to_string());
        return causes;
    };
    if spec.containers.is_empty() {
        causes.push("spec.containers: Required value".to_string());
    }
    let mut seen = std::collections::HashSet::new();
    let lists = [
        (
            "spec.initContainers",
            spec.init_containers.as_deref().unwrap_or(&[]),
        ),
        ("spec.containers", spec.containers.as_slice()),
    ];
    for (field, list) in lists {
        for (i, c) in list.iter().enumerate() {
            if c.name.is_empty() {
                causes.push(format!("{field}[{i}].name: Required value"));
            } else if !seen.insert(c.name.clone()) {
                causes.push(format!(
                    "{field}[{i}].name: Duplicate value: \"{}\"",
                    c.name
                ));
            }
            if c.image.as_deref().unwrap_or("").trim().is_empty() {
                causes.push(format!("{field}[{i}].image: Required value"));
            }
        }
    }
    if let Some(g) = spec.termination_grace_period_seconds
        && g < 0
    {
        causes.push(format!(
            "spec.terminationGracePeriodSeconds: Invalid value: {g}: must be greater than or equal to 0"
        ));
    }
    causes
}

fn default_probe(p: &mut Option<Probe>) {
    let Some(p) = p.as_mut() else { return };
    p.timeout_seconds.get_or_insert(1);
    p.period_seconds.get_or_insert(10);
    p.success_threshold.get_or_insert(1);
    p.failure_threshold.get_or_insert(3);
    if let Some(h) = p.http_get.as_mut() {
        h.scheme.get_or_insert_with(|| "HTTP".into());
        if h.path.as_deref().unwrap_or("").is_empty() {
            h.path = Some("/".into());
        }
    }
}

fn default_container(c: &mut Container) {
    c.termination_message_path
        .get_or_insert_with(|| "/dev/termination-log".into());
    c.termination_message_policy
        .get_or_insert_with(|| "File".into());
    let image = c.image.as_deref().unwrap_or("");
    let digest = image.contains('@');
    let last = image.rsplit('/').next().unwrap_or("");
    let tag = last.rsplit_once(':').map_or("latest", |(_, t)| t);
    c.image_pull_policy.get_or_insert_with(|| {
        if tag == "latest" && !digest {
            "Always".into()
        } else {
            "IfNotPresent".into()
        }
    });
    c.resources
        .get_or_insert_with(ResourceRequirements::default);
    for p in c.ports.iter_mut().flatten() {
        p.protocol.get_or_insert_with(|| "TCP".into());
    }
    default_probe(&mut c.startup_probe);
    default_probe(&mut c.liveness_probe);
    default_probe(&mut c.readiness_probe);
}

/// The defaults `SetDefaults_PodSpec` gives a pod template (a workload's
/// `spec.template.spec`): `restartPolicy: Always` (when unset), `terminationGracePeriodSeconds:
/// 30`, `dnsPolicy: ClusterFirst`, `schedulerName: default-scheduler`, `securityContext: {}`
/// and the per-container defaults of the module docs. The pod-only ones (service account,
/// tolerations, priority, …) come from admission when a pod is created from it.
pub(crate) fn default_pod_template(spec: &mut PodSpec) {
    spec.restart_policy.get_or_insert_with(|| "Always".into());
    spec.termination_grace_period_seconds.get_or_insert(30);
    spec.dns_policy.get_or_insert_with(|| "ClusterFirst".into());
    spec.scheduler_name
        .get_or_insert_with(|| "default-scheduler".into());
    spec.security_context
        .get_or_insert_with(PodSecurityContext::default);
    for c in spec.init_containers.iter_mut().flatten() {
        default_container(c);
    }
    for c in &mut spec.containers {
        default_container(c);
    }
    spec_defaults::apply(spec);
}

/// Applies the API server's defaults (see the module docs).
pub(crate) fn apply_defaults(pod: &mut Pod) {
    pod.metadata.generation.get_or_insert(1);
    let spec = pod.spec.get_or_insert_with(Default::default);
    spec.restart_policy.get_or_insert_with(|| "Always".into());
    spec.termination_grace_period_seconds.get_or_insert(30);
    spec.dns_policy.get_or_insert_with(|| "ClusterFirst".into());
    spec.scheduler_name
        .get_or_insert_with(|| "default-scheduler".into());
    spec.service_account_name
        .get_or_insert_with(|| "default".into());
    spec.service_account = spec.service_account_name.clone();
    spec.enable_service_links.get_or_insert(true);
    spec.priority.get_or_insert(0);
    spec.preemption_policy
        .get_or_insert_with(|| "PreemptLowerPriority".into());
    spec.security_context
        .get_or_insert_with(PodSecurityContext::default);
    let tolerations = spec.tolerations.get_or_insert_with(Vec::new);
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        if !tolerations.iter().any(|t| t.key.as_deref() == Some(key)) {
            tolerations.push(Toleration {
                key: Some(key.into()),
                operator: Some("Exists".into()),
                effect: Some("NoExecute".into()),
                toleration_seconds: Some(300),
                ..Toleration::default()
            });
        }
    }
    for c in spec.init_containers.iter_mut().flatten() {
        default_container(c);
    }
    for c in &mut spec.containers {
        default_container(c);
    }
    spec_defaults::apply(spec);
    pod.status = Some(PodStatus {
        phase: Some("Pending".into()),
        ..PodStatus::default()
    });
}

/// Creates a pod in namespace `ns` as `POST /api/v1/namespaces/{ns}/pods` does and hands it to
/// the kubelet driver. `generateName` gets 5 characters appended. Errors: 400 (namespace
/// mismatch, no name), 422 Invalid ([`validate`]), 409 AlreadyExists.
pub fn create_pod_and_run(store: &Store, ns: &str, mut pod: Pod) -> Result<Pod, ApiError> {
    match pod.metadata.namespace.as_deref() {
        None | Some("") => pod.metadata.namespace = Some(ns.to_string()),
        Some(n) if n == ns => {}
        Some(_) => {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
    }
    if pod.metadata.name.as_deref().unwrap_or("").is_empty() {
        match pod
            .metadata
            .generate_name
            .as_deref()
            .filter(|g| !g.is_empty())
        {
            Some(prefix) => {
                let suffix = generated_suffix(store.resource_version());
                pod.metadata.name = Some(format!("{prefix}{suffix}"));
            }
            None => {
                return Err(ApiError::invalid(
                    "Pod",
                    "",
                    &["metadata.name: Required value: name or generateName is required".into()],
                ));
            }
        }
    }
    let name = pod.metadata.name.clone().unwrap_or_default();
    let causes = validate(&pod);
    if !causes.is_empty() {
        return Err(ApiError::invalid("Pod", &name, &causes));
    }
    apply_defaults(&mut pod);
    // A fresh uid per incarnation: a pod recreated under the same name is another object.
    let uid = fresh_uid(ns, &name, store.resource_version(), store.now());
    let suffix = generated_suffix(crate::kubelet::hash64(7, &[&uid]));
    let sa_automount = service_account::lookup(store, ns, &name, &pod)?;
    service_account::admit(&mut pod, sa_automount, &suffix);
    pod.metadata.uid = Some(uid);
    pod.metadata.creation_timestamp = None;
    pod.metadata.deletion_timestamp = None;
    pod.metadata.deletion_grace_period_seconds = None;
    if let Some(spec) = pod.spec.as_mut() {
        spec.node_name = None;
    }
    let created = store.create_pod(pod)?;
    crate::scheduler::schedule(store, ns, &name);
    Ok(created)
}

/// A UUID-shaped uid from namespace, name, the store's resourceVersion and the clock.
fn fresh_uid(ns: &str, name: &str, rv: u64, now: jiff::Timestamp) -> String {
    let seed = format!("{ns}/{name}/{rv}/{}", now.as_nanosecond());
    let hash = |salt: u64| {
        seed.bytes().fold(0xcbf2_9ce4_8422_2325_u64 ^ salt, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    let (a, b) = (hash(1), hash(2));
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        (b >> 48) & 0x3fff | 0x8000,
        b & 0xffff_ffff_ffff
    )
}

/// Five characters from the API server's name alphabet, derived from `seed`.
fn generated_suffix(seed: u64) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut h = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(0x2545_f491_4f6c_dd1d);
    (0..5)
        .map(|_| {
            let c = ALPHABET[(h % ALPHABET.len() as u64) as usize];
            h /= ALPHABET.len() as u64;
            char::from(c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_fields() {
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "x"},
            "spec": {"containers": [{"name": "a"}, {"name": "a", "image": "i"}]}
        }))
        .expect("pod");
        assert_eq!(
            validate(&pod),
            vec![
                "spec.containers[0].image: Required value".to_string(),
                "spec.containers[1].name: Duplicate value: \"a\"".to_string()
            ]
        );
    }
}
