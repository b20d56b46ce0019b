//! The PersistentVolume binder (`pkg/controller/volume/persistentvolume/pv_controller.go`), for
//! statically provisioned volumes (`docs/controllers.md` §PersistentVolumes): a PV without a
//! phase becomes `Available`; an unbound PVC (`spec.volumeName` empty) binds to the smallest
//! `Available` PV with the same `storageClassName` (unset counts as `""`), at least the
//! requested `storage` and every requested access mode, or to the PV its `volumeName` names.
//! Binding writes the PV's `claimRef` and phase `Bound`, then the PVC's `volumeName`, the
//! `pv.kubernetes.io/bind-completed` and `bound-by-controller` annotations and its status
//! (phase `Bound`, the PV's `accessModes` and `capacity`). A PVC that finds nothing has phase
//! `Pending`. There is no StorageClass and no dynamic provisioning: a claim waits for a PV.

use std::sync::Arc;

use k8s_openapi::api::core::v1::{
    ObjectReference, PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimStatus,
    PersistentVolumeStatus,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

use crate::api::object::{Object, Resource};
use crate::api::store::Store;

/// A quantity (`1Gi`, `500M`, `2`, `1.5Gi`) in bytes; `None` when it does not parse.
pub fn bytes(q: &Quantity) -> Option<f64> {
    podscope_model::describe::quantity::parse(&q.0)
}

fn storage(map: Option<&std::collections::BTreeMap<String, Quantity>>) -> f64 {
    map.and_then(|m| m.get("storage"))
        .and_then(bytes)
        .unwrap_or(0.0)
}

fn pv_phase(pv: &PersistentVolume) -> &str {
    pv.status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("")
}

/// Whether `pv` can take `pvc` (see the module docs).
pub fn matches(pv: &PersistentVolume, pvc: &PersistentVolumeClaim) -> bool {
    let (Some(pvs), Some(cs)) = (pv.spec.as_ref(), pvc.spec.as_ref()) else {
        return false;
    };
    if pv.metadata.deletion_timestamp.is_some() || pvs.claim_ref.is_some() {
        return false;
    }
    if pv_phase(pv) != "Available" && !pv_phase(pv).is_empty() {
        return false;
    }
    let class = |c: &Option<String>| c.clone().unwrap_or_default();
    if class(&pvs.storage_class_name) != class(&cs.storage_class_name) {
        return false;
    }
    let modes = pvs.access_modes.clone().unwrap_or_default();
    if !cs.access_modes.iter().flatten().all(|m| modes.contains(m)) {
        return false;
    }
    let want = storage(cs.resources.as_ref().and_then(|r| r.requests.as_ref()));
    storage(pvs.capacity.as_ref()) >= want
}

/// The PV an unbound `pvc` should bind to: the one its `volumeName` names, else the smallest
/// matching one (ties by name).
pub fn choose<'a>(
    pvs: &'a [PersistentVolume],
    pvc: &PersistentVolumeClaim,
) -> Option<&'a PersistentVolume> {
    let named = pvc.spec.as_ref().and_then(|s| s.volume_name.clone());
    let mut candidates: Vec<&PersistentVolume> = pvs
        .iter()
        .filter(|pv| named.is_none() || pv.metadata.name == named)
        .filter(|pv| matches(pv, pvc))
        .collect();
    candidates.sort_by(|a, b| {
        let (sa, sb) = (
            storage(a.spec.as_ref().and_then(|s| s.capacity.as_ref())),
            storage(b.spec.as_ref().and_then(|s| s.capacity.as_ref())),
        );
        sa.total_cmp(&sb)
            .then(a.metadata.name.cmp(&b.metadata.name))
    });
    candidates.first().copied()
}

fn bound(pvc: &PersistentVolumeClaim) -> bool {
    pvc.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Bound")
}

/// One pass against the store (see the module docs).
pub(crate) fn sync(store: &Store) {
    let mut pvs: Vec<PersistentVolume> = store
        .list(Resource::PersistentVolumes, None)
        .0
        .into_iter()
        .filter_map(|o| match o {
            Object::PersistentVolume(p) => Some((*p).clone()),
            _ => None,
        })
        .collect();
    for pv in pvs.iter_mut().filter(|pv| pv_phase(pv).is_empty()) {
        let name = pv.metadata.name.clone().unwrap_or_default();
        let phase = if pv.spec.as_ref().is_some_and(|s| s.claim_ref.is_some()) {
            "Bound"
        } else {
            "Available"
        };
        let _ = store.update_object(Resource::PersistentVolumes, "", &name, |o| {
            if let Object::PersistentVolume(p) = o {
                Arc::make_mut(p).status = Some(PersistentVolumeStatus {
                    phase: Some(phase.into()),
                    ..Default::default()
                });
            }
            Ok(())
        });
        pv.status = Some(PersistentVolumeStatus {
            phase: Some(phase.into()),
            ..Default::default()
        });
    }
    for o in store.list(Resource::PersistentVolumeClaims, None).0 {
        let Object::PersistentVolumeClaim(pvc) = o else {
            continue;
        };
        if bound(&pvc) || pvc.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let ns = pvc.metadata.namespace.clone().unwrap_or_default();
        let name = pvc.metadata.name.clone().unwrap_or_default();
        let Some(pv) = choose(&pvs, &pvc).cloned() else {
            if pvc.status.as_ref().and_then(|s| s.phase.as_deref()) != Some("Pending") {
                let _ = store.update_object(Resource::PersistentVolumeClaims, &ns, &name, |o| {
                    if let Object::PersistentVolumeClaim(c) = o {
                        Arc::make_mut(c).status = Some(PersistentVolumeClaimStatus {
                            phase: Some("Pending".into()),
                            ..Default::default()
                        });
                    }
                    Ok(())
                });
            }
            continue;
        };
        let pv_name = pv.metadata.name.clone().unwrap_or_default();
        let claim = ObjectReference {
            api_version: Some("v1".into()),
            kind: Some("PersistentVolumeClaim".into()),
            namespace: Some(ns.clone()),
            name: Some(name.clone()),
            uid: pvc.metadata.uid.clone(),
            resource_version: pvc.metadata.resource_version.clone(),
            ..Default::default()
        };
        let r = store.update_object(Resource::PersistentVolumes, "", &pv_name, |o| {
            if let Object::PersistentVolume(p) = o {
                let p = Arc::make_mut(p);
                if let Some(spec) = p.spec.as_mut() {
                    spec.claim_ref = Some(claim);
                }
                p.status = Some(PersistentVolumeStatus {
                    phase: Some("Bound".into()),
                    ..Default::default()
                });
            }
            Ok(())
        });
        if let Err(e) = r {
            tracing::debug!("pv binder: {pv_name}: {e}");
            continue;
        }
        if let Some(p) = pvs.iter_mut().find(|p| p.metadata.name == pv.metadata.name)
            && let Some(spec) = p.spec.as_mut()
        {
            spec.claim_ref = Some(ObjectReference::default());
        }
        let _ = store.update_object(Resource::PersistentVolumeClaims, &ns, &name, |o| {
            if let Object::PersistentVolumeClaim(c) = o {
                let c = Arc::make_mut(c);
                let a = c.metadata.annotations.get_or_insert_with(Default::default);
                a.insert("pv.kubernetes.io/bind-completed".into(), "yes".into());
                a.insert("pv.kubernetes.io/bound-by-controller".into(), "yes".into());
                if let Some(spec) = c.spec.as_mut() {
                    spec.volume_name = Some(pv_name.clone());
                }
                let pvs = pv.spec.as_ref();
                c.status = Some(PersistentVolumeClaimStatus {
                    phase: Some("Bound".into()),
                    access_modes: pvs.and_then(|s| s.access_modes.clone()),
                    capacity: pvs.and_then(|s| s.capacity.clone()),
                    ..Default::default()
                });
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pv(name: &str, size: &str, class: Option<&str>) -> PersistentVolume {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": name},
            "spec": {"capacity": {"storage": size}, "accessModes": ["ReadWriteOnce"], "storageClassName": class, "hostPath": {"path": "/data"}},
            "status": {"phase": "Available"}
        }))
        .expect("pv")
    }

    fn pvc(size: &str) -> PersistentVolumeClaim {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "data", "namespace": "default"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}}
        }))
        .expect("pvc")
    }

    #[test]
    fn the_smallest_big_enough_volume_of_the_same_class_wins() {
        let pvs = [
            pv("big", "10Gi", None),
            pv("small", "1Gi", None),
            pv("tiny", "500Mi", None),
            pv("other-class", "1Gi", Some("fast")),
        ];
        let chosen = choose(&pvs, &pvc("1Gi")).and_then(|p| p.metadata.name.clone());
        assert_eq!(chosen.as_deref(), Some("small"));
        assert!(choose(&pvs, &pvc("20Gi")).is_none());
        assert_eq!(
            bytes(&Quantity("1.5Gi".into())),
            Some(1.5 * 1024f64.powi(3))
        );
    }
}
