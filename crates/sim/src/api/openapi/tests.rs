//! Tests of the served OpenAPI documents: schemas, `$ref`s, patch metadata, the workload
//! documents' validating PATCH operations.

use super::*;

#[test]
fn document_has_pod_schema_and_a_validating_patch() {
    let (text, hash) = document(Doc::Core);
    let doc: Value = serde_json::from_str(text).expect("json");
    let pod = &doc["components"]["schemas"]["io.k8s.api.core.v1.Pod"];
    assert_eq!(pod["x-kubernetes-group-version-kind"][0]["kind"], "Pod");
    let patch = &doc["paths"]["/api/v1/namespaces/{namespace}/pods/{name}"]["patch"];
    assert_eq!(patch["x-kubernetes-group-version-kind"]["kind"], "Pod");
    assert!(
        patch["parameters"]
            .as_array()
            .expect("params")
            .iter()
            .any(|p| p["name"] == "fieldValidation")
    );
    // Every $ref resolves inside the document.
    let refs = regex::Regex::new(r##""\$ref":"#/components/schemas/([^"]+)""##).expect("re");
    for c in refs.captures_iter(text) {
        let name = &c[1];
        assert!(
            doc["components"]["schemas"].get(name).is_some(),
            "dangling $ref {name}"
        );
    }
    assert_eq!(hash.len(), 16);
}

#[test]
fn lists_carry_kube_apiserver_patch_metadata() {
    let (text, _) = document(Doc::Core);
    let doc: Value = serde_json::from_str(text).expect("json");
    let schemas = &doc["components"]["schemas"];
    let spec = &schemas["io.k8s.api.core.v1.PodSpec"]["properties"];
    for list in [
        "containers",
        "initContainers",
        "ephemeralContainers",
        "volumes",
    ] {
        assert_eq!(spec[list]["x-kubernetes-patch-merge-key"], "name", "{list}");
        assert_eq!(
            spec[list]["x-kubernetes-list-map-keys"],
            json!(["name"]),
            "{list}"
        );
    }
    assert_eq!(
        spec["volumes"]["x-kubernetes-patch-strategy"],
        "merge,retainKeys"
    );
    assert_eq!(spec["tolerations"]["x-kubernetes-list-type"], "atomic");
    assert!(
        spec["tolerations"]
            .get("x-kubernetes-patch-strategy")
            .is_none()
    );
    let container = &schemas["io.k8s.api.core.v1.Container"]["properties"];
    assert_eq!(
        container["ports"]["x-kubernetes-patch-merge-key"],
        "containerPort"
    );
    assert_eq!(
        container["ports"]["x-kubernetes-list-map-keys"],
        json!(["containerPort", "protocol"])
    );
    assert_eq!(
        container["volumeMounts"]["x-kubernetes-patch-merge-key"],
        "mountPath"
    );
    let status = &schemas["io.k8s.api.core.v1.PodStatus"]["properties"];
    assert_eq!(status["conditions"]["x-kubernetes-patch-merge-key"], "type");
    assert_eq!(
        status["containerStatuses"]["x-kubernetes-list-type"],
        "atomic"
    );
    let meta = &schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]["properties"];
    assert_eq!(
        meta["ownerReferences"]["x-kubernetes-patch-merge-key"],
        "uid"
    );
    assert_eq!(meta["finalizers"]["x-kubernetes-list-type"], "set");
}

#[test]
fn workload_documents_validate_on_the_server_and_reach_pod_specs() {
    let refs = regex::Regex::new(r##""\$ref":"#/components/schemas/([^"]+)""##).expect("re");
    for (doc, kinds) in [
        (
            Doc::Apps,
            &["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"][..],
        ),
        (Doc::Batch, &["Job", "CronJob"][..]),
    ] {
        let (text, _) = document(doc);
        let parsed: Value = serde_json::from_str(text).expect("json");
        let group = if doc == Doc::Apps { "apps" } else { "batch" };
        for kind in kinds {
            let plural = format!("{}s", kind.to_lowercase());
            let path = format!("/apis/{group}/v1/namespaces/{{namespace}}/{plural}/{{name}}");
            let patch = &parsed["paths"][&path]["patch"];
            assert_eq!(
                patch["x-kubernetes-group-version-kind"]["kind"], *kind,
                "{path}"
            );
            assert!(
                patch["parameters"]
                    .as_array()
                    .expect("params")
                    .iter()
                    .any(|p| p["name"] == "fieldValidation"),
                "{path}"
            );
            let schema = format!("io.k8s.api.{group}.v1.{kind}");
            assert_eq!(
                parsed["components"]["schemas"][&schema]["x-kubernetes-group-version-kind"][0]["kind"],
                *kind
            );
        }
        for c in refs.captures_iter(text) {
            assert!(
                parsed["components"]["schemas"].get(&c[1]).is_some(),
                "dangling $ref {}",
                &c[1]
            );
        }
    }
    // The union the strategic merge patch reads reaches PodSpec's merge keys from a Deployment.
    let all = schemas();
    let template =
        property(&all["io.k8s.api.apps.v1.DeploymentSpec"], "template").expect("template");
    let pts = resolve(template).expect("PodTemplateSpec");
    let spec = resolve(property(pts, "spec").expect("spec")).expect("PodSpec");
    assert_eq!(
        spec["properties"]["containers"]["x-kubernetes-patch-merge-key"],
        "name"
    );
    assert_eq!(
        all["io.k8s.api.apps.v1.DeploymentStatus"]["properties"]["conditions"]["x-kubernetes-patch-merge-key"],
        "type"
    );
}
