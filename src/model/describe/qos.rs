//! The pod's QoS class as kubectl prints it (`k8s.io/kubectl/pkg/util/qos`, `GetPodQOS`).

use k8s_openapi::api::core::v1::{Container, Pod};

use super::quantity;

/// `status.qosClass` when the server set it, else computed from the containers' requests and
/// limits (kubelet's rules, `ComputePodQOS`): only `cpu` and `memory` count, zero quantities are
/// ignored, regular and init containers together (pod-level resources instead when set).
/// No request and no limit anywhere → `BestEffort`; every container limits both cpu and memory
/// and the summed requests equal the summed limits → `Guaranteed`; else `Burstable`.
pub fn pod_qos_class(pod: &Pod) -> String {
    if let Some(q) = pod
        .status
        .as_ref()
        .and_then(|s| s.qos_class.as_deref())
        .filter(|q| !q.is_empty())
    {
        return q.to_string();
    }
    compute(pod).to_string()
}

fn compute(pod: &Pod) -> &'static str {
    let Some(spec) = pod.spec.as_ref() else {
        return "BestEffort";
    };
    let sum = |lists: &mut [f64; 2],
               found: &mut [bool; 2],
               l: Option<
        &std::collections::BTreeMap<
            String,
            k8s_openapi::apimachinery::pkg::api::resource::Quantity,
        >,
    >| {
        for (i, name) in ["cpu", "memory"].iter().enumerate() {
            if let Some(v) = l
                .and_then(|l| l.get(*name))
                .and_then(|q| quantity::parse(&q.0))
                .filter(|v| *v > 0.0)
            {
                lists[i] += v;
                found[i] = true;
            }
        }
    };
    let mut requests = [0.0; 2];
    let mut limits = [0.0; 2];
    let mut has_request = [false; 2];
    let mut has_limit = [false; 2];
    let mut guaranteed = true;
    let pod_level = spec
        .resources
        .as_ref()
        .filter(|r| r.requests.is_some() || r.limits.is_some());
    if let Some(r) = pod_level {
        sum(&mut requests, &mut has_request, r.requests.as_ref());
        let mut found = [false; 2];
        sum(&mut limits, &mut found, r.limits.as_ref());
        has_limit = [has_limit[0] || found[0], has_limit[1] || found[1]];
        guaranteed = found == [true, true];
    } else {
        let none: Vec<Container> = Vec::new();
        let init = spec.init_containers.as_ref().unwrap_or(&none);
        for c in spec.containers.iter().chain(init.iter()) {
            let r = c.resources.clone().unwrap_or_default();
            sum(&mut requests, &mut has_request, r.requests.as_ref());
            let mut found = [false; 2];
            sum(&mut limits, &mut found, r.limits.as_ref());
            has_limit = [has_limit[0] || found[0], has_limit[1] || found[1]];
            if found != [true, true] {
                guaranteed = false;
            }
        }
    }
    if has_request == [false, false] && has_limit == [false, false] {
        return "BestEffort";
    }
    if guaranteed {
        for i in 0..2 {
            if has_request[i] && (!has_limit[i] || (limits[i] - requests[i]).abs() > 1e-9) {
                guaranteed = false;
            }
        }
    }
    let count = |f: [bool; 2]| f.iter().filter(|b| **b).count();
    if guaranteed && count(has_request) == count(has_limit) {
        "Guaranteed"
    } else {
        "Burstable"
    }
}
