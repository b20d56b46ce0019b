//! Probes in `kubectl describe` form (`docs/protocols.md` §7).
//!
//! Mirrors kubectl's `DescribeProbe` (`staging/src/k8s.io/kubectl/pkg/describe/describe.go`),
//! including Go's `net.JoinHostPort` and `url.URL.String()` for `http-get`.

use k8s_openapi::api::core::v1::Probe;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

/// One probe as `kubectl describe` prints it after `Liveness:` / `Readiness:` / `Startup:`:
/// `<handler> delay=<initialDelaySeconds>s timeout=<timeoutSeconds>s period=<periodSeconds>s
/// #success=<successThreshold> #failure=<failureThreshold>`.
///
/// Handlers: `exec [cmd arg1 arg2]` (Go slice formatting), `http-get http://:http/healthz` (scheme
/// lowercased, host and port joined IPv6-safe, path URL-escaped as Go does), `tcp-socket :8080`,
/// `grpc <pod>:<port> <service>`, `unknown`. Numbers print as present in the object, `0` when a
/// field is absent (the API server normally defaults timeout 1, period 10, success 1, failure 3).
/// Text comes from the spec raw; sanitise before drawing.
pub fn describe_probe(p: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        p.initial_delay_seconds.unwrap_or(0),
        p.timeout_seconds.unwrap_or(0),
        p.period_seconds.unwrap_or(0),
        p.success_threshold.unwrap_or(0),
        p.failure_threshold.unwrap_or(0),
    );
    if let Some(exec) = &p.exec {
        let argv = exec.command.as_deref().unwrap_or(&[]).join(" ");
        return format!("exec [{argv}] {attrs}");
    }
    if let Some(http) = &p.http_get {
        let scheme = http.scheme.as_deref().unwrap_or("").to_lowercase();
        let host = http.host.as_deref().unwrap_or("");
        let port = port_text(&http.port);
        let authority = if port.is_empty() {
            host.to_string()
        } else {
            join_host_port(host, &port)
        };
        let url = go_url_string(&scheme, &authority, http.path.as_deref().unwrap_or(""));
        return format!("http-get {url} {attrs}");
    }
    if let Some(tcp) = &p.tcp_socket {
        let host = tcp.host.as_deref().unwrap_or("");
        return format!("tcp-socket {host}:{} {attrs}", port_text(&tcp.port));
    }
    if let Some(grpc) = &p.grpc {
        let service = grpc.service.as_deref().unwrap_or("");
        return format!("grpc <pod>:{} {service} {attrs}", grpc.port);
    }
    format!("unknown {attrs}")
}

/// `intstr.IntOrString.String()`: the number or the port name.
fn port_text(port: &IntOrString) -> String {
    match port {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(s) => s.clone(),
    }
}

/// Go's `net.JoinHostPort`: brackets a host containing `:` (IPv6).
fn join_host_port(host: &str, port: &str) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// Go's `url.URL{Scheme, Host, Path}.String()` for the fields `DescribeProbe` sets.
fn go_url_string(scheme: &str, host: &str, path: &str) -> String {
    let mut out = String::new();
    if !scheme.is_empty() {
        out.push_str(scheme);
        out.push(':');
    }
    if (!scheme.is_empty() || !host.is_empty()) && (!host.is_empty() || !path.is_empty()) {
        out.push_str("//");
        out.push_str(&escape(host, true));
    }
    let escaped_path = if path == "*" {
        "*".to_string()
    } else {
        escape(path, false)
    };
    if !escaped_path.is_empty() && !escaped_path.starts_with('/') && !host.is_empty() {
        out.push('/');
    }
    // A relative path whose first segment has a colon would read as a scheme: Go prefixes `./`.
    if out.is_empty()
        && escaped_path
            .split('/')
            .next()
            .is_some_and(|seg| seg.contains(':'))
    {
        out.push_str("./");
    }
    out.push_str(&escaped_path);
    out
}

/// Go's `url.escape` in `encodeHost` (`host == true`) or `encodePath` mode.
fn escape(s: &str, host: bool) -> String {
    let keep = |b: u8| {
        b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'_' | b'.' | b'~')
            || (host
                && matches!(
                    b,
                    b'!' | b'$'
                        | b'&'
                        | b'\''
                        | b'('
                        | b')'
                        | b'*'
                        | b'+'
                        | b','
                        | b';'
                        | b'='
                        | b':'
                        | b'['
                        | b']'
                        | b'<'
                        | b'>'
                        | b'"'
                ))
            || (!host
                && matches!(
                    b,
                    b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'@'
                ))
    };
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if keep(b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(v: serde_json::Value) -> Probe {
        serde_json::from_value(v).expect("probe json")
    }

    #[test]
    fn captured_http_get_with_named_port() {
        // docs/protocols.md §7, captured from kubectl 1.33.
        let p = probe(serde_json::json!({
            "httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP"},
            "timeoutSeconds": 2, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3
        }));
        assert_eq!(
            describe_probe(&p),
            "http-get http://:http/healthz delay=0s timeout=2s period=10s #success=1 #failure=3"
        );
    }

    #[test]
    fn handlers() {
        let cases = [
            (
                serde_json::json!({"exec": {"command": ["cat", "/tmp/healthy"]}, "initialDelaySeconds": 5}),
                "exec [cat /tmp/healthy] delay=5s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"exec": {}}),
                "exec [] delay=0s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"httpGet": {"host": "::1", "port": 8080, "path": "/", "scheme": "HTTPS"}}),
                "http-get https://[::1]:8080/ delay=0s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"httpGet": {"port": 8080, "path": "ready now?", "scheme": "HTTP"}}),
                "http-get http://:8080/ready%20now%3F delay=0s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"httpGet": {"port": 8080}}),
                "http-get //:8080 delay=0s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"tcpSocket": {"port": 8080}, "periodSeconds": 10}),
                "tcp-socket :8080 delay=0s timeout=0s period=10s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"tcpSocket": {"host": "::1", "port": "db"}}),
                "tcp-socket ::1:db delay=0s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"grpc": {"port": 9000, "service": "health"}}),
                "grpc <pod>:9000 health delay=0s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"grpc": {"port": 9000}}),
                "grpc <pod>:9000  delay=0s timeout=0s period=0s #success=0 #failure=0",
            ),
            (
                serde_json::json!({"timeoutSeconds": 1}),
                "unknown delay=0s timeout=1s period=0s #success=0 #failure=0",
            ),
        ];
        for (v, want) in cases {
            assert_eq!(describe_probe(&probe(v.clone())), want, "{v}");
        }
    }
}
