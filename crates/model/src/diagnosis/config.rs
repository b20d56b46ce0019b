//! Configuration rules: `CreateContainerConfigError` (a Secret, ConfigMap or key the container's
//! env needs is missing, or another spec problem the kubelet found while building the
//! container's config) and volumes that cannot be mounted (`FailedMount`).
//!
//! Rule ids: `missing-configmap`, `missing-secret`, `missing-configmap-key`,
//! `missing-secret-key`, `missing-pvc`, `container-config-error`, `volume-mount-failed`.

mod mount;
mod parse;
mod refs;
mod related;
mod volumes;

use super::facts::{self, role};
use super::{Finding, Inputs, Severity};
use crate::event::EventSummary;
use crate::pod::{ContainerKind, ContainerState, ContainerSummary};

pub(crate) use parse::{Kind, not_found};
pub(crate) use related::lookup_line;

/// Findings about `c`'s configuration.
///
/// `CreateContainerConfigError`: the kubelet could not build the container's config
/// (`pkg/kubelet/kuberuntime/kuberuntime_container.go` `startContainer` → `generateContainerConfig`
/// → `pkg/kubelet/kubelet_pods.go` `makeEnvironmentVariables`, which returns the first
/// non-optional Secret/ConfigMap it cannot get, `secret "x" not found` (`secrets "x"` from older
/// kubelets), or `couldn't find key K in Secret NS/NAME`). The kubelet records it as
/// `waiting.message` and a `Failed` event `Error: …`, and retries at every pod sync: the
/// container is created once the object exists, no restart needed. Checked against
/// `17-createcontainerconfigerror-configmap` (ConfigMap, two env vars) and
/// `18-init-createcontainerconfigerror-secret` (init container, old plural `secrets` wording).
///
/// A container still `ContainerCreating`/`PodInitializing` whose pod has `FailedMount` /
/// `FailedAttachVolume` events: see [`mount`].
pub fn findings(inp: &Inputs<'_>, c: &ContainerSummary, out: &mut Vec<Finding>) {
    match &c.state {
        ContainerState::Waiting { reason, message } if reason == "CreateContainerConfigError" => {
            config_error(inp, c, message.as_deref(), out);
        }
        ContainerState::Waiting { reason, .. }
            if matches!(
                reason.as_str(),
                "ContainerCreating" | "PodInitializing" | ""
            ) =>
        {
            mount::findings(inp, c, out);
        }
        ContainerState::Unknown => mount::findings(inp, c, out),
        _ => {}
    }
}

/// Whether an event message is the kubelet's bare `Error: <Reason>` (`Error: ErrImagePull`),
/// which repeats the waiting reason and explains nothing.
pub(crate) fn is_generic_error(msg: &str) -> bool {
    msg.strip_prefix("Error: ")
        .is_some_and(|r| !r.is_empty() && !r.contains(char::is_whitespace))
}

/// `event Failed (×164, last at 10:35:50, first at 10:01:36): "…"`.
pub(crate) fn event_span_line(e: &EventSummary, now: jiff::Timestamp) -> String {
    let line = facts::event_line(e, now);
    match (e.count, e.first_timestamp) {
        (n, Some(first)) if n > 1 => line.replacen(
            "):",
            &format!(", first at {}):", facts::clock(first, now)),
            1,
        ),
        _ => line,
    }
}

/// What the kubelet said: the parsed cause of a `CreateContainerConfigError`.
enum Cause {
    Missing(Kind, String),
    Key(parse::MissingKey),
    Other(String),
}

fn cause_of(text: &str) -> Cause {
    if let Some(k) = parse::missing_key(text) {
        return Cause::Key(k);
    }
    match parse::not_found(text).into_iter().next() {
        Some((kind, name)) => Cause::Missing(kind, name),
        None => Cause::Other(text.trim().to_owned()),
    }
}

fn blocked_tail(c: &ContainerSummary) -> &'static str {
    if c.kind == ContainerKind::Init {
        "; the containers after it cannot start"
    } else {
        ""
    }
}

fn config_error(
    inp: &Inputs<'_>,
    c: &ContainerSummary,
    waiting: Option<&str>,
    out: &mut Vec<Finding>,
) {
    let now = inp.now;
    let pod = inp.pod;
    let event = inp.events_of(&c.name).find(|e| {
        e.reason == "Failed" && e.message.starts_with("Error: ") && !is_generic_error(&e.message)
    });
    let from_event = event.map(|e| e.message.trim_start_matches("Error: "));
    let text = waiting
        .filter(|m| !m.trim().is_empty())
        .or(from_event)
        .unwrap_or("");
    let who = role(c);
    let ns = &pod.namespace;
    let mut evidence = vec![match waiting.filter(|m| !m.trim().is_empty()) {
        Some(m) => format!("waiting.reason CreateContainerConfigError: \"{m}\""),
        None => "waiting.reason CreateContainerConfigError (no message)".to_owned(),
    }];
    if let Some(e) = event {
        evidence.push(event_span_line(e, now));
    }
    let mut f = match cause_of(text) {
        Cause::Missing(kind, name) => missing(inp, c, kind, &name, &mut evidence),
        Cause::Key(k) => missing_key(inp, c, &k, &mut evidence),
        Cause::Other(t) if t.is_empty() => {
            Finding::new(
                "container-config-error",
                Severity::Error,
                Some(&c.name),
                format!(
                    "{who} cannot be created (CreateContainerConfigError); the kubelet's reason is not available{}",
                    blocked_tail(c)
                ),
            )
            .action(format!(
                "kubectl describe pod {} -n {ns} shows the kubelet's message while its events last",
                pod.name
            ))
        }
        Cause::Other(t) => other(c, &t),
    };
    evidence.extend(facts::expired_note(
        pod.creation_timestamp,
        now,
        event.is_some(),
    ));
    let mut all = evidence;
    all.extend(f.evidence.0.drain(..).map(|e| e.text));
    all.push(format!(
        "restartCount {}: the container was never created, so it has no logs",
        c.restart_count
    ));
    all.push(
        "the kubelet retries at every pod sync and creates the container as soon as the configuration resolves: no restart needed"
            .to_owned(),
    );
    f.evidence = all.into_iter().collect();
    out.push(f);
}

fn reference_evidence(
    inp: &Inputs<'_>,
    kind: Kind,
    name: &str,
    evidence: &mut Vec<String>,
) -> Vec<refs::Ref> {
    let found = refs::references(&inp.pod.spec, kind, name);
    if found.is_empty() {
        evidence.push(format!(
            "no reference to {} {name} found in the pod spec",
            kind.title()
        ));
    } else {
        evidence.push(format!(
            "the pod spec refers to {} {name} {} time{}:",
            kind.title(),
            found.len(),
            if found.len() == 1 { "" } else { "s" }
        ));
        evidence.extend(found.iter().map(|r| format!("  {}", r.line)));
    }
    found
}

fn also_uses(inp: &Inputs<'_>, c: &ContainerSummary, kind: Kind, name: &str, f: &mut Finding) {
    let others = refs::other_objects(&inp.pod.spec, &c.name, (kind, name));
    if others.is_empty() {
        return;
    }
    let list: Vec<String> = others
        .iter()
        .map(|(k, n)| format!("{} {n}", k.title()))
        .collect();
    f.evidence.push(format!(
        "{} also uses {} (the kubelet reports only the first it cannot resolve)",
        role(c),
        list.join(", ")
    ));
    for (k, n) in others {
        let r = k.object(&n);
        f.evidence.extend(lookup_line(inp, &r));
        f.checks.push(r);
    }
}

fn missing(
    inp: &Inputs<'_>,
    c: &ContainerSummary,
    kind: Kind,
    name: &str,
    evidence: &mut Vec<String>,
) -> Finding {
    let pod = inp.pod;
    let ns = &pod.namespace;
    let rule = match kind {
        Kind::Secret => "missing-secret",
        Kind::ConfigMap => "missing-configmap",
        Kind::Pvc => "missing-pvc",
    };
    let found = reference_evidence(inp, kind, name, evidence);
    let keys = refs::needed_keys(&found);
    let keys_text = if keys.is_empty() {
        String::new()
    } else {
        format!(" (keys it needs: {})", keys.join(", "))
    };
    let object = kind.object(name);
    let exists_now = related::exists(inp, &object) == Some(true);
    let title = kind.title();
    let who = role(c);
    let (severity, headline) = if exists_now {
        (
            Severity::Warning,
            format!(
                "{who} could not be created because {title} {name} was missing in namespace {ns}; it exists now, so the kubelet should create the container at its next retry"
            ),
        )
    } else {
        (
            Severity::Error,
            format!(
                "{who} cannot be created: {title} {name} does not exist in namespace {ns}{keys_text}{}",
                blocked_tail(c)
            ),
        )
    };
    let mut f = Finding::new(rule, severity, Some(&c.name), headline);
    f.evidence.extend(lookup_line(inp, &object));
    f.checks.push(object);
    also_uses(inp, c, kind, name, &mut f);
    let create = refs::create_command(kind, name, ns, &found);
    f.action(format!(
        "create it with the keys the pod reads: {create} (or restore it from where it came from, e.g. the Helm release or the manifests that a recent upgrade changed); the container starts by itself once it exists. A missing key (couldn't find key …) would be a different fix: the object exists and lacks the key"
    ))
}

fn missing_key(
    inp: &Inputs<'_>,
    c: &ContainerSummary,
    k: &parse::MissingKey,
    evidence: &mut Vec<String>,
) -> Finding {
    let pod = inp.pod;
    let ns = if k.namespace.is_empty() {
        pod.namespace.as_str()
    } else {
        k.namespace.as_str()
    };
    let rule = match k.kind {
        Kind::Secret => "missing-secret-key",
        _ => "missing-configmap-key",
    };
    let title = k.kind.title();
    let name = &k.name;
    let key = &k.key;
    let found = reference_evidence(inp, k.kind, name, evidence);
    let object = k.kind.object(name);
    let present = related::has_key(inp, &object, key);
    let who = role(c);
    let (severity, headline) = if present == Some(true) {
        (
            Severity::Warning,
            format!(
                "{who} could not be created because key {key} was missing in {title} {name} (namespace {ns}); the key exists now, so the kubelet should create the container at its next retry"
            ),
        )
    } else {
        (
            Severity::Error,
            format!(
                "{who} cannot be created: {title} {name} (namespace {ns}) exists but has no key {key}{}",
                blocked_tail(c)
            ),
        )
    };
    let mut f = Finding::new(rule, severity, Some(&c.name), headline);
    if let Some(line) = lookup_line(inp, &object) {
        let verdict = match present {
            Some(true) => format!("; key {key} is there now"),
            Some(false) => format!("; key {key} is not among them"),
            None => String::new(),
        };
        f.evidence.push(format!("{line}{verdict}"));
    }
    f.checks.push(object);
    let users: Vec<&str> = found
        .iter()
        .filter(|r| r.key.as_deref() == Some(key.as_str()))
        .map(|r| r.line.as_str())
        .collect();
    let patch = match k.kind {
        Kind::Secret => format!(
            "kubectl patch secret {name} -n {ns} --type=merge -p '{{\"stringData\":{{\"{key}\":\"…\"}}}}'"
        ),
        _ => format!(
            "kubectl patch configmap {name} -n {ns} --type=merge -p '{{\"data\":{{\"{key}\":\"…\"}}}}'"
        ),
    };
    let fix_ref = if users.is_empty() {
        String::new()
    } else {
        format!(
            ", or correct the key name in the reference ({})",
            users.join("; ")
        )
    };
    f.action(format!(
        "the object exists, the key does not: add it with {patch}{fix_ref}; the container starts by itself once the key resolves"
    ))
}

fn other(c: &ContainerSummary, text: &str) -> Finding {
    let lower = text.to_ascii_lowercase();
    let who = role(c);
    let hint = if lower.contains("runasnonroot") && lower.contains("non-numeric user") {
        "the image's USER is a name, so the kubelet cannot verify it is not root: set securityContext.runAsUser to its numeric UID (e.g. runAsUser: 1000)"
    } else if lower.contains("runasnonroot") {
        "the image runs as root (UID 0) but securityContext.runAsNonRoot is true: set securityContext.runAsUser to a non-zero UID, or use an image whose USER is not root"
    } else if lower.contains("subpath") {
        "the kubelet could not prepare a volumeMount's subPath: check volumeMounts[].subPath/subPathExpr (the path must stay inside the volume; a symlink out of it or a file where a directory is expected fails)"
    } else if lower.contains("failed to sync") && lower.contains("cache") {
        "the kubelet timed out reading the object from the API server: check the node's connection to the API server (and the Node authorizer); it usually clears by itself"
    } else if lower.contains("serviceaccount") || lower.contains("service account") {
        "check the pod's ServiceAccount exists: kubectl get serviceaccount -n <namespace>"
    } else {
        "the kubelet's message above is the cause; fix that part of the pod spec (kubectl describe pod shows the same text)"
    };
    Finding::new(
        "container-config-error",
        Severity::Error,
        Some(&c.name),
        format!(
            "{who} cannot be created (CreateContainerConfigError): {text}{}",
            blocked_tail(c)
        ),
    )
    .action(hint)
}
