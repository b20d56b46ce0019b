//! The Volumes section: each volume's name and the lines of its source type
//! (`describeVolumes` and the `print…VolumeSource` helpers in kubectl's `describe.go`).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{ProjectedVolumeSource, Volume};

use super::Layout;
use super::out::{Out, clean, opt};

/// `Volumes:\t<none>`, or `Volumes:` and per volume `  name:` and its source's lines.
/// Source types podscope does not spell out print `<unknown>` under the name.
pub(super) fn describe(o: &mut Out, volumes: &[Volume], layout: Layout) {
    if volumes.is_empty() {
        o.w(0, "Volumes:\t<none>\n");
        return;
    }
    o.w(0, "Volumes:\n");
    for v in volumes {
        o.w(1, &format!("{}:\n", clean(&v.name)));
        source(o, v, layout);
    }
}

/// One `Type:` line and the source's fields, at level 2.
fn typed(o: &mut Out, kind: &str, fields: &[(&str, String)]) {
    o.field(2, "Type", kind);
    for (k, v) in fields {
        o.field(2, k, v);
    }
}

fn source(o: &mut Out, v: &Volume, layout: Layout) {
    let b = |x: Option<bool>| x.unwrap_or(false).to_string();
    if let Some(h) = &v.host_path {
        let t = h.type_.as_deref().map_or("<none>".into(), clean);
        typed(
            o,
            "HostPath (bare host directory volume)",
            &[
                ("Path", clean(&h.path).into_owned()),
                ("HostPathType", t.into_owned()),
            ],
        );
    } else if let Some(e) = &v.empty_dir {
        let size = e
            .size_limit
            .as_ref()
            .filter(|q| super::quantity::parse(&q.0).is_some_and(|n| n > 0.0))
            .map_or("<unset>".to_string(), |q| {
                clean(&super::quantity::canonical(&q.0)).into_owned()
            });
        typed(
            o,
            "EmptyDir (a temporary directory that shares a pod's lifetime)",
            &[("Medium", opt(&e.medium).into_owned()), ("SizeLimit", size)],
        );
    } else if let Some(g) = &v.git_repo {
        typed(
            o,
            "GitRepo (a volume that is pulled from git when the pod is created)",
            &[
                ("Repository", clean(&g.repository).into_owned()),
                ("Revision", opt(&g.revision).into_owned()),
            ],
        );
    } else if let Some(s) = &v.secret {
        typed(
            o,
            "Secret (a volume populated by a Secret)",
            &[
                ("SecretName", opt(&s.secret_name).into_owned()),
                ("Optional", b(s.optional)),
            ],
        );
    } else if let Some(c) = &v.config_map {
        typed(
            o,
            "ConfigMap (a volume populated by a ConfigMap)",
            &[
                ("Name", clean(&c.name).into_owned()),
                ("Optional", b(c.optional)),
            ],
        );
    } else if let Some(n) = &v.nfs {
        typed(
            o,
            "NFS (an NFS mount that lasts the lifetime of a pod)",
            &[
                ("Server", clean(&n.server).into_owned()),
                ("Path", clean(&n.path).into_owned()),
                ("ReadOnly", b(n.read_only)),
            ],
        );
    } else if let Some(c) = &v.persistent_volume_claim {
        typed(
            o,
            "PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)",
            &[
                ("ClaimName", clean(&c.claim_name).into_owned()),
                ("ReadOnly", b(c.read_only)),
            ],
        );
    } else if v.ephemeral.is_some() {
        o.field(
            2,
            "Type",
            "EphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)",
        );
    } else if let Some(d) = &v.downward_api {
        o.field(
            2,
            "Type",
            "DownwardAPI (a volume populated by information about the pod)",
        );
        o.w(2, "Items:\n");
        for item in d.items.iter().flatten() {
            if let Some(f) = &item.field_ref {
                o.w(
                    3,
                    &format!("{} -> {}\n", clean(&f.field_path), clean(&item.path)),
                );
            }
            if let Some(r) = &item.resource_field_ref {
                o.w(
                    3,
                    &format!("{} -> {}\n", clean(&r.resource), clean(&item.path)),
                );
            }
        }
    } else if let Some(p) = &v.projected {
        projected(o, p, layout);
    } else if let Some(c) = &v.csi {
        typed(
            o,
            "CSI (a Container Storage Interface (CSI) volume source)",
            &[
                ("Driver", clean(&c.driver).into_owned()),
                ("FSType", opt(&c.fs_type).into_owned()),
                ("ReadOnly", b(c.read_only)),
            ],
        );
        attributes(o, c.volume_attributes.as_ref());
    } else if let Some(i) = &v.image {
        typed(
            o,
            "Image (a container image or OCI artifact)",
            &[
                ("Reference", opt(&i.reference).into_owned()),
                ("PullPolicy", opt(&i.pull_policy).into_owned()),
            ],
        );
    } else {
        o.w(1, "<unknown>\n");
    }
}

/// Projected: per source `SecretName`/`ConfigMapName` with `Optional`, `DownwardAPI: true`, or
/// `TokenExpirationSeconds` of a service-account token (the optional flags as [`Layout`] says).
fn projected(o: &mut Out, p: &ProjectedVolumeSource, layout: Layout) {
    let optional = |o: &mut Out, label: &str, v: Option<bool>| {
        if layout.kubectl_minor >= 33 {
            o.field(2, "Optional", &v.unwrap_or(false).to_string());
        } else {
            let v = v.map_or("<nil>".to_string(), |b| b.to_string());
            o.field(2, label, &v);
        }
    };
    o.field(
        2,
        "Type",
        "Projected (a volume that contains injected data from multiple sources)",
    );
    for s in p.sources.iter().flatten() {
        if let Some(sec) = &s.secret {
            o.field(2, "SecretName", &clean(&sec.name));
            optional(o, "SecretOptionalName", sec.optional);
        } else if s.downward_api.is_some() {
            o.field(2, "DownwardAPI", "true");
        } else if let Some(cm) = &s.config_map {
            o.field(2, "ConfigMapName", &clean(&cm.name));
            optional(o, "ConfigMapOptional", cm.optional);
        } else if let Some(t) = &s.service_account_token {
            let secs = t.expiration_seconds.unwrap_or(0);
            o.field(2, "TokenExpirationSeconds", &secs.to_string());
        }
    }
}

/// `VolumeAttributes:\tk=v` (sorted, continuation lines `\tk=v`), each cut at 140 bytes + `...`.
fn attributes(o: &mut Out, attrs: Option<&BTreeMap<String, String>>) {
    o.w(2, "VolumeAttributes:\t");
    let Some(attrs) = attrs.filter(|a| !a.is_empty()) else {
        o.w(0, "<none>\n");
        return;
    };
    for (i, (k, v)) in attrs.iter().enumerate() {
        if i != 0 {
            o.w(2, "\t");
        }
        let line = format!("{}={}", clean(k), clean(v));
        if line.len() > 140 {
            let mut end = 140;
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            o.w(2, &format!("{}...\n", &line[..end]));
        } else {
            o.w(2, &format!("{line}\n"));
        }
    }
}
