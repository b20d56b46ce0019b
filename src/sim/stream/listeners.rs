//! Simulated listening sockets inside a pod's network namespace, for port-forward.
//!
//! Only containers whose status is Running listen. Rules (by image, as `kubelet::programs`):
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

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;
use regex::Regex;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::userland::{ContainerView, split_image};
use super::{hex_id, is_running};
use crate::sim::store::{LogLine, Store};

/// What answers on a port.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Listener {
    Hello { container: String },
    Nginx { routes: Vec<Route>, server: String },
    Echo,
    Plain,
}

/// One nginx `location`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Route {
    exact: bool,
    path: String,
    action: RouteAction,
}

#[derive(Debug, Clone, PartialEq)]
enum RouteAction {
    Return(u16, String),
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
        let image = c.image.clone().unwrap_or_default();
        let (repo, _) = split_image(&image);
        let declared = ports_of(pod, &c.name);
        if repo == "hello" || repo.ends_with("/hello") {
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
        } else if repo.contains("nginx") {
            out.extend(nginx(pod, &c.name, &image));
        } else if image.contains("tcp-echo") {
            let ports = if declared.is_empty() {
                vec![7]
            } else {
                declared
            };
            out.extend(ports.into_iter().map(|p| (p, Listener::Echo)));
        } else if image.contains("busybox") || image.contains("alpine") {
        } else {
            out.extend(declared.into_iter().map(|p| (p, Listener::Plain)));
        }
    }
    out
}

fn nginx(pod: &Pod, container: &str, image: &str) -> Vec<(u16, Listener)> {
    let (_, tag) = split_image(image);
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

/// A parsed HTTP/1.x request head.
#[derive(Debug, Clone)]
struct Request {
    method: String,
    path: String,
    close: bool,
    body_len: usize,
}

struct Answer {
    code: u16,
    content_type: &'static str,
    body: String,
}

fn reason(code: u16) -> &'static str {
    match code {
        200 => "OK",
        404 => "Not Found",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "",
    }
}

fn parse_head(head: &str) -> Option<Request> {
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split_whitespace();
    let (method, path, version) = (first.next()?, first.next()?, first.next().unwrap_or(""));
    let mut close = version == "HTTP/1.0";
    let mut body_len = 0;
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            continue;
        };
        match k.trim().to_ascii_lowercase().as_str() {
            "connection" => close = v.trim().eq_ignore_ascii_case("close"),
            "content-length" => body_len = v.trim().parse().unwrap_or(0),
            _ => {}
        }
    }
    Some(Request {
        method: method.to_string(),
        path: path.to_string(),
        close,
        body_len,
    })
}

fn hello_answer(pod: &Pod, path: &str) -> Answer {
    let hostname = pod
        .spec
        .as_ref()
        .and_then(|s| s.hostname.clone())
        .or_else(|| pod.metadata.name.clone())
        .unwrap_or_default();
    let terminating = pod.metadata.deletion_timestamp.is_some();
    let text = |code, body: &str| Answer {
        code,
        content_type: "text/plain; charset=utf-8",
        body: body.to_string(),
    };
    match path.split('?').next().unwrap_or("") {
        "/" => text(200, &format!("hello from {hostname}\n")),
        "/healthz" => text(200, "ok\n"),
        "/readyz" if terminating => text(503, "shutting down\n"),
        "/readyz" => text(200, "ok\n"),
        _ => text(404, "404 page not found\n"),
    }
}

/// The answer, and the hello container that served it (for its access log), if any.
fn answer(pod: &Pod, listener: &Listener, req: &Request, depth: u8) -> (Answer, Option<String>) {
    match listener {
        Listener::Hello { container } => (hello_answer(pod, &req.path), Some(container.clone())),
        Listener::Plain | Listener::Echo => (
            Answer {
                code: 200,
                content_type: "text/plain",
                body: "ok\n".into(),
            },
            None,
        ),
        Listener::Nginx { .. } => (nginx_answer(pod, listener, req, depth), None),
    }
}

fn nginx_answer(pod: &Pod, listener: &Listener, req: &Request, depth: u8) -> Answer {
    match listener {
        Listener::Hello { .. } | Listener::Plain | Listener::Echo => Answer {
            code: 200,
            content_type: "text/plain",
            body: "ok\n".into(),
        },
        Listener::Nginx { routes, server } => {
            let path = req.path.split('?').next().unwrap_or("");
            let route = routes
                .iter()
                .filter(|r| {
                    if r.exact {
                        r.path == path
                    } else {
                        path.starts_with(&r.path)
                    }
                })
                .max_by_key(|r| (r.exact, r.path.len()));
            let bad_gateway = || Answer {
                code: 502,
                content_type: "text/html",
                body: format!(
                    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>{server}</center>\r\n</body>\r\n</html>\r\n"
                ),
            };
            match route.map(|r| &r.action) {
                Some(RouteAction::Return(code, body)) => Answer {
                    code: *code,
                    content_type: "text/plain",
                    body: body.clone(),
                },
                Some(RouteAction::Proxy(port)) if depth < 4 => {
                    match listeners(pod).into_iter().find(|(p, _)| p == port) {
                        Some((_, up)) if !matches!(up, Listener::Echo) => {
                            answer(pod, &up, req, depth + 1).0
                        }
                        _ => bad_gateway(),
                    }
                }
                _ => Answer {
                    code: 404,
                    content_type: "text/html",
                    body: format!(
                        "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>{server}</center>\r\n</body>\r\n</html>\r\n"
                    ),
                },
            }
        }
    }
}

/// The hello container an nginx request was proxied to (its log shows the request too).
fn proxied_hello(pod: &Pod, listener: &Listener, req: &Request) -> Option<String> {
    let Listener::Nginx { routes, .. } = listener else {
        return None;
    };
    let path = req.path.split('?').next().unwrap_or("");
    let route = routes
        .iter()
        .filter(|r| {
            if r.exact {
                r.path == path
            } else {
                path.starts_with(&r.path)
            }
        })
        .max_by_key(|r| (r.exact, r.path.len()))?;
    let RouteAction::Proxy(port) = route.action else {
        return None;
    };
    match listeners(pod).into_iter().find(|(p, _)| *p == port) {
        Some((_, Listener::Hello { container })) => Some(container),
        _ => None,
    }
}

fn hello_log(store: &Store, pod: &Pod, container: &str, req: &Request, now: Timestamp, peer: u16) {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let name = pod.metadata.name.as_deref().unwrap_or("");
    let id = pod
        .status
        .iter()
        .flat_map(|s| s.container_statuses.iter().flatten())
        .find(|s| s.name == container)
        .and_then(|s| s.container_id.clone());
    if let Some(id) = id {
        let text = format!(
            "{} 127.0.0.1:{peer} {} {}",
            now.strftime("%Y/%m/%d %H:%M:%S"),
            req.method,
            req.path
        );
        store.append_log(ns, name, &id, LogLine { time: now, text });
    }
}

/// Serves one forwarded TCP connection on `io` until either side closes.
pub(crate) async fn serve<S>(store: Store, pod: Pod, listener: Listener, mut io: S)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    if listener == Listener::Echo {
        let (r, mut w) = tokio::io::split(io);
        let mut r = tokio::io::BufReader::with_capacity(64 * 1024, r);
        let _ = tokio::io::copy_buf(&mut r, &mut w).await;
        let _ = w.shutdown().await;
        return;
    }
    let peer = 40000 + (rand::random::<u16>() % 20000);
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            match io.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    buf.extend_from_slice(&chunk[..n]);
                    continue;
                }
            }
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        let Some(req) = parse_head(&head) else { break };
        while buf.len() < end + 4 + req.body_len {
            match io.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        buf.drain(..end + 4 + req.body_len);
        let now = store.now();
        let fresh = store
            .pod(
                pod.metadata.namespace.as_deref().unwrap_or("default"),
                pod.metadata.name.as_deref().unwrap_or(""),
            )
            .unwrap_or_else(|| pod.clone());
        let (a, served_by) = answer(&fresh, &listener, &req, 0);
        if let Some(container) = served_by.or_else(|| proxied_hello(&fresh, &listener, &req)) {
            hello_log(&store, &fresh, &container, &req, now, peer);
        }
        let date = now.strftime("%a, %d %b %Y %H:%M:%S GMT");
        let mut head = format!("HTTP/1.1 {} {}\r\n", a.code, reason(a.code));
        if let Listener::Nginx { server, .. } = &listener {
            head.push_str(&format!("Server: {server}\r\n"));
        }
        head.push_str(&format!(
            "Content-Type: {}\r\nDate: {date}\r\nContent-Length: {}\r\n",
            a.content_type,
            a.body.len()
        ));
        if req.close {
            head.push_str("Connection: close\r\n");
        }
        head.push_str("\r\n");
        let body = if req.method == "HEAD" {
            ""
        } else {
            a.body.as_str()
        };
        if io
            .write_all(format!("{head}{body}").as_bytes())
            .await
            .is_err()
        {
            return;
        }
        if req.close {
            break;
        }
    }
    let _ = io.shutdown().await;
}
