//! Facts from the rest of the pod that complete a finding (`docs/diagnosis.md` "Reading the
//! whole pod"): what a message alone cannot say.
//!
//! - a port already in use: the containers of one pod share one network namespace, so the
//!   container that declares the port is the one holding it, and the failing container's own
//!   declared ports say where it was meant to listen (`81-port-in-use-two-containers`);
//! - an image with no variant for the node, or a binary for another CPU: the architecture the
//!   pod asks for in `nodeSelector`/node affinity (`44-imagepull-no-match-for-platform`);
//! - a dependency refusing the credentials: where the pod's credentials come from (env vars
//!   read from Secrets, never their values), since that is what to compare with the
//!   dependency's (`89-java-trace-caused-by-db-auth`);
//! - a probe that times out in a container with a CPU limit: at its limit the container is
//!   throttled (CFS quota) and a probe answer that takes longer than `timeoutSeconds` counts as
//!   a failure (`91-liveness-timeout-cpu-throttled`).

use super::facts::{probe_timing, resource, spec_of};
use super::{Finding, Inputs};
use crate::pod::PodSummary;

/// The port of an address (`:8080`, `0.0.0.0:8080`, `[::]:8080`), or the number itself.
fn port_of(addr: &str) -> Option<i32> {
    addr.rsplit(':').next()?.trim().parse().ok()
}

/// Evidence about who holds `port` in the pod, and where `container` was meant to listen.
fn port_evidence(pod: &PodSummary, container: &str, port: i32) -> Vec<String> {
    let mut out = Vec::new();
    for c in &pod.containers {
        if c.name == container {
            continue;
        }
        if c.ports.iter().any(|(_, p, _)| *p == port) {
            out.push(format!(
                "container {} of the same pod declares containerPort {port}: the containers of one pod share one network namespace, so two of them cannot listen on one port",
                c.name
            ));
        }
    }
    if let Some(me) = pod.container(container) {
        let own: Vec<String> = me
            .ports
            .iter()
            .filter(|(_, p, _)| *p != port)
            .map(|(n, p, _)| match n {
                Some(n) => format!("{p} ({n})"),
                None => p.to_string(),
            })
            .collect();
        if !own.is_empty() {
            out.push(format!(
                "container {container} itself declares containerPort {}: it is likely meant to listen there (a flag or env var sets its port)",
                own.join(", ")
            ));
        }
    }
    out
}

/// The CPU architecture the pod asks for, from `nodeSelector` or required node affinity.
fn wanted_arch(pod: &PodSummary) -> Option<String> {
    const ARCH: [&str; 2] = ["kubernetes.io/arch", "beta.kubernetes.io/arch"];
    if let Some(sel) = &pod.spec.node_selector {
        for k in ARCH {
            if let Some(v) = sel.get(k) {
                return Some(format!("spec.nodeSelector {k}={v}"));
            }
        }
    }
    let terms = pod
        .spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?;
    terms.node_selector_terms.iter().find_map(|t| {
        t.match_expressions.iter().flatten().find_map(|e| {
            ARCH.contains(&e.key.as_str()).then(|| {
                format!(
                    "node affinity {} {} {}",
                    e.key,
                    e.operator,
                    e.values.clone().unwrap_or_default().join(",")
                )
            })
        })
    })
}

/// Completes `f` with what the rest of the pod says; `groups` are the knowledge-base match's.
pub fn complete(inp: &Inputs<'_>, f: &mut Finding, groups: &[(&str, String)]) {
    let Some(name) = f.container.clone() else {
        return;
    };
    let id = f.rule;
    if id.contains("addr-in-use") || f.headline.contains("address already in use") {
        let port = groups
            .iter()
            .find(|(k, _)| *k == "addr" || *k == "port")
            .and_then(|(_, v)| port_of(v));
        if let Some(p) = port {
            f.evidence.extend(port_evidence(inp.pod, &name, p));
        }
    }
    if id.contains("auth") || f.headline.contains("authentication failed") {
        f.evidence.extend(credentials(inp.pod, &name));
    }
}

/// The env vars of `container` that carry credentials or the address they are for, as
/// `NAME ← Secret s key k` or `NAME=value` for non-secret literals (never a password's value).
fn credentials(pod: &PodSummary, container: &str) -> Vec<String> {
    use crate::container_spec::{EnvSource, EnvValue};
    const WORDS: [&str; 7] = ["PASS", "USER", "TOKEN", "SECRET", "URL", "DSN", "HOST"];
    let Some(c) = pod.container(container) else {
        return Vec::new();
    };
    let lines: Vec<String> = c
        .spec
        .env
        .iter()
        .filter(|e| {
            WORDS
                .iter()
                .any(|w| e.name.to_ascii_uppercase().contains(w))
        })
        .filter_map(|e| match &e.value {
            EnvValue::From(EnvSource::Secret { .. } | EnvSource::ConfigMap { .. }) => {
                Some(e.text())
            }
            EnvValue::Value(v)
                if !e.name.to_ascii_uppercase().contains("PASS") && !v.is_empty() =>
            {
                Some(e.text())
            }
            _ => None,
        })
        .take(6)
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "credentials and address in container {container}'s env: {}",
        lines.join("; ")
    )]
}

/// Adds the architecture the pod asks for to a finding about an image or binary for another
/// platform (once).
pub fn platform(inp: &Inputs<'_>, f: &mut Finding) {
    let id = f.rule;
    let about = id.contains("platform")
        || id.contains("exec-format")
        || f.headline.contains("exec format error");
    if !about || f.evidence.iter().any(|e| e.source == "architecture") {
        return;
    }
    {
        let node = inp.pod.node.as_deref().unwrap_or("<none>");
        let text = match wanted_arch(inp.pod) {
            Some(a) => format!(
                "{a}: the pod asks for nodes of that architecture (node {node}); the image must have a variant for it"
            ),
            None => format!(
                "the pod names no architecture (no kubernetes.io/arch in nodeSelector or affinity): it can land on node {node} whatever its CPU"
            ),
        };
        f.evidence.push(super::Evidence::new(
            super::EvidenceKind::Spec,
            "architecture",
            text,
        ));
    }
}

/// Adds the CPU limit to a probe finding whose probe timed out: throttling at the limit is the
/// likely reason a probe answer takes longer than `timeoutSeconds`.
pub fn throttling(inp: &Inputs<'_>, f: &mut Finding) {
    if !matches!(
        f.rule,
        "liveness-kill" | "liveness-failing" | "readiness-failing" | "liveness-kills-slow-start"
    ) {
        return;
    }
    let Some(name) = f.container.clone() else {
        return;
    };
    let timed_out = inp.events_of(&name).any(|e| {
        e.reason == "Unhealthy" && {
            let m = e.message.to_ascii_lowercase();
            m.contains("deadline exceeded") || m.contains("timeout") || m.contains("timed out")
        }
    });
    let Some(spec) = spec_of(inp.pod, &name) else {
        return;
    };
    let Some(cpu) = resource(spec, true, "cpu") else {
        return;
    };
    if !timed_out {
        return;
    }
    let probe = if f.rule.starts_with("readiness") {
        spec.readiness_probe.as_ref()
    } else {
        spec.liveness_probe.as_ref()
    };
    let timeout = probe.map_or(1, |p| probe_timing(p).2);
    f.evidence.push(format!(
        "limits.cpu {cpu} and probe timeoutSeconds {timeout}: the probe timed out (no answer in {timeout}s); a container at its CPU limit is throttled by its CFS quota and answers late"
    ));
    f.action = Some(format!(
        "raise limits.cpu above {cpu} (or drop the CPU limit) and give the probe timeoutSeconds ≥ 5; confirm with kubectl top pod {} --containers and the cgroup's throttled periods (container_cpu_cfs_throttled_periods_total)",
        inp.pod.name
    ));
}

/// Words of a log line or message that say an identity was refused.
const REFUSED_IDENTITY: [&str; 6] = [
    "403",
    "permission denied",
    "unauthorized",
    "forbidden",
    "audience",
    "authenticat",
];

/// A searcher for each of [`REFUSED_IDENTITY`], built once: log lines are lowercased and
/// searched with them (an automaton over the same words ran byte by byte, slower on lines of a
/// few hundred bytes).
static REFUSED: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
    std::sync::LazyLock::new(|| {
        REFUSED_IDENTITY
            .iter()
            .map(|w| memchr::memmem::Finder::new(w.as_bytes()))
            .collect()
    });

/// A file the process may not open (`permission denied: '/…'`): a file mode, not an identity.
static FILE_DENIED: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new("permission denied: '/"));

/// Adds the identity the pod presents — its service account and the audiences of its projected
/// tokens — to a finding whose log evidence says an identity was refused (a Vault login, a cloud
/// provider's token exchange, the API server): that is what the other side compares with its
/// role or policy (`96-vault-agent-init-permission-denied`, `107-projected-token-wrong-audience`).
pub fn identity(inp: &Inputs<'_>, f: &mut Finding) {
    if f.evidence.iter().any(|e| e.source == "identity") {
        return;
    }
    let mut lower = Vec::new();
    let refused = f.evidence.iter().any(|e| {
        e.kind == super::EvidenceKind::Log && {
            lower.clear();
            lower.extend(e.text.bytes().map(|b| b.to_ascii_lowercase()));
            REFUSED.iter().any(|w| w.find(&lower).is_some()) && FILE_DENIED.find(&lower).is_none()
        }
    });
    if !refused {
        return;
    }
    let spec = &inp.pod.spec;
    let sa = spec
        .service_account_name
        .as_deref()
        .or(spec.service_account.as_deref())
        .unwrap_or("default");
    let mut parts = vec![format!("spec.serviceAccountName {sa}")];
    for v in spec.volumes.iter().flatten() {
        let Some(p) = &v.projected else { continue };
        for src in p.sources.iter().flatten() {
            if let Some(t) = &src.service_account_token {
                parts.push(format!(
                    "volume {} projects a token for audience {} (expires in {}s)",
                    v.name,
                    t.audience.as_deref().unwrap_or("<the API server's>"),
                    t.expiration_seconds.unwrap_or(3600)
                ));
            }
        }
    }
    let text = format!(
        "the identity the pod presents: {} — the other side's role or policy must accept exactly this",
        parts.join("; ")
    );
    f.evidence.push(super::Evidence::new(
        super::EvidenceKind::Spec,
        "identity",
        text,
    ));
}

/// Adds the pod's node selector and required node affinity to a finding about a node affinity
/// refusal (the scheduler's or the kubelet's at admission): what to compare with the node's
/// labels.
pub fn node_affinity(inp: &Inputs<'_>, f: &mut Finding) {
    let l = f.headline.to_ascii_lowercase();
    let about =
        l.contains("nodeaffinity") || l.contains("node affinity") || l.contains("node selector");
    if !about || f.evidence.iter().any(|e| e.source == "node selection") {
        return;
    }
    let spec = &inp.pod.spec;
    let mut parts = Vec::new();
    if let Some(s) = super::scheduling::spec::node_selector(spec) {
        parts.push(s);
    }
    if let Some(a) = super::scheduling::spec::required_node_affinity(spec) {
        parts.push(a);
    }
    if parts.is_empty() {
        return;
    }
    let node = inp.pod.node.as_deref().unwrap_or("<none>");
    let text = format!(
        "the pod requires {}; compare with the labels of node {node} (kubectl get node {node} --show-labels)",
        parts.join("; ")
    );
    f.evidence.push(super::Evidence::new(
        super::EvidenceKind::Spec,
        "node selection",
        text,
    ));
}
