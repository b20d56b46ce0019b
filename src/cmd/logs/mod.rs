//! `podscope logs POD`: kubectl-compatible `logs` (flags, stdout, stderr wording, exit codes),
//! except that `-f` keeps following across container restarts (`docs/protocols.md` §2.4).

mod follow;
mod output;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args;
use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::LogParams;

use crate::cluster::connect;
use crate::cluster::logs::{BATCH_LINES, BATCH_WAIT, LineBatcher, LogError};
use crate::cluster::logs_ws::{LogSource, LogTransport};
use crate::model::duration::parse_go_duration;
use crate::model::log_resume::{ResumeFilter, ResumeTracker};
use crate::model::pod_ref::parse_pod_ref;
use output::{LineFormat, Out, OutTx, format_batch, spawn_writer};

/// `podscope logs` flags, named and defaulted as `kubectl logs`'s.
#[derive(Debug, Clone, Args)]
pub struct LogsArgs {
    /// The pod: `NAME` or `pod/NAME`.
    #[arg(value_name = "POD")]
    pub pod: String,
    /// Print the logs of this container (default: the `kubectl.kubernetes.io/default-container`
    /// annotation, else the first container).
    #[arg(short, long)]
    pub container: Option<String>,
    /// Print the logs of the previous instance of the container.
    #[arg(short, long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub previous: bool,
    /// Stream the logs; unlike kubectl, keep following across container restarts (markers on
    /// stderr) until the pod is deleted or Ctrl-C.
    #[arg(short, long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub follow: bool,
    /// Include the kubelet's timestamp (RFC 3339, 9 fractional digits) at the start of each line.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub timestamps: bool,
    /// Print the logs of every container (init, main, ephemeral).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub all_containers: bool,
    /// Only lines newer than this relative duration (Go form: `5s`, `2m`, `3h`).
    #[arg(long, value_name = "DURATION")]
    pub since: Option<String>,
    /// Only lines at or after this time (RFC 3339).
    #[arg(long, value_name = "RFC3339")]
    pub since_time: Option<String>,
    /// Lines from the end of the log to show; -1 shows all.
    #[arg(long, default_value_t = -1, allow_negative_numbers = true)]
    pub tail: i64,
    /// Maximum bytes of log to return (the server may cut mid-line).
    #[arg(long, default_value_t = 0)]
    pub limit_bytes: i64,
    /// Prefix each line with `[pod/NAME/CONTAINER] `.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub prefix: bool,
    /// Which cluster and namespace (`--kubeconfig`, `--context`, `-n`).
    #[command(flatten)]
    pub cluster: crate::cluster::ConnectOptions,
    /// How to read the log: `http` (the streaming GET kubectl makes) or `websocket` (the same
    /// GET upgraded to a WebSocket, for proxies that pass only WebSockets).
    #[arg(long, value_enum, default_value_t = LogTransport::Http)]
    pub log_transport: LogTransport,
}

/// A failure to report on stderr: worded as kubectl words it, exit 1; or a setup error
/// (`podscope: …`, exit 2, [`super::setup`]).
#[derive(Debug)]
pub(crate) enum Failure {
    /// kubectl's line, exit 1.
    Kubectl(String),
    /// A setup error's line, without the `podscope: ` prefix.
    Setup(String),
}

impl Failure {
    fn client(msg: impl std::fmt::Display) -> Failure {
        Failure::Kubectl(format!("error: {msg}"))
    }
}

impl From<LogError> for Failure {
    fn from(e: LogError) -> Self {
        match e {
            LogError::Server {
                reason, message, ..
            } if !reason.is_empty() => {
                Failure::Kubectl(format!("Error from server ({reason}): {message}"))
            }
            other => Failure::client(other),
        }
    }
}

/// Why a stream stopped early.
#[derive(Debug)]
pub(crate) enum PumpError {
    /// Opening or reading the log failed.
    Log(LogError),
    /// Stdout is gone (closed pipe): stop quietly.
    OutputClosed,
}

/// Everything a stream needs.
pub(crate) struct Ctx {
    api: Api<Pod>,
    /// Where log requests go (`--log-transport`).
    source: LogSource,
    pod: String,
    out: OutTx,
    args: LogsArgs,
    terminal: bool,
}

impl Ctx {
    fn format(&self, container: &str, strip_timestamps: bool) -> LineFormat {
        LineFormat {
            prefix: if self.args.prefix {
                format!("[pod/{}/{container}] ", self.pod).into_bytes()
            } else {
                Vec::new()
            },
            strip_timestamps,
            terminal: self.terminal,
        }
    }
}

/// kubectl's client-side checks (`kubectl logs` Validate), with its messages.
fn validate(args: &LogsArgs) -> Result<(Option<i64>, Option<Timestamp>), Failure> {
    if args.since_time.is_some() && args.since.is_some() {
        return Err(Failure::client(
            "at most one of `sinceTime` or `sinceSeconds` may be specified",
        ));
    }
    if let (true, Some(c)) = (args.all_containers, &args.container) {
        return Err(Failure::client(format!(
            "--all-containers=true should not be specified with container name {c}"
        )));
    }
    if args.limit_bytes < 0 {
        return Err(Failure::client("--limit-bytes must be greater than 0"));
    }
    if args.tail < -1 {
        return Err(Failure::client(
            "--tail must be greater than or equal to -1",
        ));
    }
    let since_seconds = match &args.since {
        None => None,
        Some(s) => {
            let d = parse_go_duration(s).ok_or_else(|| {
                Failure::client(format!(
                    "invalid argument \"{s}\" for \"--since\" flag: time: invalid duration \"{s}\"\nSee 'kubectl logs --help' for usage."
                ))
            })?;
            // kubectl rounds up to whole seconds; 0 means "not set".
            let secs =
                i64::try_from(d.as_secs() + u64::from(d.subsec_nanos() > 0)).unwrap_or(i64::MAX);
            (secs > 0).then_some(secs)
        }
    };
    let since_time = match &args.since_time {
        None => None,
        Some(t) => Some(t.parse::<Timestamp>().map_err(|_| {
            Failure::client(format!(
                "parsing time \"{t}\" as \"2006-01-02T15:04:05Z07:00\": not RFC 3339"
            ))
        })?),
    };
    Ok((since_seconds, since_time))
}

/// kubectl's container choice: `-c`, else the `kubectl.kubernetes.io/default-container`
/// annotation, else the first container with `Defaulted container "a" out of: a, b (init)` on
/// stderr when there was a choice. `--all-containers`: init, main, ephemeral in spec order.
fn choose_containers(pod: &Pod, args: &LogsArgs) -> Result<Vec<String>, Failure> {
    let name = pod.metadata.name.as_deref().unwrap_or(&args.pod);
    let spec = pod.spec.clone().unwrap_or_default();
    let init: Vec<&str> = spec
        .init_containers
        .iter()
        .flatten()
        .map(|c| c.name.as_str())
        .collect();
    let main: Vec<&str> = spec.containers.iter().map(|c| c.name.as_str()).collect();
    let eph: Vec<&str> = spec
        .ephemeral_containers
        .iter()
        .flatten()
        .map(|c| c.name.as_str())
        .collect();
    let exists = |c: &str| init.contains(&c) || main.contains(&c) || eph.contains(&c);
    if args.all_containers {
        return Ok(init
            .iter()
            .chain(&main)
            .chain(&eph)
            .map(|s| (*s).to_owned())
            .collect());
    }
    if let Some(c) = &args.container {
        return if exists(c) {
            Ok(vec![c.clone()])
        } else {
            Err(Failure::client(format!(
                "container {c} is not valid for pod {name}"
            )))
        };
    }
    let annotated = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("kubectl.kubernetes.io/default-container"))
        .filter(|c| !c.is_empty());
    if let Some(c) = annotated {
        if exists(c) {
            return Ok(vec![c.clone()]);
        }
        eprintln!("Default container name {c:?} not found in pod {name}");
    }
    let Some(first) = main.first() else {
        return Err(Failure::client(format!(
            "pod {name} does not have a container"
        )));
    };
    if main.len() > 1 || !init.is_empty() || !eph.is_empty() {
        let all: Vec<String> = main
            .iter()
            .map(|c| (*c).to_owned())
            .chain(eph.iter().map(|c| format!("{c} (ephem)")))
            .chain(init.iter().map(|c| format!("{c} (init)")))
            .collect();
        eprintln!("Defaulted container {first:?} out of: {}", all.join(", "));
    }
    Ok(vec![(*first).to_owned()])
}

/// Reads one request to its end, writing its lines through `fmt`, `filter` and `tracker`.
pub(crate) async fn pump(
    ctx: &Ctx,
    params: &LogParams,
    fmt: &LineFormat,
    filter: &mut ResumeFilter,
    mut tracker: Option<&mut ResumeTracker>,
) -> Result<(), PumpError> {
    let body = ctx
        .source
        .open(&ctx.pod, params)
        .await
        .map_err(PumpError::Log)?;
    let mut batcher = LineBatcher::new(body);
    loop {
        let batch = batcher
            .next_batch(BATCH_LINES, BATCH_WAIT)
            .await
            .map_err(|e| {
                PumpError::Log(LogError::Transport(format!("log stream broke off: {e}")))
            })?;
        let Some(batch) = batch else {
            return Ok(());
        };
        let (bytes, _) = format_batch(fmt, batch, filter, tracker.as_deref_mut());
        if !bytes.is_empty() && ctx.out.send(Out::Stdout(bytes)).await.is_err() {
            return Err(PumpError::OutputClosed);
        }
    }
}

/// Runs `podscope logs`; returns the exit code (0, 1 on errors as kubectl, 2 for setup errors
/// as every subcommand ([`super::setup`]), 130 on Ctrl-C).
pub async fn run(args: &LogsArgs) -> ExitCode {
    match run_inner(args).await {
        Ok(code) => code,
        Err(Failure::Kubectl(msg)) => {
            eprintln!("{}", crate::model::sanitize::sanitize(&msg));
            ExitCode::FAILURE
        }
        Err(Failure::Setup(line)) => super::setup_error(&line),
    }
}

async fn run_inner(args: &LogsArgs) -> Result<ExitCode, Failure> {
    let (since_seconds, since_time) = validate(args)?;
    let pod_name = parse_pod_ref(&args.pod)
        .map_err(|e| Failure::client(format!("podscope logs reads one pod; {e} (use pod/NAME)")))?
        .to_owned();
    let opts = args.cluster.clone();
    let target = connect(&opts, &pod_name)
        .await
        .map_err(|e| Failure::Setup(e.to_string()))?;
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &target.namespace);
    let source = LogSource::new(args.log_transport, &target.client, &target.namespace);
    let pod = match api.get(&pod_name).await {
        Ok(p) => p,
        // kubectl's resource builder words a missing pod this way (kubectl 1.32).
        Err(kube::Error::Api(s)) if s.code == 404 => {
            return Err(Failure::client(format!(
                "error from server (NotFound): pods \"{pod_name}\" not found in namespace \"{}\"",
                target.namespace
            )));
        }
        Err(e) => {
            return Err(
                match super::setup::first_request_error(&e, "get", &target) {
                    Some(line) => Failure::Setup(line),
                    None => LogError::from(e).into(),
                },
            );
        }
    };
    let containers = choose_containers(&pod, args)?;
    // Following across restarts applies to the live instance; with --previous or --limit-bytes
    // the one request is made as kubectl makes it.
    let following = args.follow && args.limit_bytes == 0 && !args.previous;
    let base = LogParams {
        follow: args.follow,
        previous: args.previous,
        // Following needs the lines' times to resume; they are cut again unless asked for.
        timestamps: args.timestamps || following,
        since_seconds,
        since_time,
        tail_lines: (args.tail >= 0).then_some(args.tail),
        limit_bytes: (args.limit_bytes > 0).then_some(args.limit_bytes),
        ..LogParams::default()
    };
    let (out, writer) = spawn_writer();
    let ctx = Ctx {
        api,
        source,
        pod: pod_name,
        out,
        args: args.clone(),
        terminal: std::io::stdout().is_terminal(),
    };
    let work = async {
        if following {
            let tasks = containers.iter().map(|c| {
                let params = LogParams {
                    container: Some(c.clone()),
                    ..base.clone()
                };
                follow::follow(&ctx, c, &pod, params)
            });
            futures::future::try_join_all(tasks).await.map(|_| ())
        } else {
            for c in &containers {
                let params = LogParams {
                    container: Some(c.clone()),
                    ..base.clone()
                };
                let fmt = ctx.format(c, false);
                pump(&ctx, &params, &fmt, &mut ResumeFilter::new(None), None).await?;
            }
            Ok(())
        }
    };
    let result = tokio::select! {
        r = work => Some(r),
        _ = tokio::signal::ctrl_c() => None,
    };
    drop(ctx);
    let written = tokio::task::spawn_blocking(move || writer.join())
        .await
        .ok()
        .and_then(Result::ok);
    let stdout_closed =
        matches!(&written, Some(Err(e)) if e.kind() == std::io::ErrorKind::BrokenPipe);
    match result {
        None => Ok(ExitCode::from(130)),
        Some(Ok(())) | Some(Err(PumpError::OutputClosed)) => Ok(ExitCode::SUCCESS),
        Some(Err(PumpError::Log(_))) if stdout_closed => Ok(ExitCode::SUCCESS),
        Some(Err(PumpError::Log(e))) => Err(e.into()),
    }
}
