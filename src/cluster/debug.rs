//! Ephemeral debug containers (for `podscope debug` and the TUI's `d`): a container sharing the
//! target container's process namespace (`targetContainerName`), added through the
//! `pods/ephemeralcontainers` subresource with a strategic-merge patch as `kubectl debug` sends
//! it, and awaited with a watch until Running.

use std::time::Duration;

use clap::ValueEnum;
use k8s_openapi::api::core::v1::{
    Capabilities, ContainerStatus, EphemeralContainer, Pod, SeccompProfile, SecurityContext,
};
use kube::Api;
use kube::api::{Patch, PatchParams};
use rand::Rng;
use serde_json::json;

use super::exec::ExecError;

/// kubectl debug's security profiles (`--profile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Profile {
    /// Adds `SYS_PTRACE` so the debugger can inspect the target's processes.
    General,
    /// No changes (what Pod Security "baseline" allows).
    Baseline,
    /// `runAsNonRoot`, no privilege escalation, all capabilities dropped, RuntimeDefault seccomp.
    Restricted,
}

/// A kubectl-style name: `debugger-` and 5 characters from kubectl's alphabet.
pub fn debugger_name<R: Rng>(rng: &mut R) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let suffix: String = (0..5)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect();
    format!("debugger-{suffix}")
}

/// The ephemeral container `kubectl debug -it --image IMAGE --target TARGET` adds.
pub fn debug_container(
    name: &str,
    image: &str,
    target: &str,
    profile: Profile,
    command: &[String],
    tty: bool,
) -> EphemeralContainer {
    let security_context = match profile {
        Profile::General => Some(SecurityContext {
            capabilities: Some(Capabilities {
                add: Some(vec!["SYS_PTRACE".into()]),
                drop: None,
            }),
            ..Default::default()
        }),
        Profile::Baseline => None,
        // runAsNonRoot alone makes the kubelet refuse an image whose user is root (busybox,
        // most debug images: `container has runAsNonRoot and image will run as root`), so the
        // restricted profile also runs as a numeric non-root user, nobody (65534).
        Profile::Restricted => Some(SecurityContext {
            run_as_non_root: Some(true),
            run_as_user: Some(65534),
            allow_privilege_escalation: Some(false),
            capabilities: Some(Capabilities {
                add: None,
                drop: Some(vec!["ALL".into()]),
            }),
            seccomp_profile: Some(SeccompProfile {
                type_: "RuntimeDefault".into(),
                localhost_profile: None,
            }),
            ..Default::default()
        }),
    };
    EphemeralContainer {
        name: name.to_string(),
        image: Some(image.to_string()),
        image_pull_policy: Some("IfNotPresent".into()),
        command: (!command.is_empty()).then(|| command.to_vec()),
        stdin: Some(true),
        tty: Some(tty),
        target_container_name: Some(target.to_string()),
        termination_message_policy: Some("File".into()),
        security_context,
        ..Default::default()
    }
}

fn status_of<'a>(pod: &'a Pod, name: &str) -> Option<&'a ContainerStatus> {
    pod.status
        .as_ref()?
        .ephemeral_container_statuses
        .as_ref()?
        .iter()
        .find(|s| s.name == name)
}

/// Waits (watching the pod, no polling) until the ephemeral container runs.
///
/// # Errors
/// `Failed` when it terminated first, is stuck on an image error, or 5 minutes passed.
pub async fn wait_running(api: &Api<Pod>, pod: &str, name: &str) -> Result<(), ExecError> {
    let owned = name.to_string();
    let cond = move |p: Option<&Pod>| {
        p.and_then(|p| status_of(p, &owned)).is_some_and(|s| {
            let st = s.state.clone().unwrap_or_default();
            st.running.is_some()
                || st.terminated.is_some()
                || st.waiting.as_ref().is_some_and(|w| {
                    matches!(
                        w.reason.as_deref(),
                        Some("ErrImagePull" | "ImagePullBackOff" | "InvalidImageName")
                    )
                })
        })
    };
    let wait = kube::runtime::wait::await_condition(api.clone(), pod, cond);
    let found = tokio::time::timeout(Duration::from_secs(300), wait)
        .await
        .map_err(|_| ExecError::Failed(format!("timed out waiting for container {name} to start")))?
        .map_err(|e| ExecError::Stream(e.to_string()))?;
    let state = found
        .as_ref()
        .and_then(|p| status_of(p, name))
        .and_then(|s| s.state.clone())
        .unwrap_or_default();
    if state.running.is_some() {
        return Ok(());
    }
    if let Some(t) = state.terminated {
        return Err(ExecError::Failed(format!(
            "container {name} terminated with exit code {} before attaching",
            t.exit_code
        )));
    }
    let w = state.waiting.unwrap_or_default();
    Err(ExecError::Failed(format!(
        "container {name} is waiting to start: {}",
        w.message.or(w.reason).unwrap_or_default()
    )))
}

/// Adds `container` to `pod`'s ephemeral containers: a strategic-merge patch of the
/// `pods/ephemeralcontainers` subresource, as `kubectl debug` sends it.
///
/// # Errors
/// [`ExecError::Api`] when the API server refuses (RBAC, an existing name, validation),
/// [`ExecError::Stream`] for transport failures.
pub async fn add_ephemeral_container(
    api: &Api<Pod>,
    pod: &str,
    container: &EphemeralContainer,
) -> Result<(), ExecError> {
    let patch = json!({"spec": {"ephemeralContainers": [container]}});
    match api
        .patch_ephemeral_containers(pod, &PatchParams::default(), &Patch::Strategic(patch))
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(s)) => Err(ExecError::Api {
            reason: s.reason.clone(),
            message: s.message.clone(),
        }),
        Err(other) => Err(ExecError::Stream(other.to_string())),
    }
}

/// The log of the ephemeral container `name` when it already terminated (what `kubectl debug`
/// prints instead of attaching to a container that ended before the attach); `None` when it
/// has not terminated or the log cannot be read.
pub async fn logs_if_terminated(api: &Api<Pod>, pod: &str, name: &str) -> Option<String> {
    let found = api.get(pod).await.ok()?;
    let terminated = status_of(&found, name)
        .and_then(|s| s.state.as_ref())
        .is_some_and(|st| st.terminated.is_some());
    if !terminated {
        return None;
    }
    let params = kube::api::LogParams {
        container: Some(name.to_string()),
        ..Default::default()
    };
    api.logs(pod, &params).await.ok()
}
