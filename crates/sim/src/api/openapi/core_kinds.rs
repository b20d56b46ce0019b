//! The paths of the core objects around a pod in the `api/v1` document, and of the
//! `apis/discovery.k8s.io/v1`, `apis/coordination.k8s.io/v1` and `apis/events.k8s.io/v1`
//! documents, after the shape of kube-apiserver's: per kind the collection (list, create),
//! the item (read, replace, patch, delete), `…/status` where the kind has one, and for a
//! namespaced kind the all-namespaces list. Every operation carries its
//! `x-kubernetes-group-version-kind`, and the PATCH operations list `fieldValidation`, so
//! kubectl leaves validation of these kinds to the server (`docs/core-api.md` §1).

use serde_json::{Map, Value, json};

use super::workloads::{body_of, item_ops, list_params};
use super::{ok, op_for, path_param, query_param, write_params};
use crate::api::object::Resource;

/// One kind of a document: group, plural, kind, scope and whether it has `…/status`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kind {
    group: &'static str,
    plural: &'static str,
    kind: &'static str,
    namespaced: bool,
    status: bool,
}

impl Kind {
    fn of(r: Resource) -> Kind {
        Kind {
            group: r.group(),
            plural: r.plural(),
            kind: r.kind(),
            namespaced: r.namespaced(),
            status: matches!(
                r,
                Resource::Namespaces
                    | Resource::Nodes
                    | Resource::Services
                    | Resource::PersistentVolumeClaims
                    | Resource::PersistentVolumes
            ),
        }
    }

    /// The group's first label (`core` for the core group): `discovery`, `coordination`.
    fn short(self) -> &'static str {
        match self.group {
            "" => "core",
            g => g.split('.').next().unwrap_or(g),
        }
    }

    fn schema(self) -> String {
        format!("io.k8s.api.{}.v1.{}", self.short(), self.kind)
    }
}

/// The core kinds the `api/v1` document adds to the pods'.
pub(super) const CORE: [Resource; 9] = [
    Resource::Namespaces,
    Resource::Nodes,
    Resource::ConfigMaps,
    Resource::Secrets,
    Resource::Services,
    Resource::Endpoints,
    Resource::ServiceAccounts,
    Resource::PersistentVolumeClaims,
    Resource::PersistentVolumes,
];

/// The kinds of `group`'s document (`""` for the core kinds above).
pub(super) fn kinds(group: &str) -> Vec<Kind> {
    match group {
        "" => CORE.into_iter().map(Kind::of).collect(),
        "discovery.k8s.io" => vec![Kind::of(Resource::EndpointSlices)],
        "coordination.k8s.io" => vec![Kind::of(Resource::Leases)],
        "events.k8s.io" => vec![Kind {
            group: "events.k8s.io",
            plural: "events",
            kind: "Event",
            namespaced: true,
            status: false,
        }],
        _ => vec![],
    }
}

/// The paths of `kinds`.
pub(super) fn paths(kinds: &[Kind]) -> Map<String, Value> {
    let ns = path_param(
        "namespace",
        "object name and auth scope, such as for teams and projects",
    );
    let pretty = query_param("pretty", "If 'true', then the output is pretty printed.");
    let mut out = Map::new();
    for k in kinds {
        let short = k.short();
        let tag = format!("{short}_v1");
        let mut c = short.chars();
        let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or_default();
        let infix = format!("{first}{}V1", c.as_str());
        let prefix = match k.group {
            "" => "/api/v1".to_string(),
            g => format!("/apis/{g}/v1"),
        };
        let kind = k.kind;
        let schema = k.schema();
        let list = format!("{schema}List");
        let gvk = json!({"group": k.group, "version": "v1", "kind": kind});
        let name = path_param("name", &format!("name of the {kind}"));
        let (base, scope, params) = if k.namespaced {
            (
                format!("{prefix}/namespaces/{{namespace}}/{}", k.plural),
                "Namespaced",
                vec![name.clone(), ns.clone(), pretty.clone()],
            )
        } else {
            (
                format!("{prefix}/{}", k.plural),
                "",
                vec![name.clone(), pretty.clone()],
            )
        };
        let mut collection_params = vec![pretty.clone()];
        if k.namespaced {
            collection_params.insert(0, ns.clone());
        }
        out.insert(
            base.clone(),
            json!({
                "parameters": collection_params,
                "get": op_for(&tag, gvk.clone(), &format!("list{infix}{scope}{kind}"), "list", list_params(), None, ok(&list, &["200"])),
                "post": op_for(&tag, gvk.clone(), &format!("create{infix}{scope}{kind}"), "post", write_params(), Some(body_of(&schema)), ok(&schema, &["200", "201", "202"])),
            }),
        );
        let mut item = item_ops(&tag, &gvk, &format!("{infix}{scope}{kind}"), &schema, true);
        item["parameters"] = json!(params.clone());
        out.insert(format!("{base}/{{name}}"), item);
        if k.status {
            let mut status = item_ops(
                &tag,
                &gvk,
                &format!("{infix}{scope}{kind}Status"),
                &schema,
                false,
            );
            status["parameters"] = json!(params);
            out.insert(format!("{base}/{{name}}/status"), status);
        }
        if k.namespaced {
            out.insert(
                format!("{prefix}/{}", k.plural),
                json!({
                    "parameters": [pretty.clone()],
                    "get": op_for(&tag, gvk, &format!("list{infix}{kind}ForAllNamespaces"), "list", list_params(), None, ok(&list, &["200"])),
                }),
            );
        }
    }
    out
}
