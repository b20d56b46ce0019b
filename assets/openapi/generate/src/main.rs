//! Prints the OpenAPI v3 `components.schemas` of core/v1 Pod, meta/v1 Status and ListMeta, plus a hand-written PodList, (and
//! everything they reference) as one JSON object, generated from k8s-openapi's `schemars`
//! implementations (which carry the upstream field descriptions).
//!
//! schemars' `openapi3()` settings already write references the Kubernetes way
//! (`#/components/schemas/<name>`, a `$ref` with siblings wrapped in `allOf`). This program adds
//! `x-kubernetes-group-version-kind` to the top-level kinds, as kube-apiserver does, so that
//! `kubectl explain` finds them. The simulator (`src/sim/api/openapi/`) adds the paths.

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, Status};
use serde_json::{Value, json};

fn main() {
    let mut generator = schemars::generate::SchemaSettings::openapi3().into_generator();
    generator.subschema_for::<Pod>();
    generator.subschema_for::<ListMeta>();
    generator.subschema_for::<Status>();
    let mut defs = generator.take_definitions(true);
    // k8s-openapi models lists generically (`List<T>`, no schema): write PodList as upstream has it.
    defs.insert(
        "io.k8s.api.core.v1.PodList".into(),
        json!({
            "description": "PodList is a list of Pods.",
            "type": "object",
            "required": ["items"],
            "properties": {
                "apiVersion": {"description": "APIVersion defines the versioned schema of this representation of an object.", "type": "string"},
                "items": {"description": "List of pods.", "type": "array", "items": {"$ref": "#/components/schemas/io.k8s.api.core.v1.Pod"}},
                "kind": {"description": "Kind is a string value representing the REST resource this object represents.", "type": "string"},
                "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}], "description": "Standard list metadata."},
            },
        }),
    );
    for (name, kind) in [
        ("io.k8s.api.core.v1.Pod", "Pod"),
        ("io.k8s.api.core.v1.PodList", "PodList"),
        ("io.k8s.apimachinery.pkg.apis.meta.v1.Status", "Status"),
    ] {
        if let Some(Value::Object(schema)) = defs.get_mut(name) {
            schema.insert(
                "x-kubernetes-group-version-kind".into(),
                json!([{"group": "", "kind": kind, "version": "v1"}]),
            );
        } else {
            eprintln!("missing schema {name}");
            std::process::exit(1);
        }
    }
    let out = serde_json::to_string(&Value::Object(defs)).expect("JSON serialises");
    println!("{out}");
}
