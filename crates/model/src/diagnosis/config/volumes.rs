//! A volume's source in short form, and the Secrets, ConfigMaps and PVCs it reads.

use k8s_openapi::api::core::v1::Volume;

use super::parse::Kind;

/// `secret db-creds`, `configMap app (items: a)`, `persistentVolumeClaim data`, `nfs
/// 10.0.0.5:/exports`, `csi driver ebs.csi.aws.com`, `projected (secret a, configMap b)`.
pub(super) fn source_text(v: &Volume) -> String {
    if let Some(s) = &v.secret {
        format!("secret {}", s.secret_name.as_deref().unwrap_or(""))
    } else if let Some(c) = &v.config_map {
        format!("configMap {}", c.name)
    } else if let Some(p) = &v.persistent_volume_claim {
        format!("persistentVolumeClaim {}", p.claim_name)
    } else if let Some(p) = &v.projected {
        let parts: Vec<String> = p
            .sources
            .iter()
            .flatten()
            .map(|s| {
                if let Some(x) = &s.secret {
                    format!("secret {}", x.name)
                } else if let Some(x) = &s.config_map {
                    format!("configMap {}", x.name)
                } else if s.service_account_token.is_some() {
                    "serviceAccountToken".to_owned()
                } else if s.downward_api.is_some() {
                    "downwardAPI".to_owned()
                } else {
                    "other".to_owned()
                }
            })
            .collect();
        format!("projected ({})", parts.join(", "))
    } else if let Some(n) = &v.nfs {
        format!("nfs {}:{}", n.server, n.path)
    } else if let Some(c) = &v.csi {
        format!("csi driver {}", c.driver)
    } else if let Some(h) = &v.host_path {
        format!("hostPath {}", h.path)
    } else if v.ephemeral.is_some() {
        "ephemeral (a PVC named <pod>-<volume>)".to_owned()
    } else if v.empty_dir.is_some() {
        "emptyDir".to_owned()
    } else {
        "a volume plugin".to_owned()
    }
}

/// The Secret/ConfigMap/PVC objects volume `v` reads.
pub(super) fn objects_of(v: &Volume) -> Vec<(Kind, String)> {
    let mut out = Vec::new();
    if let Some(s) = v.secret.as_ref().and_then(|s| s.secret_name.clone()) {
        out.push((Kind::Secret, s));
    }
    if let Some(c) = &v.config_map {
        out.push((Kind::ConfigMap, c.name.clone()));
    }
    if let Some(p) = &v.persistent_volume_claim {
        out.push((Kind::Pvc, p.claim_name.clone()));
    }
    for s in v.projected.iter().flat_map(|p| p.sources.iter().flatten()) {
        if let Some(x) = &s.secret {
            out.push((Kind::Secret, x.name.clone()));
        }
        if let Some(x) = &s.config_map {
            out.push((Kind::ConfigMap, x.name.clone()));
        }
    }
    out
}
