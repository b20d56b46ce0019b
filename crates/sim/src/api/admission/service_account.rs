//! The `ServiceAccount` admission plugin's part of creating a pod
//! (`plugin/pkg/admission/serviceaccount/admission.go`): the service account defaults to
//! `default`, and unless `automountServiceAccountToken: false` (on the pod or its
//! ServiceAccount) the pod gets a projected `kube-api-access-<5 chars>` volume and every
//! container and init container (never an ephemeral one) a read-only mount of it at
//! [`MOUNT_PATH`] (`docs/kubelet-references.md` §Service account token volume).

use k8s_openapi::api::core::v1::{
    ConfigMapProjection, DownwardAPIProjection, DownwardAPIVolumeFile, KeyToPath,
    ObjectFieldSelector, Pod, ProjectedVolumeSource, ServiceAccountTokenProjection, Volume,
    VolumeMount, VolumeProjection,
};

use crate::api::object::{Object, Resource};
use crate::api::status::ApiError;
use crate::api::store::Store;

/// Where the token, `ca.crt` and `namespace` files appear in each container.
pub const MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// The prefix of the generated volume name (`kube-api-access-` + 5 characters).
pub const VOLUME_PREFIX: &str = "kube-api-access-";
/// The token's lifetime the plugin asks for: one hour plus 7 s, so the kubelet's refresh at
/// 80 % is told apart from a plain one-hour token.
pub const EXPIRATION_SECONDS: i64 = 3607;
/// The ConfigMap the namespace controller publishes in every namespace with the cluster CA.
pub use crate::api::core::namespaces::ROOT_CA_CONFIGMAP;

/// The projected volume named `name`: the token (`path: token`), `ca.crt` from
/// [`ROOT_CA_CONFIGMAP`] and the pod's namespace through the downward API, mode 0644.
pub fn api_access_volume(name: &str) -> Volume {
    Volume {
        name: name.to_string(),
        projected: Some(ProjectedVolumeSource {
            default_mode: Some(0o644),
            sources: Some(vec![
                VolumeProjection {
                    service_account_token: Some(ServiceAccountTokenProjection {
                        expiration_seconds: Some(EXPIRATION_SECONDS),
                        path: "token".into(),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
                VolumeProjection {
                    config_map: Some(ConfigMapProjection {
                        name: ROOT_CA_CONFIGMAP.into(),
                        items: Some(vec![KeyToPath {
                            key: "ca.crt".into(),
                            path: "ca.crt".into(),
                            ..Default::default()
                        }]),
                        optional: None,
                    }),
                    ..Default::default()
                },
                VolumeProjection {
                    downward_api: Some(DownwardAPIProjection {
                        items: Some(vec![DownwardAPIVolumeFile {
                            path: "namespace".into(),
                            field_ref: Some(ObjectFieldSelector {
                                api_version: Some("v1".into()),
                                field_path: "metadata.namespace".into(),
                            }),
                            ..Default::default()
                        }]),
                    }),
                    ..Default::default()
                },
            ]),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The named ServiceAccount's `automountServiceAccountToken` (`None` when unset), looked up
/// as the plugin does before admitting pod `name` in `ns`. The `default` account is taken as
/// existing even before the ServiceAccount controller created it (so pods created at start are
/// not refused). Errors: 403 Forbidden `pods "x" is forbidden: error looking up service account
/// ns/sa: serviceaccount "sa" not found`.
pub fn lookup(store: &Store, ns: &str, name: &str, pod: &Pod) -> Result<Option<bool>, ApiError> {
    let spec = pod.spec.as_ref();
    let sa = spec
        .and_then(|s| s.service_account_name.clone().filter(|n| !n.is_empty()))
        .or_else(|| spec.and_then(|s| s.service_account.clone().filter(|n| !n.is_empty())))
        .unwrap_or_else(|| "default".into());
    match store.object(Resource::ServiceAccounts, ns, &sa) {
        Some(Object::ServiceAccount(a)) => Ok(a.automount_service_account_token),
        _ if sa == "default" => Ok(None),
        _ => Err(ApiError {
            code: 403,
            reason: "Forbidden",
            message: format!(
                "pods \"{name}\" is forbidden: error looking up service account {ns}/{sa}: serviceaccount \"{sa}\" not found"
            ),
        }),
    }
}

/// Sets `serviceAccountName` (default `default`) and the deprecated `serviceAccount` alias, then
/// adds the API-access volume and mounts unless automounting is off (`sa_automount` is the
/// ServiceAccount's `automountServiceAccountToken`, `None` when unset or unknown). `suffix` is
/// the volume name's 5 characters. A pod that already has a `kube-api-access-*` volume keeps it;
/// a container already mounting something at [`MOUNT_PATH`] gets no second mount.
pub fn admit(pod: &mut Pod, sa_automount: Option<bool>, suffix: &str) {
    let Some(spec) = pod.spec.as_mut() else {
        return;
    };
    if spec
        .service_account_name
        .as_deref()
        .unwrap_or("")
        .is_empty()
    {
        spec.service_account_name = Some(
            spec.service_account
                .clone()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "default".into()),
        );
    }
    spec.service_account = spec.service_account_name.clone();
    let automount = spec
        .automount_service_account_token
        .or(sa_automount)
        .unwrap_or(true);
    if !automount {
        return;
    }
    let volumes = spec.volumes.get_or_insert_with(Vec::new);
    let name = match volumes.iter().find(|v| v.name.starts_with(VOLUME_PREFIX)) {
        Some(v) => v.name.clone(),
        None => {
            let name = format!("{VOLUME_PREFIX}{suffix}");
            volumes.push(api_access_volume(&name));
            name
        }
    };
    let containers = spec
        .init_containers
        .iter_mut()
        .flatten()
        .chain(spec.containers.iter_mut());
    for c in containers {
        let mounts = c.volume_mounts.get_or_insert_with(Vec::new);
        if mounts.iter().any(|m| m.mount_path == MOUNT_PATH) {
            continue;
        }
        mounts.push(VolumeMount {
            name: name.clone(),
            mount_path: MOUNT_PATH.into(),
            read_only: Some(true),
            ..Default::default()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(extra: serde_json::Value) -> Pod {
        let mut v = serde_json::json!({
            "metadata": {"name": "p", "namespace": "ns"},
            "spec": {
                "initContainers": [{"name": "i", "image": "busybox"}],
                "containers": [{"name": "a", "image": "nginx"}]
            }
        });
        if let (Some(spec), serde_json::Value::Object(m)) = (v["spec"].as_object_mut(), extra) {
            spec.extend(m);
        }
        serde_json::from_value(v).expect("pod")
    }

    #[test]
    fn every_container_mounts_the_projected_volume() {
        let mut p = pod(serde_json::json!({}));
        admit(&mut p, None, "abcde");
        let spec = p.spec.as_ref().expect("spec");
        assert_eq!(spec.service_account_name.as_deref(), Some("default"));
        assert_eq!(spec.service_account.as_deref(), Some("default"));
        let v = spec.volumes.as_ref().expect("volumes");
        assert_eq!(v[0].name, "kube-api-access-abcde");
        let json = serde_json::to_value(&v[0]).expect("json");
        assert_eq!(
            json["projected"]["sources"][0]["serviceAccountToken"]["expirationSeconds"],
            3607
        );
        assert_eq!(json["projected"]["defaultMode"], 420);
        for c in spec
            .init_containers
            .iter()
            .flatten()
            .chain(&spec.containers)
        {
            let m = &c.volume_mounts.as_ref().expect("mounts")[0];
            assert_eq!(m.mount_path, MOUNT_PATH);
            assert_eq!(m.read_only, Some(true));
        }
    }

    #[test]
    fn automount_false_on_the_pod_or_the_account_adds_nothing() {
        let mut p = pod(serde_json::json!({"automountServiceAccountToken": false}));
        admit(&mut p, Some(true), "abcde");
        assert!(p.spec.as_ref().and_then(|s| s.volumes.as_ref()).is_none());
        let mut p = pod(serde_json::json!({"serviceAccountName": "robot"}));
        admit(&mut p, Some(false), "abcde");
        let spec = p.spec.as_ref().expect("spec");
        assert_eq!(spec.service_account.as_deref(), Some("robot"));
        assert!(spec.volumes.is_none());
    }
}
