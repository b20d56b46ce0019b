//! What the pod asks of a node, as the scheduler computes it: the effective resource request
//! and the placement rules (nodeSelector, required node affinity, tolerations, pod
//! (anti-)affinity, topology spread, host ports), in short form.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{
    Container, NodeSelectorRequirement, PodSpec, Toleration, TopologySpreadConstraint,
};

use crate::diagnosis::facts::{bytes_text, quantity};

fn requests_of(c: &Container) -> BTreeMap<String, f64> {
    let Some(r) = c.resources.as_ref() else {
        return BTreeMap::new();
    };
    // The API server defaults a missing request to the limit; read a spec written before that.
    let mut out: BTreeMap<String, f64> = BTreeMap::new();
    for (k, q) in r.limits.iter().flatten() {
        if let Some(v) = quantity(&q.0) {
            out.insert(k.clone(), v);
        }
    }
    for (k, q) in r.requests.iter().flatten() {
        if let Some(v) = quantity(&q.0) {
            out.insert(k.clone(), v);
        }
    }
    out
}

fn add(into: &mut BTreeMap<String, f64>, from: &BTreeMap<String, f64>) {
    for (k, v) in from {
        *into.entry(k.clone()).or_default() += v;
    }
}

fn max_into(into: &mut BTreeMap<String, f64>, from: &BTreeMap<String, f64>) {
    for (k, v) in from {
        let e = into.entry(k.clone()).or_default();
        if *v > *e {
            *e = *v;
        }
    }
}

/// The pod's effective request per resource, as the scheduler's `NodeResourcesFit` computes it
/// (`k8s.io/component-helpers/resource` `PodRequests`): the main containers summed plus the
/// native sidecars, or, when larger, any init container together with the sidecars started
/// before it; plus `spec.overhead`. Pod-level `spec.resources.requests` win when set.
#[must_use]
pub fn effective_requests(spec: &PodSpec) -> BTreeMap<String, f64> {
    let mut sidecars: BTreeMap<String, f64> = BTreeMap::new();
    let mut init_peak: BTreeMap<String, f64> = BTreeMap::new();
    for c in spec.init_containers.iter().flatten() {
        let r = requests_of(c);
        if c.restart_policy.as_deref() == Some("Always") {
            add(&mut sidecars, &r);
            max_into(&mut init_peak, &sidecars);
        } else {
            let mut with = sidecars.clone();
            add(&mut with, &r);
            max_into(&mut init_peak, &with);
        }
    }
    let mut total: BTreeMap<String, f64> = BTreeMap::new();
    for c in &spec.containers {
        add(&mut total, &requests_of(c));
    }
    add(&mut total, &sidecars);
    max_into(&mut total, &init_peak);
    if let Some(pod_level) = spec.resources.as_ref().and_then(|r| r.requests.as_ref()) {
        for (k, q) in pod_level {
            if let Some(v) = quantity(&q.0) {
                total.insert(k.clone(), v);
            }
        }
    }
    for (k, q) in spec.overhead.iter().flatten() {
        if let Some(v) = quantity(&q.0) {
            *total.entry(k.clone()).or_default() += v;
        }
    }
    total.retain(|_, v| *v > 0.0);
    total
}

/// A resource amount as kubectl writes it: memory-like in `Mi`/`Gi`, cpu in cores or
/// millicores (`500m`), counts as numbers.
#[must_use]
pub fn amount(resource: &str, v: f64) -> String {
    if resource == "cpu" {
        if v < 1.0 {
            format!("{}m", (v * 1000.0).round())
        } else if (v - v.round()).abs() < 1e-9 {
            format!("{}", v.round())
        } else {
            format!("{v:.2}").trim_end_matches('0').to_owned()
        }
    } else if resource == "memory"
        || resource == "ephemeral-storage"
        || resource.starts_with("hugepages-")
    {
        bytes_text(v)
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        format!("{v}")
    }
}

/// `cpu 4, memory 12Gi`.
#[must_use]
pub fn requests_text(req: &BTreeMap<String, f64>) -> String {
    req.iter()
        .map(|(k, v)| format!("{k} {}", amount(k, *v)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn requirement(r: &NodeSelectorRequirement) -> String {
    let values = r.values.as_deref().unwrap_or(&[]);
    match r.operator.as_str() {
        "Exists" | "DoesNotExist" => format!("{} {}", r.key, r.operator),
        op => format!("{} {op} ({})", r.key, values.join(", ")),
    }
}

/// The required node affinity, one string: terms are ORed (`|`), a term's expressions ANDed
/// (`kubernetes.io/hostname In (node-v1, node-v2, node-v3)`).
#[must_use]
pub fn required_node_affinity(spec: &PodSpec) -> Option<String> {
    let terms = &spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?
        .node_selector_terms;
    let text: Vec<String> = terms
        .iter()
        .map(|t| {
            t.match_expressions
                .iter()
                .flatten()
                .chain(t.match_fields.iter().flatten())
                .map(requirement)
                .collect::<Vec<_>>()
                .join(" and ")
        })
        .filter(|t| !t.is_empty())
        .collect();
    (!text.is_empty()).then(|| text.join(" | "))
}

/// The node names a required affinity or selector pins the pod to (`kubernetes.io/hostname In
/// (…)`, `metadata.name` fields, a `kubernetes.io/hostname` nodeSelector).
#[must_use]
pub fn pinned_nodes(spec: &PodSpec) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(h) = spec
        .node_selector
        .as_ref()
        .and_then(|s| s.get("kubernetes.io/hostname"))
    {
        out.push(h.clone());
    }
    let terms = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        .map(|r| r.node_selector_terms.as_slice())
        .unwrap_or(&[]);
    for t in terms {
        for r in t
            .match_expressions
            .iter()
            .flatten()
            .chain(t.match_fields.iter().flatten())
        {
            if (r.key == "kubernetes.io/hostname" || r.key == "metadata.name") && r.operator == "In"
            {
                for v in r.values.iter().flatten() {
                    if !out.contains(v) {
                        out.push(v.clone());
                    }
                }
            }
        }
    }
    out
}

/// `disktype=ssd, zone=a`.
#[must_use]
pub fn node_selector(spec: &PodSpec) -> Option<String> {
    let s = spec.node_selector.as_ref().filter(|s| !s.is_empty())?;
    Some(
        s.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

fn toleration(t: &Toleration) -> String {
    let key = t.key.as_deref().unwrap_or("<any key>");
    let op = t.operator.as_deref().unwrap_or("Equal");
    let value = match (op, t.value.as_deref()) {
        ("Exists", _) => String::new(),
        (_, Some(v)) => format!("={v}"),
        (_, None) => "=".to_owned(),
    };
    let effect = t
        .effect
        .as_deref()
        .map(|e| format!(":{e}"))
        .unwrap_or_default();
    let secs = t
        .toleration_seconds
        .map(|s| format!(" for {s}s"))
        .unwrap_or_default();
    format!(
        "{key}{value}{effect}{}{secs}",
        if op == "Exists" { " (Exists)" } else { "" }
    )
}

/// The tolerations in short form (`dedicated=gpu:NoSchedule, node.kubernetes.io/not-ready:NoExecute
/// (Exists) for 300s`); `none` without any.
#[must_use]
pub fn tolerations(spec: &PodSpec) -> String {
    let t: Vec<String> = spec.tolerations.iter().flatten().map(toleration).collect();
    if t.is_empty() {
        "none".to_owned()
    } else {
        t.join(", ")
    }
}

/// Whether the pod tolerates only the two taints every pod gets by default (not-ready and
/// unreachable, added by the DefaultTolerationSeconds admission plugin).
#[must_use]
pub fn only_default_tolerations(spec: &PodSpec) -> bool {
    spec.tolerations.iter().flatten().all(|t| {
        matches!(
            t.key.as_deref(),
            Some("node.kubernetes.io/not-ready" | "node.kubernetes.io/unreachable")
        )
    })
}

/// The required pod affinity / anti-affinity terms in short form:
/// `podAntiAffinity: app=web per kubernetes.io/hostname`.
#[must_use]
pub fn pod_affinity(spec: &PodSpec) -> Vec<String> {
    let Some(a) = spec.affinity.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let terms = [
        (
            "podAffinity",
            a.pod_affinity.as_ref().and_then(|p| {
                p.required_during_scheduling_ignored_during_execution
                    .as_ref()
            }),
        ),
        (
            "podAntiAffinity",
            a.pod_anti_affinity.as_ref().and_then(|p| {
                p.required_during_scheduling_ignored_during_execution
                    .as_ref()
            }),
        ),
    ];
    for (what, list) in terms {
        for t in list.into_iter().flatten() {
            let labels = t
                .label_selector
                .as_ref()
                .and_then(|s| s.match_labels.as_ref())
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .unwrap_or_else(|| "<selector>".to_owned());
            out.push(format!(
                "{what} (required): {labels} per {}",
                t.topology_key
            ));
        }
    }
    out
}

fn spread(t: &TopologySpreadConstraint) -> String {
    format!(
        "topologySpreadConstraint: maxSkew {} per {}, whenUnsatisfiable {}",
        t.max_skew, t.topology_key, t.when_unsatisfiable
    )
}

/// The topology spread constraints in short form.
#[must_use]
pub fn topology_spread(spec: &PodSpec) -> Vec<String> {
    spec.topology_spread_constraints
        .iter()
        .flatten()
        .map(spread)
        .collect()
}

/// The host ports the pod asks for: `8080/TCP (container web)`.
#[must_use]
pub fn host_ports(spec: &PodSpec) -> Vec<String> {
    spec.init_containers
        .iter()
        .flatten()
        .chain(spec.containers.iter())
        .flat_map(|c| {
            c.ports.iter().flatten().filter_map(move |p| {
                p.host_port.map(|h| {
                    format!(
                        "hostPort {h}/{} (container {})",
                        p.protocol.as_deref().unwrap_or("TCP"),
                        c.name
                    )
                })
            })
        })
        .collect()
}

/// The PVC names the pod's volumes claim (`persistentVolumeClaim.claimName`, and
/// `<pod>-<volume>` for generic ephemeral volumes).
#[must_use]
pub fn claims(spec: &PodSpec, pod_name: &str) -> Vec<String> {
    spec.volumes
        .iter()
        .flatten()
        .filter_map(|v| {
            v.persistent_volume_claim
                .as_ref()
                .map(|p| p.claim_name.clone())
                .or_else(|| {
                    v.ephemeral
                        .as_ref()
                        .map(|_| format!("{pod_name}-{}", v.name))
                })
        })
        .collect()
}
