//! Which changes of a pod's spec an update (PUT, PATCH) may make: the rules of
//! `ValidatePodUpdate` in `pkg/apis/core/validation/validation.go`, with its messages
//! (`docs/simulator-kubelet.md` §1).
//!
//! In its order: the number of `containers` and `initContainers` may not change (`pod updates
//! may not add or remove containers`, nothing else checked), each image must be set and
//! without surrounding blanks; `activeDeadlineSeconds` may be set from nil, or lowered, never
//! removed; `tolerations` may only be added to (an existing one may change its
//! `tolerationSeconds`); `terminationGracePeriodSeconds` may become 1 when it was negative;
//! `schedulingGates` may only lose entries (`spec.schedulingGates[1].name: Forbidden: only
//! deletion is allowed, but found new scheduling gate 'g2'`, `validateOnlyDeletedSchedulingGates`).
//! Any other difference — with those fields set back to their old values — is `spec:
//! Forbidden: pod updates may not change fields other than …`, followed (as the API server adds
//! a Go `cmp.Diff`) by the differing fields in our own `- path: old` / `+ path: new` lines.
//! `spec.ephemeralContainers` only change through their subresource: an update keeps the
//! stored ones, as the pod strategy's `PrepareForUpdate` does.

use k8s_openapi::api::core::v1::{Container, PodSpec, Toleration};
use serde_json::Value;

use super::status::ApiError;

/// The fields an update may change, in the API server's words and order.
const UPDATABLE: [&str; 5] = [
    "`spec.containers[*].image`",
    "`spec.initContainers[*].image`",
    "`spec.activeDeadlineSeconds`",
    "`spec.tolerations` (only additions to existing tolerations)",
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

/// `ValidateContainerUpdates`: the causes, and whether validation stops here.
fn containers(new: &[Container], old: &[Container], path: &str) -> (Vec<String>, bool) {
    if new.len() != old.len() {
        let msg = format!("{path}: Forbidden: pod updates may not add or remove containers");
        return (vec![msg], true);
    }
    let mut causes = Vec::new();
    for (i, c) in new.iter().enumerate() {
        let image = c.image.as_deref().unwrap_or("");
        if image.is_empty() {
            causes.push(format!("{path}[{i}].image: Required value"));
        }
        if image.trim() != image {
            causes.push(format!(
                "{path}[{i}].image: Invalid value: {image:?}: must not have leading or trailing whitespace"
            ));
        }
    }
    (causes, false)
}

/// `validateOnlyAddedTolerations`: every old toleration is still there (its
/// `tolerationSeconds` may differ).
fn only_added(new: &[Toleration], old: &[Toleration]) -> Option<String> {
    let kept = |o: &Toleration| {
        new.iter().any(|n| {
            let mut o = o.clone();
            o.toleration_seconds = n.toleration_seconds;
            &o == n
        })
    };
    (!old.iter().all(kept)).then(|| {
        "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"
            .to_string()
    })
}

/// `- path: old` / `+ path: new` for every leaf where `old` and `new` differ.
fn diff(path: &str, old: &Value, new: &Value, out: &mut Vec<String>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let (x, y) = (
                    a.get(k).unwrap_or(&Value::Null),
                    b.get(k).unwrap_or(&Value::Null),
                );
                diff(&format!("{path}.{k}"), x, y, out);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        (a, b) if a != b => {
            out.push(format!("- {path}: {a}"));
            out.push(format!("+ {path}: {b}"));
        }
        _ => {}
    }
}

/// Checks that `new` may replace `old` in an update of pod `name`, and returns the spec to store
/// (`new` with the stored `ephemeralContainers`). Errors: 422 Invalid with the API server's
/// causes (see the module docs).
pub(crate) fn validate_update(
    name: &str,
    old: &PodSpec,
    mut new: PodSpec,
) -> Result<PodSpec, ApiError> {
    new.ephemeral_containers
        .clone_from(&old.ephemeral_containers);
    let invalid = |causes: Vec<String>| ApiError::invalid("Pod", name, &causes);
    let none: Vec<Container> = Vec::new();
    let (mut causes, stop) = containers(&new.containers, &old.containers, "spec.containers");
    if stop {
        return Err(invalid(causes));
    }
    let (more, stop) = containers(
        new.init_containers.as_ref().unwrap_or(&none),
        old.init_containers.as_ref().unwrap_or(&none),
        "spec.initContainers",
    );
    causes.extend(more);
    if stop {
        return Err(invalid(causes));
    }
    let path = "spec.activeDeadlineSeconds";
    match (new.active_deadline_seconds, old.active_deadline_seconds) {
        (Some(n), _) if !(0..=i64::from(i32::MAX)).contains(&n) => {
            causes.push(format!(
                "{path}: Invalid value: {n}: must be between 0 and 2147483647, inclusive"
            ));
            return Err(invalid(causes));
        }
        (Some(n), Some(o)) if o < n => {
            causes.push(format!(
                "{path}: Invalid value: {n}: must be less than or equal to previous value"
            ));
            return Err(invalid(causes));
        }
        (None, Some(_)) => causes.push(format!(
            "{path}: Invalid value: \"null\": must not update from a positive integer to nil value"
        )),
        _ => {}
    }
    let old_gates: Vec<&str> = old
        .scheduling_gates
        .iter()
        .flatten()
        .map(|g| g.name.as_str())
        .collect();
    for (i, g) in new.scheduling_gates.iter().flatten().enumerate() {
        if !old_gates.contains(&g.name.as_str()) {
            causes.push(format!(
                "spec.schedulingGates[{i}].name: Forbidden: only deletion is allowed, but found new scheduling gate '{}'",
                g.name
            ));
        }
    }
    let no_tolerations: Vec<Toleration> = Vec::new();
    causes.extend(only_added(
        new.tolerations.as_ref().unwrap_or(&no_tolerations),
        old.tolerations.as_ref().unwrap_or(&no_tolerations),
    ));
    let mut munged = new.clone();
    for (c, o) in munged.containers.iter_mut().zip(&old.containers) {
        c.image.clone_from(&o.image);
    }
    for (c, o) in munged
        .init_containers
        .iter_mut()
        .flatten()
        .zip(old.init_containers.iter().flatten())
    {
        c.image.clone_from(&o.image);
    }
    munged.active_deadline_seconds = old.active_deadline_seconds;
    munged.scheduling_gates.clone_from(&old.scheduling_gates);
    munged.tolerations.clone_from(&old.tolerations);
    let was_negative = old.termination_grace_period_seconds.is_some_and(|g| g < 0);
    if was_negative && munged.termination_grace_period_seconds == Some(1) {
        munged.termination_grace_period_seconds = old.termination_grace_period_seconds;
    }
    if &munged != old {
        let mut lines = Vec::new();
        let as_json = |s: &PodSpec| serde_json::to_value(s).unwrap_or(Value::Null);
        diff("spec", &as_json(old), &as_json(&munged), &mut lines);
        causes.push(format!(
            "spec: Forbidden: pod updates may not change fields other than {}\n{}",
            UPDATABLE.join(","),
            lines.join("\n")
        ));
    }
    if causes.is_empty() {
        Ok(new)
    } else {
        Err(invalid(causes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(v: serde_json::Value) -> PodSpec {
        serde_json::from_value(v).expect("spec")
    }

    #[test]
    fn image_changes_pass_and_names_do_not() {
        let old = spec(serde_json::json!({"containers": [{"name": "hello", "image": "hello:1"}]}));
        let new = spec(serde_json::json!({"containers": [{"name": "hello", "image": "hello:2"}]}));
        let stored = validate_update("p", &old, new.clone()).expect("an image may change");
        assert_eq!(stored.containers, new.containers);
        let renamed =
            spec(serde_json::json!({"containers": [{"name": "other", "image": "hello:1"}]}));
        let err = validate_update("p", &old, renamed).expect_err("name is immutable");
        assert!(err.message.starts_with("Pod \"p\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,"), "{}", err.message);
        assert!(
            err.message.ends_with(
                "\n- spec.containers[0].name: \"hello\"\n+ spec.containers[0].name: \"other\""
            ),
            "{}",
            err.message
        );
        let more = spec(
            serde_json::json!({"containers": [{"name": "hello", "image": "hello:1"}, {"name": "b", "image": "b"}]}),
        );
        assert_eq!(
            validate_update("p", &old, more).expect_err("count").message,
            "Pod \"p\" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers"
        );
    }

    #[test]
    fn scheduling_gates_may_only_be_removed() {
        let gated = |gates: serde_json::Value| {
            spec(
                serde_json::json!({"schedulingGates": gates, "containers": [{"name": "c", "image": "i"}]}),
            )
        };
        let old = gated(serde_json::json!([{"name": "g1"}]));
        let released = validate_update("p", &old, gated(serde_json::json!([]))).expect("removed");
        assert_eq!(released.scheduling_gates, Some(vec![]));
        let more = gated(serde_json::json!([{"name": "g1"}, {"name": "g2"}]));
        assert_eq!(
            validate_update("p", &old, more).expect_err("added").message,
            "Pod \"p\" is invalid: spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'g2'"
        );
    }
}
