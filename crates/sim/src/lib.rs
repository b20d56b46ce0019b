//! The simulated cluster: a loopback Kubernetes API server (`podscope sim`, `podscope demo`).
//!
//! Static mode serves pods, events and logs loaded from fixture folders (`assets/cases/*/`) on a
//! loopback address, speaking the wire protocol of `docs/protocols.md` (§1 watch, §2 logs, §6
//! Tables, Appendix B). Tests and the demo drive changes through [`Store`].
//!
//! By default it serves HTTPS with a CA and certificate made at start ([`tls`]) and requires the
//! bearer token written into its kubeconfig ([`api::auth`]); `insecure_http` serves plain HTTP
//! without authentication instead.
//!
//! Dynamic mode: pods created through the API (`kubectl apply/create`, [`create_pod_and_run`],
//! scenarios) are run by the [`kubelet`] model in a driver task ([`kubelet::driver`]) on the simulator's
//! [`SimClock`] (`--speed N` runs virtual time N× faster); deletes are graceful, `pods/log` can
//! follow, PUT/PATCH work on pods and `pods/status`. Logs keep at most [`LOG_MAX_LINES`] lines /
//! [`LOG_MAX_BYTES`] bytes per container instance. Workloads (Deployments, ReplicaSets,
//! StatefulSets, DaemonSets, Jobs, CronJobs) are run by the [`controllers`] model in a second
//! driver task (`docs/controllers.md`).

// The clock is read only where time is owned (clippy.toml, docs/architecture.md §3): the
// simulator's own `SimClock`.
#![warn(clippy::disallowed_methods)]

pub(crate) mod api;
mod cli;
mod clock;
mod config;
pub mod controllers;
mod fixture;
mod kubeconfig;
pub mod kubelet;
pub mod metrics;
pub mod nodes;
pub mod runtime;
mod scenario;
mod scheduler;
pub mod spdy;
pub mod stream;
pub mod tls;
pub mod traffic;

/// The one Kubernetes version the simulator is (`docs/protocols.md` §1.10): `/version`'s
/// `gitVersion`, the Node's `kubeletVersion` and `kubeProxyVersion`, the OpenAPI documents'
/// `info.version`. The served schemas are generated from k8s-openapi's `v1_33` feature
/// (`assets/openapi/generate`), so they list this version's fields and no newer one.
pub const KUBERNETES_VERSION: &str = "v1.33.0";

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use api::admission::create_pod_and_run;
pub use api::decode::FieldValidation;
pub use api::object::{Object, Resource};
pub use api::patch::PatchKind;
pub use api::select::Selector;
pub use api::status::ApiError;
pub use api::store::logbuf::{LOG_MAX_BYTES, LOG_MAX_LINES};
pub use api::store::{Change, ChangeType, HISTORY_LIMIT, LogLine, Propagation, Store};
pub use api::watch::BOOKMARK_INTERVAL;
pub use cli::{DenyRule, SimArgs, parse_deny, run_cli};
pub use clock::SimClock;
pub use config::{SimConfig, default_node};
pub use fixture::{Fixture, load_fixture, log_owner};
pub use scenario::{
    APPLY_AFTER, ScenarioItem, builtin_scenarios, create_scenario, parse_scenario,
    parse_scenario_items, scenario_text, start_scenario,
};

/// Errors starting the simulator.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The listen address is not loopback (the simulator is a test server with a throw-away CA).
    #[error(
        "refusing to listen on {0}: the simulator only binds loopback addresses (127.0.0.0/8, ::1)"
    )]
    NotLoopback(SocketAddr),
    /// Binding the listener failed.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The requested address.
        addr: SocketAddr,
        /// The OS error.
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A fixture folder is unreadable or invalid.
    #[error("fixture {0}")]
    Fixture(String),
    /// A scenario is unreadable or not a list of Pod manifests.
    #[error("scenario {0}")]
    Scenario(String),
    /// The store refused a fixture object (e.g. two fixtures with the same pod).
    #[error("loading fixtures: {0}")]
    Store(#[from] ApiError),
    /// The TLS certificate could not be generated.
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
}

/// A running simulator: an HTTP server task on loopback plus the store it serves.
pub struct Simulator {
    url: String,
    token: Option<String>,
    ca_pem: Option<String>,
    kubeconfig: PathBuf,
    owns_kubeconfig: bool,
    store: Store,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    driver: Option<JoinHandle<()>>,
    traffic: traffic::Traffic,
    controllers: Option<JoinHandle<()>>,
}

impl Simulator {
    /// Loads the fixtures, binds `cfg.listen`, spawns the server task and writes the kubeconfig.
    /// Errors: [`SimError`] (non-loopback address, bind failure, bad fixture, unwritable file).
    pub async fn start(cfg: SimConfig) -> Result<Simulator, SimError> {
        if !cfg.listen.ip().is_loopback() {
            return Err(SimError::NotLoopback(cfg.listen));
        }
        let store = Store::new(cfg.clock);
        store.set_metrics_config(cfg.metrics);
        api::core::namespaces::seed(&store)?;
        let now = cfg.clock.now();
        let mut namespace = None;
        for dir in &cfg.fixtures {
            let mut fx = load_fixture(dir)?;
            if let (true, Some(snap)) = (cfg.shift_to_now, fx.snapshot_time) {
                fx.shift(now.duration_since(snap));
            }
            namespace.get_or_insert_with(|| {
                fx.pod
                    .metadata
                    .namespace
                    .clone()
                    .unwrap_or_else(|| "default".into())
            });
            api::core::namespaces::ensure(
                &store,
                fx.pod.metadata.namespace.as_deref().unwrap_or("default"),
            )?;
            store.create_pod(fx.pod.clone())?;
            for ev in &fx.events {
                store.add_event(ev.clone())?;
            }
            fixture::seed_logs(&store, &fx, now);
        }
        nodes::register(&store, &cfg.node)?;
        let kubelet = kubelet::Kubelet::new(cfg.node.clone()).with_event_wording(cfg.event_wording);
        let driver = tokio::spawn(kubelet::driver::run(store.clone(), kubelet));
        let controllers = cfg.controllers.then(|| {
            tokio::spawn(controllers::driver::run(
                store.clone(),
                cfg.node.node_name.clone(),
            ))
        });
        // The kubeconfig's context selects the live scenarios' namespace when there are any
        // (`podscope demo`: `kubectl get pod crash` works as typed), else the first fixture's.
        let mut scenario_namespace = None;
        let mut node_plan = nodes::NodePlan::default();
        for spec in &cfg.scenarios {
            let text = scenario_text(spec)?;
            let items = parse_scenario_items(&spec.to_string_lossy(), &text)?;
            node_plan = node_plan.merge(nodes_plan(&items));
            for ns in start_scenario(&store, items)? {
                scenario_namespace.get_or_insert(ns);
            }
        }
        tokio::spawn(nodes::run(store.clone(), cfg.node.clone(), node_plan));
        let namespace = scenario_namespace.or(namespace);
        let listener = tokio::net::TcpListener::bind(cfg.listen)
            .await
            .map_err(|source| SimError::Bind {
                addr: cfg.listen,
                source,
            })?;
        let addr = listener.local_addr().map_err(|source| SimError::Bind {
            addr: cfg.listen,
            source,
        })?;
        api::core::seed::kubernetes_service(&store, addr)?;
        let scheme = if cfg.insecure_http { "http" } else { "https" };
        let url = match addr {
            SocketAddr::V4(a) => format!("{scheme}://{}:{}", a.ip(), a.port()),
            SocketAddr::V6(a) => format!("{scheme}://[{}]:{}", a.ip(), a.port()),
        };
        let serving = if cfg.insecure_http {
            None
        } else {
            Some(tls::generate()?)
        };
        let token = serving.as_ref().map(|_| new_token());
        let ca = serving
            .as_ref()
            .map(|s| s.ca_pem.clone())
            .unwrap_or_default();
        tokio::spawn(api::core::namespaces::run(store.clone(), ca));
        let (kubeconfig, owns_kubeconfig) = match &cfg.kubeconfig_out {
            Some(p) => (p.clone(), false),
            None => (
                std::env::temp_dir().join(format!(
                    "podscope-sim-{}-{}.kubeconfig",
                    std::process::id(),
                    addr.port()
                )),
                true,
            ),
        };
        let ns = namespace.as_deref().unwrap_or("default");
        let text = match (&serving, &token) {
            (Some(s), Some(t)) => kubeconfig::render_tls(&url, ns, &s.ca_pem, t),
            _ => kubeconfig::render(&url, ns),
        };
        kubeconfig::write_text(&kubeconfig, &text)?;
        let (tx, rx) = oneshot::channel::<()>();
        let traffic = traffic::Traffic::default();
        let access = api::auth::Access {
            token: token.clone(),
            deny: std::sync::Arc::new(cfg.deny.clone()),
        };
        let app = api::routes::router(store.clone())
            .merge(api::openapi::router())
            .merge(api::reviews::router(access.deny.clone()))
            .layer(axum::middleware::from_fn_with_state(
                access,
                api::auth::check,
            ))
            .layer(axum::middleware::from_fn(api::rejection::statusify))
            .layer(axum::middleware::from_fn_with_state(
                traffic.clone(),
                traffic::count,
            ));
        let acceptor = serving.as_ref().map(|s| s.acceptor.clone());
        let task = tokio::spawn(tls::serve(listener, app, acceptor, rx));
        Ok(Simulator {
            url,
            token,
            ca_pem: serving.map(|s| s.ca_pem),
            kubeconfig,
            owns_kubeconfig,
            store,
            shutdown: Some(tx),
            task: Some(task),
            driver: Some(driver),
            traffic,
            controllers,
        })
    }

    /// The server URL, e.g. `https://127.0.0.1:41234` (`http://…` with `insecure_http`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The bearer token the server requires (HTTPS mode); `None` with `insecure_http`.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The CA certificate (PEM) that signed the serving certificate; `None` with `insecure_http`.
    pub fn ca_pem(&self) -> Option<&str> {
        self.ca_pem.as_deref()
    }

    /// The kubeconfig file pointing at this simulator.
    pub fn kubeconfig_path(&self) -> &Path {
        &self.kubeconfig
    }

    /// The requests and bytes this simulator has served so far ([`traffic`]).
    pub fn traffic(&self) -> traffic::TrafficReading {
        self.traffic.reading()
    }

    /// A handle to the served objects (create/update/delete pods, add events, logs, expire history).
    pub fn store(&self) -> Store {
        self.store.clone()
    }

    /// Stops accepting connections, ends open watch streams and waits (at most 2 s) for the server
    /// task; removes a temporary kubeconfig.
    pub async fn shutdown(mut self) {
        self.store.close_watches();
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(std::time::Duration::from_secs(2), &mut task)
                .await
                .is_err()
        {
            task.abort();
        }
    }
}

/// The node plans of a scenario's `Node` documents, merged.
fn nodes_plan(items: &[ScenarioItem]) -> nodes::NodePlan {
    items
        .iter()
        .filter_map(|i| match i {
            ScenarioItem::Node(p) => Some(*p),
            _ => None,
        })
        .fold(nodes::NodePlan::default(), nodes::NodePlan::merge)
}

/// A random 32-hex-digit bearer token for one simulator run.
fn new_token() -> String {
    use rand::Rng as _;
    let mut rng = rand::rng();
    (0..16)
        .map(|_| format!("{:02x}", rng.random::<u8>()))
        .collect()
}

impl Drop for Simulator {
    fn drop(&mut self) {
        self.store.close_watches();
        if let Some(task) = self.task.take() {
            task.abort();
        }
        if let Some(driver) = self.driver.take() {
            driver.abort();
        }
        if let Some(controllers) = self.controllers.take() {
            controllers.abort();
        }
        if self.owns_kubeconfig {
            let _ = std::fs::remove_file(&self.kubeconfig);
        }
    }
}
