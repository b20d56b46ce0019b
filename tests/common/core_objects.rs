//! Helpers for the tests of the kubelet, scheduler and controllers using the core objects
//! (`tests/sim_core_use*.rs`, `tests/sim/sim_refs.rs`): objects from JSON, `kubectl apply` of one
//! pod manifest, kubectl's STATUS column, a pod's waiting message and events.

use std::path::Path;

use k8s_openapi::api::core::v1::Pod;
use podscope::sim::{Object, Resource, Simulator, Store};

use super::cluster::run;

/// An object of `resource` from its JSON (panics when it does not decode).
pub fn obj(resource: Resource, v: serde_json::Value) -> Object {
    Object::from_json(resource, v).expect("object decodes")
}

/// `kubectl apply -f` of the pod manifest `yaml` (written to `dir/<name>.yaml`); asserts
/// kubectl printed `pod/<name> created`.
pub async fn kubectl_apply(sim: &Simulator, dir: &Path, name: &str, yaml: &str) {
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, yaml).expect("write manifest");
    let (ok, out, err) = run(sim, dir, &["apply", "-f", &path.to_string_lossy()]).await;
    assert!(ok, "kubectl apply {name}: {err}");
    assert_eq!(out.trim(), format!("pod/{name} created"));
}

/// `state.waiting.message` of the pod's first container.
pub fn waiting_message(p: &Pod) -> Option<String> {
    p.status
        .as_ref()?
        .container_statuses
        .as_ref()?
        .first()?
        .state
        .as_ref()?
        .waiting
        .as_ref()?
        .message
        .clone()
}

/// Whether the pod's phase is Running.
pub fn running(p: &Pod) -> bool {
    p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
}

/// kubectl's STATUS column for pod `name`.
pub async fn status_column(sim: &Simulator, dir: &Path, name: &str) -> String {
    let (ok, out, err) = run(sim, dir, &["get", "pod", name, "--no-headers"]).await;
    assert!(ok, "kubectl get pod {name}: {err}");
    out.split_whitespace().nth(2).unwrap_or("").to_string()
}

/// `(reason, message)` of the stored events about pod `default/pod`.
pub fn events_of(store: &Store, pod: &str) -> Vec<(String, String)> {
    store
        .list(Resource::Events, Some("default"))
        .0
        .iter()
        .filter_map(|o| match o {
            Object::Event(e) if e.involved_object.name.as_deref() == Some(pod) => Some((
                e.reason.clone().unwrap_or_default(),
                e.message.clone().unwrap_or_default(),
            )),
            _ => None,
        })
        .collect()
}
