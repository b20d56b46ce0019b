//! Pull failures: `ErrImagePull` ⇄ `ImagePullBackOff` (and `RegistryUnavailable`,
//! `SignatureValidationFailed`), classified from the runtime's answer.
//!
//! Mechanism (`pkg/kubelet/images/image_manager.go` `EnsureImageExists`, `pkg/kubelet/kubelet.go`
//! `imageBackOff`): each attempt is a `Pulling` event; a failure is a `Failed` event `Failed to
//! pull image "IMG": <runtime's answer>` plus `Error: ErrImagePull`, and `waiting.message` holds
//! the answer; until the back-off (10 s, doubling, at most 300 s) expires the kubelet answers
//! `Back-off pulling image "IMG"` (`BackOff`, `ImagePullBackOff`; newer kubelets append
//! `: ErrImagePull: <answer>`). restartPolicy does not apply to pulls: the container never ran,
//! so the kubelet keeps retrying, an init container's pull under restartPolicy Never included
//! (kubernetes/kubernetes#83622). Checked against `13-imagepullbackoff-tag-not-found` (containerd NotFound) and
//! `14-init-imagepullbackoff-restartpolicy-never` (Docker
//! "pull access denied", init container, restartPolicy Never).

use jiff::SignedDuration;

use super::classify::{PullClass, classify};
use super::reference::{registry, repository};
use super::{backoff_detail, explaining_event, is_generic, raw_image};
use crate::diagnosis::config::lookup_line;
use crate::diagnosis::facts::{self, role};
use crate::diagnosis::{Finding, Inputs, ObjectRef, Severity};
use crate::pod::{ContainerKind, ContainerSummary};

/// The runtime's answer inside a `Failed to pull image "IMG": <answer>` event message.
fn answer_of(msg: &str) -> &str {
    msg.strip_prefix("Failed to pull image \"")
        .and_then(|r| r.find("\": ").map(|i| &r[i + 3..]))
        .unwrap_or(msg)
}

/// The phrase `token` as it is written in `text` (the search is case-insensitive).
fn as_written<'a>(text: &'a str, token: &'a str) -> &'a str {
    text.to_ascii_lowercase()
        .find(token)
        .and_then(|i| text.get(i..i + token.len()))
        .unwrap_or(token)
}

/// The back-off the kubelet waits after `failures` consecutive failed pulls: 10 s doubling,
/// capped at 300 s.
fn backoff_after(failures: i32) -> SignedDuration {
    let n = failures.clamp(1, 6) - 1;
    SignedDuration::from_secs((10_i64 << n).min(300))
}

fn pull_policy(inp: &Inputs<'_>, c: &ContainerSummary, image: &str) -> String {
    match facts::spec_of(inp.pod, &c.name).and_then(|s| s.image_pull_policy.as_deref()) {
        Some(p) => format!("imagePullPolicy {p}"),
        None => {
            let tag = image
                .rsplit('/')
                .next()
                .and_then(|l| l.split_once(':'))
                .map(|(_, t)| t);
            let default = if image.contains('@') || tag.is_some_and(|t| t != "latest") {
                "IfNotPresent"
            } else {
                "Always"
            };
            format!("imagePullPolicy not set (defaults to {default} for this reference)")
        }
    }
}

/// The finding for a container waiting on a pull failure (`reason` is its waiting reason).
pub(super) fn finding(
    inp: &Inputs<'_>,
    c: &ContainerSummary,
    reason: &str,
    message: Option<&str>,
) -> super::Finding {
    let now = inp.now;
    let pod = inp.pod;
    let ns = &pod.namespace;
    let raw = raw_image(inp, c);
    let node = pod.node.as_deref().unwrap_or("<node>");
    let reg = registry(raw);
    let event = explaining_event(inp, c, reason);
    let from_message = message.and_then(|m| backoff_detail(m).or((!is_generic(m)).then_some(m)));
    let answer = event.map(|e| answer_of(&e.message)).or(from_message);
    let mut classified = answer.map(classify);
    if classified.is_none_or(|k| k.class == PullClass::Unclassified) {
        let by_reason = match reason {
            "RegistryUnavailable" => Some(PullClass::RegistryUnavailable),
            "SignatureValidationFailed" => Some(PullClass::SignatureInvalid),
            _ => None,
        };
        if let Some(class) = by_reason {
            classified = Some(super::Classified { class, token: "" });
        }
    }
    let class = classified.map(|k| k.class);
    let secrets: Vec<&str> = pod
        .spec
        .image_pull_secrets
        .iter()
        .flatten()
        .map(|s| s.name.as_str())
        .collect();
    let secrets_text = if secrets.is_empty() {
        "none".to_owned()
    } else {
        secrets.join(", ")
    };
    let blocked = if c.kind == ContainerKind::Init {
        "; the containers after it cannot start"
    } else {
        ""
    };
    let who = role(c);
    let headline = match class {
        Some(PullClass::AccessDenied) => format!(
            "{who} cannot pull image \"{raw}\": {} (imagePullSecrets: {secrets_text}){blocked}",
            PullClass::AccessDenied.meaning(&reg)
        ),
        Some(k) => format!(
            "{who} cannot pull image \"{raw}\": {}{blocked}",
            k.meaning(&reg)
        ),
        None => format!(
            "{who} cannot pull image \"{raw}\" ({reason}); the runtime's answer is not available{blocked}"
        ),
    };
    let rule = class.map_or("image-pull-failed", PullClass::rule);
    let mut f = Finding::new(rule, Severity::Error, Some(&c.name), headline);
    f.evidence.push(match message {
        Some(m) if !m.is_empty() => format!("waiting.reason {reason}: \"{m}\""),
        _ => format!("waiting.reason {reason}"),
    });
    match (event, from_message) {
        (Some(e), _) => f.evidence.push(facts::event_line(e, now)),
        (None, Some(m)) if message.is_some_and(|w| w != m) => {
            f.evidence.push(format!(
                "the runtime's answer (from waiting.message): \"{m}\""
            ));
        }
        _ => {}
    }
    if let (Some(k), Some(a)) = (classified, answer)
        && !k.token.is_empty()
    {
        f.evidence.push(format!(
            "read as {} from the words \"{}\"",
            rule.trim_start_matches("image-"),
            as_written(a, k.token)
        ));
    }
    if let Some(p) = inp.newest(&c.name, "Pulling") {
        f.evidence.push(facts::event_line(p, now));
    }
    f.evidence.push(pull_policy(inp, c, raw));
    f.evidence.push(format!(
        "spec.imagePullSecrets: {secrets_text}{}",
        if secrets.is_empty() {
            " (the ServiceAccount's pull secrets would have been copied here at admission)"
        } else {
            ""
        }
    ));
    let check_secrets = matches!(
        class,
        Some(
            PullClass::AccessDenied
                | PullClass::NotFound
                | PullClass::RateLimited
                | PullClass::Unclassified
        ) | None
    );
    for s in &secrets {
        let r = ObjectRef::Secret((*s).to_owned());
        if let Some(line) = lookup_line(inp, &r) {
            let kind = match inp.related.get(&r) {
                Some(crate::diagnosis::Lookup::Found { keys, .. })
                    if !keys
                        .iter()
                        .any(|k| k == ".dockerconfigjson" || k == ".dockercfg") =>
                {
                    " — it has no .dockerconfigjson key, so it is not a docker-registry Secret"
                }
                _ => "",
            };
            f.evidence.push(format!("{line}{kind}"));
        }
        if check_secrets {
            f.checks.push(r);
        }
    }
    for e in inp
        .pod_events()
        .filter(|e| e.reason == "FailedToRetrieveImagePullSecret")
    {
        f.evidence.push(facts::event_line(e, now));
    }
    f.evidence.push(if c.restart_count == 0 {
        "restartCount 0: the container never ran — this is not a crash loop, and there are no logs (kubectl logs: waiting to start: trying and failing to pull image)".to_owned()
    } else {
        format!(
            "restartCount {}: earlier instances ran; this start waits for the image (not a crash loop)",
            c.restart_count
        )
    });
    let next = event.and_then(|e| {
        let at = e.last_timestamp?.checked_add(backoff_after(e.count)).ok()?;
        Some(if at > now {
            format!(
                "; after {} failed pulls the next attempt is due ≈{}",
                e.count,
                facts::clock(at, now)
            )
        } else {
            format!(
                "; after {} failed pulls the next attempt is due now",
                e.count
            )
        })
    });
    f.evidence.push(format!(
        "the kubelet retries the pull with a back-off of 10s doubling to 300s{}",
        next.unwrap_or_default()
    ));
    let bound = match (pod.owner.as_ref(), pod.spec.active_deadline_seconds) {
        (_, Some(s)) => format!("only activeDeadlineSeconds ({s}s) ends it"),
        (Some(o), None) if o.kind == "Job" => format!(
            "nothing ends it unless Job {} sets activeDeadlineSeconds (backoffLimit counts failed pods, and this one never fails)",
            o.name
        ),
        _ => "the pod stays Pending until the image can be pulled or the pod is deleted".to_owned(),
    };
    f.evidence.push(format!(
        "restartPolicy {} does not stop pull retries (they are retried forever, init containers included): {bound}",
        pod.restart_policy
    ));
    f.evidence.extend(facts::expired_note(
        pod.creation_timestamp,
        now,
        event.is_some(),
    ));
    let repo = repository(raw);
    let name = &c.name;
    let hint = match class {
        Some(PullClass::NotFound) => {
            let (target, note) = crate::diagnosis::pod_level::workload_target(pod);
            format!(
                "check which tags exist (crane ls {repo}, skopeo list-tags docker://{repo}, or the registry's UI), then fix the reference: kubectl set image {target} {name}={repo}:<existing-tag> -n {ns}{note}; some registries also answer not found for a private repository without credentials"
            )
        }
        Some(PullClass::AccessDenied) if secrets.is_empty() => format!(
            "if {repo} is private, give the pod credentials: kubectl create secret docker-registry regcred -n {ns} --docker-server={reg} --docker-username=… --docker-password=…, then add imagePullSecrets: [{{name: regcred}}] to the pod template (or to its ServiceAccount: kubectl patch serviceaccount {sa} -n {ns} -p '{{\"imagePullSecrets\":[{{\"name\":\"regcred\"}}]}}'); if it is public, the repository name is wrong",
            sa = pod
                .spec
                .service_account_name
                .as_deref()
                .unwrap_or("default")
        ),
        Some(PullClass::AccessDenied) => format!(
            "the pull secrets ({secrets_text}) were refused or do not cover {reg}: check their server and credentials (kubectl get secret {} -n {ns} -o jsonpath='{{.data.\\.dockerconfigjson}}' | base64 -d), and that the repository name {repo} is right",
            secrets.first().copied().unwrap_or("regcred")
        ),
        Some(PullClass::RateLimited) => format!(
            "authenticate the pulls (an imagePullSecret for {reg} raises the limit), use a registry mirror, or pull less often (a fixed tag with imagePullPolicy IfNotPresent); the kubelet keeps retrying"
        ),
        Some(PullClass::Platform) => format!(
            "the image has no variant for node {node}'s platform (kubectl get node {node} -o jsonpath='{{.status.nodeInfo.operatingSystem}}/{{.status.nodeInfo.architecture}}'): publish a multi-arch image or schedule onto matching nodes (nodeSelector kubernetes.io/arch)"
        ),
        Some(PullClass::Tls) => format!(
            "make node {node} trust {reg}'s CA (containerd: /etc/containerd/certs.d/{reg}/ca.crt; Docker: /etc/docker/certs.d/{reg}/ca.crt), or configure it as an HTTP registry if it speaks plain HTTP"
        ),
        Some(PullClass::Network | PullClass::RegistryUnavailable) => format!(
            "check from node {node} that {reg} resolves and answers (crictl pull {raw}, or curl -v https://{reg}/v2/): DNS, proxy, firewall, or the registry itself"
        ),
        Some(PullClass::Timeout) => format!(
            "the pull timed out: check {reg}'s speed from node {node} (crictl pull {raw}); for a very large image pre-pull it or raise the kubelet's runtime-request-timeout"
        ),
        Some(PullClass::Disk) => format!(
            "free image space on node {node} (crictl rmi --prune) and check the kubelet's image garbage collection thresholds"
        ),
        Some(PullClass::SignatureInvalid) => {
            "use an image signed as the node's policy requires, or fix the signature policy"
                .to_owned()
        }
        Some(PullClass::Unclassified) => format!(
            "read the runtime's answer above; reproduce on node {node} with crictl pull {raw}"
        ),
        None => format!(
            "kubectl describe pod {} -n {ns} shows the runtime's answer while the events last; on node {node}, crictl pull {raw} reproduces it",
            pod.name
        ),
    };
    f.action(hint)
}
