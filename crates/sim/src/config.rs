//! [`SimConfig`]: how a [`super::Simulator`] starts — fixtures, scenarios, the clock, the
//! node, the deny list, metrics — and the default simulated node.

use std::net::SocketAddr;
use std::path::PathBuf;

use super::{SimClock, builtin_scenarios, kubelet, metrics, scenario};

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
    /// Serve plain HTTP without authentication (`podscope sim --insecure-http`). Default
    /// `false`: HTTPS with a generated CA and a bearer token (see [`tls`], [`api::auth`]).
    pub insecure_http: bool,
    /// RBAC denials for tests: `(verb, resource)` pairs answered 403 Forbidden, e.g.
    /// `("watch", "pods")`, `("list", "events")`, `("patch", "pods/ephemeralcontainers")`;
    /// `("create", "pods/exec")` also refuses WebSocket exec, a GET, as kube-apiserver ≥ 1.35
    /// does (see [`api::auth`]); a verb `*` denies every verb. The access reviews
    /// (`kubectl auth can-i`, [`api::reviews`]) answer from the same list
    /// (`docs/permissions.md`).
    pub deny: Vec<(String, String)>,
    /// Scenarios to create at start: built-in names (see [`builtin_scenarios`]) or YAML files.
    pub scenarios: Vec<PathBuf>,
    /// The simulated node the kubelet model runs (default `sim-node-1`, host IP `192.168.49.2`,
    /// pod IPs `10.244.0.N`, the 10 s → 300 s back-off curve).
    pub node: kubelet::KubeletConfig,
    /// Which Kubernetes version's event texts the kubelet writes (default: the seed's 1.36).
    pub event_wording: kubelet::EventWording,
    /// Run the controller model ([`controllers`]: ReplicaSets, Deployments, StatefulSets,
    /// DaemonSets, Jobs, CronJobs, garbage collection). Default `true`; tests of the API layer
    /// alone turn it off so stored workloads stay as written.
    pub controllers: bool,
    /// Serve `metrics.k8s.io` and at which resolution ([`metrics`]; default on, 15 s;
    /// `--no-metrics`, `--metric-resolution`).
    pub metrics: metrics::MetricsConfig,
}

impl SimConfig {
    /// The built-in scenarios (every one of [`builtin_scenarios`] but the node scenarios,
    /// `scenario::NODE_SCENARIOS`) on a clock at speed 1: what `podscope demo` starts.
    pub fn demo() -> Self {
        SimConfig {
            scenarios: builtin_scenarios()
                .into_iter()
                .filter(|(n, _)| !scenario::NODE_SCENARIOS.contains(n))
                .map(|(n, _)| PathBuf::from(n))
                .collect(),
            ..SimConfig::default()
        }
    }
}

/// The default simulated node: `sim-node-1`.
pub fn default_node() -> kubelet::KubeletConfig {
    kubelet::KubeletConfig {
        node_name: "sim-node-1".into(),
        host_ip: "192.168.49.2".into(),
        pod_cidr_prefix: "10.244.0.".into(),
        curve: podscope_model::BackoffCurve::DEFAULT,
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            fixtures: Vec::new(),
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            kubeconfig_out: None,
            clock: SimClock::Real,
            shift_to_now: false,
            insecure_http: false,
            deny: Vec::new(),
            scenarios: Vec::new(),
            node: default_node(),
            event_wording: kubelet::EventWording::V1_36,
            controllers: true,
            metrics: metrics::MetricsConfig::default(),
        }
    }
}
