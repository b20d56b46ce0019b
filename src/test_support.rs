//! Helpers shared by the integration tests and the benchmarks, which cannot use `tests/common`:
//! a kube client that trusts a [`Simulator`] (its CA and token, from the kubeconfig it wrote) and
//! the TCP echo pod the port-forward tests and benchmarks use. Not part of podscope's API.

use std::path::Path;

use k8s_openapi::api::core::v1::Pod;

use crate::cluster::{ConnectError, ConnectOptions, connect};
use crate::sim::{SimError, Simulator, load_fixture};

/// A kube client for `sim`, built as `podscope --kubeconfig <the simulator's kubeconfig>` builds
/// its own (HTTPS with the simulator's CA and bearer token; plain HTTP with `insecure_http`).
///
/// # Errors
/// As [`connect`]: the kubeconfig is unreadable or unusable.
pub async fn sim_client(sim: &Simulator) -> Result<kube::Client, ConnectError> {
    let opts = ConnectOptions {
        kubeconfig: Some(sim.kubeconfig_path().to_path_buf()),
        ..ConnectOptions::default()
    };
    Ok(connect(&opts, "").await?.client)
}

/// The pod of the fixture at `hello_dir` (the seed's `hello`) renamed `echo` with uid `uid`, its
/// init containers removed and its app replaced by the simulator's TCP echo
/// (`podscope.dev/tcp-echo:1`) on container port 7000.
///
/// # Errors
/// The fixture cannot be loaded.
pub fn echo_pod(hello_dir: &Path, uid: &str) -> Result<Pod, SimError> {
    let mut pod = load_fixture(hello_dir)?.pod;
    pod.metadata.name = Some("echo".into());
    pod.metadata.uid = Some(uid.into());
    pod.metadata.resource_version = None;
    if let Some(spec) = pod.spec.as_mut() {
        spec.init_containers = None;
        if let Some(app) = spec.containers.first_mut() {
            app.image = Some("podscope.dev/tcp-echo:1".into());
            if let Some(port) = app.ports.as_mut().and_then(|p| p.first_mut()) {
                port.container_port = 7000;
            }
        }
    }
    Ok(pod)
}
