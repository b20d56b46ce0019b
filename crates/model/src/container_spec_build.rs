//! Building [`ContainerSpec`] from k8s-openapi's `Container` / `EphemeralContainer` and the
//! pod spec around it (its `volumes` and `securityContext`), sanitising and bounding as the
//! type's module says.

use k8s_openapi::api::core::v1::{
    Container, EnvFromSource, EnvVar, EphemeralContainer, PodSpec, SecurityContext, Volume,
    VolumeMount,
};

use super::container_spec::{
    CLIP_MARKER, Capabilities, ContainerSpec, Env, EnvFrom, EnvSource, EnvValue, MAX_ITEMS,
    MAX_VALUE_CHARS, Mount, Security, Setting, VolumeSource,
};
use super::sanitize::sanitize;

/// The fields `Container` and `EphemeralContainer` share that the summary reads.
struct Parts<'a> {
    command: &'a Option<Vec<String>>,
    args: &'a Option<Vec<String>>,
    env: &'a Option<Vec<EnvVar>>,
    env_from: &'a Option<Vec<EnvFromSource>>,
    mounts: &'a Option<Vec<VolumeMount>>,
    security: Option<&'a SecurityContext>,
}

impl ContainerSpec {
    /// The summary of `c`, one of `pod.containers` / `pod.initContainers`.
    #[must_use]
    pub fn of(c: &Container, pod: &PodSpec) -> ContainerSpec {
        build(
            &Parts {
                command: &c.command,
                args: &c.args,
                env: &c.env,
                env_from: &c.env_from,
                mounts: &c.volume_mounts,
                security: c.security_context.as_ref(),
            },
            pod,
        )
    }

    /// The summary of `c`, one of `pod.ephemeralContainers`.
    #[must_use]
    pub fn of_ephemeral(c: &EphemeralContainer, pod: &PodSpec) -> ContainerSpec {
        build(
            &Parts {
                command: &c.command,
                args: &c.args,
                env: &c.env,
                env_from: &c.env_from,
                mounts: &c.volume_mounts,
                security: c.security_context.as_ref(),
            },
            pod,
        )
    }
}

/// `s` sanitised and cut after [`MAX_VALUE_CHARS`] characters with [`CLIP_MARKER`].
#[must_use]
pub fn clip(s: &str) -> String {
    let clean = sanitize(s);
    match clean.char_indices().nth(MAX_VALUE_CHARS) {
        Some((at, _)) => format!("{}{CLIP_MARKER}", &clean[..at]),
        None => clean.into_owned(),
    }
}

/// The first [`MAX_ITEMS`] of `items` mapped by `f`, and how many were left.
fn bounded<T, U>(items: &Option<Vec<T>>, f: impl Fn(&T) -> U) -> (Vec<U>, usize) {
    let all = items.as_deref().unwrap_or(&[]);
    let kept = all.iter().take(MAX_ITEMS).map(f).collect();
    (kept, all.len().saturating_sub(MAX_ITEMS))
}

fn build(p: &Parts<'_>, pod: &PodSpec) -> ContainerSpec {
    let words = |v: &Option<Vec<String>>| v.iter().flatten().map(|s| clip(s)).collect();
    let (env, env_omitted) = bounded(p.env, env);
    let (env_from, env_from_omitted) = bounded(p.env_from, env_from);
    let volumes = pod.volumes.as_deref().unwrap_or(&[]);
    let (mounts, mounts_omitted) = bounded(p.mounts, |m| mount(m, volumes));
    ContainerSpec {
        command: words(p.command),
        args: words(p.args),
        env,
        env_omitted,
        env_from,
        env_from_omitted,
        mounts,
        mounts_omitted,
        security_context: security(p.security, pod),
    }
}

/// One env var. A `valueFrom` wins over a literal `value` (the API rejects both together), so
/// a value written beside a `secretKeyRef` is never shown.
fn env(e: &EnvVar) -> Env {
    let value = match &e.value_from {
        Some(from) => EnvValue::From(if let Some(r) = &from.config_map_key_ref {
            EnvSource::ConfigMap {
                name: clip(&r.name),
                key: clip(&r.key),
                optional: r.optional == Some(true),
            }
        } else if let Some(r) = &from.secret_key_ref {
            EnvSource::Secret {
                name: clip(&r.name),
                key: clip(&r.key),
                optional: r.optional == Some(true),
            }
        } else if let Some(r) = &from.field_ref {
            EnvSource::Field {
                field_path: clip(&r.field_path),
            }
        } else if let Some(r) = &from.resource_field_ref {
            EnvSource::Resource {
                resource: clip(&r.resource),
                container_name: r.container_name.as_deref().map(clip),
                divisor: r.divisor.as_ref().map(|q| clip(&q.0)),
            }
        } else {
            EnvSource::Unknown
        }),
        None => EnvValue::Value(clip(e.value.as_deref().unwrap_or(""))),
    };
    Env {
        name: clip(&e.name),
        value,
    }
}

fn env_from(e: &EnvFromSource) -> EnvFrom {
    let (kind, name, optional) = if let Some(r) = &e.config_map_ref {
        ("ConfigMap", r.name.as_str(), r.optional)
    } else if let Some(r) = &e.secret_ref {
        ("Secret", r.name.as_str(), r.optional)
    } else {
        ("unknown", "", None)
    };
    EnvFrom {
        kind: kind.to_owned(),
        name: clip(name),
        prefix: e.prefix.as_deref().filter(|p| !p.is_empty()).map(clip),
        optional: optional == Some(true),
    }
}

fn mount(m: &VolumeMount, volumes: &[Volume]) -> Mount {
    let sub_path = match (&m.sub_path, &m.sub_path_expr) {
        (Some(p), _) if !p.is_empty() => Some(clip(p)),
        (_, Some(e)) if !e.is_empty() => Some(format!("expr {}", clip(e))),
        _ => None,
    };
    Mount {
        path: clip(&m.mount_path),
        volume: clip(&m.name),
        source: volumes.iter().find(|v| v.name == m.name).map(volume_source),
        read_only: m.read_only == Some(true),
        sub_path,
    }
}

/// The volume's source field and what it names (`docs/container-spec.md` §3).
fn volume_source(v: &Volume) -> VolumeSource {
    let named = |t: &str, n: Option<&str>| VolumeSource {
        type_: t.to_owned(),
        name: n.filter(|n| !n.is_empty()).map(clip),
    };
    if let Some(s) = &v.persistent_volume_claim {
        named("persistentVolumeClaim", Some(&s.claim_name))
    } else if let Some(s) = &v.config_map {
        named("configMap", Some(&s.name))
    } else if let Some(s) = &v.secret {
        named("secret", s.secret_name.as_deref())
    } else if let Some(s) = &v.empty_dir {
        named("emptyDir", s.medium.as_deref())
    } else if let Some(s) = &v.host_path {
        named("hostPath", Some(&s.path))
    } else if let Some(s) = &v.csi {
        named("csi", Some(&s.driver))
    } else if v.projected.is_some() {
        named("projected", None)
    } else if v.downward_api.is_some() {
        named("downwardAPI", None)
    } else {
        // Any other source: its field name as the API spells it (`nfs`, `ephemeral`, …).
        let type_ = serde_json::to_value(v)
            .ok()
            .and_then(|j| {
                j.as_object()
                    .and_then(|o| o.keys().find(|k| *k != "name").cloned())
            })
            .unwrap_or_else(|| "unknown".to_owned());
        named(&type_, None)
    }
}

/// The container's securityContext over the pod's for `runAsUser` and `runAsNonRoot` (the
/// container's wins when both set it, as the API reference says of `PodSecurityContext`).
fn security(c: Option<&SecurityContext>, pod: &PodSpec) -> Security {
    let p = pod.security_context.as_ref();
    let caps = c.and_then(|c| c.capabilities.as_ref());
    let list = |l: Option<&Vec<String>>| l.into_iter().flatten().map(|s| clip(s)).collect();
    Security {
        run_as_user: merged(c.and_then(|c| c.run_as_user), p.and_then(|p| p.run_as_user)),
        run_as_non_root: merged(
            c.and_then(|c| c.run_as_non_root),
            p.and_then(|p| p.run_as_non_root),
        ),
        read_only_root_filesystem: c.and_then(|c| c.read_only_root_filesystem),
        privileged: c.and_then(|c| c.privileged),
        allow_privilege_escalation: c.and_then(|c| c.allow_privilege_escalation),
        capabilities: Capabilities {
            add: list(caps.and_then(|c| c.add.as_ref())),
            drop: list(caps.and_then(|c| c.drop.as_ref())),
        },
    }
}

/// The container's value if set, else the pod's (marked `from_pod`).
fn merged<T>(own: Option<T>, inherited: Option<T>) -> Option<Setting<T>> {
    match (own, inherited) {
        (Some(value), _) => Some(Setting {
            value,
            from_pod: false,
        }),
        (None, Some(value)) => Some(Setting {
            value,
            from_pod: true,
        }),
        (None, None) => None,
    }
}
