//! `Session`: owns the background tasks (pod watch, events watch, log streams) and executes
//! `Cmd`s. Every task is started for the current target's generation and stamps its messages
//! with it ([`TargetTx`]); `Cmd::SwitchPod` and `Cmd::PodRecreated` move to the next one.

use std::collections::HashMap;

use k8s_openapi::api::core::v1::{Event, Pod};
use kube::Api;
use tokio::sync::mpsc::Sender;
use tokio::sync::watch;

mod logs;

use super::config::Target;
use super::logs_ws::{LogSource, LogTransport};
use super::target_tx::TargetTx;
use super::watch::{watch_events, watch_pod};
use crate::app::generation::Generation;
use crate::app::{Cmd, Msg};
use tokio_util::task::AbortOnDropHandle;

/// Owns every background task talking to the cluster; dropping it aborts them all.
#[derive(Debug)]
pub struct Session {
    target: Target,
    tx: Sender<Msg>,
    /// The generation of the target shown; the forwards' relays follow its changes.
    generation: watch::Sender<Generation>,
    /// The name of the pod shown; the forwards connect to it (it changes on `Cmd::FollowPod`).
    pod_name: watch::Sender<String>,
    /// The followed workload's watches (`Cmd::WatchWorkload`).
    workload: Vec<AbortOnDropHandle<()>>,
    pod_watch: Option<AbortOnDropHandle<()>>,
    events_watch: Option<AbortOnDropHandle<()>>,
    /// Log streams by id; finished ones are pruned when the next one starts.
    logs: HashMap<u64, AbortOnDropHandle<()>>,
    /// Where log streams read from (`--log-transport`); `None` = HTTP through `target.client`.
    log_source: Option<LogSource>,
    /// Port-forwards, debug containers and the pod picker's list+watch.
    on_demand: super::on_demand::OnDemand,
    /// The one-shot GET of a stuck pod's owner (`Cmd::CheckOwner`).
    owner_check: Option<AbortOnDropHandle<()>>,
    /// The one-shot GET of the namespace of a pod not found (`Cmd::CheckNamespace`).
    namespace_check: Option<AbortOnDropHandle<()>>,
    /// The diagnosis' one-shot reads (`Cmd::ReadLogTail`, `Cmd::Lookup`); finished ones are
    /// pruned when the next one starts.
    evidence: Vec<AbortOnDropHandle<()>>,
    /// The access reviews (`cluster::access`), when enabled ([`Session::with_access_check`]).
    access: Option<super::access::AccessCheck>,
    /// The watch of the pod's node (`Cmd::WatchNode`, `cluster::node_watch`).
    node_watch: Option<AbortOnDropHandle<()>>,
    /// The metrics poll of the pod (`Cmd::PollMetrics`, `cluster::metrics`).
    metrics_poll: Option<AbortOnDropHandle<()>>,
}

impl Session {
    /// Starts the pod watch for `target`; its messages go to `tx`, stamped with
    /// [`Generation::FIRST`] (the first target's, as `app::State::new` numbers it). No pod
    /// watch when `target.pod` is empty (a workload none of whose pods exists yet: the
    /// workload's pod watch finds the first, `Cmd::FollowPod`).
    /// Must be called inside a tokio runtime.
    #[must_use]
    pub fn start(target: Target, tx: Sender<Msg>) -> Session {
        let mut session = Session::without_pod(target, tx);
        let api: Api<Pod> =
            Api::namespaced(session.target.client.clone(), &session.target.namespace);
        if !session.target.pod.is_empty() {
            session.restart_pod_watch(api);
        }
        session
    }

    /// A session watching no pod yet (a bare `podscope`, its picker open): nothing runs until
    /// a `Cmd` starts it (`Cmd::WatchPodList`, then `Cmd::SwitchPod` to the chosen pod).
    #[must_use]
    pub fn without_pod(target: Target, tx: Sender<Msg>) -> Session {
        Session {
            pod_name: watch::Sender::new(target.pod.clone()),
            workload: Vec::new(),
            target,
            tx,
            generation: watch::Sender::new(Generation::FIRST),
            pod_watch: None,
            events_watch: None,
            logs: HashMap::new(),
            log_source: None,
            on_demand: super::on_demand::OnDemand::default(),
            owner_check: None,
            namespace_check: None,
            evidence: Vec::new(),
            access: None,
            node_watch: None,
            metrics_poll: None,
        }
    }

    /// Asks the access reviews of `e`, `d` and `f` (`cluster::access`) for the target's
    /// namespace now (when a pod or workload is targeted) and again whenever the target moves to
    /// another namespace; the answers arrive as `Msg::AccessChecked`. Off by default, so a
    /// session built by a test sends only what it asks for.
    #[must_use]
    pub fn with_access_check(mut self) -> Session {
        self.access = Some(super::access::AccessCheck::default());
        if !self.target.pod.is_empty() {
            self.check_access();
        }
        self
    }

    /// Starts the access reviews for the target's namespace unless they were asked for it
    /// already (or the check is off).
    fn check_access(&mut self) {
        if let Some(check) = &mut self.access {
            check.ask(&self.target.client, &self.target.namespace, &self.tx);
        }
    }

    /// Runs the one-shot read `ask` on the runtime and sends the message it yields into the
    /// loop's channel; dropping the handle aborts it.
    fn ask(
        &self,
        ask: impl std::future::Future<Output = Msg> + Send + 'static,
    ) -> AbortOnDropHandle<()> {
        let tx = self.stamped();
        AbortOnDropHandle::new(tokio::spawn(async move {
            let _ = tx.send(ask.await).await;
        }))
    }

    /// A sender stamping with the current target's generation.
    fn stamped(&self) -> TargetTx {
        TargetTx::new(self.tx.clone(), *self.generation.borrow())
    }

    /// Restarts the pod watch for the current target (a relist), stamped with the current
    /// generation.
    fn restart_pod_watch(&mut self, api: Api<Pod>) {
        self.pod_watch = Some(AbortOnDropHandle::new(tokio::spawn(watch_pod(
            api,
            self.target.namespace.clone(),
            self.target.pod.clone(),
            self.stamped(),
        ))));
    }

    /// Aims the pod watch, the log source and the forwards' pod name at `namespace/name` under
    /// `generation`, after aborting the tasks of the pod shown so far.
    fn aim(&mut self, namespace: &str, name: &str, generation: Generation) {
        self.pod_watch = None;
        self.stop_instance_tasks();
        self.generation.send_replace(generation);
        self.pod_name.send_replace(name.to_owned());
        let moved = self.target.namespace != namespace;
        self.target.namespace = namespace.to_owned();
        self.target.pod = name.to_owned();
        let api: Api<Pod> = Api::namespaced(self.target.client.clone(), namespace);
        // Log sources are bound to a namespace: rebuild for the new one.
        if moved && let Some(old) = &self.log_source {
            let transport = match old {
                LogSource::Http(_) => LogTransport::Http,
                LogSource::WebSocket(_) => LogTransport::Websocket,
            };
            self.log_source = Some(LogSource::new(transport, &self.target.client, namespace));
        }
        self.restart_pod_watch(api);
        self.check_access();
    }

    /// Aborts the tasks bound to one pod instance (events, logs, one-shot reads).
    fn stop_instance_tasks(&mut self) {
        self.events_watch = None;
        self.logs.clear();
        self.evidence.clear();
        self.owner_check = None;
        self.namespace_check = None;
        self.node_watch = None;
        self.metrics_poll = None;
    }

    /// Whether the pod picker's list+watch is running (it runs only while the picker is open).
    #[must_use]
    pub fn pod_list_running(&self) -> bool {
        self.on_demand.pod_list_running()
    }

    /// The pod currently watched (client, namespace, name), e.g. for the loop's shell handoff.
    #[must_use]
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// A sender into the loop's one channel.
    #[must_use]
    pub fn sender(&self) -> Sender<Msg> {
        self.tx.clone()
    }

    /// Reads log streams over `transport` from now on (default HTTP), through the session's
    /// `kube::Client` either way.
    #[must_use]
    pub fn with_log_transport(mut self, transport: LogTransport) -> Session {
        self.log_source = Some(LogSource::new(
            transport,
            &self.target.client,
            &self.target.namespace,
        ));
        self
    }

    /// Carries out one effect returned by `update` (spawning or aborting tasks).
    /// `Cmd::Quit` is handled by the loop, not here.
    pub fn execute(&mut self, cmd: &Cmd) {
        match cmd {
            Cmd::WatchEvents { uid } => {
                let api: Api<Event> =
                    Api::namespaced(self.target.client.clone(), &self.target.namespace);
                self.events_watch = Some(AbortOnDropHandle::new(tokio::spawn(watch_events(
                    api,
                    self.target.namespace.clone(),
                    self.target.pod.clone(),
                    uid.clone(),
                    self.stamped(),
                ))));
            }
            Cmd::FollowLogs {
                stream,
                container,
                previous,
                since,
                tail_lines,
            } => self.follow_logs(*stream, container, *previous, *since, *tail_lines),
            Cmd::StopLogs { stream } => {
                self.logs.remove(stream);
            }
            Cmd::SaveLogs { path, contents } => self.save(path, contents),
            Cmd::AddDebugContainer { target } => {
                self.on_demand
                    .add_debug(&self.target, target.clone(), self.stamped());
            }
            Cmd::AddForward { id, spec } => {
                self.on_demand.add_forward(
                    &self.target,
                    *id,
                    spec.clone(),
                    self.tx.clone(),
                    self.generation.subscribe(),
                    self.pod_name.subscribe(),
                );
            }
            Cmd::StopForward { id } => self.on_demand.stop_forward(*id),
            Cmd::WatchPodList { namespace } => self.on_demand.watch_pod_list(
                self.target.client.clone(),
                namespace.clone(),
                self.stamped(),
            ),
            Cmd::StopPodList => self.on_demand.stop_pod_list(),
            Cmd::PodRecreated { generation } => {
                self.generation.send_replace(*generation);
                self.stop_instance_tasks();
                let api: Api<Pod> =
                    Api::namespaced(self.target.client.clone(), &self.target.namespace);
                self.restart_pod_watch(api);
            }
            Cmd::SwitchPod {
                namespace,
                name,
                generation,
            } => {
                self.on_demand.stop_all();
                self.aim(namespace, name, *generation);
            }
            // The forwards stay: they connect to the pod `pod_name` names from now on.
            Cmd::FollowPod {
                namespace,
                name,
                generation,
            } => self.aim(namespace, name, *generation),
            Cmd::WatchWorkload {
                stamp,
                namespace,
                workload,
                selector,
            } => {
                let tx = super::workload_watch::WorkloadTx::new(self.tx.clone(), *stamp);
                self.workload = super::workload_watch::start(
                    &self.target.client,
                    namespace,
                    workload.as_ref(),
                    selector,
                    &tx,
                );
            }
            Cmd::StopWorkload => self.workload.clear(),
            Cmd::CheckOwner { namespace, owner } => {
                let (client, ns, owner) =
                    (self.target.client.clone(), namespace.clone(), owner.clone());
                self.owner_check = Some(self.ask(async move {
                    let status = super::one_shot::check_owner(client, &ns, &owner).await;
                    Msg::OwnerChecked {
                        uid: owner.uid,
                        status,
                    }
                }));
            }
            Cmd::CheckNamespace { namespace } => {
                let (client, ns) = (self.target.client.clone(), namespace.clone());
                self.namespace_check = Some(self.ask(async move {
                    let exists = super::one_shot::check_namespace(client, &ns).await;
                    Msg::NamespaceChecked {
                        namespace: ns,
                        exists,
                    }
                }));
            }
            Cmd::ReadLogTail {
                container,
                previous,
                restart_count,
            } => self.read_log_tail(container, *previous, *restart_count),
            Cmd::Lookup(object) => {
                let (client, ns, object) = (
                    self.target.client.clone(),
                    self.target.namespace.clone(),
                    object.clone(),
                );
                self.evidence.retain(|t| !t.is_finished());
                self.evidence.push(self.ask(async move {
                    let lookup = super::evidence::look_up(client, &ns, &object).await;
                    Msg::LookedUp { object, lookup }
                }));
            }
            Cmd::WatchNode { name } => {
                let api: Api<k8s_openapi::api::core::v1::Node> =
                    Api::all(self.target.client.clone());
                self.node_watch = Some(AbortOnDropHandle::new(tokio::spawn(
                    super::node_watch::watch_node(api, name.clone(), self.stamped()),
                )));
            }
            Cmd::PollMetrics => {
                self.metrics_poll =
                    Some(AbortOnDropHandle::new(tokio::spawn(super::metrics::poll(
                        self.target.client.clone(),
                        self.target.namespace.clone(),
                        self.target.pod.clone(),
                        self.stamped(),
                    ))));
            }
            // The terminal handoff is the loop's (`tui::run`).
            // The loop writes these to, or hands over, the terminal.
            Cmd::OpenShell { .. } | Cmd::AttachDebug { .. } | Cmd::Copy { .. } => {}
            Cmd::Quit => {
                self.workload.clear();
                self.pod_watch = None;
                self.events_watch = None;
                self.logs.clear();
                self.evidence.clear();
                self.node_watch = None;
                self.metrics_poll = None;
                self.on_demand.stop_all();
            }
        }
    }
}
