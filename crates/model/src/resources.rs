//! What a container asked for: `resources.requests` and `.limits` of CPU and memory, parsed
//! exactly ([`quantity`]), and the pod's QoS class (`docs/usage.md`).

pub mod qos;
pub mod quantity;

use k8s_openapi::api::core::v1::Container;

pub use qos::{qos_class, qos_class_of};
pub use quantity::{MI, Quantity, cpu_text, memory_text};

use super::pod::PodSummary;

/// One resource (`cpu` or `memory`) of a container's spec: the text as written and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Amount {
    /// As written in the spec (`500m`, `0.5`, `512Mi`).
    pub text: String,
    /// Parsed; `None` when the text is not a quantity (the API server would have refused it).
    pub value: Option<Quantity>,
}

impl Amount {
    fn of(text: &str) -> Amount {
        Amount {
            text: text.to_owned(),
            value: Quantity::parse(text).ok(),
        }
    }
}

/// CPU and memory of one of `requests` / `limits`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pair {
    /// `cpu`.
    pub cpu: Option<Amount>,
    /// `memory`.
    pub memory: Option<Amount>,
}

impl Pair {
    /// Whether neither is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cpu.is_none() && self.memory.is_none()
    }
}

/// A container's `resources.requests` and `resources.limits` (CPU and memory only).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resources {
    /// `resources.requests`.
    pub requests: Pair,
    /// `resources.limits`.
    pub limits: Pair,
}

impl Resources {
    /// From a container's spec.
    #[must_use]
    pub fn of(c: &Container) -> Resources {
        let pick = |map: Option<
            &std::collections::BTreeMap<
                String,
                k8s_openapi::apimachinery::pkg::api::resource::Quantity,
            >,
        >| Pair {
            cpu: map.and_then(|m| m.get("cpu")).map(|q| Amount::of(&q.0)),
            memory: map.and_then(|m| m.get("memory")).map(|q| Amount::of(&q.0)),
        };
        let r = c.resources.as_ref();
        Resources {
            requests: pick(r.and_then(|r| r.requests.as_ref())),
            limits: pick(r.and_then(|r| r.limits.as_ref())),
        }
    }

    /// Those of container `name` of `pod` (init, regular or ephemeral); empty when unknown.
    #[must_use]
    pub fn of_container(pod: &PodSummary, name: &str) -> Resources {
        let spec = &pod.spec;
        if let Some(c) = spec
            .init_containers
            .iter()
            .flatten()
            .chain(spec.containers.iter())
            .find(|c| c.name == name)
        {
            return Resources::of(c);
        }
        // Ephemeral containers may not set resources (the API server refuses them).
        Resources::default()
    }

    /// Whether nothing is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.limits.is_empty()
    }

    /// `memory` limit in bytes, when set and positive.
    #[must_use]
    pub fn memory_limit_bytes(&self) -> Option<i64> {
        self.limits
            .memory
            .as_ref()
            .and_then(|a| a.value)
            .filter(Quantity::is_positive)
            .map(|q| q.units())
    }
}

/// `used` as a whole percentage of `of` (rounded to nearest), when `of` is positive.
#[must_use]
#[allow(clippy::cast_possible_truncation)] // a percentage of positive finite values
pub fn percent(used: f64, of: f64) -> Option<i64> {
    (of > 0.0).then(|| (100.0 * used / of).round() as i64)
}
