//! `podscope sim`: run the simulator from the command line until Ctrl-C or SIGTERM.

use std::net::SocketAddr;
use std::path::PathBuf;

use color_eyre::eyre::WrapErr;
use jiff::Timestamp;

use super::{SimClock, SimConfig, Simulator};
use podscope_model::sanitize::sanitize;

/// Arguments of `podscope sim`.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// A fixture folder (pod.json, events.json, logs-*.txt, expected.md); repeatable.
    #[arg(long = "fixture", value_name = "DIR")]
    pub fixtures: Vec<PathBuf>,
    /// Loopback address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
    /// Write the kubeconfig here instead of a temporary file.
    #[arg(long, value_name = "PATH")]
    pub kubeconfig_out: Option<PathBuf>,
    /// Freeze the clock at this RFC 3339 instant (e.g. a fixture's snapshot time).
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<Timestamp>,
    /// Shift fixture timestamps so each looks as at its snapshot time, relative to the clock.
    #[arg(long)]
    pub shift_to_now: bool,
    /// Serve plain HTTP without authentication instead of HTTPS with a bearer token.
    #[arg(long)]
    pub insecure_http: bool,
    /// A scenario to create at start: a built-in name (every one of
    /// [`super::builtin_scenarios`], listed by [`scenario_help`]) or a YAML file of manifests;
    /// repeatable.
    #[arg(long = "scenario", value_name = "NAME|FILE", help = scenario_help())]
    pub scenarios: Vec<PathBuf>,
    /// Run virtual time N times faster than real time (from --now, else from the current time).
    /// Server-side times (AGE, `(x ago)`) follow it; kubectl's client-side ages (describe's
    /// event ages) use the wall clock, so start with --now in the past to keep them valid.
    #[arg(long, value_name = "N")]
    pub speed: Option<f64>,
    /// Refuse VERB on RESOURCE with the API server's 403 Forbidden, as RBAC would (e.g.
    /// `create:pods/exec`, `get:pods/log`, `patch:pods/ephemeralcontainers`, `*:pods/portforward`);
    /// repeatable. Everything else stays allowed; `kubectl auth can-i` answers from the same list.
    #[arg(long = "deny", value_name = "VERB:RESOURCE", value_parser = parse_deny)]
    pub deny: Vec<DenyRule>,
    /// Use the reduced CrashLoopBackOff curve of the `ReduceDefaultCrashLoopBackOffDecay` gate
    /// (1 s doubling to 60 s) instead of the default 10 s doubling to 300 s.
    #[arg(long)]
    pub reduced_backoff: bool,
    /// Serve no `metrics.k8s.io` (a cluster without metrics-server): the group is absent from
    /// discovery, its paths answer 404 and `kubectl top` says `Metrics API not available`.
    #[arg(long)]
    pub no_metrics: bool,
    /// How often the simulated metrics-server samples (`15s` as metrics-server's default,
    /// `1s`, `1m`): each PodMetrics/NodeMetrics `timestamp` is the last multiple of it, its
    /// `window` this span.
    #[arg(long, value_name = "DURATION", default_value = "15s", value_parser = super::metrics::parse_resolution)]
    pub metric_resolution: std::time::Duration,
}

/// One `--deny VERB:RESOURCE` value: an RBAC verb (or `*`) and a resource with its optional
/// subresource (`pods/exec`), as `SimConfig::deny` holds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DenyRule {
    /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection` or `*`.
    pub verb: String,
    /// `pods`, `pods/exec`, `deployments/scale`, `*`.
    pub resource: String,
}

impl DenyRule {
    /// The `(verb, resource)` pair of `SimConfig::deny`.
    #[must_use]
    pub fn pair(&self) -> (String, String) {
        (self.verb.clone(), self.resource.clone())
    }
}

/// Parses `VERB:RESOURCE` (`create:pods/exec`). Errors: the text clap prints after
/// `invalid value … for '--deny <VERB:RESOURCE>'`: no colon, an unknown verb (RBAC's verbs of
/// `api::auth::VERBS` or `*`), or a resource that is empty, has spaces or more than one `/`.
pub fn parse_deny(text: &str) -> Result<DenyRule, String> {
    let Some((verb, resource)) = text.split_once(':') else {
        return Err("expected VERB:RESOURCE, e.g. create:pods/exec".to_string());
    };
    if verb != "*" && !super::api::auth::VERBS.contains(&verb) {
        return Err(format!(
            "unknown verb {verb:?}: one of {} or *",
            super::api::auth::VERBS.join(", ")
        ));
    }
    let valid = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-.*".contains(c))
    };
    let parts: Vec<&str> = resource.split('/').collect();
    if parts.len() > 2 || !parts.iter().all(|p| valid(p)) {
        return Err(format!(
            "invalid resource {resource:?}: a resource in lower case with an optional \
             /subresource, e.g. pods/exec"
        ));
    }
    Ok(DenyRule {
        verb: verb.to_string(),
        resource: resource.to_string(),
    })
}

/// The help text of `--scenario`: the built-in names, from [`super::builtin_scenarios`] in its
/// order, so a scenario added there is offered here too.
#[must_use]
pub fn scenario_help() -> String {
    let names: Vec<&str> = super::builtin_scenarios()
        .iter()
        .map(|(name, _)| *name)
        .collect();
    format!(
        "A scenario to create at start: a built-in name ({}) or a YAML file of manifests; \
         repeatable",
        names.join(", ")
    )
}

/// Starts the simulator, prints its URL, kubeconfig path and a kubectl hint, and serves until
/// Ctrl-C or SIGTERM. Errors: start failures ([`super::SimError`]) and signal setup.
#[allow(
    clippy::disallowed_methods,
    reason = "the simulator's scaled clock starts at the real now unless --now is given"
)]
pub async fn run_cli(args: SimArgs) -> color_eyre::Result<()> {
    let first = args
        .fixtures
        .first()
        .and_then(|d| super::load_fixture(d).ok());
    let cfg = SimConfig {
        fixtures: args.fixtures.clone(),
        listen: args.listen,
        kubeconfig_out: args.kubeconfig_out.clone(),
        clock: match (args.now, args.speed) {
            (now, Some(speed)) => SimClock::scaled(now.unwrap_or_else(Timestamp::now), speed),
            (Some(now), None) => SimClock::Frozen(now),
            (None, None) => SimClock::Real,
        },
        shift_to_now: args.shift_to_now,
        insecure_http: args.insecure_http,
        scenarios: args.scenarios.clone(),
        deny: args.deny.iter().map(DenyRule::pair).collect(),
        metrics: super::metrics::MetricsConfig {
            enabled: !args.no_metrics,
            resolution: args.metric_resolution,
        },
        ..SimConfig::default()
    };
    let mut cfg = cfg;
    if args.reduced_backoff {
        cfg.node.curve = podscope_model::BackoffCurve::REDUCED;
    }
    let sim = Simulator::start(cfg)
        .await
        .wrap_err("starting the simulator")?;
    let kc = sim.kubeconfig_path().display().to_string();
    println!("podscope sim listening on {}", sim.url());
    println!("kubeconfig: {kc}");
    match first.as_ref().map(|f| &f.pod.metadata) {
        Some(meta) => println!(
            "try: kubectl --kubeconfig {kc} get pod {} -n {}",
            sanitize(meta.name.as_deref().unwrap_or("")),
            sanitize(meta.namespace.as_deref().unwrap_or("default"))
        ),
        None => println!("try: kubectl --kubeconfig {kc} get pods -A -w"),
    }
    wait_for_signal().await?;
    sim.shutdown().await;
    Ok(())
}

#[cfg(unix)]
async fn wait_for_signal() -> color_eyre::Result<()> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .wrap_err("installing the SIGTERM handler")?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r.wrap_err("waiting for Ctrl-C")?,
        _ = term.recv() => {}
    }
    Ok(())
}

#[cfg(not(unix))]
async fn wait_for_signal() -> color_eyre::Result<()> {
    tokio::signal::ctrl_c().await.wrap_err("waiting for Ctrl-C")
}

#[cfg(test)]
mod tests {
    use clap::Args;

    use super::{SimArgs, parse_deny, scenario_help};

    /// `--deny` takes `VERB:RESOURCE` with one of RBAC's verbs or `*`.
    #[test]
    fn deny_values_are_verb_and_resource() {
        let rule = parse_deny("create:pods/exec").expect("valid");
        assert_eq!(rule.pair(), ("create".into(), "pods/exec".into()));
        assert_eq!(parse_deny("*:pods/log").expect("valid").verb, "*");
        assert!(parse_deny("pods/exec").is_err());
        let unknown = parse_deny("exec:pods").expect_err("unknown verb");
        assert!(
            unknown.starts_with("unknown verb \"exec\": one of get, list,"),
            "{unknown}"
        );
        assert!(parse_deny("get:").is_err());
        assert!(parse_deny("get:pods/exec/x").is_err());
        assert!(parse_deny("get:Pods").is_err());
    }

    /// `podscope sim --help` names every built-in scenario.
    #[test]
    fn the_help_lists_every_builtin_scenario() {
        let mut cmd = SimArgs::augment_args(clap::Command::new("sim"));
        let help = cmd.render_help().to_string();
        let names: Vec<&str> = super::super::builtin_scenarios()
            .iter()
            .map(|(n, _)| *n)
            .collect();
        for name in [
            "rollout-stuck",
            "statefulset-db",
            "job-backoff",
            "hello",
            "crash",
        ] {
            assert!(names.contains(&name), "{name} is a built-in");
        }
        for name in names {
            assert!(help.contains(name), "{name} missing from:\n{help}");
        }
        assert!(scenario_help().contains("rollout-stuck, "));
    }
}
