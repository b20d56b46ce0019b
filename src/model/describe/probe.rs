//! One probe as kubectl describes it (`DescribeProbe` in kubectl's `describe.go`).

use k8s_openapi::api::core::v1::Probe;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

/// The probe line after `Liveness:` / `Readiness:` / `Startup:`, e.g.
/// `http-get http://:http/healthz delay=0s timeout=2s period=10s #success=1 #failure=3`.
///
/// The handler: `exec [cmd args]` (Go's `%v` of the command slice), `http-get <url>` (scheme
/// lowercased, `host:port` joined as Go's `net.JoinHostPort` does, then the path),
/// `tcp-socket host:port`, `grpc <pod>:port service`, else `unknown`. The numbers are the
/// probe's fields as served (the API server fills the defaults: timeout 1, period 10,
/// success 1, failure 3), absent ones as 0. Not sanitised (the caller does it).
pub fn describe_probe(p: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        p.initial_delay_seconds.unwrap_or(0),
        p.timeout_seconds.unwrap_or(0),
        p.period_seconds.unwrap_or(0),
        p.success_threshold.unwrap_or(0),
        p.failure_threshold.unwrap_or(0),
    );
    if let Some(e) = &p.exec {
        let cmd = e.command.as_deref().unwrap_or(&[]).join(" ");
        return format!("exec [{cmd}] {attrs}");
    }
    if let Some(h) = &p.http_get {
        let scheme = h.scheme.as_deref().unwrap_or("").to_lowercase();
        let host = h.host.as_deref().unwrap_or("");
        let port = int_or_string(&h.port);
        let authority = if port.is_empty() {
            host.to_string()
        } else {
            join_host_port(host, &port)
        };
        let path = h.path.as_deref().unwrap_or("");
        let mut url = String::new();
        if !scheme.is_empty() {
            url.push_str(&scheme);
            url.push(':');
        }
        if !authority.is_empty() || !scheme.is_empty() {
            url.push_str("//");
            url.push_str(&authority);
        }
        if !path.is_empty() && !path.starts_with('/') && !authority.is_empty() {
            url.push('/');
        }
        url.push_str(&escape_path(path));
        return format!("http-get {url} {attrs}");
    }
    if let Some(t) = &p.tcp_socket {
        let host = t.host.as_deref().unwrap_or("");
        return format!("tcp-socket {host}:{} {attrs}", int_or_string(&t.port));
    }
    if let Some(g) = &p.grpc {
        let service = g.service.as_deref().unwrap_or("");
        return format!("grpc <pod>:{} {service} {attrs}", g.port);
    }
    format!("unknown {attrs}")
}

/// `IntOrString.String()`: the number, or the name.
fn int_or_string(v: &IntOrString) -> String {
    match v {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(s) => s.clone(),
    }
}

/// Go's `net.JoinHostPort`: brackets around a host that contains `:` (IPv6).
fn join_host_port(host: &str, port: &str) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// The path as Go's `url.URL.String` escapes it (`EscapedPath`): bytes outside the unreserved
/// set and `$&+,/:;=@` are percent-encoded (so are `?`, `!`, `(`, `)`, `*` and `'`).
fn escape_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'_'
                    | b'.'
                    | b'~'
                    | b'/'
                    | b'$'
                    | b'&'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
            );
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
