//! `podscope demo`: starts the embedded simulated cluster and attaches to its crash-looping pod;
//! the pod picker (`P`/`o`) lists the pods of every namespace through the demo cluster's API, as
//! against any cluster.
//!
//! The demo cluster runs the built-in scenarios of `assets/scenarios/` (the seed's `hello` and
//! `crash` pods and dynamic versions of six real-world cases) on the kubelet model in the
//! `default` namespace, and also serves every case of `assets/cases/` as a static pod in its own
//! namespace, with timestamps shifted so it looks as at its snapshot moment.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::EXIT_SETUP_ERROR;
use super::cli::{AttachArgs, DemoArgs};
use crate::sim::{SimClock, SimConfig, Simulator, load_fixture};

/// The pod the demo attaches to when none is named: the seed's `crash` pod (`PORT=abc`), which
/// crash-loops with back-offs of 10 s, 20 s, 40 s … while you watch.
pub const DEFAULT_DEMO_POD: &str = "crash";

/// `demo --once`: the demo cluster's clock speed, and how long to let it run before the snapshot.
const ONCE_SPEED: f64 = 20.0;
const ONCE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Where the case fixtures live (compiled-in path of this source tree).
#[must_use]
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join("cases")
}

fn fixture_dirs(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("pod.json").is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Runs `podscope demo`.
///
/// # Errors
/// Only for failures inside the TUI loop; a simulator that cannot start is exit code 2.
pub async fn run(args: &DemoArgs) -> color_eyre::Result<ExitCode> {
    // Before the demo cluster starts: the TUI needs a terminal (`super::setup`).
    if !args.once
        && let Err(msg) = super::setup::require_terminal()
    {
        return Ok(super::setup_error(&msg));
    }
    let root = cases_dir();
    let fixtures = match fixture_dirs(&root) {
        Ok(d) if !d.is_empty() => d,
        _ => {
            eprintln!(
                "podscope: the demo fixtures are missing at {}; run the demo from a checkout of podscope",
                root.display()
            );
            return Ok(ExitCode::from(EXIT_SETUP_ERROR));
        }
    };
    let wanted = args
        .pod
        .clone()
        .unwrap_or_else(|| DEFAULT_DEMO_POD.to_owned());
    // A case's static pod lives in a namespace of its own; a name the live scenarios in
    // `default` also use (`coord-2`) means the live one (read after the cluster started).
    let fixture_namespace = fixtures
        .iter()
        .filter_map(|d| load_fixture(d).ok())
        .find(|f| f.pod.metadata.name.as_deref() == Some(wanted.as_str()))
        .and_then(|f| f.pod.metadata.namespace.clone());
    let sim = match Simulator::start(SimConfig {
        fixtures,
        // `--once` would otherwise catch the scenarios at t=0 (Pending): run the demo cluster's
        // clock 20× faster and take the snapshot after 2 s, i.e. 40 s into the scenarios.
        #[allow(clippy::disallowed_methods)] // the simulator's clock origin
        clock: if args.once {
            SimClock::scaled(jiff::Timestamp::now(), ONCE_SPEED)
        } else {
            SimClock::Real
        },
        shift_to_now: true,
        deny: args.deny.iter().map(crate::sim::DenyRule::pair).collect(),
        metrics: crate::sim::metrics::MetricsConfig {
            enabled: !args.no_metrics,
            ..crate::sim::metrics::MetricsConfig::default()
        },
        ..SimConfig::demo()
    })
    .await
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("podscope: cannot start the demo cluster: {e}");
            return Ok(ExitCode::from(EXIT_SETUP_ERROR));
        }
    };
    let namespace = match fixture_namespace {
        Some(ns) if sim.store().pod("default", &wanted).is_none() => ns,
        _ => "default".to_owned(),
    };
    let mut attach = AttachArgs {
        target: Some(wanted),
        selector: None,
        all_namespaces: false,
        namespace: Some(namespace),
        context: None,
        kubeconfig: Some(sim.kubeconfig_path().to_path_buf()),
        container: None,
        once: args.once,
        output: args.output,
        now: None,
        log_lines: args.log_lines,
        log_transport: args.log_transport,
        forward: args.forward.clone(),
        shell: args.shell.clone(),
    };
    if args.once {
        tokio::time::sleep(ONCE_WAIT).await;
        // Ages and countdowns at the demo cluster's own (faster) clock.
        attach.now = Some(sim.store().now());
    }
    // Every namespace: the cases of `assets/cases/` live in namespaces of their own.
    let code = super::attach::attach_with(&attach, true).await;
    sim.shutdown().await;
    code
}
