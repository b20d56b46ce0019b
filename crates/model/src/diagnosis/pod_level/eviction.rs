//! Evictions and other disruptions: the kubelet under node pressure, the Eviction API, the
//! taint manager, a node shutdown, the scheduler's preemption.
//!
//! Node-pressure eviction (`pkg/kubelet/eviction/eviction_manager.go`, messages from
//! `pkg/kubelet/eviction/helpers.go`): when a signal crosses its threshold the kubelet ranks the
//! pods (usage above request first, then priority, then how far above the request) and kills
//! the first; the pod becomes `phase: Failed`, `reason: Evicted`, with the message
//! `The node was low on resource: R. [Threshold quantity: T, available: A. ]Container C was
//! using U, request is Q, has larger consumption of R. ` (older kubelets: `… which exceeds its
//! request of Q. `), an `Evicted` event and, since 1.26, a `DisruptionTarget` condition with reason
//! `TerminationByKubelet`. Limit evictions say `Container C exceeded its local ephemeral
//! storage limit "L". `, `Pod ephemeral local storage usage exceeds the total limit of containers
//! L. `, `Usage of EmptyDir volume "V" exceeds the limit "L". `.

use super::super::facts::{bytes_text, quantity};

/// One container named in an eviction message.
#[derive(Debug, Clone, PartialEq)]
pub struct Usage {
    /// The container.
    pub container: String,
    /// Its usage as written (`1843200Ki`).
    pub usage: String,
    /// Its request as written (`204Mi`, `0`).
    pub request: String,
}

impl Usage {
    /// `usage − request` in base units, for ranking.
    fn excess(&self) -> f64 {
        quantity(&self.usage).unwrap_or(0.0) - quantity(&self.request).unwrap_or(0.0)
    }
}

/// A parsed eviction message.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Eviction {
    /// `memory`, `ephemeral-storage`, `pid`, … of `The node was low on resource: R`.
    pub resource: Option<String>,
    /// `Threshold quantity: T`.
    pub threshold: Option<String>,
    /// `available: A`.
    pub available: Option<String>,
    /// `The node had condition: [C]`.
    pub condition: Option<String>,
    /// The containers using more than their request.
    pub usages: Vec<Usage>,
    /// A limit the pod or a container exceeded, as the sentence says it.
    pub limit: Option<String>,
}

impl Eviction {
    /// The container with the largest usage above its request.
    #[must_use]
    pub fn culprit(&self) -> Option<&Usage> {
        self.usages
            .iter()
            .max_by(|a, b| a.excess().total_cmp(&b.excess()))
    }

    /// Whether anything was understood.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.resource.is_none()
            && self.condition.is_none()
            && self.usages.is_empty()
            && self.limit.is_none()
    }
}

/// Parses the kubelet's eviction message (any version's wording).
#[must_use]
pub fn parse(msg: &str) -> Eviction {
    let mut e = Eviction::default();
    for sentence in msg.split(". ") {
        let s = sentence.trim().trim_end_matches('.').trim();
        if let Some(r) = s.strip_prefix("The node was low on resource: ") {
            e.resource = Some(r.trim().to_owned());
        } else if let Some(rest) = s.strip_prefix("Threshold quantity: ") {
            let (t, a) = rest.split_once(", available: ").unwrap_or((rest, ""));
            e.threshold = Some(t.trim().to_owned());
            e.available = (!a.is_empty()).then(|| a.trim().to_owned());
        } else if let Some(c) = s
            .find("The node had condition: ")
            .map(|i| &s[i + "The node had condition: ".len()..])
        {
            e.condition = Some(c.trim_matches(['[', ']', ' ']).to_owned());
        } else if let Some(rest) = s.strip_prefix("Container ")
            && let Some((name, rest)) = rest.split_once(" was using ")
        {
            let (usage, request) =
                if let Some((u, r)) = rest.split_once(", which exceeds its request of ") {
                    (u, r)
                } else if let Some((u, r)) = rest.split_once(", request is ") {
                    (u, r.split(',').next().unwrap_or(r))
                } else {
                    (rest, "")
                };
            e.usages.push(Usage {
                container: name.trim().to_owned(),
                usage: usage.trim().to_owned(),
                request: request.trim().to_owned(),
            });
        } else if s.contains("exceeded its local ephemeral storage limit")
            || s.contains("exceeds the total limit of containers")
            || (s.starts_with("Usage of EmptyDir volume") && s.contains("exceeds the limit"))
        {
            e.limit = Some(s.to_owned());
        }
    }
    e
}

/// Whether `resource` is counted in bytes (memory, storage).
#[must_use]
pub fn is_bytes(resource: &str) -> bool {
    matches!(
        resource,
        "memory" | "ephemeral-storage" | "nodefs" | "imagefs" | "containerfs"
    ) || resource.contains("storage")
        || resource.contains("memory")
}

/// `1.8Gi (1843200Ki)` for a byte quantity written in another unit, `204Mi` when the same,
/// the text itself when it is not a byte resource or not a quantity.
#[must_use]
pub fn amount(resource: &str, q: &str) -> String {
    if !is_bytes(resource) {
        return q.to_owned();
    }
    match quantity(q) {
        Some(v) if v > 0.0 => {
            let t = bytes_text(v);
            if t == q { t } else { format!("{t} ({q})") }
        }
        _ => q.to_owned(),
    }
}

/// `1.8Gi`: just the converted value (for commands).
#[must_use]
pub fn plain(resource: &str, q: &str) -> String {
    match quantity(q) {
        Some(v) if is_bytes(resource) && v > 0.0 => bytes_text(v),
        _ => q.to_owned(),
    }
}
