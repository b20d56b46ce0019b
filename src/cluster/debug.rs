//! `podscope debug POD`: an ephemeral container sharing the target container's process namespace
//! (`targetContainerName`), added through the `pods/ephemeralcontainers` subresource with a
//! strategic-merge patch as `kubectl debug` sends it, awaited with a watch until Running, then
//! attached to.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use k8s_openapi::api::core::v1::{
    Capabilities, ContainerStatus, EphemeralContainer, Pod, SeccompProfile, SecurityContext,
};
use kube::Api;
use kube::api::{Patch, PatchParams};
use rand::Rng;
use serde_json::json;

use super::exec::{ExecError, ExecRequest};
use super::exec_cli::report;

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

/// `podscope debug POD [-c TARGET] [--image busybox:1.37] [--profile …] [-- CMD…]`.
#[derive(Debug, Clone, Args)]
pub struct DebugArgs {
    /// The pod's name (`pod/NAME` accepted, as kubectl).
    #[arg(value_name = "POD", value_parser = crate::cli::parse_pod)]
    pub pod: String,
    /// Target container whose process namespace to join (default: the default container).
    #[arg(short = 'c', long = "target")]
    pub target: Option<String>,
    /// Debugger image.
    #[arg(long, default_value = "busybox:1.37")]
    pub image: String,
    /// Security profile of the debug container.
    #[arg(long, value_enum, default_value_t = Profile::General)]
    pub profile: Profile,
    /// Which cluster and namespace (`--kubeconfig`, `--context`, `-n`).
    #[command(flatten)]
    pub cluster: crate::cluster::ConnectOptions,
    /// Command to run instead of the image's default (after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
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
        Profile::Restricted => Some(SecurityContext {
            run_as_non_root: Some(true),
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

/// Runs `podscope debug`.
pub async fn run_debug_cli(args: &DebugArgs) -> ExitCode {
    let opts = args.cluster.clone();
    let target = match super::config::connect_or_exit(&opts, &args.pod).await {
        Ok(t) => t,
        Err(code) => return code,
    };
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
    let pod = match api.get(&args.pod).await {
        Ok(p) => p,
        Err(kube::Error::Api(s)) => {
            return report(&ExecError::Api {
                reason: s.reason.clone(),
                message: s.message.clone(),
            });
        }
        Err(e) => return report(&ExecError::Stream(super::config::one_line(&e))),
    };
    let (container, _) = super::exec::default_container(&pod, args.target.as_deref());
    let Some(target_name) = container else {
        return report(&ExecError::Failed(format!(
            "pod {} has no containers",
            args.pod
        )));
    };
    let tty = std::io::stdin().is_terminal();
    let name = debugger_name(&mut rand::rng());
    let ec = debug_container(
        &name,
        &args.image,
        &target_name,
        args.profile,
        &args.command,
        tty,
    );
    let patch = json!({"spec": {"ephemeralContainers": [ec]}});
    if let Err(e) = api
        .patch_ephemeral_containers(&args.pod, &PatchParams::default(), &Patch::Strategic(patch))
        .await
    {
        return match e {
            kube::Error::Api(s) => report(&ExecError::Api {
                reason: s.reason.clone(),
                message: s.message.clone(),
            }),
            other => report(&ExecError::Stream(other.to_string())),
        };
    }
    // After the patch (kubectl says it before): a refusal is then the only line on stderr.
    eprintln!("Defaulting debug container name to {name}.");
    if let Err(e) = wait_running(&api, &args.pod, &name).await {
        return report(&e);
    }
    let req = ExecRequest {
        container: Some(name),
        command: Vec::new(),
        stdin: true,
        tty,
    };
    if tty {
        eprintln!("If you don't see a command prompt, try pressing enter.");
    }
    super::exec_cli::run_and_finish(&api, &args.pod, &req).await
}
