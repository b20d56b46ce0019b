//! Scenarios: YAML files of one or more Pod manifests (`---`-separated) created through the
//! API's create path when the simulator starts, then run by the kubelet model.
//!
//! The built-in ones (`assets/scenarios/*.yaml`, embedded so `podscope demo` works from any
//! directory) are the seed article's `hello` and `crash` pods and dynamic versions of cases
//! 04, 09, 13, 07, 19 and 12 (see each file's header).

use std::path::Path;

use k8s_openapi::api::core::v1::Pod;
use serde::Deserialize;
use serde_json::Value;

use super::SimError;
use super::api::admission;
use super::api::decode::{self, FieldValidation};
use super::api::status::ApiError;
use super::api::store::Store;

const BUILTIN: &[(&str, &str)] = &[
    ("hello", include_str!("../../assets/scenarios/hello.yaml")),
    ("crash", include_str!("../../assets/scenarios/crash.yaml")),
    (
        "oomkilled",
        include_str!("../../assets/scenarios/oomkilled.yaml"),
    ),
    (
        "init-error",
        include_str!("../../assets/scenarios/init-error.yaml"),
    ),
    (
        "image-pull",
        include_str!("../../assets/scenarios/image-pull.yaml"),
    ),
    (
        "liveness-slow-start",
        include_str!("../../assets/scenarios/liveness-slow-start.yaml"),
    ),
    (
        "readiness-failing",
        include_str!("../../assets/scenarios/readiness-failing.yaml"),
    ),
    (
        "job-sidecar",
        include_str!("../../assets/scenarios/job-sidecar.yaml"),
    ),
];

/// The built-in scenarios as `(name, YAML text)`, in a fixed order (`hello`, `crash`, then the
/// case-based ones). Names are what `--scenario NAME` accepts.
pub fn builtin_scenarios() -> Vec<(&'static str, &'static str)> {
    BUILTIN.to_vec()
}

/// The YAML of scenario `spec`: a built-in name (`crash`, also `crash.yaml`), else a file path.
/// Errors: `SimError::Scenario` for an unreadable file.
pub fn scenario_text(spec: &Path) -> Result<String, SimError> {
    let s = spec.to_string_lossy();
    let bare = s.strip_suffix(".yaml").unwrap_or(&s);
    if !spec.exists()
        && let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == bare)
    {
        return Ok((*text).to_string());
    }
    std::fs::read_to_string(spec).map_err(|e| {
        let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
        SimError::Scenario(format!(
            "{s}: {e} (built-in scenarios: {})",
            names.join(", ")
        ))
    })
}

/// Parses a multi-document YAML text into Pods (empty documents skipped). Errors:
/// `SimError::Scenario` naming the document for invalid YAML, a kind other than Pod, or
/// unknown fields.
pub fn parse_scenario(name: &str, text: &str) -> Result<Vec<Pod>, SimError> {
    let mut pods = Vec::new();
    for (i, doc) in serde_yaml_ng::Deserializer::from_str(text).enumerate() {
        let value = Value::deserialize(doc)
            .map_err(|e| SimError::Scenario(format!("{name}: document {}: {e}", i + 1)))?;
        if value.is_null() {
            continue;
        }
        let (pod, _) = decode::decode_pod(value, FieldValidation::Strict).map_err(|e| {
            SimError::Scenario(format!("{name}: document {}: {}", i + 1, e.message))
        })?;
        pods.push(pod);
    }
    Ok(pods)
}

/// Creates every pod of the scenario through the API's create path (defaults, kubelet).
/// Errors: the first refused pod (e.g. 409 AlreadyExists when two scenarios share a name).
pub fn create_scenario(store: &Store, pods: Vec<Pod>) -> Result<Vec<Pod>, ApiError> {
    pods.into_iter()
        .map(|pod| {
            let ns = pod
                .metadata
                .namespace
                .clone()
                .unwrap_or_else(|| "default".to_string());
            admission::create_pod_and_run(store, &ns, pod)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_into_uniquely_named_pods() {
        let mut names = std::collections::HashSet::new();
        for (name, text) in builtin_scenarios() {
            let pods = parse_scenario(name, text).expect("parses");
            assert!(!pods.is_empty(), "{name}");
            for p in pods {
                let n = p.metadata.name.clone().expect("named");
                assert!(names.insert(n.clone()), "duplicate pod {n}");
            }
        }
        assert_eq!(names.len(), 8);
    }

    #[test]
    fn multi_document_and_wrong_kind() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: i}]}\n---\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {containers: [{name: c, image: i}]}\n";
        assert_eq!(parse_scenario("t", text).expect("two pods").len(), 2);
        let err = parse_scenario("t", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n")
            .expect_err("not a pod");
        assert!(err.to_string().contains("document 1"), "{err}");
    }
}
