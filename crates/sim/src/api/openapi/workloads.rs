//! The paths of the `apis/apps/v1` and `apis/batch/v1` documents, after the shape of
//! kube-apiserver's: per resource the namespaced collection (list, create), the item (read,
//! replace, patch, delete), `…/status` and (deployments, replicasets, statefulsets)
//! `…/scale`, and the all-namespaces list; every operation carries its
//! `x-kubernetes-group-version-kind`, and the PATCH operations list `fieldValidation`, which
//! is what makes kubectl leave validation to the server.

use serde_json::{Map, Value, json};

use super::{
    ok, op_for, patch_body, patch_params, path_param, query_param, schema_ref, write_params,
};
use crate::api::object::Resource;
use crate::api::patch::schema_name;

/// `AppsV1` / `BatchV1`, the infix of operation ids.
fn camel(group: &str) -> String {
    let mut c = group.chars();
    let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or_default();
    format!("{first}{}V1", c.as_str())
}

pub(super) fn list_params() -> Vec<Value> {
    vec![
        query_param(
            "fieldSelector",
            "A selector to restrict the list of returned objects by their fields.",
        ),
        query_param(
            "labelSelector",
            "A selector to restrict the list of returned objects by their labels.",
        ),
        query_param("watch", "Watch for changes to the described resources."),
    ]
}

pub(super) fn body_of(schema: &str) -> Value {
    json!({"content": {"*/*": {"schema": schema_ref(schema)}}, "required": true})
}

/// The item-level operations of `schema` (the object, or its Scale) under `id` names.
pub(super) fn item_ops(tag: &str, gvk: &Value, id: &str, schema: &str, with_delete: bool) -> Value {
    let mut m = Map::new();
    m.insert(
        "get".into(),
        op_for(
            tag,
            gvk.clone(),
            &format!("read{id}"),
            "get",
            vec![],
            None,
            ok(schema, &["200"]),
        ),
    );
    m.insert(
        "put".into(),
        op_for(
            tag,
            gvk.clone(),
            &format!("replace{id}"),
            "put",
            write_params(),
            Some(body_of(schema)),
            ok(schema, &["200", "201"]),
        ),
    );
    m.insert(
        "patch".into(),
        op_for(
            tag,
            gvk.clone(),
            &format!("patch{id}"),
            "patch",
            patch_params(),
            Some(patch_body()),
            ok(schema, &["200", "201"]),
        ),
    );
    if with_delete {
        m.insert(
            "delete".into(),
            op_for(
                tag,
                gvk.clone(),
                &format!("delete{id}"),
                "delete",
                vec![
                    query_param(
                        "gracePeriodSeconds",
                        "The duration in seconds before the object should be deleted.",
                    ),
                    query_param(
                        "propagationPolicy",
                        "Whether and how garbage collection will be performed.",
                    ),
                ],
                None,
                ok(
                    "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
                    &["200", "202"],
                ),
            ),
        );
    }
    Value::Object(m)
}

/// The paths of `group`'s document (`apps` or `batch`).
pub(super) fn paths(group: &str) -> Value {
    let tag = format!("{group}_v1");
    let infix = camel(group);
    let ns = path_param(
        "namespace",
        "object name and auth scope, such as for teams and projects",
    );
    let pretty = query_param("pretty", "If 'true', then the output is pretty printed.");
    let mut out = Map::new();
    for r in Resource::WORKLOADS
        .into_iter()
        .filter(|r| r.group() == group)
    {
        let kind = r.kind();
        let schema = schema_name(r);
        let list = format!("{schema}List");
        let gvk = json!({"group": group, "version": "v1", "kind": kind});
        let name = path_param("name", &format!("name of the {kind}"));
        let base = format!("/apis/{group}/v1/namespaces/{{namespace}}/{}", r.plural());
        out.insert(
            base.clone(),
            json!({
                "parameters": [ns.clone(), pretty.clone()],
                "get": op_for(&tag, gvk.clone(), &format!("list{infix}Namespaced{kind}"), "list", list_params(), None, ok(&list, &["200"])),
                "post": op_for(&tag, gvk.clone(), &format!("create{infix}Namespaced{kind}"), "post", write_params(), Some(body_of(&schema)), ok(&schema, &["200", "201", "202"])),
            }),
        );
        let mut item = item_ops(
            &tag,
            &gvk,
            &format!("{infix}Namespaced{kind}"),
            &schema,
            true,
        );
        item["parameters"] = json!([name.clone(), ns.clone(), pretty.clone()]);
        out.insert(format!("{base}/{{name}}"), item);
        let mut status = item_ops(
            &tag,
            &gvk,
            &format!("{infix}Namespaced{kind}Status"),
            &schema,
            false,
        );
        status["parameters"] = json!([name.clone(), ns.clone(), pretty.clone()]);
        out.insert(format!("{base}/{{name}}/status"), status);
        if r.has_scale() {
            let scale_gvk = json!({"group": "autoscaling", "version": "v1", "kind": "Scale"});
            let mut scale = item_ops(
                &tag,
                &scale_gvk,
                &format!("{infix}Namespaced{kind}Scale"),
                "io.k8s.api.autoscaling.v1.Scale",
                false,
            );
            scale["parameters"] = json!([
                path_param("name", "name of the Scale"),
                ns.clone(),
                pretty.clone()
            ]);
            out.insert(format!("{base}/{{name}}/scale"), scale);
        }
        out.insert(
            format!("/apis/{group}/v1/{}", r.plural()),
            json!({
                "parameters": [pretty.clone()],
                "get": op_for(&tag, gvk, &format!("list{infix}{kind}ForAllNamespaces"), "list", list_params(), None, ok(&list, &["200"])),
            }),
        );
    }
    Value::Object(out)
}
