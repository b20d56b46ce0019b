//! The list and map metadata of kube-apiserver's OpenAPI for the schemas the simulator serves:
//! `x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-patch-strategy`,
//! `x-kubernetes-patch-merge-key` (and `x-kubernetes-map-type`), which k8s-openapi's `schemars`
//! output lacks.
//!
//! kubectl's client-side apply reads the patch strategy and merge key from `/openapi/v3` to
//! compute its strategic merge patch (lists with a merge key are merged element by element;
//! lists without one are sent whole), and the simulator's PATCH handler reads the same
//! annotated schemas ([`super::schemas`]), so both sides agree.
//!
//! Source: the markers and struct tags of `k8s.io/api/core/v1/types.go`,
//! `k8s.io/api/apps/v1/types.go`, `k8s.io/api/batch/v1/types.go` and
//! `k8s.io/apimachinery/pkg/apis/meta/v1/types.go` (`+listType`, `+listMapKey`, `+mapType`,
//! `patchStrategy`, `patchMergeKey`), which kube-apiserver's OpenAPI carries verbatim. The
//! workloads reach the PodSpec rows through `spec.template` (a `$ref` to PodTemplateSpec).

use serde_json::{Map, Value, json};

/// Schema name prefix of core/v1 types.
const CORE: &str = "io.k8s.api.core.v1.";
/// Schema name prefix of meta/v1 types (written `meta.` in [`LISTS`]).
const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.";

/// One row of [`LISTS`]: `(schema, property, x-kubernetes-list-type,
/// x-kubernetes-list-map-keys, x-kubernetes-patch-strategy, x-kubernetes-patch-merge-key)`;
/// empty strings and lists are absent extensions. Schemas are core/v1 names, or meta/v1,
/// apps/v1 and batch/v1 names written `meta.<Name>`, `apps.<Name>`, `batch.<Name>`.
type ListRow = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
);

/// The list fields with extensions, as kube-apiserver's OpenAPI has them (see [`ListRow`]).
#[rustfmt::skip]
const LISTS: &[ListRow] = &[
    ("Capabilities", "add", "atomic", &[], "", ""),
    ("Capabilities", "drop", "atomic", &[], "", ""),
    ("CephFSVolumeSource", "monitors", "atomic", &[], "", ""),
    ("ConfigMapProjection", "items", "atomic", &[], "", ""),
    ("ConfigMapVolumeSource", "items", "atomic", &[], "", ""),
    ("Container", "args", "atomic", &[], "", ""),
    ("Container", "command", "atomic", &[], "", ""),
    ("Container", "env", "map", &["name"], "merge", "name"),
    ("Container", "envFrom", "atomic", &[], "", ""),
    ("Container", "ports", "map", &["containerPort", "protocol"], "merge", "containerPort"),
    ("Container", "resizePolicy", "atomic", &[], "", ""),
    ("Container", "volumeDevices", "map", &["devicePath"], "merge", "devicePath"),
    ("Container", "volumeMounts", "map", &["mountPath"], "merge", "mountPath"),
    ("ContainerStatus", "allocatedResourcesStatus", "map", &["name"], "merge", "name"),
    ("ContainerStatus", "volumeMounts", "map", &["mountPath"], "merge", "mountPath"),
    ("DownwardAPIProjection", "items", "atomic", &[], "", ""),
    ("DownwardAPIVolumeSource", "items", "atomic", &[], "", ""),
    ("EphemeralContainer", "args", "atomic", &[], "", ""),
    ("EphemeralContainer", "command", "atomic", &[], "", ""),
    ("EphemeralContainer", "env", "map", &["name"], "merge", "name"),
    ("EphemeralContainer", "envFrom", "atomic", &[], "", ""),
    ("EphemeralContainer", "ports", "map", &["containerPort", "protocol"], "merge", "containerPort"),
    ("EphemeralContainer", "resizePolicy", "atomic", &[], "", ""),
    ("EphemeralContainer", "volumeDevices", "map", &["devicePath"], "merge", "devicePath"),
    ("EphemeralContainer", "volumeMounts", "map", &["mountPath"], "merge", "mountPath"),
    ("ExecAction", "command", "atomic", &[], "", ""),
    ("FCVolumeSource", "targetWWNs", "atomic", &[], "", ""),
    ("FCVolumeSource", "wwids", "atomic", &[], "", ""),
    ("HTTPGetAction", "httpHeaders", "atomic", &[], "", ""),
    ("HostAlias", "hostnames", "atomic", &[], "", ""),
    ("ISCSIVolumeSource", "portals", "atomic", &[], "", ""),
    ("LinuxContainerUser", "supplementalGroups", "atomic", &[], "", ""),
    ("NodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", "atomic", &[], "", ""),
    ("NodeSelectorRequirement", "values", "atomic", &[], "", ""),
    ("NodeSelectorTerm", "matchExpressions", "atomic", &[], "", ""),
    ("NodeSelectorTerm", "matchFields", "atomic", &[], "", ""),
    ("PersistentVolumeClaimSpec", "accessModes", "atomic", &[], "", ""),
    ("PodAffinity", "preferredDuringSchedulingIgnoredDuringExecution", "atomic", &[], "", ""),
    ("PodAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "atomic", &[], "", ""),
    ("PodAffinityTerm", "matchLabelKeys", "atomic", &[], "", ""),
    ("PodAffinityTerm", "mismatchLabelKeys", "atomic", &[], "", ""),
    ("PodAffinityTerm", "namespaces", "atomic", &[], "", ""),
    ("PodAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution", "atomic", &[], "", ""),
    ("PodAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "atomic", &[], "", ""),
    ("PodDNSConfig", "nameservers", "atomic", &[], "", ""),
    ("PodDNSConfig", "options", "atomic", &[], "", ""),
    ("PodDNSConfig", "searches", "atomic", &[], "", ""),
    ("PodSecurityContext", "supplementalGroups", "atomic", &[], "", ""),
    ("PodSecurityContext", "sysctls", "atomic", &[], "", ""),
    ("PodSpec", "containers", "map", &["name"], "merge", "name"),
    ("PodSpec", "ephemeralContainers", "map", &["name"], "merge", "name"),
    ("PodSpec", "hostAliases", "map", &["ip"], "merge", "ip"),
    ("PodSpec", "imagePullSecrets", "map", &["name"], "merge", "name"),
    ("PodSpec", "initContainers", "map", &["name"], "merge", "name"),
    ("PodSpec", "readinessGates", "atomic", &[], "", ""),
    ("PodSpec", "resourceClaims", "map", &["name"], "merge,retainKeys", "name"),
    ("PodSpec", "schedulingGates", "map", &["name"], "merge", "name"),
    ("PodSpec", "tolerations", "atomic", &[], "", ""),
    ("PodSpec", "topologySpreadConstraints", "map", &["topologyKey", "whenUnsatisfiable"], "merge", "topologyKey"),
    ("PodSpec", "volumes", "map", &["name"], "merge,retainKeys", "name"),
    ("PodStatus", "conditions", "map", &["type"], "merge", "type"),
    ("PodStatus", "containerStatuses", "atomic", &[], "", ""),
    ("PodStatus", "ephemeralContainerStatuses", "atomic", &[], "", ""),
    ("PodStatus", "hostIPs", "atomic", &[], "merge", "ip"),
    ("PodStatus", "initContainerStatuses", "atomic", &[], "", ""),
    ("PodStatus", "podIPs", "map", &["ip"], "merge", "ip"),
    ("PodStatus", "resourceClaimStatuses", "map", &["name"], "merge,retainKeys", "name"),
    ("ProjectedVolumeSource", "sources", "atomic", &[], "", ""),
    ("RBDVolumeSource", "monitors", "atomic", &[], "", ""),
    ("ResourceRequirements", "claims", "map", &["name"], "", ""),
    ("ResourceStatus", "resources", "map", &["resourceID"], "", ""),
    ("SecretProjection", "items", "atomic", &[], "", ""),
    ("SecretVolumeSource", "items", "atomic", &[], "", ""),
    ("TopologySpreadConstraint", "matchLabelKeys", "atomic", &[], "", ""),
    ("apps.DaemonSetStatus", "conditions", "map", &["type"], "merge", "type"),
    ("apps.DeploymentStatus", "conditions", "map", &["type"], "merge", "type"),
    ("apps.ReplicaSetStatus", "conditions", "map", &["type"], "merge", "type"),
    ("apps.StatefulSetSpec", "volumeClaimTemplates", "atomic", &[], "", ""),
    ("apps.StatefulSetStatus", "conditions", "map", &["type"], "merge", "type"),
    ("batch.CronJobStatus", "active", "atomic", &[], "", ""),
    ("batch.JobStatus", "conditions", "atomic", &[], "merge", "type"),
    ("batch.PodFailurePolicy", "rules", "atomic", &[], "", ""),
    ("batch.PodFailurePolicyOnExitCodesRequirement", "values", "set", &[], "", ""),
    ("batch.PodFailurePolicyRule", "onPodConditions", "atomic", &[], "", ""),
    ("batch.SuccessPolicy", "rules", "atomic", &[], "", ""),
    ("batch.UncountedTerminatedPods", "failed", "set", &[], "", ""),
    ("batch.UncountedTerminatedPods", "succeeded", "set", &[], "", ""),
    ("meta.LabelSelector", "matchExpressions", "atomic", &[], "", ""),
    ("meta.LabelSelectorRequirement", "values", "atomic", &[], "", ""),
    ("meta.ObjectMeta", "finalizers", "set", &[], "merge", ""),
    ("meta.ObjectMeta", "managedFields", "atomic", &[], "", ""),
    ("meta.ObjectMeta", "ownerReferences", "map", &["uid"], "merge", "uid"),
    ("meta.StatusDetails", "causes", "atomic", &[], "", ""),
];

/// Maps marked `+mapType=atomic` (replaced whole by a strategic merge patch).
const ATOMIC_MAPS: &[(&str, &str)] = &[("PodSpec", "nodeSelector")];

fn schema_name(short: &str) -> String {
    match short.split_once('.') {
        Some(("meta", name)) => format!("{META}{name}"),
        Some((group @ ("apps" | "batch"), name)) => format!("io.k8s.api.{group}.v1.{name}"),
        _ => format!("{CORE}{short}"),
    }
}

/// Adds the extensions of [`LISTS`] and [`ATOMIC_MAPS`] to the properties of `schemas` (a
/// `components.schemas` object). Rows naming a schema or property that is absent are skipped.
pub(crate) fn annotate(schemas: &mut Value) {
    let mut set = |schema: &str, field: &str, ext: Map<String, Value>| {
        if let Some(Value::Object(prop)) = schemas
            .get_mut(schema_name(schema))
            .and_then(|s| s.get_mut("properties"))
            .and_then(|p| p.get_mut(field))
        {
            prop.extend(ext);
        }
    };
    for (schema, field, list_type, keys, strategy, merge_key) in LISTS {
        let mut ext = Map::new();
        for (name, value) in [
            ("x-kubernetes-list-type", list_type),
            ("x-kubernetes-patch-strategy", strategy),
            ("x-kubernetes-patch-merge-key", merge_key),
        ] {
            if !value.is_empty() {
                ext.insert(name.to_string(), json!(value));
            }
        }
        if !keys.is_empty() {
            ext.insert("x-kubernetes-list-map-keys".into(), json!(keys));
        }
        set(schema, field, ext);
    }
    for (schema, field) in ATOMIC_MAPS {
        let mut ext = Map::new();
        ext.insert("x-kubernetes-map-type".into(), json!("atomic"));
        set(schema, field, ext);
    }
}
