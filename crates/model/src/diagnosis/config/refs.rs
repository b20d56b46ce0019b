//! Every place a pod spec refers to one Secret, ConfigMap or PVC: env vars, `envFrom`,
//! volumes (direct and projected sources), `imagePullSecrets`, in every container.

use k8s_openapi::api::core::v1::{EnvFromSource, EnvVar, PodSpec, Volume, VolumeMount};

use super::parse::Kind;

/// One reference to the object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ref {
    /// `env CLUSTER_TYPE ← configMapKeyRef tuner-config/cluster_type in container tuner
    /// (required)`.
    pub line: String,
    /// The key it needs, when it names one (env key refs, volume items).
    pub key: Option<String>,
    /// Whether it uses the whole object (`envFrom`, a volume without `items`).
    pub whole: bool,
    /// `optional: true`: a missing object or key is tolerated there.
    pub optional: bool,
    /// The container it is in, or that mounts the volume.
    pub containers: Vec<String>,
    /// The volume it is, for volume references.
    pub volume: Option<String>,
}

/// A container's name, how headlines name its role, env, envFrom and mounts.
pub(crate) struct Holder<'a> {
    pub name: &'a str,
    pub role: &'static str,
    pub env: &'a [EnvVar],
    pub env_from: &'a [EnvFromSource],
    pub mounts: &'a [VolumeMount],
}

/// Every container of `spec` in kubelet order (init and sidecars, main, ephemeral).
pub(crate) fn holders(spec: &PodSpec) -> Vec<Holder<'_>> {
    let mut out = Vec::new();
    for c in spec.init_containers.iter().flatten() {
        let role = if c.restart_policy.as_deref() == Some("Always") {
            "sidecar"
        } else {
            "init container"
        };
        out.push(Holder {
            name: &c.name,
            role,
            env: c.env.as_deref().unwrap_or(&[]),
            env_from: c.env_from.as_deref().unwrap_or(&[]),
            mounts: c.volume_mounts.as_deref().unwrap_or(&[]),
        });
    }
    for c in &spec.containers {
        out.push(Holder {
            name: &c.name,
            role: "container",
            env: c.env.as_deref().unwrap_or(&[]),
            env_from: c.env_from.as_deref().unwrap_or(&[]),
            mounts: c.volume_mounts.as_deref().unwrap_or(&[]),
        });
    }
    for c in spec.ephemeral_containers.iter().flatten() {
        out.push(Holder {
            name: &c.name,
            role: "ephemeral container",
            env: c.env.as_deref().unwrap_or(&[]),
            env_from: c.env_from.as_deref().unwrap_or(&[]),
            mounts: c.volume_mounts.as_deref().unwrap_or(&[]),
        });
    }
    out
}

fn opt(optional: Option<bool>) -> (&'static str, bool) {
    if optional == Some(true) {
        ("optional", true)
    } else {
        ("required", false)
    }
}

/// `mounted by container a at /x, init container b at /y`, or `not mounted by any container`.
pub(crate) fn mounted_by(spec: &PodSpec, volume: &str) -> (String, Vec<String>) {
    let mut parts = Vec::new();
    let mut names = Vec::new();
    for h in holders(spec) {
        for m in h.mounts.iter().filter(|m| m.name == volume) {
            parts.push(format!("{} {} at {}", h.role, h.name, m.mount_path));
            if !names.iter().any(|n| n == h.name) {
                names.push(h.name.to_owned());
            }
        }
    }
    if parts.is_empty() {
        ("not mounted by any container".to_owned(), names)
    } else {
        (format!("mounted by {}", parts.join(", ")), names)
    }
}

/// One source of a volume: object name, field, items, optional.
type Source<'a> = (
    String,
    &'static str,
    Option<&'a Vec<k8s_openapi::api::core::v1::KeyToPath>>,
    Option<bool>,
);

/// `(object name, items, optional)` of each source of `kind` in volume `v`.
fn volume_sources(v: &Volume, kind: Kind) -> Vec<Source<'_>> {
    let mut out = Vec::new();
    match kind {
        Kind::Secret => {
            if let Some(s) = &v.secret {
                let name = s.secret_name.clone().unwrap_or_default();
                out.push((name, "secret", s.items.as_ref(), s.optional));
            }
        }
        Kind::ConfigMap => {
            if let Some(c) = &v.config_map {
                out.push((c.name.clone(), "configMap", c.items.as_ref(), c.optional));
            }
        }
        Kind::Pvc => {
            if let Some(p) = &v.persistent_volume_claim {
                out.push((p.claim_name.clone(), "persistentVolumeClaim", None, None));
            }
        }
    }
    for p in v.projected.iter().flat_map(|p| p.sources.iter().flatten()) {
        match kind {
            Kind::Secret => {
                if let Some(s) = &p.secret {
                    out.push((
                        s.name.clone(),
                        "projected secret",
                        s.items.as_ref(),
                        s.optional,
                    ));
                }
            }
            Kind::ConfigMap => {
                if let Some(c) = &p.config_map {
                    out.push((
                        c.name.clone(),
                        "projected configMap",
                        c.items.as_ref(),
                        c.optional,
                    ));
                }
            }
            Kind::Pvc => {}
        }
    }
    out
}

/// Every reference to the `kind` object `name` in `spec`, in kubelet order: for each container
/// its `envFrom` and `env`, then volumes, then `imagePullSecrets`; a volume item is one
/// reference per key.
pub(crate) fn references(spec: &PodSpec, kind: Kind, name: &str) -> Vec<Ref> {
    let mut out = Vec::new();
    for h in holders(spec) {
        let who = format!("{} {}", h.role, h.name);
        for ef in h.env_from {
            let (field, sel) = match kind {
                Kind::Secret => (
                    "secretRef",
                    ef.secret_ref.as_ref().map(|s| (&s.name, s.optional)),
                ),
                Kind::ConfigMap => (
                    "configMapRef",
                    ef.config_map_ref.as_ref().map(|c| (&c.name, c.optional)),
                ),
                Kind::Pvc => ("", None),
            };
            if let Some((n, o)) = sel.filter(|(n, _)| *n == name) {
                let (word, optional) = opt(o);
                let prefix = ef
                    .prefix
                    .as_deref()
                    .map(|p| format!(", prefix {p}"))
                    .unwrap_or_default();
                out.push(Ref {
                    line: format!("envFrom {field} {n} in {who}{prefix} ({word})"),
                    key: None,
                    whole: true,
                    optional,
                    containers: vec![h.name.to_owned()],
                    volume: None,
                });
            }
        }
        for e in h.env {
            let Some(src) = &e.value_from else { continue };
            let sel = match kind {
                Kind::Secret => src
                    .secret_key_ref
                    .as_ref()
                    .map(|s| ("secretKeyRef", &s.name, &s.key, s.optional)),
                Kind::ConfigMap => src
                    .config_map_key_ref
                    .as_ref()
                    .map(|c| ("configMapKeyRef", &c.name, &c.key, c.optional)),
                Kind::Pvc => None,
            };
            if let Some((field, n, key, o)) = sel.filter(|s| s.1 == name) {
                let (word, optional) = opt(o);
                out.push(Ref {
                    line: format!("env {} ← {field} {n}/{key} in {who} ({word})", e.name),
                    key: Some(key.clone()),
                    whole: false,
                    optional,
                    containers: vec![h.name.to_owned()],
                    volume: None,
                });
            }
        }
    }
    for v in spec.volumes.iter().flatten() {
        let (mounts, containers) = mounted_by(spec, &v.name);
        for (n, field, items, o) in volume_sources(v, kind) {
            if n != name {
                continue;
            }
            let (word, optional) = opt(o);
            let base = format!("volume {} ← {field} {n}", v.name);
            match items.filter(|i| !i.is_empty()) {
                Some(items) => {
                    for i in items {
                        out.push(Ref {
                            line: format!("{base} item {} → {}, {mounts} ({word})", i.key, i.path),
                            key: Some(i.key.clone()),
                            whole: false,
                            optional,
                            containers: containers.clone(),
                            volume: Some(v.name.clone()),
                        });
                    }
                }
                None => out.push(Ref {
                    line: format!("{base}, {mounts} ({word})"),
                    key: None,
                    whole: kind != Kind::Pvc,
                    optional,
                    containers: containers.clone(),
                    volume: Some(v.name.clone()),
                }),
            }
        }
    }
    if kind == Kind::Secret {
        for s in spec.image_pull_secrets.iter().flatten() {
            if s.name == name {
                out.push(Ref {
                    line: format!(
                        "imagePullSecrets {name} (a missing pull secret is tolerated: the kubelet pulls without it)"
                    ),
                    key: None,
                    whole: false,
                    optional: true,
                    containers: Vec::new(),
                    volume: None,
                });
            }
        }
    }
    out
}

/// The other Secrets and ConfigMaps container `container` uses (env, envFrom, mounted
/// volumes), each once, without `(kind, name)` itself: the kubelet reports the first missing
/// one only.
pub(crate) fn other_objects(
    spec: &PodSpec,
    container: &str,
    skip: (Kind, &str),
) -> Vec<(Kind, String)> {
    let mut out: Vec<(Kind, String)> = Vec::new();
    let mut add = |k: Kind, n: &str| {
        let is_skip = k == skip.0 && n == skip.1;
        if !is_skip && !n.is_empty() && !out.iter().any(|(a, b)| *a == k && b == n) {
            out.push((k, n.to_owned()));
        }
    };
    for h in holders(spec).into_iter().filter(|h| h.name == container) {
        for ef in h.env_from {
            if let Some(s) = &ef.secret_ref {
                add(Kind::Secret, &s.name);
            }
            if let Some(c) = &ef.config_map_ref {
                add(Kind::ConfigMap, &c.name);
            }
        }
        for src in h.env.iter().filter_map(|e| e.value_from.as_ref()) {
            if let Some(s) = &src.secret_key_ref {
                add(Kind::Secret, &s.name);
            }
            if let Some(c) = &src.config_map_key_ref {
                add(Kind::ConfigMap, &c.name);
            }
        }
    }
    out
}

/// The keys the references need, each once, in order.
pub(crate) fn needed_keys(refs: &[Ref]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for k in refs.iter().filter_map(|r| r.key.as_ref()) {
        if !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    keys
}

/// The command that creates the missing object with the keys the pod needs:
/// `kubectl create configmap NAME -n NS --from-literal=k1=… --from-literal=k2=…`.
pub(crate) fn create_command(kind: Kind, name: &str, namespace: &str, refs: &[Ref]) -> String {
    let keys = needed_keys(refs);
    let mut args: Vec<String> = keys
        .iter()
        .map(|k| format!("--from-literal={k}=…"))
        .collect();
    if args.is_empty() || refs.iter().any(|r| r.whole) {
        args.push(if refs.iter().any(|r| r.volume.is_some() && r.whole) {
            "--from-file=<key>=<file>".to_owned()
        } else {
            "--from-literal=<KEY>=<value>".to_owned()
        });
    }
    let verb = match kind {
        Kind::Secret => "secret generic",
        Kind::ConfigMap => "configmap",
        Kind::Pvc => {
            return format!(
                "create PersistentVolumeClaim {name} in namespace {namespace} (kubectl apply -f pvc.yaml) or fix the claimName; kubectl get pvc -n {namespace} lists the claims there"
            );
        }
    };
    format!(
        "kubectl create {verb} {name} -n {namespace} {}",
        args.join(" ")
    )
}
