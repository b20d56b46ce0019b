use jiff::Timestamp;
use serde_json::{Value, json};

use super::*;

const POD: &str = "io.k8s.api.core.v1.Pod";

fn writer(manager: &str) -> Writer<'_> {
    Writer {
        root: POD,
        api_version: "v1",
        manager,
        subresource: None,
        now: Timestamp::UNIX_EPOCH,
    }
}

fn pod(image: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "hello", "labels": {"app": "hello"}},
        "spec": {"containers": [{"name": "hello", "image": image}]}
    })
}

fn entry<'a>(obj: &'a Value, manager: &str, op: &str) -> &'a Value {
    obj["metadata"]["managedFields"]
        .as_array()
        .and_then(|l| {
            l.iter()
                .find(|e| e["manager"] == manager && e["operation"] == op)
        })
        .unwrap_or(&Value::Null)
}

#[test]
fn apply_owns_what_it_applied() {
    let created = apply(&writer("kubectl"), None, &pod("busybox:1.36"), false).expect("applies");
    assert_eq!(
        entry(&created, "kubectl", "Apply")["fieldsV1"],
        json!({
            "f:metadata": {"f:labels": {"f:app": {}}},
            "f:spec": {"f:containers": {"k:{\"name\":\"hello\"}": {".": {}, "f:image": {}, "f:name": {}}}}
        })
    );
    assert_eq!(
        entry(&created, "kubectl", "Apply")["time"],
        "1970-01-01T00:00:00Z"
    );
    assert_eq!(created["spec"]["containers"][0]["image"], "busybox:1.36");
}

#[test]
fn update_takes_ownership_and_apply_conflicts_unless_forced() {
    let created = apply(&writer("kubectl"), None, &pod("busybox:1.36"), false).expect("applies");
    let mut edited = created.clone();
    edited["spec"]["containers"][0]["image"] = json!("busybox:1.37");
    record_update(&writer("kubectl-set"), Some(&created), &mut edited);
    assert_eq!(
        entry(&edited, "kubectl-set", "Update")["fieldsV1"],
        json!({"f:spec": {"f:containers": {"k:{\"name\":\"hello\"}": {"f:image": {}}}}})
    );
    let err = apply(
        &writer("kubectl"),
        Some(&edited),
        &pod("busybox:1.38"),
        false,
    )
    .expect_err("conflict");
    assert_eq!(err.code, 409);
    assert_eq!(
        err.message,
        "Apply failed with 1 conflict: conflict with \"kubectl-set\" using v1: .spec.containers[name=\"hello\"].image"
    );
    // The same value as the live one is shared ownership, not a conflict.
    apply(
        &writer("kubectl"),
        Some(&edited),
        &pod("busybox:1.37"),
        false,
    )
    .expect("no conflict");
    let forced = apply(
        &writer("kubectl"),
        Some(&edited),
        &pod("busybox:1.38"),
        true,
    )
    .expect("forced");
    assert_eq!(forced["spec"]["containers"][0]["image"], "busybox:1.38");
    assert_eq!(entry(&forced, "kubectl-set", "Update"), &Value::Null);
}

#[test]
fn a_field_dropped_from_the_configuration_is_removed_unless_another_manager_owns_it() {
    let mut config = pod("busybox:1.36");
    config["metadata"]["labels"]["tier"] = json!("web");
    let created = apply(&writer("kubectl"), None, &config, false).expect("applies");
    let again = apply(
        &writer("kubectl"),
        Some(&created),
        &pod("busybox:1.36"),
        false,
    )
    .expect("applies");
    assert_eq!(again["metadata"]["labels"], json!({"app": "hello"}));
    let mut labelled = again.clone();
    labelled["metadata"]["labels"]["tier"] = json!("db");
    record_update(&writer("kubectl-label"), Some(&again), &mut labelled);
    let kept = apply(
        &writer("other"),
        Some(&labelled),
        &json!({"metadata": {"labels": {"tier": "db"}}}),
        false,
    )
    .expect("applies");
    let dropped = apply(
        &writer("other"),
        Some(&kept),
        &json!({"metadata": {"labels": {}}}),
        false,
    )
    .expect("applies");
    assert_eq!(dropped["metadata"]["labels"]["tier"], "db");
}

#[test]
fn create_records_new_maps_and_items_as_members() {
    let mut new = pod("busybox:1.36");
    new["spec"]["containers"][0]["ports"] = json!([{"containerPort": 80}]);
    record_update(&writer("kubectl-create"), None, &mut new);
    assert_eq!(
        entry(&new, "kubectl-create", "Update")["fieldsV1"],
        json!({
            "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:containers": {"k:{\"name\":\"hello\"}": {
                ".": {}, "f:image": {}, "f:name": {},
                "f:ports": {".": {}, "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}
            }}}
        })
    );
}
