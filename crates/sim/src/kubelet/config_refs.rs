//! What the kubelet reads from ConfigMaps and Secrets before it starts a container: the
//! environment (`env[].valueFrom.configMapKeyRef`/`secretKeyRef`, `envFrom`) and the
//! `configMap`, `secret` and `projected` volumes (`docs/kubelet-references.md`).
//!
//! Pure: the objects come in as a [`ConfigSources`] snapshot that the kubelet driver refreshes
//! from the store before every pass. The messages are the kubelet's (`makeEnvironmentVariables`
//! in `pkg/kubelet/kubelet_pods.go`; the volume plugins `pkg/volume/configmap`, `secret`,
//! `projected`): a missing object is the API's NotFound for the singular resource
//! (`configmap "x" not found`, `secret "s" not found`), a missing key
//! `couldn't find key K in ConfigMap ns/x` (env) or
//! `configmap references non-existent config key: K` (volume item).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Container, PodSpec, Volume};

/// The ConfigMaps and Secrets of the cluster as the kubelet sees them: `(namespace, name)` →
/// key → value (ConfigMap `data` and `binaryData`, Secret `data` decoded as UTF-8, lossy).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigSources {
    /// ConfigMaps by `(namespace, name)`.
    pub config_maps: BTreeMap<(String, String), BTreeMap<String, String>>,
    /// Secrets by `(namespace, name)`.
    pub secrets: BTreeMap<(String, String), BTreeMap<String, String>>,
    /// Services by `(namespace, name)`: what cluster DNS and kube-proxy make of them, for the
    /// programs that wait for one ([`crate::runtime::loops`]).
    pub services: crate::runtime::loops::Services,
}

/// The two kinds a reference can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    ConfigMap,
    Secret,
}

impl ConfigSources {
    fn get(&self, kind: Kind, ns: &str, name: &str) -> Option<&BTreeMap<String, String>> {
        let key = (ns.to_string(), name.to_string());
        match kind {
            Kind::ConfigMap => self.config_maps.get(&key),
            Kind::Secret => self.secrets.get(&key),
        }
    }

    /// The object, or the kubelet's NotFound message (`configmap "x" not found`).
    fn require(
        &self,
        kind: Kind,
        ns: &str,
        name: &str,
    ) -> Result<&BTreeMap<String, String>, String> {
        self.get(kind, ns, name).ok_or_else(|| {
            let resource = match kind {
                Kind::ConfigMap => "configmap",
                Kind::Secret => "secret",
            };
            format!("{resource} \"{name}\" not found")
        })
    }
}

/// `env` names the kubelet accepts from `envFrom` (a C identifier, or any printable name since
/// relaxed validation: here letters, digits, `_`, `-`, `.`, not starting with a digit).
fn valid_env_name(k: &str) -> bool {
    !k.is_empty()
        && !k.starts_with(|c: char| c.is_ascii_digit())
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The environment of container `c` of a pod in namespace `ns`, in the kubelet's order:
/// `envFrom` sources first (each key with its `prefix`), then `env` entries (which override).
/// Plain `value`s are kept; `fieldRef`/`resourceFieldRef` entries are left out (not resolved
/// here). Errors: the message the container waits with in `CreateContainerConfigError`.
pub fn resolve_env(
    ns: &str,
    c: &Container,
    sources: &ConfigSources,
) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    let set = |out: &mut Vec<(String, String)>, k: String, v: String| match out
        .iter_mut()
        .find(|(n, _)| *n == k)
    {
        Some(e) => e.1 = v,
        None => out.push((k, v)),
    };
    for from in c.env_from.iter().flatten() {
        let prefix = from.prefix.clone().unwrap_or_default();
        let (kind, name, optional) = if let Some(r) = &from.config_map_ref {
            (Kind::ConfigMap, r.name.as_str(), r.optional == Some(true))
        } else if let Some(r) = &from.secret_ref {
            (Kind::Secret, r.name.as_str(), r.optional == Some(true))
        } else {
            continue;
        };
        let data = match sources.require(kind, ns, name) {
            Ok(d) => d,
            Err(_) if optional => continue,
            Err(e) => return Err(e),
        };
        for (k, v) in data {
            let key = format!("{prefix}{k}");
            if valid_env_name(&key) {
                set(&mut out, key, v.clone());
            }
        }
    }
    for e in c.env.iter().flatten() {
        if let Some(v) = &e.value {
            set(&mut out, e.name.clone(), v.clone());
            continue;
        }
        let Some(from) = &e.value_from else {
            set(&mut out, e.name.clone(), String::new());
            continue;
        };
        let (kind, name, key, optional) = if let Some(r) = &from.config_map_key_ref {
            (Kind::ConfigMap, &r.name, &r.key, r.optional == Some(true))
        } else if let Some(r) = &from.secret_key_ref {
            (Kind::Secret, &r.name, &r.key, r.optional == Some(true))
        } else {
            continue;
        };
        let data = match sources.require(kind, ns, name) {
            Ok(d) => d,
            Err(_) if optional => continue,
            Err(e) => return Err(e),
        };
        match data.get(key) {
            Some(v) => set(&mut out, e.name.clone(), v.clone()),
            None if optional => {}
            None => {
                let kind = match kind {
                    Kind::ConfigMap => "ConfigMap",
                    Kind::Secret => "Secret",
                };
                return Err(format!("couldn't find key {key} in {kind} {ns}/{name}"));
            }
        }
    }
    Ok(out)
}

/// Checks one referenced object and its `items` keys for a volume.
fn check_items(
    sources: &ConfigSources,
    kind: Kind,
    ns: &str,
    name: &str,
    keys: &[String],
    optional: bool,
) -> Result<(), String> {
    let data = match sources.require(kind, ns, name) {
        Ok(d) => d,
        Err(_) if optional => return Ok(()),
        Err(e) => return Err(e),
    };
    match keys.iter().find(|k| !data.contains_key(*k)) {
        Some(k) if !optional => Err(match kind {
            Kind::ConfigMap => format!("configmap references non-existent config key: {k}"),
            Kind::Secret => format!("references non-existent secret key: {k}"),
        }),
        _ => Ok(()),
    }
}

/// Why volume `v` of a pod in `ns` cannot be set up (`MountVolume.SetUp failed for volume …`),
/// `None` when it can. `kube-root-ca.crt` in a projected source always exists (the simulator's
/// ServiceAccount controller publishes it in every namespace; a pod admitted before it runs
/// must not wait for it).
pub fn volume_error(ns: &str, v: &Volume, sources: &ConfigSources) -> Option<String> {
    let keys = |items: &Option<Vec<k8s_openapi::api::core::v1::KeyToPath>>| -> Vec<String> {
        items.iter().flatten().map(|i| i.key.clone()).collect()
    };
    if let Some(cm) = &v.config_map {
        let opt = cm.optional == Some(true);
        return check_items(
            sources,
            Kind::ConfigMap,
            ns,
            &cm.name,
            &keys(&cm.items),
            opt,
        )
        .err();
    }
    if let Some(s) = &v.secret {
        let name = s.secret_name.clone().unwrap_or_default();
        let opt = s.optional == Some(true);
        return check_items(sources, Kind::Secret, ns, &name, &keys(&s.items), opt).err();
    }
    for p in v.projected.iter().flat_map(|p| p.sources.iter().flatten()) {
        let r = if let Some(cm) = &p.config_map {
            if cm.name == crate::api::admission::service_account::ROOT_CA_CONFIGMAP {
                continue;
            }
            let opt = cm.optional == Some(true);
            check_items(
                sources,
                Kind::ConfigMap,
                ns,
                &cm.name,
                &keys(&cm.items),
                opt,
            )
        } else if let Some(s) = &p.secret {
            let opt = s.optional == Some(true);
            check_items(sources, Kind::Secret, ns, &s.name, &keys(&s.items), opt)
        } else {
            Ok(())
        };
        if let Err(e) = r {
            return Some(e);
        }
    }
    None
}

/// The volumes of `spec` that cannot be set up yet, as `(volume name, message)` in spec order.
pub fn unmountable(ns: &str, spec: &PodSpec, sources: &ConfigSources) -> Vec<(String, String)> {
    spec.volumes
        .iter()
        .flatten()
        .filter_map(|v| volume_error(ns, v, sources).map(|e| (v.name.clone(), e)))
        .collect()
}

/// The files a `configMap` or `secret` volume (or a projected one's ConfigMap/Secret sources)
/// shows inside the container, as (path inside the volume, content): every key, or only the
/// `items` with their `path`s. Missing objects give no files.
pub fn volume_files(ns: &str, v: &Volume, sources: &ConfigSources) -> Vec<(String, String)> {
    type Items = Option<Vec<k8s_openapi::api::core::v1::KeyToPath>>;
    let files = |kind: Kind, name: &str, items: &Items| -> Vec<(String, String)> {
        let Some(data) = sources.get(kind, ns, name) else {
            return Vec::new();
        };
        match items {
            Some(items) => items
                .iter()
                .filter_map(|i| data.get(&i.key).map(|d| (i.path.clone(), d.clone())))
                .collect(),
            None => data.iter().map(|(k, d)| (k.clone(), d.clone())).collect(),
        }
    };
    let mut out = Vec::new();
    if let Some(cm) = &v.config_map {
        out.extend(files(Kind::ConfigMap, &cm.name, &cm.items));
    }
    if let Some(s) = &v.secret {
        out.extend(files(
            Kind::Secret,
            s.secret_name.as_deref().unwrap_or(""),
            &s.items,
        ));
    }
    for p in v.projected.iter().flat_map(|p| p.sources.iter().flatten()) {
        if let Some(cm) = &p.config_map {
            out.extend(files(Kind::ConfigMap, &cm.name, &cm.items));
        }
        if let Some(s) = &p.secret {
            out.extend(files(Kind::Secret, &s.name, &s.items));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container(v: serde_json::Value) -> Container {
        serde_json::from_value(v).expect("container")
    }

    fn sources() -> ConfigSources {
        let mut s = ConfigSources::default();
        s.config_maps.insert(
            ("ns".into(), "app-config".into()),
            BTreeMap::from([("A".into(), "1".into()), ("B".into(), "2".into())]),
        );
        s.secrets.insert(
            ("ns".into(), "db".into()),
            BTreeMap::from([("user".into(), "admin".into())]),
        );
        s
    }

    #[test]
    fn env_from_then_env_overrides() {
        let c = container(serde_json::json!({
            "name": "a",
            "envFrom": [{"configMapRef": {"name": "app-config"}}, {"prefix": "DB_", "secretRef": {"name": "db"}}],
            "env": [{"name": "B", "value": "x"}, {"name": "U", "valueFrom": {"secretKeyRef": {"name": "db", "key": "user"}}}]
        }));
        let env = resolve_env("ns", &c, &sources()).expect("env");
        let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            pairs,
            vec![("A", "1"), ("B", "x"), ("DB_user", "admin"), ("U", "admin")]
        );
    }

    #[test]
    fn missing_objects_and_keys_use_the_kubelets_messages() {
        let s = sources();
        let from = |v| resolve_env("ns", &container(v), &s);
        assert_eq!(
            from(serde_json::json!({"name": "a", "envFrom": [{"configMapRef": {"name": "x"}}]})),
            Err("configmap \"x\" not found".to_string())
        );
        assert_eq!(
            from(
                serde_json::json!({"name": "a", "env": [{"name": "P", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}]})
            ),
            Err("couldn't find key password in Secret ns/db".to_string())
        );
        assert_eq!(
            from(
                serde_json::json!({"name": "a", "env": [{"name": "P", "valueFrom": {"configMapKeyRef": {"name": "app-config", "key": "C"}}}]})
            ),
            Err("couldn't find key C in ConfigMap ns/app-config".to_string())
        );
        assert_eq!(
            from(
                serde_json::json!({"name": "a", "env": [{"name": "P", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k", "optional": true}}}]})
            ),
            Ok(Vec::new())
        );
    }

    #[test]
    fn volumes_need_their_object_and_item_keys() {
        let s = sources();
        let vol = |v| serde_json::from_value::<Volume>(v).expect("volume");
        assert_eq!(
            volume_error(
                "ns",
                &vol(serde_json::json!({"name": "cfg", "configMap": {"name": "other"}})),
                &s
            ),
            Some("configmap \"other\" not found".to_string())
        );
        assert_eq!(
            volume_error(
                "ns",
                &vol(
                    serde_json::json!({"name": "tls", "secret": {"secretName": "db", "items": [{"key": "tls.crt", "path": "c"}]}})
                ),
                &s
            ),
            Some("references non-existent secret key: tls.crt".to_string())
        );
        let cfg = vol(serde_json::json!({"name": "cfg", "configMap": {"name": "app-config"}}));
        assert_eq!(volume_error("ns", &cfg, &s), None);
        assert_eq!(
            volume_files("ns", &cfg, &s),
            vec![
                ("A".to_string(), "1".to_string()),
                ("B".to_string(), "2".to_string())
            ]
        );
    }
}
