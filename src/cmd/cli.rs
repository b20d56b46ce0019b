//! Command line (clap derive): `podscope [attach] POD`, `podscope sim`, `podscope demo`, and the
//! kubectl-like `logs`, `exec`, `port-forward`, `debug` (their flags live with their drivers).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::cluster::logs_ws::LogTransport;
use crate::model::pod_ref::parse_pod_ref;

/// `podscope`: a terminal UI for debugging one Kubernetes pod.
///
/// `podscope POD` is short for `podscope attach POD`. A pod literally named `sim` or `demo`
/// needs the explicit `attach`.
#[derive(Debug, Parser)]
#[command(
    name = "podscope",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// The subcommand; absent means `attach` with the flattened arguments below.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Arguments of the implied `attach`.
    #[command(flatten)]
    pub attach: Option<AttachArgs>,
    /// Write tracing output to this file (never to the terminal). `RUST_LOG` sets the filter.
    #[arg(long, global = true, value_name = "PATH")]
    pub log_file: Option<PathBuf>,
}

impl Cli {
    /// [`Parser::parse_from`] after [`super::argv::hoist_connection_flags`], so `podscope --kubeconfig K logs
    /// POD` means `podscope logs POD --kubeconfig K` (as kubectl takes them). Prints clap's
    /// message and exits 2 on bad arguments.
    #[must_use]
    pub fn parse_args<I: IntoIterator<Item = T>, T: Into<OsString>>(args: I) -> Self {
        Self::parse_from(super::argv::hoist_connection_flags(
            args.into_iter().map(Into::into).collect(),
        ))
    }

    /// [`Cli::parse_args`] without exiting.
    ///
    /// # Errors
    /// clap's error for arguments that do not parse.
    pub fn try_parse_args<I: IntoIterator<Item = T>, T: Into<OsString>>(
        args: I,
    ) -> Result<Self, clap::Error> {
        Self::try_parse_from(super::argv::hoist_connection_flags(
            args.into_iter().map(Into::into).collect(),
        ))
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Attach to a pod by name and show it live (the default).
    Attach(AttachArgs),
    /// Run the simulated API server on loopback until Ctrl-C.
    Sim(crate::sim::SimArgs),
    /// Print a container's log like `kubectl logs`; `-f` keeps following across restarts.
    Logs(super::logs::LogsArgs),
    /// Start the embedded simulated cluster and attach to its crash-looping pod.
    Demo(DemoArgs),
    /// Run a command in a container (as `kubectl exec`).
    Exec(super::exec::ExecArgs),
    /// Forward local ports to a pod (as `kubectl port-forward`).
    PortForward(super::port_forward::PortForwardArgs),
    /// Add an ephemeral debug container targeting a container and attach to it.
    Debug(super::debug::DebugArgs),
}

/// Which pod, where, and how to show it.
#[derive(Debug, Clone, Args)]
pub struct AttachArgs {
    /// What to show: a pod (`NAME`, `pod/NAME`) or a workload as kubectl names it
    /// (`deploy/NAME`, `sts/NAME`, `ds/NAME`, `rs/NAME`, `job/NAME`, `cronjob/NAME`); absent
    /// (and no `--selector`) in a terminal, a picker of the namespace's pods.
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
    /// Show the pods this label selector matches (kubectl's syntax: `app=web`,
    /// `tier in (a,b)`, `!canary`), instead of a TARGET.
    #[arg(short = 'l', long, value_name = "SELECTOR", conflicts_with = "target")]
    pub selector: Option<String>,
    /// The picker lists the pods of all namespaces (as `kubectl get pods -A`).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Namespace; defaults to the context's namespace, then `default` (as kubectl).
    #[arg(short, long)]
    pub namespace: Option<String>,
    /// The kubeconfig context to use (as `kubectl --context`).
    #[arg(long)]
    pub context: Option<String>,
    /// Path to a kubeconfig file; otherwise `KUBECONFIG` (several files merged), then
    /// `~/.kube/config`, then the in-cluster service account (as kubectl).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// Select this container initially.
    #[arg(short, long)]
    pub container: Option<String>,
    /// Print one snapshot and exit 0, without the terminal UI.
    #[arg(long)]
    pub once: bool,
    /// Output format of `--once`.
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Text, requires = "once")]
    pub output: OutputFormat,
    /// Pin the clock (RFC 3339, e.g. `2024-06-03T07:20:15Z`) for ages and countdowns.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<jiff::Timestamp>,
    /// Most log lines the log pane keeps; older ones are dropped (and counted in its title).
    #[arg(long, value_name = "N", default_value_t = crate::model::log::DEFAULT_LOG_LINES)]
    pub log_lines: usize,
    /// How the log pane reads logs: `http` (streaming GET) or `websocket` (the same GET upgraded
    /// to a WebSocket, for proxies that pass only WebSockets).
    #[arg(long, value_enum, default_value_t = LogTransport::Http)]
    pub log_transport: LogTransport,
    /// Forward a local port to the pod, `[ADDR:]LOCAL:REMOTE` as kubectl port-forward
    /// (repeatable); listed in the `f` panel, closed when podscope exits.
    #[arg(long = "forward", value_name = "[ADDR:]LOCAL:REMOTE")]
    pub forward: Vec<crate::model::forward::PortSpec>,
    /// The shell `e` runs in the selected container, a command line split into words as a shell
    /// splits them (e.g. `zsh`, `/bin/ash -l`, `sh -c 'exec bash'`); only this one is tried.
    /// Default (also when blank): `bash`, else `sh`.
    #[arg(long, env = "PODSCOPE_SHELL", value_name = "CMD", value_parser = parse_shell)]
    pub shell: Option<String>,
}

impl AttachArgs {
    /// The cluster-selecting flags as [`crate::cluster::ConnectOptions`]. (Spelled out here, not
    /// flattened: clap's optional flattened `attach` of the bare `podscope POD` form does not see
    /// a nested flatten.)
    #[must_use]
    pub fn connect_options(&self) -> crate::cluster::ConnectOptions {
        crate::cluster::ConnectOptions {
            kubeconfig: self.kubeconfig.clone(),
            context: self.context.clone(),
            namespace: self.namespace.clone(),
        }
    }
}

/// A pod argument: `NAME`, or kubectl's `pod/NAME` (also `pods/`, `po/`), as the bare name
/// ([`parse_pod_ref`]).
///
/// # Errors
/// Another resource kind (`deployment/web`): podscope works on one pod.
pub fn parse_pod(s: &str) -> Result<String, String> {
    parse_pod_ref(s)
        .map(str::to_owned)
        .map_err(|e| format!("podscope works on one pod; {e} (use NAME or pod/NAME)"))
}

/// `--shell`: the command line, trimmed; it is split into words as a POSIX shell splits them
/// (`sh -c 'exec bash'` is three words, see [`crate::cluster::shell::shell_argv`]). Blank means
/// the default, so `PODSCOPE_SHELL=` does not fail.
///
/// # Errors
/// An unmatched quote.
pub fn parse_shell(s: &str) -> Result<String, String> {
    let line = s.trim();
    shell_words::split(line).map_err(|e| format!("{e} in {line:?}"))?;
    Ok(line.to_owned())
}

/// `--once` output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// A human-readable summary.
    Text,
    /// The JSON document described in README.md (Kubernetes field names).
    Json,
}

/// `podscope demo` options. The session flags (`--log-lines`, `--log-transport`, `--forward`,
/// `--shell`) repeat [`AttachArgs`]'s rather than share a flattened struct: clap leaves an
/// optional flattened struct (the bare `podscope POD`) `None` when it nests a flatten.
#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Attach to this pod or workload (`deploy/web`, `sts/db`, `job/migrate`) instead of the
    /// default crash-looping pod.
    #[arg(value_name = "TARGET")]
    pub pod: Option<String>,
    /// Print one snapshot of the demo pod and exit (no terminal UI).
    #[arg(long)]
    pub once: bool,
    /// Output format of `--once`.
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Text, requires = "once")]
    pub output: OutputFormat,
    /// Most log lines the log pane keeps; older ones are dropped (and counted in its title).
    #[arg(long, value_name = "N", default_value_t = crate::model::log::DEFAULT_LOG_LINES)]
    pub log_lines: usize,
    /// How the log pane reads logs: `http` or `websocket` (see `podscope attach --help`).
    #[arg(long, value_enum, default_value_t = LogTransport::Http)]
    pub log_transport: LogTransport,
    /// Forward a local port to the pod, `[ADDR:]LOCAL:REMOTE` as kubectl port-forward
    /// (repeatable); listed in the `f` panel, closed when podscope exits.
    #[arg(long = "forward", value_name = "[ADDR:]LOCAL:REMOTE")]
    pub forward: Vec<crate::model::forward::PortSpec>,
    /// The shell `e` runs in the selected container, a command line split into words as a shell
    /// splits them (e.g. `zsh`, `/bin/ash -l`, `sh -c 'exec bash'`); only this one is tried.
    /// Default (also when blank): `bash`, else `sh`.
    #[arg(long, env = "PODSCOPE_SHELL", value_name = "CMD", value_parser = parse_shell)]
    pub shell: Option<String>,
    /// Make the demo cluster refuse VERB on RESOURCE with a 403, as RBAC would (e.g.
    /// `create:pods/exec` greys `e`); repeatable, as `podscope sim --deny`.
    #[arg(long = "deny", value_name = "VERB:RESOURCE", value_parser = crate::sim::parse_deny)]
    pub deny: Vec<crate::sim::DenyRule>,
    /// Run the demo cluster without `metrics.k8s.io` (no metrics-server), as `podscope sim
    /// --no-metrics`.
    #[arg(long)]
    pub no_metrics: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pod_slash_name_is_accepted_as_kubectl_does() {
        for arg in ["web", "pod/web", "pods/web", "po/web"] {
            let cli = Cli::try_parse_from(["podscope", arg]).expect("parses");
            let target = cli.attach.expect("attach").target.expect("a target");
            assert_eq!(parse_pod(&target).as_deref(), Ok("web"));
            let cli = Cli::try_parse_from(["podscope", "exec", arg, "--", "true"]).expect("parses");
            let Some(Command::Exec(e)) = cli.command else {
                panic!("expected exec")
            };
            assert_eq!(e.pod, "web");
        }
        let err = Cli::try_parse_from(["podscope", "exec", "deployment/web", "--", "true"])
            .expect_err("not a pod")
            .to_string();
        assert!(err.contains("\"deployment\" is not supported"), "{err}");
    }

    #[test]
    fn bare_pod_is_attach() {
        let cli = Cli::try_parse_from(["podscope", "web", "-n", "shop"]).expect("parses");
        assert!(cli.command.is_none());
        let a = cli.attach.expect("attach args");
        assert_eq!(a.target.as_deref(), Some("web"));
        assert_eq!(a.namespace.as_deref(), Some("shop"));
    }

    #[test]
    fn explicit_attach_and_once_json() {
        let cli = Cli::try_parse_from([
            "podscope",
            "attach",
            "web",
            "--once",
            "-o",
            "json",
            "--now",
            "2024-06-03T07:20:15Z",
        ])
        .expect("parses");
        let Some(Command::Attach(a)) = cli.command else {
            panic!("expected attach")
        };
        assert!(a.once);
        assert_eq!(a.output, OutputFormat::Json);
        assert_eq!(
            a.now.map(|t| t.to_string()).as_deref(),
            Some("2024-06-03T07:20:15Z")
        );
    }

    #[test]
    fn log_lines_defaults_and_parses() {
        let cli = Cli::try_parse_from(["podscope", "web"]).expect("parses");
        assert_eq!(cli.attach.expect("attach").log_lines, 100_000);
        let cli = Cli::try_parse_from(["podscope", "demo", "--log-lines", "500"]).expect("parses");
        let Some(Command::Demo(d)) = cli.command else {
            panic!("expected demo")
        };
        assert_eq!(d.log_lines, 500);
    }

    #[test]
    fn log_transport_defaults_to_http_and_parses_websocket() {
        let cli = Cli::try_parse_from(["podscope", "web"]).expect("parses");
        assert_eq!(
            cli.attach.expect("attach").log_transport,
            LogTransport::Http
        );
        let cli = Cli::try_parse_from(["podscope", "demo", "--log-transport", "websocket"])
            .expect("parses");
        let Some(Command::Demo(d)) = cli.command else {
            panic!("expected demo")
        };
        assert_eq!(d.log_transport, LogTransport::Websocket);
        assert!(Cli::try_parse_from(["podscope", "web", "--log-transport", "spdy"]).is_err());
    }

    #[test]
    fn shell_is_optional_and_parses_a_command_line() {
        let cli = Cli::try_parse_from(["podscope", "web"]).expect("parses");
        // The default (bash, else sh) is chosen later; unset here unless PODSCOPE_SHELL is.
        if std::env::var_os("PODSCOPE_SHELL").is_none() {
            assert_eq!(cli.attach.expect("attach").shell, None);
        }
        let cli =
            Cli::try_parse_from(["podscope", "web", "--shell", "/bin/ash -l"]).expect("parses");
        assert_eq!(
            cli.attach.expect("attach").shell.as_deref(),
            Some("/bin/ash -l")
        );
        let cli = Cli::try_parse_from(["podscope", "demo", "--shell", "zsh"]).expect("parses");
        let Some(Command::Demo(d)) = cli.command else {
            panic!("expected demo")
        };
        assert_eq!(d.shell.as_deref(), Some("zsh"));
        // Blank is the default (bash, else sh), so an empty PODSCOPE_SHELL does not fail.
        let cli = Cli::try_parse_from(["podscope", "web", "--shell", " "]).expect("parses");
        let blank = cli.attach.expect("attach").shell;
        assert_eq!(crate::app::shell::shells(blank.as_deref()), ["bash", "sh"]);
    }

    #[test]
    fn shell_keeps_a_quoted_argument_whole() {
        let cli = Cli::try_parse_from(["podscope", "web", "--shell", "sh -c 'exec bash'"])
            .expect("parses");
        let shells = crate::app::shell::shells(cli.attach.expect("attach").shell.as_deref());
        assert_eq!(shells, ["sh -c 'exec bash'"]);
        assert_eq!(
            crate::cluster::shell::shell_argv(&shells[0]),
            ["sh", "-c", "exec bash"]
        );
        let err = Cli::try_parse_from(["podscope", "web", "--shell", "sh -c 'exec bash"])
            .expect_err("unmatched quote")
            .to_string();
        assert!(err.contains("missing closing quote"), "{err}");
    }

    #[test]
    fn shell_falls_back_to_podscope_shell_and_shows_in_help() {
        use clap::CommandFactory;
        let mut cmd = Cli::command();
        for sub in ["attach", "demo"] {
            let sub = cmd.find_subcommand_mut(sub).expect("subcommand");
            let arg = sub
                .get_arguments()
                .find(|a| a.get_id() == "shell")
                .expect("--shell");
            assert_eq!(
                arg.get_env().and_then(|e| e.to_str()),
                Some("PODSCOPE_SHELL")
            );
            let help = sub.render_long_help().to_string();
            assert!(help.contains("--shell <CMD>"), "{help}");
            assert!(help.contains("[env: PODSCOPE_SHELL"), "{help}");
            assert!(help.contains("`bash`, else `sh`"), "{help}");
        }
    }

    #[test]
    fn kubeconfig_before_logs_is_the_logs_flag() {
        let args = [
            "podscope",
            "--kubeconfig",
            "/tmp/k",
            "logs",
            "crash",
            "-c",
            "nope",
        ];
        // clap alone takes `crash` for a subcommand of the implied attach and refuses.
        assert!(Cli::try_parse_from(args).is_err());
        let Some(Command::Logs(l)) = Cli::try_parse_args(args).expect("parses").command else {
            panic!("expected logs")
        };
        assert_eq!(
            (l.pod.as_str(), l.container.as_deref()),
            ("crash", Some("nope"))
        );
        assert_eq!(l.cluster.kubeconfig, Some(PathBuf::from("/tmp/k")));
    }

    #[test]
    fn output_requires_once() {
        assert!(Cli::try_parse_from(["podscope", "web", "-o", "json"]).is_err());
    }
}
