//! The typed face of [`super`] for Pods (`writes.rs` holds `Pod`s, not JSON).

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;
use serde_json::Value;

use super::Writer;

/// The OpenAPI schema of a Pod.
pub(crate) const POD_SCHEMA: &str = "io.k8s.api.core.v1.Pod";

/// The [`Writer`] of a pod write by `manager` at `now` (of `pods/status` when `status_only`).
pub(crate) fn writer(now: Timestamp, manager: &str, status_only: bool) -> Writer<'_> {
    Writer {
        root: POD_SCHEMA,
        api_version: "v1",
        manager,
        subresource: status_only.then_some("status"),
        now,
    }
}

/// Sets `pod`'s `metadata.managedFields` for a write over `old` (`None`: a create), as
/// [`super::record_update`] does for JSON.
pub(crate) fn record_update(w: &Writer, old: Option<&Pod>, pod: &mut Pod) {
    let old = old.map(|p| serde_json::to_value(p).unwrap_or(Value::Null));
    let mut doc = serde_json::to_value(&*pod).unwrap_or(Value::Null);
    super::record_update(w, old.as_ref(), &mut doc);
    pod.metadata.managed_fields =
        serde_json::from_value(doc["metadata"]["managedFields"].clone()).unwrap_or_default();
}
