//! The simulated cluster: a loopback Kubernetes API server (`podscope sim`, `podscope demo`).
//!
//! Static mode serves pods, events and logs loaded from fixture folders (`assets/cases/*/`) over
//! plain HTTP on a loopback address, speaking the wire protocol of `notes/protocols.md` (§1 watch,
//! §2 logs, §6 Tables, Appendix B). Tests and the demo drive changes through [`Store`].

mod cli;
mod fixture;
mod kubeconfig;
pub mod kubelet;
mod logs;
mod object;
mod query;
mod routes;
mod select;
mod status;
mod store;
pub mod stream;
mod table;
mod watch;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use cli::{SimArgs, run_cli};
pub use fixture::{Fixture, load_fixture, log_owner};
pub use object::{Object, Resource};
pub use select::Selector;
pub use status::ApiError;
pub use store::{Change, ChangeType, HISTORY_LIMIT, LogLine, Store};
pub use watch::BOOKMARK_INTERVAL;

/// The simulator's clock: the only place it reads time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SimClock {
    /// Wall-clock time.
    #[default]
    Real,
    /// Every timestamp and Table cell (AGE, "(x ago)") uses this instant.
    Frozen(Timestamp),
}

impl SimClock {
    /// The current instant of this clock.
    pub fn now(&self) -> Timestamp {
        match self {
            SimClock::Real => Timestamp::now(),
            SimClock::Frozen(t) => *t,
        }
    }
}

/// How to start a [`Simulator`].
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Fixture folders to load (each one pod, its events and logs).
    pub fixtures: Vec<PathBuf>,
    /// Where to listen; must be a loopback address. Default `127.0.0.1:0` (any free port).
    pub listen: SocketAddr,
    /// Where to write the kubeconfig; `None` writes a temporary file the simulator deletes.
    pub kubeconfig_out: Option<PathBuf>,
    /// The clock for Tables, defaults and log windows.
    pub clock: SimClock,
    /// Shift each fixture's timestamps by (clock now − its snapshot time) so it looks as it did
    /// at its snapshot, with the clock running from there.
    pub shift_to_now: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            fixtures: Vec::new(),
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            kubeconfig_out: None,
            clock: SimClock::Real,
            shift_to_now: false,
        }
    }
}

/// Errors starting the simulator.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The listen address is not loopback (the simulator has no authentication).
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
    /// The store refused a fixture object (e.g. two fixtures with the same pod).
    #[error("loading fixtures: {0}")]
    Store(#[from] ApiError),
}

/// A running simulator: an HTTP server task on loopback plus the store it serves.
pub struct Simulator {
    url: String,
    kubeconfig: PathBuf,
    owns_kubeconfig: bool,
    store: Store,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl Simulator {
    /// Loads the fixtures, binds `cfg.listen`, spawns the server task and writes the kubeconfig.
    /// Errors: [`SimError`] (non-loopback address, bind failure, bad fixture, unwritable file).
    pub async fn start(cfg: SimConfig) -> Result<Simulator, SimError> {
        if !cfg.listen.ip().is_loopback() {
            return Err(SimError::NotLoopback(cfg.listen));
        }
        let store = Store::new(cfg.clock);
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
            store.create_pod(fx.pod.clone())?;
            for ev in &fx.events {
                store.add_event(ev.clone())?;
            }
            fixture::seed_logs(&store, &fx, now);
        }
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
        let url = match addr {
            SocketAddr::V4(a) => format!("http://{}:{}", a.ip(), a.port()),
            SocketAddr::V6(a) => format!("http://[{}]:{}", a.ip(), a.port()),
        };
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
        kubeconfig::write(&kubeconfig, &url, namespace.as_deref().unwrap_or("default"))?;
        let (tx, rx) = oneshot::channel::<()>();
        let app = routes::router(store.clone());
        let task = tokio::spawn(async move {
            let serve = axum::serve(listener, app).with_graceful_shutdown(async move {
                let _ = rx.await;
            });
            if let Err(e) = serve.await {
                tracing::warn!("simulator server ended: {e}");
            }
        });
        Ok(Simulator {
            url,
            kubeconfig,
            owns_kubeconfig,
            store,
            shutdown: Some(tx),
            task: Some(task),
        })
    }

    /// The server URL, e.g. `http://127.0.0.1:41234`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The kubeconfig file pointing at this simulator.
    pub fn kubeconfig_path(&self) -> &Path {
        &self.kubeconfig
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

impl Drop for Simulator {
    fn drop(&mut self) {
        self.store.close_watches();
        if let Some(task) = self.task.take() {
            task.abort();
        }
        if self.owns_kubeconfig {
            let _ = std::fs::remove_file(&self.kubeconfig);
        }
    }
}
