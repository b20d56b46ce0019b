//! The pod's QoS class: `status.qosClass` when the server set it, else computed as the API
//! server does (`pkg/apis/core/helper/qos/qos.go`, `ComputePodQOS`), in our words:
//!
//! - only `cpu` and `memory` count, and only amounts above zero;
//! - pod-level `spec.resources`, when set, stand for the containers';
//! - no request and no limit in any init or regular container → `BestEffort`;
//! - every container limits both `cpu` and `memory`, and every request equals its limit (the
//!   API server defaults a missing request to the limit) → `Guaranteed`;
//! - anything else → `Burstable`.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{PodSpec, ResourceRequirements};

use super::quantity::Quantity;
use crate::pod::PodSummary;

/// `Guaranteed`, `Burstable` or `BestEffort` for `pod`.
#[must_use]
pub fn qos_class(pod: &PodSummary) -> String {
    qos_class_of(pod.qos_class.as_deref(), &pod.spec)
}

/// The class for a pod whose `status.qosClass` is `status` (used when set and not empty) and
/// whose spec is `spec` (computed from it otherwise); `kubectl describe`'s `QoS Class` too.
#[must_use]
pub fn qos_class_of(status: Option<&str>, spec: &PodSpec) -> String {
    if let Some(q) = status.filter(|q| !q.is_empty()) {
        return q.to_owned();
    }
    compute(spec).to_owned()
}

fn compute(spec: &PodSpec) -> &'static str {
    let mut requests: BTreeMap<&str, Quantity> = BTreeMap::new();
    let mut limits: BTreeMap<&str, Quantity> = BTreeMap::new();
    let mut guaranteed = true;
    let pod_level = spec
        .resources
        .as_ref()
        .filter(|r| r.requests.is_some() || r.limits.is_some());
    let each: Vec<Option<&ResourceRequirements>> = match pod_level {
        Some(r) => vec![Some(r)],
        None => spec
            .init_containers
            .iter()
            .flatten()
            .chain(&spec.containers)
            .map(|c| c.resources.as_ref())
            .collect(),
    };
    for r in each {
        for (name, q) in r.and_then(|r| r.requests.as_ref()).into_iter().flatten() {
            if let Some(key) = supported(name)
                && let Ok(v) = Quantity::parse(&q.0)
                && v.is_positive()
            {
                add(&mut requests, key, v);
            }
        }
        let mut found = 0;
        for (name, q) in r.and_then(|r| r.limits.as_ref()).into_iter().flatten() {
            if let Some(key) = supported(name)
                && let Ok(v) = Quantity::parse(&q.0)
                && v.is_positive()
            {
                found += 1;
                add(&mut limits, key, v);
            }
        }
        if found < 2 {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed
        && requests.iter().all(|(k, r)| limits.get(k) == Some(r))
        && requests.len() == limits.len()
    {
        return "Guaranteed";
    }
    "Burstable"
}

fn supported(name: &str) -> Option<&'static str> {
    match name {
        "cpu" => Some("cpu"),
        "memory" => Some("memory"),
        _ => None,
    }
}

fn add<'a>(map: &mut BTreeMap<&'a str, Quantity>, key: &'a str, v: Quantity) {
    let sum = map.get(key).map_or(v, |old| Quantity::sum(*old, v));
    map.insert(key, sum);
}
