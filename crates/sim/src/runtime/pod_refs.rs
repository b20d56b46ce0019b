//! What the kubelet gave a container when it started it, seen from inside
//! (`docs/kubelet-references.md` §Inside the container): the environment with every
//! `valueFrom` (`configMapKeyRef`, `secretKeyRef`, `fieldRef`, `resourceFieldRef`) and `envFrom`
//! resolved, and the files of its `configMap`, `secret`, `projected` (the `kube-api-access-…`
//! token, `ca.crt`, `namespace`) and `downwardAPI` volumes at their `mountPath` (a `subPath`
//! mount is the one file). Values are read when the exec starts, from the objects stored then.

use base64::Engine as _;
use k8s_openapi::api::core::v1::{
    Container, DownwardAPIVolumeFile, EnvFromSource, EnvVar, Pod, ResourceRequirements, Volume,
};

use super::userland::ContainerView;
use crate::kubelet::config_refs::{self, ConfigSources};
use crate::kubelet::field_refs;

/// The fields of any kind of container the kubelet reads for env and mounts.
struct Parts {
    env: Vec<EnvVar>,
    env_from: Vec<EnvFromSource>,
    resources: Option<ResourceRequirements>,
    mounts: Vec<k8s_openapi::api::core::v1::VolumeMount>,
}

fn parts(pod: &Pod, name: &str) -> Option<Parts> {
    let spec = pod.spec.as_ref()?;
    let of = |c: &Container| Parts {
        env: c.env.clone().unwrap_or_default(),
        env_from: c.env_from.clone().unwrap_or_default(),
        resources: c.resources.clone(),
        mounts: c.volume_mounts.clone().unwrap_or_default(),
    };
    if let Some(c) = spec
        .init_containers
        .iter()
        .flatten()
        .chain(spec.containers.iter())
        .find(|c| c.name == name)
    {
        return Some(of(c));
    }
    let e = spec
        .ephemeral_containers
        .iter()
        .flatten()
        .find(|c| c.name == name)?;
    Some(Parts {
        env: e.env.clone().unwrap_or_default(),
        env_from: e.env_from.clone().unwrap_or_default(),
        resources: e.resources.clone(),
        mounts: e.volume_mounts.clone().unwrap_or_default(),
    })
}

/// The `resources` of container `name` of the pod (for a `resourceFieldRef.containerName`).
fn resources_of(pod: &Pod, name: &str) -> Option<ResourceRequirements> {
    parts(pod, name).and_then(|p| p.resources)
}

/// The container's environment as the kubelet built it: `envFrom` then `env`, every reference
/// resolved; when a reference cannot be resolved (the container would not have started) only
/// the literal `value`s.
pub fn container_env(pod: &Pod, name: &str, sources: &ConfigSources) -> Vec<(String, String)> {
    let Some(p) = parts(pod, name) else {
        return Vec::new();
    };
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let c = Container {
        name: name.to_string(),
        env: Some(p.env.clone()),
        env_from: Some(p.env_from.clone()),
        ..Default::default()
    };
    let mut out = config_refs::resolve_env(ns, &c, sources).unwrap_or_else(|_| {
        p.env
            .iter()
            .filter_map(|e| e.value.clone().map(|v| (e.name.clone(), v)))
            .collect()
    });
    for e in &p.env {
        let Some(from) = &e.value_from else {
            continue;
        };
        let value = if let Some(f) = &from.field_ref {
            field_refs::field_value(pod, &f.field_path)
        } else if let Some(r) = &from.resource_field_ref {
            let res = match r.container_name.as_deref() {
                Some(other) if !other.is_empty() => resources_of(pod, other),
                _ => p.resources.clone(),
            };
            field_refs::resource_value(res.as_ref(), r)
        } else {
            continue;
        };
        let value = value.unwrap_or_default();
        match out.iter_mut().find(|(n, _)| *n == e.name) {
            Some(slot) => slot.1 = value,
            None => out.push((e.name.clone(), value)),
        }
    }
    out
}

/// A service account token shaped like the kubelet's (a JWT: header, claims, signature), for
/// `cat …/serviceaccount/token`; the simulator does not check it.
fn token(pod: &Pod) -> String {
    let b64 = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let sa = pod
        .spec
        .as_ref()
        .and_then(|s| s.service_account_name.as_deref())
        .unwrap_or("default");
    let claims = serde_json::json!({
        "aud": ["https://kubernetes.default.svc.cluster.local"],
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {
            "namespace": ns,
            "pod": {"name": pod.metadata.name, "uid": pod.metadata.uid},
            "serviceaccount": {"name": sa},
        },
        "sub": format!("system:serviceaccount:{ns}:{sa}"),
    });
    format!(
        "{}.{}.{}",
        b64(r#"{"alg":"RS256","kid":"podscope-sim"}"#),
        b64(&claims.to_string()),
        b64("podscope-sim-signature")
    )
}

fn downward_files(pod: &Pod, items: &[DownwardAPIVolumeFile]) -> Vec<(String, String)> {
    items
        .iter()
        .filter_map(|i| {
            let value = if let Some(f) = &i.field_ref {
                field_refs::field_value(pod, &f.field_path)
            } else if let Some(r) = &i.resource_field_ref {
                let name = r.container_name.as_deref().unwrap_or("");
                field_refs::resource_value(resources_of(pod, name).as_ref(), r)
            } else {
                None
            }?;
            Some((i.path.clone(), value))
        })
        .collect()
}

/// The files volume `v` shows, as (path inside the volume, content).
fn volume_files(pod: &Pod, v: &Volume, sources: &ConfigSources) -> Vec<(String, String)> {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let mut out = config_refs::volume_files(ns, v, sources);
    if let Some(d) = &v.downward_api {
        out.extend(downward_files(pod, d.items.as_deref().unwrap_or_default()));
    }
    for s in v.projected.iter().flat_map(|p| p.sources.iter().flatten()) {
        if let Some(t) = &s.service_account_token {
            out.push((t.path.clone(), token(pod)));
        }
        if let Some(d) = &s.downward_api {
            out.extend(downward_files(pod, d.items.as_deref().unwrap_or_default()));
        }
    }
    out
}

impl ContainerView {
    /// The same view with the environment and volume files the kubelet gave the container,
    /// reading ConfigMaps and Secrets from `sources` (see the module docs).
    #[must_use]
    pub fn with_pod_refs(mut self, pod: &Pod, sources: &ConfigSources) -> Self {
        let Some(p) = parts(pod, &self.container) else {
            return self;
        };
        let mut env: Vec<(String, String)> = self
            .env
            .iter()
            .filter(|(n, _)| n == "PATH" || n == "HOSTNAME")
            .cloned()
            .collect();
        for (k, v) in container_env(pod, &self.container, sources) {
            match env.iter_mut().find(|(n, _)| *n == k) {
                Some(slot) => slot.1 = v,
                None => env.push((k, v)),
            }
        }
        if !env.iter().any(|(n, _)| n == "HOME") {
            env.push(("HOME".to_string(), "/root".to_string()));
        }
        self.env = env;
        let volumes = pod
            .spec
            .as_ref()
            .and_then(|s| s.volumes.clone())
            .unwrap_or_default();
        for m in &p.mounts {
            let Some(v) = volumes.iter().find(|v| v.name == m.name) else {
                continue;
            };
            let base = m.mount_path.trim_end_matches('/');
            let files = volume_files(pod, v, sources);
            match m.sub_path.as_deref().filter(|s| !s.is_empty()) {
                Some(sub) => {
                    if let Some((_, data)) = files.into_iter().find(|(path, _)| path == sub) {
                        self.files.insert(base.to_string(), data);
                    }
                }
                None => {
                    for (path, data) in files {
                        self.files.insert(format!("{base}/{path}"), data);
                    }
                }
            }
        }
        self
    }
}
