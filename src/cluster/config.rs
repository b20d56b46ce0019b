//! Kubeconfig resolution exactly as kubectl does it, and the one-line errors for bad input.
//!
//! Order: `--kubeconfig PATH`; else `KUBECONFIG` (several files, merged by kube's rules); else
//! `~/.kube/config`; else the in-cluster service account. Namespace: `-n`, else the context's
//! namespace, else `default`.

use std::path::PathBuf;

use kube::config::{KubeConfigOptions, Kubeconfig};

/// Where to connect and which pod, after resolution.
#[derive(Clone)]
pub struct Target {
    /// A client for the resolved cluster and user.
    pub client: kube::Client,
    /// The namespace of the pod.
    pub namespace: String,
    /// The pod's name.
    pub pod: String,
    /// The API server URL (for messages).
    pub server: String,
    /// The resolved configuration `client` was built from (server, TLS, credentials), for
    /// connections kube-rs does not make itself (the WebSocket log transport).
    pub config: kube::Config,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("namespace", &self.namespace)
            .field("pod", &self.pod)
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

/// Why podscope could not reach the cluster before starting; each prints as one line.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The kubeconfig file named by `--kubeconfig` or `KUBECONFIG` is missing or unreadable.
    #[error("cannot read kubeconfig {path}: {reason}")]
    Kubeconfig {
        /// The path (or paths) tried.
        path: String,
        /// What went wrong, in one line.
        reason: String,
    },
    /// No kubeconfig anywhere and not running in a cluster.
    #[error(
        "no kubeconfig found (tried --kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a cluster; pass --kubeconfig PATH"
    )]
    NoConfig,
    /// `--context` names a context the kubeconfig does not have.
    #[error("context \"{context}\" does not exist in the kubeconfig; known contexts: {known}")]
    UnknownContext {
        /// The requested context.
        context: String,
        /// The known context names, comma-separated (or `<none>`).
        known: String,
    },
    /// The kubeconfig is syntactically fine but unusable (no current context, bad cluster, …).
    #[error("invalid kubeconfig: {0}")]
    Invalid(String),
}

/// Options that select the cluster (mirrors kubectl's `--kubeconfig`, `--context`, `-n`); the
/// same three flags on every subcommand that talks to a cluster (`#[command(flatten)]`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ConnectOptions {
    /// Path to a kubeconfig file; otherwise `KUBECONFIG` (several files merged), then
    /// `~/.kube/config`, then the in-cluster service account (as kubectl).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use (as `kubectl --context`).
    #[arg(long)]
    pub context: Option<String>,
    /// Namespace; defaults to the context's namespace, then `default` (as kubectl `-n`).
    #[arg(short, long)]
    pub namespace: Option<String>,
}

/// An error and its sources on one line, each cause once: `ServiceError: client error
/// (Connect): tcp connect error: Connection refused (os error 111)` where `to_string` alone
/// gives only `ServiceError: client error (Connect)`. Newlines become spaces.
#[must_use]
pub fn one_line(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(inner) = src {
        let t = inner.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        src = inner.source();
    }
    s.replace('\n', " ")
}

/// Why a kubeconfig could not be read, in one line. A YAML error keeps the parser's first line
/// (`line 3 column 12: expected mapping start`: the position and what was wrong, without the
/// `error: ` prefix) and drops the source excerpt the parser draws under it; other errors are
/// [`one_line`].
fn kubeconfig_reason(e: &kube::config::KubeconfigError) -> String {
    match e {
        kube::config::KubeconfigError::Parse(inner) => {
            let text = inner.to_string();
            let first = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            first.to_owned()
        }
        other => one_line(other),
    }
}

fn load_kubeconfig(opts: &ConnectOptions) -> Result<Option<Kubeconfig>, ConnectError> {
    if let Some(path) = &opts.kubeconfig {
        if !path.exists() {
            return Err(ConnectError::Kubeconfig {
                path: path.display().to_string(),
                reason: "no such file".into(),
            });
        }
        return Kubeconfig::read_from(path)
            .map(Some)
            .map_err(|e| ConnectError::Kubeconfig {
                path: path.display().to_string(),
                reason: kubeconfig_reason(&e),
            });
    }
    if let Some(value) = std::env::var_os("KUBECONFIG").filter(|v| !v.is_empty()) {
        return Kubeconfig::from_env().map_err(|e| ConnectError::Kubeconfig {
            path: value.to_string_lossy().into_owned(),
            reason: kubeconfig_reason(&e),
        });
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match home.map(|h| h.join(".kube").join("config")) {
        Some(p) if p.exists() => {
            Kubeconfig::read_from(&p)
                .map(Some)
                .map_err(|e| ConnectError::Kubeconfig {
                    path: p.display().to_string(),
                    reason: kubeconfig_reason(&e),
                })
        }
        _ => Ok(None),
    }
}

/// Resolves the kubeconfig and builds a client for `pod`.
///
/// # Errors
/// A [`ConnectError`] whose `Display` is the one-line message to print before exiting with code 2.
pub async fn connect(opts: &ConnectOptions, pod: &str) -> Result<Target, ConnectError> {
    let config = match load_kubeconfig(opts)? {
        Some(kc) => {
            if let Some(ctx) = &opts.context
                && !kc.contexts.iter().any(|c| &c.name == ctx)
            {
                let mut names: Vec<&str> = kc.contexts.iter().map(|c| c.name.as_str()).collect();
                names.sort_unstable();
                return Err(ConnectError::UnknownContext {
                    context: ctx.clone(),
                    known: if names.is_empty() {
                        "<none>".into()
                    } else {
                        names.join(", ")
                    },
                });
            }
            let kopts = KubeConfigOptions {
                context: opts.context.clone(),
                ..KubeConfigOptions::default()
            };
            kube::Config::from_custom_kubeconfig(kc, &kopts)
                .await
                .map_err(|e| ConnectError::Invalid(one_line(&e)))?
        }
        None => kube::Config::incluster().map_err(|_| ConnectError::NoConfig)?,
    };
    let namespace = opts
        .namespace
        .clone()
        .unwrap_or_else(|| config.default_namespace.clone());
    let server = config.cluster_url.to_string();
    let client =
        kube::Client::try_from(config.clone()).map_err(|e| ConnectError::Invalid(one_line(&e)))?;
    Ok(Target {
        client,
        namespace,
        pod: pod.to_owned(),
        server,
        config,
    })
}

/// Turns a kube error into one line naming the verb, resource and namespace, e.g.
/// `forbidden: cannot watch pods in namespace "shop" (User "x" cannot watch …)`.
#[must_use]
pub fn describe_error(e: &kube::Error, verb: &str, resource: &str, namespace: &str) -> String {
    match e {
        kube::Error::Api(status) => match status.code {
            401 => format!(
                "unauthorized (401): the server rejected the credentials to {verb} {resource} in namespace \"{namespace}\": {}",
                status.message
            ),
            403 => format!(
                "forbidden (403): cannot {verb} {resource} in namespace \"{namespace}\": {}",
                status.message
            ),
            code => format!(
                "{verb} {resource} in namespace \"{namespace}\" failed ({code} {}): {}",
                status.reason, status.message
            ),
        },
        other => format!(
            "cannot {verb} {resource} in namespace \"{namespace}\": {}",
            one_line(other)
        ),
    }
}
