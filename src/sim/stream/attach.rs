//! What `pods/attach` connects to in the simulated kubelet, and how an attached ephemeral
//! container ends: its PID 1 when that is an interactive shell (else nothing to read or write),
//! and Terminated (`exitCode`, `Completed`/`Error`) when that shell exits.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{ContainerState, ContainerStateTerminated, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use crate::sim::api::store::Store;
use crate::sim::runtime::userland::{ContainerView, Userland};

/// What `attach` connects to: the container's PID 1 when it is an interactive shell (`stdin:
/// true` in the spec and a shell image without command, or command `sh`/`bash`); `None` for
/// other programs (nothing to read or write).
pub(super) fn attach_argv(pod: &Pod, view: &ContainerView) -> Option<Vec<String>> {
    if view.userland == Userland::None {
        return None;
    }
    let spec = pod.spec.as_ref()?;
    let (stdin, argv): (bool, Vec<String>) = spec
        .ephemeral_containers
        .iter()
        .flatten()
        .find(|c| c.name == view.container)
        .map(|c| {
            (
                c.stdin.unwrap_or(false),
                c.command.clone().unwrap_or_default(),
            )
        })
        .or_else(|| {
            spec.containers
                .iter()
                .chain(spec.init_containers.iter().flatten())
                .find(|c| c.name == view.container)
                .map(|c| {
                    (
                        c.stdin.unwrap_or(false),
                        c.command.clone().unwrap_or_default(),
                    )
                })
        })?;
    let shell = match argv.first().map(String::as_str) {
        None => "sh",
        Some(s) if matches!(s.rsplit('/').next(), Some("sh" | "bash")) && argv.len() == 1 => s,
        Some(_) => return None,
    };
    stdin.then(|| vec![shell.to_string()])
}

/// After the attached shell of an ephemeral container exits, the container is Terminated
/// (`exitCode`, reason `Completed`/`Error`, `finishedAt` = the simulator's now).
pub(super) fn mark_ephemeral_exit(store: &Store, pod: &Pod, container: &str, code: i32) {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let name = pod.metadata.name.as_deref().unwrap_or("");
    let now: Timestamp = store.now();
    let _ = store.update_pod(ns, name, |p| {
        let Some(statuses) = p
            .status
            .as_mut()
            .and_then(|s| s.ephemeral_container_statuses.as_mut())
        else {
            return;
        };
        for s in statuses.iter_mut().filter(|s| s.name == container) {
            let started = s
                .state
                .as_ref()
                .and_then(|st| st.running.as_ref())
                .and_then(|r| r.started_at.clone());
            s.state = Some(ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: code,
                    reason: Some(if code == 0 { "Completed" } else { "Error" }.to_string()),
                    started_at: started,
                    finished_at: Some(Time(now)),
                    container_id: s.container_id.clone(),
                    ..Default::default()
                }),
                ..Default::default()
            });
        }
    });
}
