//! The pod's QoS class: `status.qosClass` when the server set it, else computed as the API
//! server does (`pkg/apis/core/helper/qos/qos.go`, `ComputePodQOS`), in our words:
//!
//! - only `cpu` and `memory` count, and only amounts above zero;
//! - no request and no limit in any init or regular container → `BestEffort`;
//! - every container limits both `cpu` and `memory`, and every request equals its limit (the
//!   API server defaults a missing request to the limit) → `Guaranteed`;
//! - anything else → `Burstable`.

use std::collections::BTreeMap;

use super::quantity::Quantity;
use crate::model::pod::PodSummary;

/// `Guaranteed`, `Burstable` or `BestEffort` for `pod`.
#[must_use]
pub fn qos_class(pod: &PodSummary) -> String {
    if let Some(q) = pod.qos_class.as_deref().filter(|q| !q.is_empty()) {
        return q.to_owned();
    }
    compute(pod).to_owned()
}

fn compute(pod: &PodSummary) -> &'static str {
    let mut requests: BTreeMap<&str, Quantity> = BTreeMap::new();
    let mut limits: BTreeMap<&str, Quantity> = BTreeMap::new();
    let mut guaranteed = true;
    let spec = &pod.spec;
    for c in spec
        .init_containers
        .iter()
        .flatten()
        .chain(&spec.containers)
    {
        let r = c.resources.as_ref();
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
