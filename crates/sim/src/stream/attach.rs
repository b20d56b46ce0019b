//! What `pods/attach` connects to in the simulated kubelet (`docs/simulator-kubelet.md` §3):
//! the container's PID 1 when it is an interactive shell (played here, per attach; its exit ends
//! the container through the kubelet model), else the output of the running instance
//! (`super::attach_output`).

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;

use crate::api::store::{Intent, Store};
use crate::kubelet::interactive::{container_spec, interactive_shell};
use crate::runtime::userland::{ContainerView, Userland};

/// How long an attach waits for the kubelet model to record its shell's exit before it reports
/// the end of the session.
const EXIT_RECORDED: Duration = Duration::from_secs(3);

/// What `attach` connects to: the container's PID 1 when it is an interactive shell (`stdin:
/// true` and a shell image without command, or command `sh`/`bash` alone:
/// [`interactive_shell`]); `None` for other programs (their output is followed instead).
pub(super) fn attach_argv(pod: &Pod, view: &ContainerView) -> Option<Vec<String>> {
    if view.userland == Userland::None {
        return None;
    }
    let spec = container_spec(pod, &view.container)?;
    interactive_shell(&spec).map(|shell| vec![shell])
}

/// The running instance's `containerID` of `container` in `pod`.
pub(super) fn running_instance(pod: &Pod, container: &str) -> Option<String> {
    let st = pod.status.as_ref()?;
    [
        &st.init_container_statuses,
        &st.container_statuses,
        &st.ephemeral_container_statuses,
    ]
    .into_iter()
    .flat_map(|l| l.iter().flatten())
    .find(|s| s.name == container && s.state.as_ref().is_some_and(|st| st.running.is_some()))
    .and_then(|s| s.container_id.clone())
}

/// The attached interactive shell that is `container`'s PID 1 exited with `code`: the kubelet
/// model terminates the instance (`Completed`/`Error`, then its restart rules); waits (at most
/// [`EXIT_RECORDED`]) until the stored status shows it, so the client sees the end after it.
pub(super) async fn pid1_exited(store: &Store, pod: &Pod, container: &str, code: i32) {
    let ns = pod
        .metadata
        .namespace
        .clone()
        .unwrap_or_else(|| "default".into());
    let name = pod.metadata.name.clone().unwrap_or_default();
    let Some(id) = running_instance(pod, container) else {
        return;
    };
    let mut activity = store.activity();
    store.submit(Intent::Pid1Exited {
        namespace: ns.clone(),
        name: name.clone(),
        container: container.to_string(),
        code,
    });
    let recorded = async {
        loop {
            let still = store
                .pod(&ns, &name)
                .is_some_and(|p| running_instance(&p, container).as_deref() == Some(id.as_str()));
            if !still || activity.changed().await.is_err() {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(EXIT_RECORDED, recorded).await;
}
