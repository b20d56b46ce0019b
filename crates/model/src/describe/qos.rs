//! The pod's QoS class as kubectl prints it (`k8s.io/kubectl/pkg/util/qos`, `GetPodQOS`): the
//! same rules as the header's, `model::resources::qos_class_of`.

use k8s_openapi::api::core::v1::Pod;

/// `status.qosClass` when the server set it, else computed from the requests and limits
/// (`model::resources::qos_class_of`).
#[must_use]
pub fn pod_qos_class(pod: &Pod) -> String {
    let status = pod.status.as_ref().and_then(|s| s.qos_class.as_deref());
    match pod.spec.as_ref() {
        Some(spec) => crate::resources::qos_class_of(status, spec),
        None => crate::resources::qos_class_of(status, &Default::default()),
    }
}
