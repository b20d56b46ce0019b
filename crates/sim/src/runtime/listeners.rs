//! Simulated listening sockets inside a pod's network namespace, for port-forward: which port
//! answers with what ([`listeners`]); how a connection is served is [`super::serve`].
//!
//! Only containers whose status is Running listen. Rules (by image: the listeners column of
//! [`super::image`]'s table):
//! - `…/hello` (the seed's app): HTTP on `PORT` (default 8080): `/` → `hello from <hostname>`,
//!   `/healthz` → `ok`, `/readyz` → `ok` (503 `shutting down` once the pod has a
//!   `deletionTimestamp`), anything else → Go's `404 page not found`. Each request logs
//!   `<client> <METHOD> <path>` in the container's log, as in the seed.
//! - nginx: the modelled `conf.d/*.conf` (seed: `listen 8081`, `location = /nginx-health
//!   { return 200 "ok\n"; }`, `location / { proxy_pass http://127.0.0.1:8080; }`); the proxy
//!   reaches the pod's own listeners, `502 Bad Gateway` when nothing answers. Without a modelled
//!   config: port 80, `Welcome to nginx!`.
//! - images containing `tcp-echo`: a raw TCP echo on the declared ports (else 7); benchmarks use it.
//! - busybox/alpine shells: nothing.
//! - anything else: HTTP `200 ok` on each declared containerPort.

use std::sync::LazyLock;

use k8s_openapi::api::core::v1::Pod;
use regex::Regex;

use super::image::{App, Base, SimImage};
use super::userland::ContainerView;
use super::{hex_id, is_running};

/// What answers on a port.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Listener {
    /// The seed's hello app of `container`.
    Hello { container: String },
    /// nginx with its `location`s; `server` is the `Server:` header (`nginx/1.29`).
    Nginx { routes: Vec<Route>, server: String },
    /// A raw TCP echo.
    Echo,
    /// HTTP `200 ok` to everything.
    Plain,
}

/// One nginx `location`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Route {
    /// `location = /path` (exact) rather than a prefix.
    pub(super) exact: bool,
    /// The location's path.
    pub(super) path: String,
    /// What it does.
    pub(super) action: RouteAction,
}

/// What an nginx `location` does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RouteAction {
    /// `return CODE "BODY"`.
    Return(u16, String),
    /// `proxy_pass http://127.0.0.1:PORT` (the pod's own listener).
    Proxy(u16),
}

static LISTEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"listen\s+(?:[\d.]+:)?(\d+)").expect("valid regex"));
static LOCATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"location\s+(=\s*)?(\S+)\s*\{([^}]*)\}").expect("valid regex"));
static RETURN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"return\s+(\d+)\s+"((?:[^"\\]|\\.)*)""#).expect("valid regex"));
static PROXY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"proxy_pass\s+http://[^:/\s;]+:(\d+)").expect("valid regex"));

fn ports_of(pod: &Pod, container: &str) -> Vec<u16> {
    let spec = pod.spec.iter();
    spec.flat_map(|s| {
        s.init_containers
            .iter()
            .flatten()
            .chain(s.containers.iter())
    })
    .filter(|c| c.name == container)
    .flat_map(|c| c.ports.iter().flatten())
    .filter_map(|p| u16::try_from(p.container_port).ok())
    .collect()
}

/// Every (port, listener) of the pod's running containers.
pub(crate) fn listeners(pod: &Pod) -> Vec<(u16, Listener)> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in spec
        .init_containers
        .iter()
        .flatten()
        .chain(spec.containers.iter())
    {
        if !is_running(pod, &c.name) {
            continue;
        }
        let image = SimImage::of(c.image.as_deref().unwrap_or_default());
        let declared = ports_of(pod, &c.name);
        if image.app == App::Hello {
            let port = c
                .env
                .iter()
                .flatten()
                .find(|e| e.name == "PORT")
                .and_then(|e| e.value.as_deref())
                .map_or(Some(8080), |v| v.parse().ok());
            out.extend(port.map(|p| {
                (
                    p,
                    Listener::Hello {
                        container: c.name.clone(),
                    },
                )
            }));
        } else if image.app == App::Nginx {
            out.extend(nginx(pod, &c.name, &image.tag));
        } else if image.app == App::TcpEcho {
            let ports = if declared.is_empty() {
                vec![7]
            } else {
                declared
            };
            out.extend(ports.into_iter().map(|p| (p, Listener::Echo)));
        } else if matches!(image.base, Base::Busybox | Base::Alpine) {
        } else {
            out.extend(declared.into_iter().map(|p| (p, Listener::Plain)));
        }
    }
    out
}

fn nginx(pod: &Pod, container: &str, tag: &str) -> Vec<(u16, Listener)> {
    let server = format!("nginx/{tag}");
    let confs: Vec<String> = ContainerView::new(pod, container)
        .map(|v| {
            v.files
                .into_iter()
                .filter(|(p, _)| p.starts_with("/etc/nginx/conf.d/") && p.ends_with(".conf"))
                .map(|(_, body)| body)
                .collect()
        })
        .unwrap_or_default();
    if confs.is_empty() {
        let routes = vec![Route {
            exact: false,
            path: "/".into(),
            action: RouteAction::Return(200, "<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n</body>\n</html>\n".into()),
        }];
        return vec![(80, Listener::Nginx { routes, server })];
    }
    let mut out = Vec::new();
    for conf in confs {
        let routes: Vec<Route> = LOCATION
            .captures_iter(&conf)
            .filter_map(|c| {
                let body = c.get(3)?.as_str();
                let action = if let Some(r) = RETURN.captures(body) {
                    RouteAction::Return(
                        r.get(1)?.as_str().parse().ok()?,
                        r.get(2)?
                            .as_str()
                            .replace("\\n", "\n")
                            .replace("\\\"", "\""),
                    )
                } else {
                    RouteAction::Proxy(PROXY.captures(body)?.get(1)?.as_str().parse().ok()?)
                };
                Some(Route {
                    exact: c.get(1).is_some(),
                    path: c.get(2)?.as_str().to_string(),
                    action,
                })
            })
            .collect();
        for l in LISTEN.captures_iter(&conf) {
            if let Some(p) = l.get(1).and_then(|m| m.as_str().parse().ok()) {
                out.push((
                    p,
                    Listener::Nginx {
                        routes: routes.clone(),
                        server: server.clone(),
                    },
                ));
            }
        }
    }
    out
}

/// The kubelet/containerd text for a port nobody listens on (case 31's wording).
pub(crate) fn refused_message(pod: &Pod, port: u16) -> String {
    let uid = pod.metadata.uid.as_deref().unwrap_or("");
    let sandbox = hex_id(&format!("sandbox/{uid}"));
    let n = hex_id(&format!("netns/{uid}"));
    let netns = format!(
        "{}-{}-{}-{}-{}",
        &n[0..8],
        &n[8..12],
        &n[12..16],
        &n[16..20],
        &n[20..32]
    );
    format!(
        "error forwarding port {port} to pod {sandbox}, uid : failed to execute portforward in network namespace \"/var/run/netns/cni-{netns}\": failed to connect to localhost:{port} inside namespace \"{sandbox}\", IPv4: dial tcp4 127.0.0.1:{port}: connect: connection refused IPv6 dial tcp6 [::1]:{port}: connect: connection refused"
    )
}
