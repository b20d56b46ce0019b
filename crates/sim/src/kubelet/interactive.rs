//! Containers whose PID 1 is an interactive shell reading its stdin (`stdin: true` and a shell
//! image without command, or the command `sh`/`bash` alone: what `kubectl debug -it` and
//! `kubectl run -it … -- sh` create). Such a shell runs as long as its stdin stays open: the
//! kubelet model keeps it running with no output and no exit of its own, what it does is
//! played by `pods/attach` (`crate::stream`), and its exit comes back through
//! [`super::Kubelet::pid1_exited`] (`docs/simulator-kubelet.md` §3).

use k8s_openapi::api::core::v1::{Container, Pod};

use crate::runtime::image::{App, Base, SimImage};
use crate::runtime::programs::Program;

/// The shell `spec`'s PID 1 runs interactively (`sh`, `/bin/bash` …), or `None` when its PID 1
/// is something else, reads no stdin (`stdin` unset) or the image has no shell.
pub(crate) fn interactive_shell(spec: &Container) -> Option<String> {
    if !spec.stdin.unwrap_or(false) {
        return None;
    }
    let image = SimImage::of(spec.image.as_deref().unwrap_or(""));
    if image.base == Base::Distroless {
        return None;
    }
    let argv: Vec<&String> = spec
        .command
        .iter()
        .flatten()
        .chain(spec.args.iter().flatten())
        .collect();
    match argv.as_slice() {
        [] if image.app == App::Shell => Some("sh".to_string()),
        [one] if matches!(one.rsplit('/').next(), Some("sh" | "bash" | "ash")) => {
            Some((*one).clone())
        }
        _ => None,
    }
}

/// The program of a container with `spec`: an interactive shell ignores SIGTERM (a shell as
/// PID 1 has no handler, so only the SIGKILL at the end of the grace period stops it) and never
/// exits on its own — its symbolic script is `sleep infinity`, which does exactly that in
/// [`crate::runtime::container_script`]; anything else as
/// [`Program::for_container`] chooses.
pub(crate) fn program_for(spec: &Container) -> Program {
    if interactive_shell(spec).is_some() {
        Program::Script("sleep infinity".to_string())
    } else {
        Program::for_container(spec)
    }
}

/// The spec of `container` in `pod` (init, regular or ephemeral — the last as the `Container`
/// its common fields describe).
pub(crate) fn container_spec(pod: &Pod, container: &str) -> Option<Container> {
    let spec = pod.spec.as_ref()?;
    spec.init_containers
        .iter()
        .flatten()
        .chain(spec.containers.iter())
        .find(|c| c.name == container)
        .cloned()
        .or_else(|| {
            spec.ephemeral_containers
                .iter()
                .flatten()
                .find(|c| c.name == container)
                .map(super::ephemeral::as_container)
        })
}
