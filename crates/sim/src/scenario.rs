//! Scenarios: YAML files of one or more manifests (`---`-separated) — Pods, the workloads the
//! controller model runs (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs)
//! and the objects pods refer to (ConfigMaps, Secrets, Services) — created when the simulator
//! starts; pods through the API's create path and the kubelet model, the others in the store,
//! where the controllers and the kubelet find them.
//!
//! A workload document annotated `podscope.dev/apply-after-seconds: "N"` is applied N
//! simulated seconds after the start instead (the annotation itself is dropped): created if
//! no object of that kind and name exists, else its `spec` replaced and its labels and
//! annotations merged, as `kubectl apply` of the changed manifest would. A scenario shows a
//! rollout by holding the same Deployment twice, the second one later (`docs/controllers.md`
//! §Scenarios). A frozen clock never reaches the instant.
//!
//! The built-in ones (`assets/scenarios/*.yaml`, embedded so `podscope demo` works from any
//! directory) are the seed article's `hello` and `crash` pods, dynamic versions of cases
//! 04, 09, 13, 07, 19 and 12 (see each file's header), three workload scenarios (a stuck
//! rollout, a StatefulSet and a Job that exhausts its back-off limit), two node scenarios, and
//! failure kinds the kubelet, the runtime and the controllers produce live (an image for
//! another architecture, runAsNonRoot, a failing postStart hook, a private registry, an
//! OOMKilled sidecar, a missing dependency, an init container waiting for a Service, a Job's
//! deadline, a read-only root, a port taken twice, a missing Secret key, scheduling gates).

use std::path::Path;

use k8s_openapi::api::core::v1::Pod;
use serde::Deserialize;
use serde_json::Value;

use super::SimError;
use jiff::SignedDuration;

use super::api::admission;
use super::api::core::namespaces;
use super::api::decode::{self, FieldValidation};
use super::api::object::{Object, Resource};
use super::api::status::ApiError;
use super::api::store::Store;
use super::api::workloads::defaults;

/// `(name, text)` of each scenario file `assets/scenarios/<name>.yaml`, embedded.
macro_rules! embedded {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../../assets/scenarios/", $name, ".yaml")))),*]
    };
}

const BUILTIN: &[(&str, &str)] = embedded![
    "hello",
    "crash",
    "oomkilled",
    "init-error",
    "image-pull",
    "liveness-slow-start",
    "readiness-failing",
    "job-sidecar",
    "rollout-stuck",
    "statefulset-db",
    "job-backoff",
    "exec-format",
    "run-as-non-root",
    "poststart-hook",
    "image-pull-auth",
    "sidecar-oom",
    "readiness-dependency",
    "init-waits",
    "job-deadline",
    "readonly-fs",
    "port-in-use",
    "secret-key-missing",
    "scheduling-gated",
    "node-not-ready",
    "node-memory-pressure",
];

/// The kinds a scenario may hold besides Pods and Nodes: the workloads and the objects pods
/// refer to.
const OBJECT_KINDS: [Resource; 9] = [
    Resource::Deployments,
    Resource::ReplicaSets,
    Resource::StatefulSets,
    Resource::DaemonSets,
    Resource::Jobs,
    Resource::CronJobs,
    Resource::ConfigMaps,
    Resource::Secrets,
    Resource::Services,
];

/// The built-in scenarios that act on the node itself (`crate::nodes`): `podscope demo`
/// leaves them out, since they would take the demo's one node down or evict its pods.
pub const NODE_SCENARIOS: [&str; 2] = ["node-not-ready", "node-memory-pressure"];

/// The annotation that delays a workload document (see the module docs).
pub const APPLY_AFTER: &str = "podscope.dev/apply-after-seconds";

/// One document of a scenario.
#[derive(Debug, Clone)]
pub enum ScenarioItem {
    /// A Pod, created at start through the API's create path.
    Pod(Box<Pod>),
    /// A `Node` document: what happens to the simulated node (`crate::nodes`); the
    /// simulator's node task carries it out.
    Node(crate::nodes::NodePlan),
    /// A workload (or a ConfigMap, Secret, Service), applied at start or `after` the start.
    Object {
        /// The object (without the [`APPLY_AFTER`] annotation).
        object: Object,
        /// When to apply it, counted from the start (`None`: at start).
        after: Option<SignedDuration>,
    },
}

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

/// Parses a multi-document YAML text of Pods only (empty documents skipped). Errors:
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

/// Parses a multi-document YAML text of Pods and workloads (see [`ScenarioItem`]; empty
/// documents skipped). Errors: `SimError::Scenario` naming the document for invalid YAML, an
/// unsupported kind, a Pod's unknown fields, a workload that does not decode, or an
/// [`APPLY_AFTER`] value that is not a number of seconds.
pub fn parse_scenario_items(name: &str, text: &str) -> Result<Vec<ScenarioItem>, SimError> {
    let mut items = Vec::new();
    for (i, doc) in serde_yaml_ng::Deserializer::from_str(text).enumerate() {
        let bad = |e: String| SimError::Scenario(format!("{name}: document {}: {e}", i + 1));
        let mut value = Value::deserialize(doc).map_err(|e| bad(e.to_string()))?;
        if value.is_null() {
            continue;
        }
        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("Pod");
        if kind == "Node" {
            let annotations = value
                .pointer("/metadata/annotations")
                .cloned()
                .map(serde_json::from_value)
                .transpose()
                .map_err(|e| bad(e.to_string()))?
                .unwrap_or_default();
            let plan = crate::nodes::NodePlan::from_annotations(&annotations).map_err(bad)?;
            items.push(ScenarioItem::Node(plan));
            continue;
        }
        let Some(resource) = OBJECT_KINDS.into_iter().find(|r| r.kind() == kind) else {
            let (pod, _) =
                decode::decode_pod(value, FieldValidation::Strict).map_err(|e| bad(e.message))?;
            items.push(ScenarioItem::Pod(Box::new(pod)));
            continue;
        };
        let after = match value
            .pointer_mut("/metadata/annotations")
            .and_then(Value::as_object_mut)
            .and_then(|a| a.remove(APPLY_AFTER))
        {
            None => None,
            Some(v) => {
                let secs = v
                    .as_str()
                    .and_then(|s| s.parse::<u32>().ok())
                    .ok_or_else(|| {
                        bad(format!("{APPLY_AFTER}: want a number of seconds, got {v}"))
                    })?;
                Some(SignedDuration::from_secs(i64::from(secs)))
            }
        };
        let object = Object::from_json(resource, value).map_err(|e| bad(e.message))?;
        items.push(ScenarioItem::Object { object, after });
    }
    Ok(items)
}

/// Starts a scenario's items on `store`: pods created and run, workloads created now or
/// scheduled (a task per delayed one, on the store's clock). Returns the namespaces of what it
/// created, in order. Errors: the first refused pod or object (e.g. 409 AlreadyExists).
pub fn start_scenario(store: &Store, items: Vec<ScenarioItem>) -> Result<Vec<String>, ApiError> {
    let start = store.now();
    let mut namespaces = Vec::new();
    for item in items {
        match item {
            // Carried out by the node task (`Simulator::start` hands it the plans).
            ScenarioItem::Node(_) => {}
            ScenarioItem::Pod(pod) => {
                let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
                namespaces::ensure(store, ns)?;
                for p in create_scenario(store, vec![*pod])? {
                    namespaces.push(p.metadata.namespace.unwrap_or_default());
                }
            }
            ScenarioItem::Object {
                mut object,
                after: None,
            } => {
                defaults::apply(&mut object);
                if object.resource().namespaced() {
                    let ns = object.namespace();
                    namespaces::ensure(store, if ns.is_empty() { "default" } else { ns })?;
                }
                let created = store.create_object(object)?;
                namespaces.push(created.namespace().to_string());
            }
            ScenarioItem::Object {
                object,
                after: Some(d),
            } => {
                if object.resource().namespaced() {
                    let ns = object.namespace();
                    namespaces::ensure(store, if ns.is_empty() { "default" } else { ns })?;
                }
                let at = start.checked_add(d).unwrap_or(start);
                let store = store.clone();
                tokio::spawn(async move {
                    let Some(delay) = store.clock().real_delay_until(at) else {
                        return;
                    };
                    let mut shutdown = store.shutdown_signal();
                    tokio::select! {
                        () = tokio::time::sleep(delay) => {}
                        _ = shutdown.changed() => return,
                    }
                    if let Err(e) = apply_object(&store, object) {
                        tracing::warn!("scenario object refused: {e}");
                    }
                });
            }
        }
    }
    Ok(namespaces)
}

/// `kubectl apply` of one workload (the API server's defaults applied): created when absent,
/// else its spec replaced and labels and annotations merged. Errors: the store's.
fn apply_object(store: &Store, mut new: Object) -> Result<Object, ApiError> {
    defaults::apply(&mut new);
    let (res, ns, name) = (
        new.resource(),
        new.namespace().to_string(),
        new.name().to_string(),
    );
    let ns = if ns.is_empty() {
        "default".to_string()
    } else {
        ns
    };
    if store.object(res, &ns, &name).is_none() {
        return store.create_object(new);
    }
    let spec = new.to_json().get("spec").cloned().unwrap_or(Value::Null);
    let meta = new.meta().clone();
    store.update_object(res, &ns, &name, |stored| {
        let mut v = stored.to_json();
        v["spec"] = spec;
        let mut merged = Object::from_json(res, v)?;
        let m = merged.meta_mut();
        m.labels
            .get_or_insert_with(Default::default)
            .extend(meta.labels.unwrap_or_default());
        m.annotations
            .get_or_insert_with(Default::default)
            .extend(meta.annotations.unwrap_or_default());
        *stored = merged;
        Ok(())
    })
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
    fn every_builtin_parses_into_uniquely_named_objects() {
        let mut names = std::collections::HashSet::new();
        for (name, text) in builtin_scenarios() {
            let items = parse_scenario_items(name, text).expect("parses");
            assert!(!items.is_empty(), "{name}");
            for item in items {
                let n = match item {
                    ScenarioItem::Pod(p) => format!("Pod/{}", p.metadata.name.expect("named")),
                    ScenarioItem::Object { after: Some(_), .. } | ScenarioItem::Node(_) => {
                        continue;
                    }
                    ScenarioItem::Object { object, .. } => {
                        format!("{}/{}", object.resource().kind(), object.name())
                    }
                };
                assert!(names.insert(n.clone()), "duplicate {n}");
            }
        }
        // The node scenarios add edge-cache, scratch and api; the failure kinds 14 objects.
        assert_eq!(names.len(), 28);
    }

    #[test]
    fn a_delayed_document_loses_its_annotation() {
        let text = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, annotations: {podscope.dev/apply-after-seconds: \"20\", keep: x}}\nspec: {template: {spec: {containers: [{name: c, image: i}], restartPolicy: Never}}}\n";
        let items = parse_scenario_items("t", text).expect("parses");
        let ScenarioItem::Object { object, after } = &items[0] else {
            panic!("a Job")
        };
        assert_eq!(*after, Some(SignedDuration::from_secs(20)));
        let ann = object.meta().annotations.clone().unwrap_or_default();
        assert_eq!(ann.keys().collect::<Vec<_>>(), vec!["keep"]);
        let bad = text.replace("\"20\"", "soon");
        assert!(parse_scenario_items("t", &bad).is_err());
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
