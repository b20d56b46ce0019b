//! The defaults and normalisations the API server applies to every pod spec, a pod's or a
//! workload's `spec.template.spec` alike (`docs/core-api.md` §Pod defaults):
//!
//! - `fieldRef.apiVersion: v1` when unset, in env `valueFrom.fieldRef` of every container
//!   (init and ephemeral too) and in `downwardAPI` volume items, projected ones included
//!   (`SetDefaults_ObjectFieldSelector` in `pkg/apis/core/v1/zz_generated.defaults.go`, which
//!   the generated defaulters call for each of those places);
//! - `resourceFieldRef.divisor: "0"` when unset (the field is a plain `resource.Quantity`,
//!   whose zero value serialises as `"0"`);
//! - every quantity in canonical form (`resource.Quantity` is decoded to a number and written
//!   back with `Quantity.String()` in `k8s.io/apimachinery/pkg/api/resource/quantity.go`):
//!   containers' `resources.requests`/`limits` (init and ephemeral containers too),
//!   `spec.overhead`, `resources` of the pod level, `resourceFieldRef.divisor`, and `emptyDir`
//!   `sizeLimit` — `0.5` → `500m`, `1024Mi` → `1Gi`, `1000m` → `1`, `1e3` stays `1e3` (an
//!   exponent keeps its format).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{
    EnvVar, ObjectFieldSelector, PodSpec, ResourceFieldSelector, ResourceRequirements,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

use podscope_model::describe::quantity::canonical;

/// Applies the defaults and canonical quantities of the module docs to `spec`.
pub(crate) fn apply(spec: &mut PodSpec) {
    for c in spec.init_containers.iter_mut().flatten() {
        env(c.env.as_mut());
        resources(c.resources.as_mut());
    }
    for c in &mut spec.containers {
        env(c.env.as_mut());
        resources(c.resources.as_mut());
    }
    for c in spec.ephemeral_containers.iter_mut().flatten() {
        env(c.env.as_mut());
        resources(c.resources.as_mut());
    }
    if let Some(o) = spec.overhead.as_mut() {
        quantities(o);
    }
    resources(spec.resources.as_mut());
    for v in spec.volumes.iter_mut().flatten() {
        if let Some(d) = v.downward_api.as_mut() {
            for item in d.items.iter_mut().flatten() {
                field_ref(item.field_ref.as_mut());
                resource_field_ref(item.resource_field_ref.as_mut());
            }
        }
        if let Some(p) = v.projected.as_mut() {
            for source in p.sources.iter_mut().flatten() {
                let Some(d) = source.downward_api.as_mut() else {
                    continue;
                };
                for item in d.items.iter_mut().flatten() {
                    field_ref(item.field_ref.as_mut());
                    resource_field_ref(item.resource_field_ref.as_mut());
                }
            }
        }
        if let Some(e) = v.empty_dir.as_mut()
            && let Some(q) = e.size_limit.as_mut()
        {
            q.0 = canonical(&q.0);
        }
    }
}

fn env(vars: Option<&mut Vec<EnvVar>>) {
    for var in vars.into_iter().flatten() {
        if let Some(from) = var.value_from.as_mut() {
            field_ref(from.field_ref.as_mut());
            resource_field_ref(from.resource_field_ref.as_mut());
        }
    }
}

fn field_ref(f: Option<&mut ObjectFieldSelector>) {
    if let Some(f) = f
        && f.api_version.as_deref().unwrap_or("").is_empty()
    {
        f.api_version = Some("v1".into());
    }
}

fn resource_field_ref(r: Option<&mut ResourceFieldSelector>) {
    if let Some(r) = r {
        let d = r.divisor.get_or_insert_with(|| Quantity("0".into()));
        d.0 = canonical(&d.0);
    }
}

fn resources(r: Option<&mut ResourceRequirements>) {
    let Some(r) = r else { return };
    for map in [r.requests.as_mut(), r.limits.as_mut()]
        .into_iter()
        .flatten()
    {
        quantities(map);
    }
}

fn quantities(map: &mut BTreeMap<String, Quantity>) {
    for q in map.values_mut() {
        q.0 = canonical(&q.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_refs_default_and_quantities_canonicalise() {
        let mut spec: PodSpec = serde_json::from_value(serde_json::json!({
            "containers": [{"name": "c", "image": "i",
                "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                        {"name": "M", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory"}}}],
                "resources": {"requests": {"cpu": "0.5", "memory": "1024Mi"},
                              "limits": {"cpu": "1000m", "memory": "1e3", "ephemeral-storage": "2048Mi"}}}],
            "overhead": {"cpu": "0.25"},
            "volumes": [{"name": "d", "downwardAPI": {"items": [
                {"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}}]
        }))
        .expect("spec");
        apply(&mut spec);
        let v = serde_json::to_value(&spec).expect("json");
        let c = &v["containers"][0];
        assert_eq!(c["env"][0]["valueFrom"]["fieldRef"]["apiVersion"], "v1");
        assert_eq!(c["env"][1]["valueFrom"]["resourceFieldRef"]["divisor"], "0");
        assert_eq!(c["resources"]["requests"]["cpu"], "500m");
        assert_eq!(c["resources"]["requests"]["memory"], "1Gi");
        assert_eq!(c["resources"]["limits"]["cpu"], "1");
        assert_eq!(c["resources"]["limits"]["memory"], "1e3");
        assert_eq!(c["resources"]["limits"]["ephemeral-storage"], "2Gi");
        assert_eq!(v["overhead"]["cpu"], "250m");
        assert_eq!(
            v["volumes"][0]["downwardAPI"]["items"][0]["fieldRef"]["apiVersion"],
            "v1"
        );
    }
}
