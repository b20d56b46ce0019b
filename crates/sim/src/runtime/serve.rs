//! Serving one forwarded connection inside the pod ([`serve`]) by its [`Listener`]: a TCP echo,
//! or HTTP/1.x requests (heads parsed by `httparse`; keep-alive, `Connection: close`,
//! `Content-Length` bodies skipped)
//! answered by the hello app (`/` → `hello from <hostname>`, `/healthz`, `/readyz`, Go's 404),
//! by nginx's `location`s (`return`, `proxy_pass` to the pod's own listeners, `502 Bad
//! Gateway` when nothing answers) or with a plain `200 ok`. Requests reaching the hello app are
//! written to its container log as the seed shows (`<time> 127.0.0.1:<port> GET /`).

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::listeners::{Listener, RouteAction, listeners};
use crate::api::store::{LogLine, Store};

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

/// Most request headers read; a request with more is malformed (the connection is closed).
const MAX_HEADERS: usize = 64;

/// Parses the request head at the start of `buf` (`httparse`): the request and the head's length
/// in bytes, `Ok(None)` while the head is still incomplete. Errors: a malformed head.
fn parse_head(buf: &[u8]) -> Result<Option<(Request, usize)>, httparse::Error> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut head = httparse::Request::new(&mut headers);
    let httparse::Status::Complete(len) = head.parse(buf)? else {
        return Ok(None);
    };
    let mut close = head.version == Some(0);
    let mut body_len = 0;
    for h in head.headers.iter() {
        let value = String::from_utf8_lossy(h.value);
        if h.name.eq_ignore_ascii_case("connection") {
            close = value.trim().eq_ignore_ascii_case("close");
        } else if h.name.eq_ignore_ascii_case("content-length") {
            body_len = value.trim().parse().unwrap_or(0);
        }
    }
    let req = Request {
        method: head.method.unwrap_or("").to_string(),
        path: head.path.unwrap_or("").to_string(),
        close,
        body_len,
    };
    Ok(Some((req, len)))
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
        let (req, head_len) = match parse_head(&buf) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => match io.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    buf.extend_from_slice(&chunk[..n]);
                    continue;
                }
            },
            Err(_) => break,
        };
        while buf.len() < head_len + req.body_len {
            match io.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        buf.drain(..head_len + req.body_len);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_heads_as_clients_send_them() {
        let (req, len) = parse_head(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nrest")
            .expect("valid")
            .expect("complete");
        assert_eq!(
            (req.method.as_str(), req.path.as_str()),
            ("GET", "/healthz")
        );
        assert_eq!((req.close, req.body_len, len), (false, 0, 42));
        let (req, _) = parse_head(b"POST /x HTTP/1.0\r\ncontent-length: 5\r\n\r\nhello")
            .expect("valid")
            .expect("complete");
        assert_eq!((req.close, req.body_len), (true, 5));
        let (req, _) = parse_head(b"GET / HTTP/1.1\r\nConnection: Close\r\n\r\n")
            .expect("valid")
            .expect("complete");
        assert!(req.close);
        assert!(matches!(
            parse_head(b"GET / HTTP/1.1\r\nHost: x\r\n"),
            Ok(None)
        ));
        assert!(parse_head(b"\x00\x01 nonsense\r\n\r\n").is_err());
    }
}
