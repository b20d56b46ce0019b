//! Outcome rules, for a pod with no problem: it completed (a Job's pod: how long it ran; a
//! native sidecar's 137 at the end is the kubelet stopping it, as designed), it runs and is
//! ready (how many containers, restarts), or it is still starting. Checked against cases 12,
//! 26, 30, 31, 32.

use super::facts::{clock_opt, took};
use super::{Finding, Inputs, Severity};
use crate::pod::{ContainerKind, ContainerState};

/// The one `info` finding for a pod with no problem.
#[must_use]
pub fn summary(inp: &Inputs<'_>) -> Vec<Finding> {
    let pod = inp.pod;
    let now = inp.now;
    let mains: Vec<_> = pod
        .containers
        .iter()
        .filter(|c| c.kind == ContainerKind::Main)
        .collect();
    let f = match pod.phase.as_str() {
        "Succeeded" => {
            let job = pod.owner.as_ref().filter(|o| o.kind == "Job");
            let mut runs = Vec::new();
            for c in &mains {
                if let ContainerState::Terminated(t) = &c.state {
                    let ran = match (t.started_at, t.finished_at) {
                        (Some(s), Some(e)) => format!(" after {}", took(e.duration_since(s))),
                        _ => String::new(),
                    };
                    runs.push(format!("{} exited {}{ran}", c.name, t.exit_code));
                }
            }
            let what = match job {
                Some(j) => format!("Job {}'s pod", j.name),
                None => "pod".to_owned(),
            };
            let mut f = Finding::new(
                "completed",
                Severity::Info,
                mains.first().map(|c| c.name.as_str()),
                format!(
                    "{what} completed successfully ({}); READY {} is normal for a finished pod",
                    if runs.is_empty() {
                        "phase Succeeded".to_owned()
                    } else {
                        runs.join(", ")
                    },
                    pod.print.ready_text()
                ),
            );
            for c in pod
                .containers
                .iter()
                .filter(|c| c.kind == ContainerKind::Sidecar)
            {
                if let ContainerState::Terminated(t) = &c.state {
                    f.evidence.push(format!(
                        "sidecar {} exit {}: stopped by the kubelet after the main containers finished (expected)",
                        c.name, t.exit_code
                    ));
                }
            }
            f.evidence.push("phase Succeeded: kubectl shows Completed; nothing will restart it, its logs stay readable while the pod object exists".to_owned());
            f
        }
        "Running"
            if !mains.is_empty()
                && pod
                    .containers
                    .iter()
                    .all(|c| c.ready || c.kind != ContainerKind::Main) =>
        {
            let restarts: i32 = pod.containers.iter().map(|c| c.restart_count).sum();
            let since = pod.creation_timestamp.map_or_else(String::new, |t| {
                format!(" in {}", took(now.duration_since(t)))
            });
            let restart_text = match restarts {
                0 => format!("no restarts{since}"),
                n => format!("{n} restarts"),
            };
            Finding::new(
                "healthy",
                Severity::Info,
                None,
                format!(
                    "running and ready: {} containers, {restart_text}",
                    pod.print.ready_text()
                ),
            )
            .with(format!(
                "created {}, node {}",
                clock_opt(pod.creation_timestamp, now),
                pod.node.as_deref().unwrap_or("<none>")
            ))
        }
        _ => {
            let waiting: Vec<String> = pod
                .containers
                .iter()
                .filter_map(|c| match &c.state {
                    ContainerState::Waiting { reason, .. } => Some(format!(
                        "{} {}",
                        c.name,
                        if reason.is_empty() { "waiting" } else { reason }
                    )),
                    _ => None,
                })
                .collect();
            let status = &pod.print.status;
            let mut f = Finding::new(
                "starting",
                Severity::Info,
                None,
                format!("{status}: nothing has failed so far"),
            );
            if !waiting.is_empty() {
                f.evidence.push(format!("waiting: {}", waiting.join(", ")));
            }
            if !pod.message.is_empty() {
                f.evidence
                    .push(format!("status.message: \"{}\"", pod.message));
            }
            f
        }
    };
    vec![f]
}
