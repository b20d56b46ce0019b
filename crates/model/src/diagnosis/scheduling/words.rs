//! How the scheduler's reasons read in a headline, and the next step for each.

use std::collections::BTreeMap;

use super::fit_error::{self, FitError, Why, why};
use super::spec;
use crate::diagnosis::Inputs;
use crate::pod::PodSummary;

pub(super) fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn braces(reason: &str) -> Option<&str> {
    let s = reason.find('{')?;
    let e = reason[s..].find('}')?;
    Some(&reason[s..=s + e])
}

/// `many` for several nodes, `one` for a single node (`3 lack`, `1 lacks`).
fn agree(count: u32, many: &'static str, one: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

/// `9 excluded by node affinity/selector`, `3 lack memory for the request 12Gi`.
pub(super) fn phrase(count: u32, reason: &str, req: &BTreeMap<String, f64>) -> String {
    let are = agree(count, "are", "is");
    let have = agree(count, "have", "has");
    let n = count;
    match why(reason) {
        Why::NodeSelection => format!("{n} excluded by node affinity/selector"),
        Why::Insufficient => {
            let r = fit_error::insufficient_resource(reason).unwrap_or("resources");
            let lack = agree(count, "lack", "lacks");
            match req.get(r) {
                Some(v) => format!("{n} {lack} {r} for the request {}", spec::amount(r, *v)),
                None => format!("{n} {lack} {r}"),
            }
        }
        Why::TooManyPods => format!("{n} {are} at {} pod limit", agree(count, "their", "its")),
        Why::Taint => format!(
            "{n} {have} a taint it does not tolerate{}",
            braces(reason).map(|t| format!(" {t}")).unwrap_or_default()
        ),
        Why::Cordoned => format!("{n} {are} cordoned (unschedulable)"),
        Why::PodAffinity => format!(
            "{n} {} its pod affinity",
            agree(count, "do not satisfy", "does not satisfy")
        ),
        Why::PodAntiAffinity => format!("{n} {are} excluded by its pod anti-affinity"),
        Why::ExistingAntiAffinity => format!(
            "{n} {} pods whose anti-affinity excludes it",
            agree(count, "run", "runs")
        ),
        Why::TopologySpread => format!("{n} would break its topology spread constraints"),
        Why::VolumeZone => format!("{n} cannot use its volumes (volume node affinity/zone)"),
        Why::Ports => format!("{n} {have} its host port in use"),
        Why::NotReady => format!("{n} {are} not ready or under pressure ({reason})"),
        Why::NodeName => format!("{n} {are} not the node it names"),
        Why::Volume | Why::Other => format!("{n}: {reason}"),
    }
}

fn capacity(w: Why) -> bool {
    matches!(w, Why::Insufficient | Why::TooManyPods)
}

fn selection_name(w: Why) -> Option<&'static str> {
    match w {
        Why::NodeSelection => Some("node affinity/selector"),
        Why::Taint => Some("tolerations"),
        Why::Cordoned => Some("cordons"),
        Why::NotReady => Some("node readiness"),
        Why::PodAffinity | Why::PodAntiAffinity | Why::ExistingAntiAffinity => {
            Some("pod (anti-)affinity")
        }
        Why::TopologySpread => Some("topology spread"),
        Why::VolumeZone => Some("volume placement"),
        Why::NodeName => Some("nodeName"),
        _ => None,
    }
}

fn one_hint(w: Why, reason: &str, pod: &PodSummary) -> String {
    match w {
        Why::NodeSelection => "no node matches the pod's nodeSelector/required node affinity: compare with kubectl get nodes --show-labels; label a node (kubectl label node NODE key=value) or fix the selector".to_owned(),
        Why::Taint => format!(
            "add a toleration for {} to the pod if it may run there, or remove the taint (kubectl taint nodes NODE key-) if it should not be there",
            braces(reason).unwrap_or("the taint")
        ),
        Why::Cordoned => "cordoned nodes show SchedulingDisabled in kubectl get nodes; kubectl uncordon NODE once its maintenance is over".to_owned(),
        Why::NotReady => "nodes are not ready or under resource pressure: kubectl get nodes, kubectl describe node NODE (Conditions, Taints)".to_owned(),
        Why::PodAntiAffinity | Why::ExistingAntiAffinity => "every node already runs a pod the anti-affinity rules exclude (more replicas than nodes?): add nodes or relax the rule to preferredDuringSchedulingIgnoredDuringExecution".to_owned(),
        Why::PodAffinity => "no node runs the pods its affinity wants nearby: check that those pods exist and are scheduled, or relax the rule".to_owned(),
        Why::TopologySpread => "placing it would exceed maxSkew: add nodes in the emptier topology domains, or use whenUnsatisfiable: ScheduleAnyway".to_owned(),
        Why::Ports => "another pod already holds the hostPort on those nodes: drop hostPort (use a Service) or free the port".to_owned(),
        Why::VolumeZone => format!(
            "its PersistentVolumes are pinned to a zone or node the pod cannot use: kubectl get pv -o yaml (nodeAffinity) and kubectl get pvc -n {}; a StorageClass with volumeBindingMode: WaitForFirstConsumer avoids it",
            pod.namespace
        ),
        Why::Volume => format!("the volumes cannot be provided: kubectl describe pvc -n {}", pod.namespace),
        _ => format!(
            "kubectl describe pod {} -n {} shows the scheduler's full message",
            pod.name, pod.namespace
        ),
    }
}

pub(super) fn hint(inp: &Inputs<'_>, fe: Option<&FitError>, req: &BTreeMap<String, f64>) -> String {
    let pod = inp.pod;
    let Some(fe) = fe.filter(|fe| !fe.reasons.is_empty()) else {
        return match fe {
            Some(fe) if fe.total == Some(0) => {
                "the cluster has no usable nodes: kubectl get nodes".to_owned()
            }
            _ => one_hint(Why::Other, "", pod),
        };
    };
    let mut parts: Vec<String> = Vec::new();
    let cap: Vec<&(u32, String)> = fe
        .reasons
        .iter()
        .filter(|(_, r)| capacity(why(r)))
        .collect();
    let selections: Vec<&'static str> = fe
        .reasons
        .iter()
        .filter_map(|(_, r)| selection_name(why(r)))
        .collect();
    if !cap.is_empty() {
        let short: Vec<String> = cap
            .iter()
            .map(|(_, r)| match fit_error::insufficient_resource(r) {
                Some(res) => match req.get(res) {
                    Some(v) => format!("{} {res}", spec::amount(res, *v)),
                    None => res.to_owned(),
                },
                None => "pod room".to_owned(),
            })
            .collect();
        let nodes = spec::pinned_nodes(&pod.spec);
        let describe = if nodes.is_empty() {
            "kubectl describe nodes".to_owned()
        } else {
            format!("kubectl describe node {}", nodes.join(" "))
        };
        let n: u32 = cap.iter().map(|(n, _)| n).max().copied().unwrap_or(0);
        parts.push(match selections.first() {
            Some(sel) => format!(
                "of the nodes it may use ({n}, after its {sel}), none has {} unrequested: check their Allocated resources ({describe}), then lower the request, free room on them, or widen the {sel}",
                short.join(" and ")
            ),
            None => format!(
                "no node has {} unrequested: {describe} shows what is requested (Allocated resources); lower the request or add capacity (a cluster autoscaler adds a node only if a node group fits the pod)",
                short.join(" and ")
            ),
        });
    }
    for (_, r) in &fe.reasons {
        let w = why(r);
        if capacity(w) || (!cap.is_empty() && w == Why::NodeSelection) {
            continue;
        }
        let h = one_hint(w, r, pod);
        if !parts.contains(&h) {
            parts.push(h);
        }
        if parts.len() >= 2 {
            break;
        }
    }
    parts.join("; ")
}
