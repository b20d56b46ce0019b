//! Port-forwarding with kube-rs: binding, accepting and bookkeeping. Each accepted local
//! connection is carried to the pod by [`super::forward_connection`] (one
//! `Api::portforward(pod, &[port])` WebSocket per connection, `docs/protocols.md` §4.3).
//!
//! The pod is looked up by name for every connection, so a pod re-created under the same name
//! gets the new connections; a forward started with [`Forwarder::start_following`] reads the
//! name from a `watch` channel, so the TUI re-aims it at a workload's replacement pod. Progress is published as `Vec<ForwardStatus>` on a `watch` channel
//! (one entry per [`PortSpec`], in order), plus [`ForwardEvent`]s for kubectl-style lines.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::forward_connection::forward_one;
pub use super::forward_connection::resolve;
use crate::model::forward::{PortSpec, RemotePort};
use crate::model::forward_status::{ForwardState, ForwardStatus};

/// Errors starting a forward.
#[derive(Debug, thiserror::Error)]
pub enum ForwardError {
    /// No address of a spec could be bound (typically: the port is in use): its given address,
    /// or both loopbacks (`docs/protocols.md` §4.4). Shown as `unable to listen on
    /// 127.0.0.1:8080 and [::1]:8080: address already in use` (one reason per address when they
    /// differ).
    #[error("unable to listen on {}", show_failures(.failures))]
    Bind {
        /// Each address tried with why it could not be bound (`address already in use`,
        /// `permission denied`, …; lowercase, one line), in the order tried.
        failures: Vec<(SocketAddr, String)>,
    },
    /// RBAC refuses `pods/portforward` (kubectl's `error upgrading connection: pods "x" is
    /// forbidden: … cannot create resource "pods/portforward" … in the namespace "ns"`).
    #[error("error upgrading connection: {0}")]
    Forbidden(String),
}

/// `127.0.0.1:8080 and [::1]:8080: address already in use` when the reasons agree, else
/// `127.0.0.1:8080: address already in use; [::1]:8080: address not available on this host`.
fn show_failures(failures: &[(SocketAddr, String)]) -> String {
    let same = failures.windows(2).all(|w| w[0].1 == w[1].1);
    match failures {
        [(_, reason), ..] if same => {
            let addrs: Vec<String> = failures.iter().map(|(a, _)| a.to_string()).collect();
            format!("{}: {reason}", addrs.join(" and "))
        }
        _ => failures
            .iter()
            .map(|(a, r)| format!("{a}: {r}"))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// A line-worthy happening, for kubectl-style output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForwardEvent {
    /// Bound: `Forwarding from 127.0.0.1:8081 -> 8081`.
    Listening {
        /// The bound address.
        local: SocketAddr,
        /// The remote port as given (number or name).
        remote: String,
    },
    /// One of the loopback pair could not be bound while the other was (`docs/protocols.md`
    /// §4.4): `Unable to listen on port 8081: [::1]:8081: address not available on this host`.
    ListenFailed {
        /// The address that could not be bound.
        local: SocketAddr,
        /// Why (lowercase, one line).
        reason: String,
    },
    /// A connection was accepted: `Handling connection for 8081`.
    Connection {
        /// Local port.
        local_port: u16,
    },
    /// A connection failed: `an error occurred forwarding 5010 -> 6000: <text>`.
    Error {
        /// Local port.
        local_port: u16,
        /// The remote port as given or resolved.
        remote: String,
        /// The error channel's text or the API error.
        text: String,
    },
}

/// What the listeners and connections of one [`Forwarder`] share: the statuses and where they
/// are published, the event sender, and the pod's API.
pub(super) struct Shared {
    statuses: Mutex<Vec<ForwardStatus>>,
    tx: watch::Sender<Vec<ForwardStatus>>,
    events: mpsc::UnboundedSender<ForwardEvent>,
    /// The pods of the forward's namespace.
    pub(super) api: Api<Pod>,
    /// The pod's name, looked up for every connection (it changes when the TUI follows a
    /// workload's replacement pod).
    pod: watch::Receiver<String>,
}

impl Shared {
    /// The name of the pod the next connection goes to.
    pub(super) fn pod_name(&self) -> String {
        self.pod.borrow().clone()
    }

    /// Changes status `i` with `f` and publishes the whole list.
    pub(super) fn update(&self, i: usize, f: impl FnOnce(&mut ForwardStatus)) {
        let snapshot = {
            let mut st = self.statuses.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(s) = st.get_mut(i) {
                f(s);
            }
            st.clone()
        };
        self.tx.send_replace(snapshot);
    }
}

/// Running forwards. Dropping it (or [`Forwarder::stop`]) closes every listener and connection.
pub struct Forwarder {
    shared: Arc<Shared>,
    rx: watch::Receiver<Vec<ForwardStatus>>,
    events: Option<mpsc::UnboundedReceiver<ForwardEvent>>,
    tasks: Vec<JoinHandle<()>>,
    locals: Vec<SocketAddr>,
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

fn bind_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::AddrInUse => "address already in use".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::AddrNotAvailable => "address not available on this host".into(),
        _ => e.to_string().to_lowercase(),
    }
}

/// Binds `spec`'s addresses ([`PortSpec::bind_addrs`]) in order, the later ones on the port the
/// first bind chose: the listeners, and the addresses that failed with why. An error only when
/// none could be bound.
async fn bind_spec(
    spec: &PortSpec,
) -> Result<(Vec<TcpListener>, Vec<(SocketAddr, String)>), ForwardError> {
    let mut port = spec.bind_addr().port();
    let (mut listeners, mut failures) = (Vec::new(), Vec::new());
    for addr in spec.bind_addrs() {
        let addr = SocketAddr::new(addr.ip(), port);
        match TcpListener::bind(addr).await {
            Ok(l) => {
                if port == 0 {
                    port = l.local_addr().map_or(0, |a| a.port());
                }
                listeners.push(l);
            }
            Err(e) => failures.push((addr, bind_reason(&e))),
        }
    }
    if listeners.is_empty() {
        return Err(ForwardError::Bind { failures });
    }
    Ok((listeners, failures))
}

impl Forwarder {
    /// Checks that RBAC allows the port-forward, then binds every spec (all or nothing) and
    /// starts accepting. A spec without an address binds both loopbacks, `127.0.0.1` then
    /// `[::1]`, on the same port (local port 0: the port the first bind chose), and is kept when
    /// one of them binds (the other is reported in `ForwardStatus::unbound` and as
    /// [`ForwardEvent::ListenFailed`]); a spec naming an address binds it alone
    /// (`docs/protocols.md` §4.4).
    ///
    /// # Errors
    /// [`ForwardError::Forbidden`] before anything is bound ([`super::forbidden::check_connect`]);
    /// [`ForwardError::Bind`] for the first spec none of whose addresses can be bound (nothing
    /// stays bound).
    pub async fn start(
        client: kube::Client,
        namespace: &str,
        pod: &str,
        specs: &[PortSpec],
    ) -> Result<Forwarder, ForwardError> {
        let (_, name) = watch::channel(pod.to_owned());
        Forwarder::start_following(client, namespace, name, specs).await
    }

    /// [`Forwarder::start`] for the pod `pod` names now and later: each connection goes to
    /// the pod named at the time it is accepted (the RBAC check is made for the first name).
    ///
    /// # Errors
    /// As [`Forwarder::start`].
    pub async fn start_following(
        client: kube::Client,
        namespace: &str,
        pod: watch::Receiver<String>,
        specs: &[PortSpec],
    ) -> Result<Forwarder, ForwardError> {
        let api: Api<Pod> = Api::namespaced(client, namespace);
        let first = pod.borrow().clone();
        super::forbidden::check_connect(&api, &first, "portforward")
            .await
            .map_err(ForwardError::Forbidden)?;
        let mut bound = Vec::new();
        for spec in specs {
            bound.push(bind_spec(spec).await?);
        }
        let mut statuses: Vec<ForwardStatus> =
            specs.iter().cloned().map(ForwardStatus::new).collect();
        let mut locals = Vec::new();
        for (s, (listeners, unbound)) in statuses.iter_mut().zip(&bound) {
            s.locals = listeners
                .iter()
                .filter_map(|l| l.local_addr().ok())
                .collect();
            s.local = s.locals.first().copied();
            s.unbound.clone_from(unbound);
            if let RemotePort::Number(n) = s.spec.remote {
                s.remote_port = Some(n);
            }
            locals.extend(s.local);
        }
        let (tx, rx) = watch::channel(statuses.clone());
        let (etx, erx) = mpsc::unbounded_channel();
        for s in &statuses {
            for &local in &s.locals {
                let _ = etx.send(ForwardEvent::Listening {
                    local,
                    remote: s.spec.remote.to_string(),
                });
            }
            for (local, reason) in &s.unbound {
                let _ = etx.send(ForwardEvent::ListenFailed {
                    local: *local,
                    reason: reason.clone(),
                });
            }
        }
        let shared = Arc::new(Shared {
            statuses: Mutex::new(statuses),
            tx,
            events: etx,
            api,
            pod,
        });
        let tasks = bound
            .into_iter()
            .enumerate()
            .flat_map(|(i, (listeners, _))| listeners.into_iter().map(move |l| (i, l)))
            .map(|(i, l)| tokio::spawn(accept_loop(shared.clone(), i, l)))
            .collect();
        Ok(Forwarder {
            shared,
            rx,
            events: Some(erx),
            tasks,
            locals,
        })
    }

    /// A receiver of the status list (one entry per spec), updated on every change.
    pub fn subscribe(&self) -> watch::Receiver<Vec<ForwardStatus>> {
        self.rx.clone()
    }

    /// The current status list.
    pub fn statuses(&self) -> Vec<ForwardStatus> {
        self.rx.borrow().clone()
    }

    /// The first bound local address of each spec, in spec order (`127.0.0.1:PORT` unless only
    /// `[::1]` could be bound; every address is in `ForwardStatus::locals`).
    pub fn local_addrs(&self) -> &[SocketAddr] {
        &self.locals
    }

    /// The event stream (taken once).
    pub fn take_events(&mut self) -> Option<mpsc::UnboundedReceiver<ForwardEvent>> {
        self.events.take()
    }

    /// Closes the listeners and all connections; statuses end `Stopped`.
    pub async fn stop(mut self) {
        for t in self.tasks.drain(..) {
            t.abort();
            let _ = t.await;
        }
        let n = self.rx.borrow().len();
        for i in 0..n {
            self.shared.update(i, |s| {
                s.state = ForwardState::Stopped;
                s.open_connections = 0;
            });
        }
    }
}

async fn accept_loop(shared: Arc<Shared>, i: usize, listener: TcpListener) {
    let mut conns: Vec<JoinHandle<()>> = Vec::new();
    struct AbortAll<'a>(&'a mut Vec<JoinHandle<()>>);
    impl Drop for AbortAll<'_> {
        fn drop(&mut self) {
            for t in self.0.iter() {
                t.abort();
            }
        }
    }
    let guard = AbortAll(&mut conns);
    loop {
        let Ok((sock, _)) = listener.accept().await else {
            continue;
        };
        let _ = sock.set_nodelay(true);
        guard.0.retain(|t| !t.is_finished());
        guard
            .0
            .push(tokio::spawn(connection(shared.clone(), i, sock)));
    }
}

#[allow(
    clippy::disallowed_methods,
    reason = "a connection's end is stamped when it happens (an IO adapter owns that time)"
)]
async fn connection(shared: Arc<Shared>, i: usize, sock: TcpStream) {
    let spec_remote = {
        let st = shared.statuses.lock().unwrap_or_else(|p| p.into_inner());
        st.get(i)
            .map(|s| (s.spec.remote.clone(), s.local.map_or(0, |l| l.port())))
    };
    let Some((remote, local_port)) = spec_remote else {
        return;
    };
    let mut number = 0;
    shared.update(i, |s| number = s.connection_opened());
    let _ = shared.events.send(ForwardEvent::Connection { local_port });
    let result = forward_one(&shared, i, number, &remote, sock).await;
    let now = jiff::Timestamp::now();
    if let Err(text) = &result {
        let remote_text = {
            let st = shared.statuses.lock().unwrap_or_else(|p| p.into_inner());
            st.get(i)
                .and_then(|s| s.remote_port)
                .map_or_else(|| remote.to_string(), |p| p.to_string())
        };
        let _ = shared.events.send(ForwardEvent::Error {
            local_port,
            remote: remote_text,
            text: text.clone(),
        });
    }
    shared.update(i, |s| {
        match result {
            Ok(()) => s.connection_worked(number, now),
            Err(text) => s.connection_failed(number, now, text),
        }
        s.connection_closed();
    });
}
