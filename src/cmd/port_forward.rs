//! `podscope port-forward POD [ADDR:]LOCAL:REMOTE…`: kubectl's output lines over a
//! [`Forwarder`](crate::cluster::forward::Forwarder), until Ctrl-C.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Args;

use super::exec::connect_and_get_pod;
use crate::cluster::ConnectOptions;
use crate::cluster::forward::{ForwardEvent, Forwarder, resolve};
use crate::model::forward::{PortSpec, RemotePort};
use crate::model::sanitize::sanitize;

/// `podscope port-forward POD [ADDR:]LOCAL:REMOTE…`.
#[derive(Debug, Clone, Args)]
pub struct PortForwardArgs {
    /// The pod's name (`pod/NAME` accepted, as kubectl).
    #[arg(value_name = "POD", value_parser = super::cli::parse_pod)]
    pub pod: String,
    /// Ports: `8080`, `8081:8081`, `:http`, `0.0.0.0:9000:proxy`.
    #[arg(value_name = "[ADDR:]LOCAL:REMOTE", required = true)]
    pub ports: Vec<PortSpec>,
    /// Which cluster and namespace (`--kubeconfig`, `--context`, `-n`).
    #[command(flatten)]
    pub cluster: ConnectOptions,
}

fn show(addr: SocketAddr) -> String {
    match addr {
        SocketAddr::V4(a) => a.to_string(),
        SocketAddr::V6(a) => format!("[{}]:{}", a.ip(), a.port()),
    }
}

/// Runs `podscope port-forward`: prints `Forwarding from …` (for `127.0.0.1` and `[::1]` unless
/// an address is given), `Handling connection for …`, and on stderr `Unable to listen on port
/// L: [::1]:L: …` (one loopback could not be bound, `docs/protocols.md` §4.4) and
/// `an error occurred forwarding L -> R: …`; keeps listening after errors; exits 0 on
/// Ctrl-C with every listener closed. Exit 1 when the pod is missing/not running or a local
/// port cannot be bound.
pub async fn run(args: &PortForwardArgs) -> ExitCode {
    let pod_name = args.pod.clone();
    let (target, _, pod) = match connect_and_get_pod(&args.cluster, &pod_name).await {
        Ok(found) => found,
        Err(code) => return code,
    };
    // As kubectl, before binding anything: the pod must run and every named port must be
    // declared (it is then forwarded by number).
    let mut ports = args.ports.clone();
    for spec in &mut ports {
        match resolve(&pod, &pod_name, &spec.remote) {
            Ok(n) => spec.remote = RemotePort::Number(n),
            Err(text) => {
                eprintln!("error: {}", sanitize(&text));
                return ExitCode::FAILURE;
            }
        }
    }
    let mut fwd = match Forwarder::start(target.client, &target.namespace, &pod_name, &ports).await
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(mut events) = fwd.take_events() else {
        return ExitCode::FAILURE;
    };
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        tokio::select! {
            _ = &mut ctrl_c => break,
            ev = events.recv() => match ev {
                None => break,
                Some(ForwardEvent::Listening { local, remote }) => {
                    println!("Forwarding from {} -> {}", show(local), sanitize(&remote));
                }
                Some(ForwardEvent::ListenFailed { local, reason }) => {
                    eprintln!("Unable to listen on port {}: {}: {reason}", local.port(), show(local));
                }
                Some(ForwardEvent::Connection { local_port }) => {
                    println!("Handling connection for {local_port}");
                }
                Some(ForwardEvent::Error { local_port, remote, text }) => {
                    eprintln!(
                        "an error occurred forwarding {local_port} -> {}: {}",
                        sanitize(&remote),
                        sanitize(&text)
                    );
                }
            }
        }
    }
    fwd.stop().await;
    ExitCode::SUCCESS
}
