//! What the specific rules leave: a container waiting for a reason that no other family reads
//! (`CreateContainerError`, `RunContainerError` before any instance ran, `PostStartHookError`,
//! `PreStartHookError`, a runtime's own reason), a pod sandbox the runtime cannot create, and
//! Warning events about a pod that otherwise looks fine. The kubelet sets `waiting.reason` and
//! `waiting.message` from the error that stopped it (`pkg/kubelet/kuberuntime/
//! kuberuntime_container.go` `startContainer`: `CreateContainerError`, `RunContainerError`,
//! `PreStartHookError`, `PostStartHookError`), and reports sandbox failures as pod events
//! `FailedCreatePodSandBox` (`pkg/kubelet/kuberuntime/kuberuntime_manager.go`).

use super::facts::{event_line, expired_note, role};
use super::{Finding, Inputs, Severity};
use crate::pod::{ContainerState, ContainerSummary};

/// Waiting reasons that are steps of a normal start, or that another family explains.
const ORDINARY: [&str; 4] = [
    "",
    "ContainerCreating",
    "PodInitializing",
    "CrashLoopBackOff",
];

/// Event reasons whose meaning other rules give (or that are stale once a container is fine).
const EXPLAINED: [&str; 8] = [
    "BackOff",
    "Unhealthy",
    "Failed",
    "FailedScheduling",
    "Evicted",
    "FailedMount",
    "FailedAttachVolume",
    "FailedCreatePodSandBox",
];

/// A container waiting with an error reason nothing else explained.
pub fn findings(inp: &Inputs<'_>, c: &ContainerSummary, out: &mut Vec<Finding>) {
    let ContainerState::Waiting { reason, message } = &c.state else {
        return;
    };
    if ORDINARY.contains(&reason.as_str()) {
        return;
    }
    let what = match reason.as_str() {
        "CreateContainerError" => "the runtime cannot create it",
        "RunContainerError" | "StartError" => "the runtime cannot start it",
        "PreStartHookError" => "its pre-start hook failed",
        "PostStartHookError" => "its postStart hook failed, so the kubelet killed it",
        _ => "the kubelet cannot go on with it",
    };
    let mut f = Finding::new(
        "container-waiting-error",
        Severity::Error,
        Some(&c.name),
        format!("{} is stuck in {reason}: {what}", role(c)),
    );
    if let Some(m) = message.as_deref().filter(|m| !m.is_empty()) {
        f.headline.push_str(&format!(" (\"{m}\")"));
        f.evidence.push(format!("waiting.reason {reason}: \"{m}\""));
    }
    let warnings: Vec<_> = inp
        .events_of(&c.name)
        .filter(|e| e.type_ == "Warning" && e.reason != "BackOff")
        .take(2)
        .collect();
    f.evidence
        .extend(warnings.iter().map(|e| event_line(e, inp.now)));
    f.evidence.extend(expired_note(
        inp.pod.creation_timestamp,
        inp.now,
        !warnings.is_empty(),
    ));
    f.evidence.push(format!(
        "restartCount {}: no instance ran to completion, so its logs may be empty",
        c.restart_count
    ));
    f.action = Some(match reason.as_str() {
        "PostStartHookError" | "PreStartHookError" => {
            "fix the lifecycle hook (its command must exist in the image and exit 0, an httpGet must answer 2xx)".to_owned()
        }
        _ => format!(
            "the runtime's message says what it refused; kubectl describe pod {} -n {} shows the same events",
            inp.pod.name, inp.pod.namespace
        ),
    });
    out.push(f);
}

/// The pod's sandbox (network namespace, pause container) cannot be created: every container
/// waits in `ContainerCreating` while `FailedCreatePodSandBox` events repeat. Checked only when
/// nothing else was found.
pub fn sandbox(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    let creating = inp.pod.containers.iter().any(
        |c| matches!(&c.state, ContainerState::Waiting { reason, .. } if reason == "ContainerCreating"),
    );
    if !creating {
        return;
    }
    let Some(e) = inp
        .pod_events()
        .find(|e| e.reason == "FailedCreatePodSandBox" && fresh(inp, e))
    else {
        return;
    };
    let cni =
        e.message.contains("CNI") || e.message.contains("cni") || e.message.contains("network");
    let node = inp.pod.node.as_deref().unwrap_or("<none>");
    let mut f = Finding::new(
        "sandbox-failed",
        Severity::Error,
        None,
        if cni {
            format!("the pod's network cannot be set up on node {node}: the CNI plugin fails, so no container starts")
        } else {
            format!("the runtime on node {node} cannot create the pod's sandbox, so no container starts")
        },
    )
    .with(event_line(e, inp.now));
    f.action = Some(if cni {
        format!(
            "check the network plugin's pods on {node} (kubectl get pods -n kube-system -o wide --field-selector spec.nodeName={node}) and their logs; the kubelet retries by itself"
        )
    } else {
        format!(
            "check the container runtime on {node} (its logs, disk space); the kubelet retries by itself"
        )
    });
    out.push(f);
}

/// Whether `e` happened during this pod's life (not an event of an earlier pod of that name).
fn fresh(inp: &Inputs<'_>, e: &crate::event::EventSummary) -> bool {
    match (e.last_timestamp, inp.pod.creation_timestamp) {
        (Some(t), Some(c)) => t >= c,
        _ => true,
    }
}

/// Warning events in the last hour about a pod in which nothing else was found: each reason
/// once (its newest), at most three, as `warning` findings (`DNSConfigForming`,
/// `FailedPreStopHook`, `FailedKillPod`, a controller's or admission's complaint …).
pub fn warning_events(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    let mut seen: Vec<&str> = Vec::new();
    for e in inp.events {
        if seen.len() == 3 {
            break;
        }
        let recent = e
            .last_timestamp
            .is_some_and(|t| inp.now.duration_since(t) < super::facts::EVENT_TTL);
        if e.type_ != "Warning"
            || !recent
            || EXPLAINED.contains(&e.reason.as_str())
            || !fresh(inp, e)
        {
            continue;
        }
        if seen.contains(&e.reason.as_str()) {
            continue;
        }
        seen.push(&e.reason);
        let about = super::facts::container_of(&e.field_path);
        out.push(
            Finding::new(
                "warning-event",
                Severity::Warning,
                about,
                format!(
                    "{} reports {}: \"{}\"",
                    if e.source.is_empty() {
                        "the cluster"
                    } else {
                        e.source.as_str()
                    },
                    e.reason,
                    e.message
                ),
            )
            .with(event_line(e, inp.now)),
        );
    }
}
