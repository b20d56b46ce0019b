//! Port-forward specifications and progress, as pure values.
//!
//! [`PortSpec`] parses kubectl's `port-forward` argument forms plus an optional bind address:
//! `REMOTE` (local = remote), `LOCAL:REMOTE`, `:REMOTE` (a random local port), and
//! `ADDR:LOCAL:REMOTE` with `ADDR` = `localhost`, an IPv4 address or `[IPv6]`. `REMOTE` may be a
//! container port name (`http`), resolved against the pod's `containerPorts` when connecting.
//! Without `ADDR` (or with `localhost`) both loopbacks are bound, `127.0.0.1` and `[::1]`, as
//! kubectl's default `--address localhost` does (`docs/protocols.md` §4.4).
//! What a running forward reports is in [`super::forward_status`].

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

/// The pod side of a forward: a number or a `containerPort` name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RemotePort {
    /// A port number, 1–65535.
    Number(u16),
    /// A port name (IANA_SVC_NAME: lowercase letters, digits, `-`, at most 15 characters).
    Name(String),
}

impl fmt::Display for RemotePort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemotePort::Number(n) => write!(f, "{n}"),
            RemotePort::Name(s) => f.write_str(s),
        }
    }
}

/// One `[ADDR:]LOCAL:REMOTE` argument.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PortSpec {
    /// Bind address; `None` (no `ADDR`, or `localhost`) means both loopbacks, 127.0.0.1 and ::1.
    pub address: Option<IpAddr>,
    /// Local port: `None` = same number as the (resolved) remote port, `Some(0)` = random.
    pub local: Option<u16>,
    /// The pod port.
    pub remote: RemotePort,
}

/// Why a port argument is invalid; the text names the argument.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PortSpecError {
    /// Empty, or too many `:`-separated parts.
    #[error("invalid port specification {0:?}: expected [ADDR:]LOCAL:REMOTE")]
    Shape(String),
    /// A port number outside 1–65535 (0 allowed only for LOCAL).
    #[error("invalid port {port:?} in {spec:?}: must be a number between 1 and 65535")]
    Port {
        /// The offending part.
        port: String,
        /// The whole argument.
        spec: String,
    },
    /// Not an IP address or `localhost`.
    #[error("invalid address {addr:?} in {spec:?}")]
    Address {
        /// The offending part.
        addr: String,
        /// The whole argument.
        spec: String,
    },
}

fn is_port_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 15
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && s.chars().any(|c| c.is_ascii_lowercase())
        && !s.starts_with('-')
        && !s.ends_with('-')
}

impl FromStr for PortSpec {
    type Err = PortSpecError;

    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let shape = || PortSpecError::Shape(spec.to_string());
        let (address, rest) = if let Some(stripped) = spec.strip_prefix('[') {
            let (v6, rest) = stripped.split_once("]:").ok_or_else(shape)?;
            let ip = v6.parse::<IpAddr>().map_err(|_| PortSpecError::Address {
                addr: v6.to_string(),
                spec: spec.to_string(),
            })?;
            (Some(ip), rest)
        } else if spec.matches(':').count() == 2 {
            let (addr, rest) = spec.split_once(':').ok_or_else(shape)?;
            let ip = if addr == "localhost" {
                None
            } else {
                Some(addr.parse::<IpAddr>().map_err(|_| PortSpecError::Address {
                    addr: addr.to_string(),
                    spec: spec.to_string(),
                })?)
            };
            (ip, rest)
        } else {
            (None, spec)
        };
        let (local, remote) = match rest.split_once(':') {
            Some((l, r)) => (Some(l), r),
            None => (None, rest),
        };
        if remote.contains(':') || remote.is_empty() {
            return Err(shape());
        }
        let bad_port = |p: &str| PortSpecError::Port {
            port: p.to_string(),
            spec: spec.to_string(),
        };
        let remote = match remote.parse::<u16>() {
            Ok(0) => return Err(bad_port(remote)),
            Ok(n) => RemotePort::Number(n),
            Err(_) if remote.chars().all(|c| c.is_ascii_digit()) => return Err(bad_port(remote)),
            Err(_) if is_port_name(remote) => RemotePort::Name(remote.to_string()),
            Err(_) => return Err(bad_port(remote)),
        };
        let local = match local {
            None => None,
            Some("") => Some(0),
            Some(l) => Some(l.parse::<u16>().map_err(|_| bad_port(l))?),
        };
        Ok(PortSpec {
            address,
            local,
            remote,
        })
    }
}

impl fmt::Display for PortSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.address {
            Some(IpAddr::V6(a)) => write!(f, "[{a}]:")?,
            Some(a) => write!(f, "{a}:")?,
            None => {}
        }
        match self.local {
            Some(0) => write!(f, ":{}", self.remote),
            Some(l) => write!(f, "{l}:{}", self.remote),
            None => write!(f, "{}", self.remote),
        }
    }
}

impl PortSpec {
    /// The first address to bind: the given one, else 127.0.0.1, with the local port (the
    /// remote number when the spec says "same as remote" and the remote is a number; else 0 =
    /// random).
    pub fn bind_addr(&self) -> SocketAddr {
        let ip = self.address.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let port = match (self.local, &self.remote) {
            (Some(l), _) => l,
            (None, RemotePort::Number(n)) => *n,
            (None, RemotePort::Name(_)) => 0,
        };
        SocketAddr::new(ip, port)
    }

    /// Every address to bind, in order: the given one alone, else `127.0.0.1` then `[::1]`
    /// (kubectl's `localhost`), all with [`Self::bind_addr`]'s port. With port 0 the forwarder
    /// binds the later ones on the port the first bind chose.
    pub fn bind_addrs(&self) -> Vec<SocketAddr> {
        let first = self.bind_addr();
        match self.address {
            Some(_) => vec![first],
            None => vec![
                first,
                SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), first.port()),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<PortSpec, PortSpecError> {
        s.parse()
    }

    #[test]
    fn kubectl_forms() {
        let s = p("8081:8081").expect("parses");
        assert_eq!(
            (s.local, &s.remote),
            (Some(8081), &RemotePort::Number(8081))
        );
        assert_eq!(s.bind_addr().to_string(), "127.0.0.1:8081");
        let s = p("8080").expect("parses");
        assert_eq!((s.local, s.bind_addr().port()), (None, 8080));
        let s = p(":http").expect("parses");
        assert_eq!(
            (s.local, &s.remote),
            (Some(0), &RemotePort::Name("http".into()))
        );
        let s = p("5010:6000").expect("parses");
        assert_eq!(s.to_string(), "5010:6000");
    }

    #[test]
    fn addresses() {
        let s = p("0.0.0.0:9000:proxy").expect("parses");
        assert_eq!(s.bind_addr().to_string(), "0.0.0.0:9000");
        assert_eq!(s.to_string(), "0.0.0.0:9000:proxy");
        let s = p("[::1]:9000:80").expect("parses");
        assert_eq!(s.bind_addr().to_string(), "[::1]:9000");
        assert_eq!(
            s.bind_addrs(),
            vec!["[::1]:9000".parse().expect("addr")],
            "a given address is bound alone"
        );
        // `localhost` is kubectl's default: both loopbacks.
        let s = p("localhost:9000:80").expect("parses");
        assert_eq!(s, p("9000:80").expect("parses"));
        assert_eq!(
            s.bind_addrs(),
            vec![
                "127.0.0.1:9000".parse::<SocketAddr>().expect("addr"),
                "[::1]:9000".parse().expect("addr")
            ]
        );
        assert_eq!(
            p(":http").expect("parses").bind_addrs(),
            vec![
                "127.0.0.1:0".parse::<SocketAddr>().expect("addr"),
                "[::1]:0".parse().expect("addr")
            ]
        );
    }

    #[test]
    fn rejects() {
        assert!(matches!(p(""), Err(PortSpecError::Shape(_))));
        assert!(matches!(p("1:2:3:4"), Err(PortSpecError::Shape(_))));
        assert!(matches!(p("8080:0"), Err(PortSpecError::Port { .. })));
        assert!(matches!(p("8080:70000"), Err(PortSpecError::Port { .. })));
        assert!(matches!(p("x:1:2"), Err(PortSpecError::Address { .. })));
        assert!(matches!(
            p("8080:Bad_Name"),
            Err(PortSpecError::Port { .. })
        ));
    }
}
