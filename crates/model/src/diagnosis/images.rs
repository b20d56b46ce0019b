//! Image rules: pull failures classified from the runtime's answer, malformed references, an
//! image that may not be pulled, an image the runtime cannot inspect.
//!
//! Rule ids: `image-not-found`, `image-pull-denied`, `image-pull-network`,
//! `image-pull-rate-limited`, `image-platform-mismatch`, `image-pull-timeout`,
//! `image-pull-disk-full`, `image-signature-invalid`, `image-pull-failed` (unclassified),
//! `image-invalid-name`, `image-never-pull`, `image-inspect-failed`.

mod classify;
mod pull;
mod reference;

pub use classify::{Classified, PullClass, classify};
pub use reference::{Problem, highlight, problems, registry, repository};

use super::config::is_generic_error;
use super::facts::{self, role};
use super::{Finding, Inputs, Severity};
use crate::event::EventSummary;
use crate::pod::{ContainerState, ContainerSummary};

/// Findings about `c`'s image, for a container waiting with `ErrImagePull`, `ImagePullBackOff`,
/// `RegistryUnavailable`, `SignatureValidationFailed` (pull failures, [`pull`]),
/// `InvalidImageName`, `ErrImageNeverPull` or `ImageInspectError`.
///
/// The kubelet ensures the image before it creates a container
/// (`pkg/kubelet/kuberuntime/kuberuntime_container.go` `startContainer` →
/// `pkg/kubelet/images/image_manager.go` `EnsureImageExists`): it parses the reference
/// (`InspectFailed` event, `InvalidImageName`), checks the pull policy (`ErrImageNeverPull`),
/// inspects the local image (`ImageInspectError`), pulls (`Pulling`, then `Failed` with the
/// runtime's answer and `ErrImagePull`) and backs off between pulls (`BackOff`,
/// `ImagePullBackOff`). Checked against `assets/cases/13-imagepullbackoff-tag-not-found`,
/// `14-init-imagepullbackoff-restartpolicy-never` and `15-invalidimagename`.
pub fn findings(inp: &Inputs<'_>, c: &ContainerSummary, out: &mut Vec<Finding>) {
    let ContainerState::Waiting { reason, message } = &c.state else {
        return;
    };
    let message = message.as_deref();
    match reason.as_str() {
        "ErrImagePull"
        | "ImagePullBackOff"
        | "RegistryUnavailable"
        | "SignatureValidationFailed" => {
            out.push(pull::finding(inp, c, reason, message));
        }
        "InvalidImageName" => out.push(invalid_name(inp, c, message)),
        "ErrImageNeverPull" => out.push(never_pull(inp, c, message)),
        "ImageInspectError" => out.push(inspect_failed(inp, c, message)),
        _ => {}
    }
}

/// The image as the spec writes it (unsanitised: whitespace and controls kept for the
/// analysis; every finding string is sanitised later), else the summary's.
fn raw_image<'a>(inp: &Inputs<'a>, c: &'a ContainerSummary) -> &'a str {
    facts::spec_of(inp.pod, &c.name)
        .and_then(|s| s.image.as_deref())
        .unwrap_or(&c.image)
}

/// Whether a waiting message or event is a bare repeat of the reason (`Error: ErrImagePull`,
/// `Back-off pulling image "x"` with nothing after it).
fn is_generic(msg: &str) -> bool {
    let m = msg.trim();
    m.is_empty()
        || is_generic_error(m)
        || (m.starts_with("Back-off pulling image") && backoff_detail(m).is_none())
        || (m.to_ascii_lowercase().starts_with("back-off ")
            && m.contains("restarting failed container"))
}

/// The previous error a newer kubelet appends to the back-off message:
/// `Back-off pulling image "x": ErrImagePull: <answer>` → `<answer>`.
fn backoff_detail(msg: &str) -> Option<&str> {
    let rest = msg.strip_prefix("Back-off pulling image ")?;
    let rest = rest.strip_prefix('"')?;
    let close = rest.find('"')?;
    let detail = rest[close + 1..].trim_start_matches([':', ' ']);
    let detail = detail
        .strip_prefix("ErrImagePull:")
        .or_else(|| detail.strip_prefix("RegistryUnavailable:"))
        .or_else(|| detail.strip_prefix("SignatureValidationFailed:"))
        .unwrap_or(detail)
        .trim();
    (!detail.is_empty()).then_some(detail)
}

/// The newest kubelet event about `c` that explains why it waits, by the waiting reason.
fn explaining_event<'a>(
    inp: &Inputs<'a>,
    c: &'a ContainerSummary,
    reason: &str,
) -> Option<&'a EventSummary> {
    let mut about = inp.events_of(&c.name).filter(|e| !is_generic(&e.message));
    match reason {
        "ErrImagePull"
        | "ImagePullBackOff"
        | "RegistryUnavailable"
        | "SignatureValidationFailed" => {
            // The newest about the image the spec names now (it may have been changed since).
            let pulls: Vec<&EventSummary> = about
                .filter(|e| e.reason == "Failed" && e.message.starts_with("Failed to pull image"))
                .collect();
            let current = format!("Failed to pull image \"{}\"", raw_image(inp, c));
            pulls
                .iter()
                .find(|e| e.message.starts_with(&current))
                .or(pulls.first())
                .copied()
        }
        "InvalidImageName" | "ImageInspectError" => about.find(|e| e.reason == "InspectFailed"),
        "ErrImageNeverPull" => about.find(|e| e.reason == "ErrImageNeverPull"),
        _ => about.find(|e| {
            matches!(
                e.reason.as_str(),
                "Failed" | "InspectFailed" | "FailedPostStartHook" | "FailedPreStopHook"
            ) && !e.message.starts_with("Failed to pull image")
        }),
    }
}

/// The runtime's or kubelet's own words explaining why waiting container `c` does not run, for
/// the state line: the newest `Failed`/`InspectFailed`/`ErrImageNeverPull` event about it that is
/// not a bare `Error: ErrImagePull` or `Back-off pulling image "…"` (`Failed to pull image "x":
/// rpc error: code = NotFound desc = …`, `Error: configmap "x" not found`), else its
/// `waiting.message` when that says more than the reason (`Back-off pulling image "x":
/// ErrImagePull: <answer>` gives the answer), else, for a container still
/// `ContainerCreating`/`PodInitializing`, the newest pod-level `FailedMount`,
/// `FailedAttachVolume` or `FailedCreatePodSandBox` message. `None` for a container that is not
/// waiting or when nothing explains it. Sanitised (it comes from the summaries).
#[must_use]
pub fn runtime_answer(inp: &Inputs<'_>, c: &ContainerSummary) -> Option<String> {
    let ContainerState::Waiting { reason, message } = &c.state else {
        return None;
    };
    if let Some(e) = explaining_event(inp, c, reason) {
        return Some(e.message.clone());
    }
    if let Some(m) = message.as_deref() {
        if let Some(d) = backoff_detail(m) {
            return Some(d.to_owned());
        }
        if !is_generic(m) && reason != "PodInitializing" {
            return Some(m.to_owned());
        }
    }
    if matches!(
        reason.as_str(),
        "ContainerCreating" | "PodInitializing" | ""
    ) {
        let created = inp.pod.creation_timestamp;
        return inp
            .pod_events()
            .find(|e| {
                matches!(
                    e.reason.as_str(),
                    "FailedMount"
                        | "FailedAttachVolume"
                        | "FailedMapVolume"
                        | "FailedCreatePodSandBox"
                ) && match (e.last_timestamp, created) {
                    (Some(t), Some(c)) => t >= c,
                    _ => true,
                }
            })
            .map(|e| e.message.clone());
    }
    None
}

/// `InvalidImageName`: the kubelet could not parse the reference (`applyDefaultImageTag`:
/// `Failed to apply default image tag "IMG": couldn't parse image reference "IMG": invalid
/// reference format`, event `InspectFailed`), so no pull was attempted; the kubelet fails the
/// same way at every sync until the spec changes. Checked against `assets/cases/15-invalidimagename` (leading `/`).
fn invalid_name(inp: &Inputs<'_>, c: &ContainerSummary, message: Option<&str>) -> Finding {
    let now = inp.now;
    let raw = raw_image(inp, c);
    let found = problems(raw);
    let first = found.first().map_or_else(
        || "the runtime's parser rejects it".to_owned(),
        |p| p.what.clone(),
    );
    let mut f = Finding::new(
        "image-invalid-name",
        Severity::Error,
        Some(&c.name),
        format!(
            "{} has a malformed image reference \"{raw}\" ({first}); the kubelet never tried to pull it",
            role(c)
        ),
    );
    f.evidence.push(match message {
        Some(m) => format!("waiting.reason InvalidImageName: \"{m}\""),
        None => "waiting.reason InvalidImageName".to_owned(),
    });
    let event = explaining_event(inp, c, "InvalidImageName");
    if let Some(e) = event {
        f.evidence.push(facts::event_line(e, now));
    }
    f.evidence.push(format!("image as written: \"{raw}\""));
    if found.is_empty() {
        f.evidence.push(
            "podscope finds nothing wrong by the reference grammar; the kubelet's message above is what its parser said"
                .to_owned(),
        );
    }
    for p in &found {
        f.evidence
            .push(format!("{}: {}", p.what, highlight(raw, p.span)));
    }
    let pulled = inp.events_of(&c.name).any(|e| e.reason == "Pulling");
    if !pulled {
        f.evidence.push(
            "no Pulling event: the reference is rejected before any registry is asked (this is not ImagePullBackOff)"
                .to_owned(),
        );
    }
    f.evidence.push(
        "it does not fix itself and there is no back-off: the kubelet re-checks at every sync and fails the same way until the pod template changes"
            .to_owned(),
    );
    f.evidence.extend(facts::expired_note(
        inp.pod.creation_timestamp,
        now,
        event.is_some(),
    ));
    let (target, note) = super::pod_level::workload_target(inp.pod);
    f.action(format!(
        "fix the image in the template{note}: kubectl set image {target} {}=<registry>/<repository>:<tag> -n {} (lowercase repository, no scheme, no leading '/', no spaces)",
        c.name, inp.pod.namespace
    ))
}

/// `ErrImageNeverPull`: `imagePullPolicy: Never` and the image is not on the node
/// (`Container image "IMG" is not present with pull policy of Never`, event `ErrImageNeverPull`).
fn never_pull(inp: &Inputs<'_>, c: &ContainerSummary, message: Option<&str>) -> Finding {
    let raw = raw_image(inp, c);
    let node = inp.pod.node.as_deref().unwrap_or("<node>");
    let mut f = Finding::new(
        "image-never-pull",
        Severity::Error,
        Some(&c.name),
        format!(
            "{}: image \"{raw}\" is not present on node {node} and imagePullPolicy Never forbids pulling it",
            role(c)
        ),
    );
    f.evidence.push(match message {
        Some(m) => format!("waiting.reason ErrImageNeverPull: \"{m}\""),
        None => "waiting.reason ErrImageNeverPull".to_owned(),
    });
    if let Some(e) = explaining_event(inp, c, "ErrImageNeverPull") {
        f.evidence.push(facts::event_line(e, inp.now));
    }
    f.evidence
        .push("imagePullPolicy Never: the kubelet only uses images already on the node".to_owned());
    f.action(format!(
        "put the image on node {node} (kind load docker-image {raw}, minikube image load {raw}, or ctr -n k8s.io images import on the node), or set imagePullPolicy: IfNotPresent so the kubelet may pull it"
    ))
}

/// `ImageInspectError`: the runtime failed to inspect the local image (`Failed to inspect image
/// "IMG": …`, event `InspectFailed`).
fn inspect_failed(inp: &Inputs<'_>, c: &ContainerSummary, message: Option<&str>) -> Finding {
    let raw = raw_image(inp, c);
    let node = inp.pod.node.as_deref().unwrap_or("<node>");
    let mut f = Finding::new(
        "image-inspect-failed",
        Severity::Error,
        Some(&c.name),
        format!(
            "{}: the container runtime on node {node} failed to inspect image \"{raw}\"",
            role(c)
        ),
    );
    f.evidence.push(match message {
        Some(m) => format!("waiting.reason ImageInspectError: \"{m}\""),
        None => "waiting.reason ImageInspectError".to_owned(),
    });
    if let Some(e) = explaining_event(inp, c, "ImageInspectError") {
        f.evidence.push(facts::event_line(e, inp.now));
    }
    f.action(format!(
        "a node-side runtime problem: on node {node}, crictl inspecti {raw} and the runtime's log (journalctl -u containerd or crio); removing the broken image (crictl rmi) lets the kubelet pull it again"
    ))
}
