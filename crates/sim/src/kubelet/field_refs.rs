//! The downward API as the kubelet resolves it when it starts a container
//! (`docs/kubelet-references.md` §Environment): `env[].valueFrom.fieldRef` and
//! `resourceFieldRef`, and the `downwardAPI` volume items. Pure: the pod comes in as written
//! (its status gives `status.podIP`/`status.hostIP`).
//!
//! `fieldRef` paths (`podFieldSelectorRuntimeValue` in `pkg/kubelet/kubelet_pods.go`,
//! `ExtractFieldPathAsString` in `pkg/fieldpath/fieldpath.go`): `metadata.name`,
//! `metadata.namespace`, `metadata.uid`, `metadata.labels['k']`, `metadata.annotations['k']`,
//! `metadata.labels`/`metadata.annotations` (every pair as `k="v"` lines, volumes only),
//! `spec.nodeName`, `spec.serviceAccountName`, `status.hostIP`, `status.hostIPs`,
//! `status.podIP`, `status.podIPs` (the lists comma-joined).
//!
//! `resourceFieldRef` (`ExtractContainerResourceValue` in `pkg/api/v1/resource/helpers.go`):
//! `limits.*`/`requests.*` of `cpu`, `memory`, `ephemeral-storage`, divided by `divisor`
//! (default `1`) and rounded up; a limit the container does not set is the node's allocatable
//! (`MergeContainerResourceLimits`), an unset request is `0`.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Pod, ResourceFieldSelector, ResourceRequirements};

use podscope_model::diagnosis::facts::quantity;

// The node's allocatable resources: the value of a limit the container leaves unset.
use crate::nodes::object::ALLOCATABLE;

/// `k="v"` lines, sorted by key, as the downward API writes a whole map.
fn pairs(map: Option<&BTreeMap<String, String>>) -> String {
    map.into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}=\"{v}\"\n"))
        .collect()
}

/// The value of `fieldRef` path `path` for `pod`, `None` for a path the kubelet does not
/// support. A field the pod does not have yet (no `podIP`) is the empty string.
pub fn field_value(pod: &Pod, path: &str) -> Option<String> {
    let meta = &pod.metadata;
    let status = pod.status.as_ref();
    let spec = pod.spec.as_ref();
    let key_of = |prefix: &str| -> Option<String> {
        let rest = path.strip_prefix(prefix)?.strip_suffix("']")?;
        Some(rest.to_string())
    };
    if let Some(k) = key_of("metadata.labels['") {
        return Some(
            meta.labels
                .as_ref()
                .and_then(|l| l.get(&k))
                .cloned()
                .unwrap_or_default(),
        );
    }
    if let Some(k) = key_of("metadata.annotations['") {
        return Some(
            meta.annotations
                .as_ref()
                .and_then(|l| l.get(&k))
                .cloned()
                .unwrap_or_default(),
        );
    }
    let text = |v: Option<&String>| v.cloned().unwrap_or_default();
    Some(match path {
        "metadata.name" => text(meta.name.as_ref()),
        "metadata.namespace" => meta.namespace.clone().unwrap_or_else(|| "default".into()),
        "metadata.uid" => text(meta.uid.as_ref()),
        "metadata.labels" => pairs(meta.labels.as_ref()),
        "metadata.annotations" => pairs(meta.annotations.as_ref()),
        "spec.nodeName" => text(spec.and_then(|s| s.node_name.as_ref())),
        "spec.serviceAccountName" => text(spec.and_then(|s| s.service_account_name.as_ref())),
        "status.hostIP" => text(status.and_then(|s| s.host_ip.as_ref())),
        "status.podIP" => text(status.and_then(|s| s.pod_ip.as_ref())),
        "status.hostIPs" => status
            .and_then(|s| s.host_ips.as_ref())
            .map(|v| {
                v.iter()
                    .map(|i| i.ip.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .unwrap_or_default(),
        "status.podIPs" => status
            .and_then(|s| s.pod_ips.as_ref())
            .map(|v| {
                v.iter()
                    .map(|i| i.ip.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .unwrap_or_default(),
        _ => return None,
    })
}

/// The value of `r` for a container with `resources` (the container named in `r` is the
/// caller's business), as the kubelet formats it: an integer, rounded up after the divisor.
/// `None` for a resource it does not support or a malformed quantity.
pub fn resource_value(
    resources: Option<&ResourceRequirements>,
    r: &ResourceFieldSelector,
) -> Option<String> {
    let (kind, name) = r.resource.split_once('.')?;
    let allocatable = ALLOCATABLE.iter().find(|(n, _)| *n == name)?.1;
    let set = match kind {
        "limits" => resources.and_then(|x| x.limits.as_ref()),
        "requests" => resources.and_then(|x| x.requests.as_ref()),
        _ => return None,
    }
    .and_then(|m| m.get(name))
    .map(|q| q.0.clone());
    let value = match (set, kind) {
        (Some(q), _) => quantity(&q)?,
        (None, "limits") => quantity(allocatable)?,
        (None, _) => 0.0,
    };
    let divisor = match r.divisor.as_ref() {
        Some(d) => quantity(&d.0)?,
        None => 1.0,
    };
    if divisor <= 0.0 {
        return None;
    }
    // Quantities are decimal: round away the float error before taking the ceiling.
    let ratio = ((value / divisor) * 1e6).round() / 1e6;
    Some(format!("{}", ratio.ceil() as i64))
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

    use super::*;

    fn pod() -> Pod {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web", "tier": "fe"}},
            "spec": {"nodeName": "node-1", "containers": []},
            "status": {"podIP": "10.244.0.7", "podIPs": [{"ip": "10.244.0.7"}]},
        }))
        .expect("pod")
    }

    #[test]
    fn field_paths_read_the_pod() {
        let p = pod();
        assert_eq!(field_value(&p, "metadata.name").as_deref(), Some("web"));
        assert_eq!(
            field_value(&p, "metadata.namespace").as_deref(),
            Some("shop")
        );
        assert_eq!(field_value(&p, "spec.nodeName").as_deref(), Some("node-1"));
        assert_eq!(
            field_value(&p, "status.podIP").as_deref(),
            Some("10.244.0.7")
        );
        assert_eq!(
            field_value(&p, "metadata.labels['app']").as_deref(),
            Some("web")
        );
        assert_eq!(
            field_value(&p, "metadata.labels").as_deref(),
            Some("app=\"web\"\ntier=\"fe\"\n")
        );
        assert_eq!(field_value(&p, "spec.containers"), None);
    }

    #[test]
    fn resources_are_divided_and_rounded_up() {
        let res: ResourceRequirements = serde_json::from_value(serde_json::json!({
            "limits": {"cpu": "500m", "memory": "128Mi"}, "requests": {"cpu": "250m"}
        }))
        .expect("resources");
        let sel = |r: &str, d: Option<&str>| ResourceFieldSelector {
            resource: r.into(),
            divisor: d.map(|d| Quantity(d.into())),
            container_name: None,
        };
        assert_eq!(
            resource_value(Some(&res), &sel("limits.cpu", None)).as_deref(),
            Some("1")
        );
        assert_eq!(
            resource_value(Some(&res), &sel("requests.cpu", Some("1m"))).as_deref(),
            Some("250")
        );
        assert_eq!(
            resource_value(Some(&res), &sel("limits.memory", Some("1Mi"))).as_deref(),
            Some("128")
        );
        assert_eq!(
            resource_value(None, &sel("limits.memory", None)).as_deref(),
            Some("8238903296")
        );
        assert_eq!(
            resource_value(None, &sel("requests.memory", None)).as_deref(),
            Some("0")
        );
    }
}
