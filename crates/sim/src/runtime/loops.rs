//! Programs that wait for something in the cluster: a PID 1 script looping `until nslookup db;
//! do …; done` (an init container waiting for a Service), and an application retrying its
//! connection to a dependency (`SIM_DEPENDS_ON=redis:6379`). The runtime describes the loop
//! ([`Loop`]); the kubelet model runs one iteration at a time against the cluster as it is then
//! ([`check`] with the Services it read from the store), so creating the Service, or giving it
//! a ready endpoint, ends the wait as it would on a real cluster.
//!
//! What an iteration prints:
//!
//! - [`Until::Resolves`] (busybox `nslookup NAME`, cluster DNS at `10.96.0.10`, the pod's
//!   search path `<ns>.svc.cluster.local svc.cluster.local cluster.local`): a Service resolves
//!   to its `clusterIP`, a headless one to its ready endpoints' addresses, anything else is
//!   NXDOMAIN. busybox up to 1.28 prints `Server:    10.96.0.10`, `Address 1: 10.96.0.10
//!   kube-dns.kube-system.svc.cluster.local`, an empty line, then `Name:      db` /
//!   `Address 1: 10.96.7.21 db.default.svc.cluster.local`, or on stderr
//!   `nslookup: can't resolve 'db'` (exit 1); later busybox prints `Server:\t\t10.96.0.10`,
//!   `Address:\t10.96.0.10:53`, then `Name:\tdb.default.svc.cluster.local` / `Address: …`, or
//!   one `** server can't find <name>.<domain>: NXDOMAIN` per search domain (the real one also
//!   repeats them for the AAAA query; not modelled);
//! - [`Until::Connects`] (a Go client dialling `host:port`): `could not connect to
//!   redis:6379: dial tcp: lookup redis on 10.96.0.10:53: no such host` without a Service,
//!   `… dial tcp 10.96.7.21:6379: connect: connection refused` for a Service without a ready
//!   endpoint (kube-proxy rejects the connection), and `connected to redis:6379` once it has
//!   one.

use std::collections::BTreeMap;

use jiff::SignedDuration;

use super::programs::Plan;

/// The cluster DNS Service's address, as every pod's `/etc/resolv.conf` names it.
pub(crate) const CLUSTER_DNS: &str = "10.96.0.10";

/// What the kubelet model needs to know of a Service to answer a loop's check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServiceView {
    /// `spec.clusterIP`; `None` for a headless Service (`clusterIP: None`).
    pub cluster_ip: Option<String>,
    /// The addresses of its ready endpoints (its EndpointSlices').
    pub ready_addresses: Vec<String>,
}

/// Services by `(namespace, name)`.
pub type Services = BTreeMap<(String, String), ServiceView>;

/// The condition a loop waits for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Until {
    /// `nslookup NAME` succeeds; `old_busybox` selects busybox ≤ 1.28's output.
    Resolves { name: String, old_busybox: bool },
    /// A TCP connection to `host:port` succeeds.
    Connects { host: String, port: u16 },
}

/// A loop a program runs (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Loop {
    /// The first check, counted from the instance's start.
    pub at: SignedDuration,
    /// Between two checks (the loop body's `sleep`, or the client's retry interval).
    pub every: SignedDuration,
    /// What it waits for.
    pub until: Until,
    /// Lines each failed iteration prints after the check's own (the body's `echo`s).
    pub body: Vec<String>,
    /// Lines get the Go log's `YYYY/MM/DD HH:MM:SS ` prefix.
    pub stamped: bool,
    /// While it waits, the readiness probe answers 503 (an application that is not ready
    /// without its dependency).
    pub gates_readiness: bool,
    /// What the program does once the check succeeds, counted from that instant (for a script,
    /// the rest of it after `done`; for an application, nothing: it keeps running).
    pub then: Box<Plan>,
}

/// The namespace a name given to `nslookup` may spell out with the service account's file
/// (the Kubernetes docs' `myservice.$(cat /var/run/secrets/…/namespace).svc.cluster.local`).
const NS_FILE: &str = "$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace)";

/// The addresses `name` resolves to from a pod in `ns`, with the fully qualified name that
/// matched; `None`: NXDOMAIN.
fn resolve(name: &str, ns: &str, services: &Services) -> Option<(String, Vec<String>)> {
    let name = name.replace(NS_FILE, ns);
    let name = name.trim_end_matches('.');
    let candidates = [
        format!("{name}.{ns}.svc.cluster.local"),
        format!("{name}.svc.cluster.local"),
        format!("{name}.cluster.local"),
        name.to_string(),
    ];
    for fqdn in candidates {
        let Some(rest) = fqdn.strip_suffix(".svc.cluster.local") else {
            continue;
        };
        let Some((svc, svc_ns)) = rest.split_once('.') else {
            continue;
        };
        let Some(view) = services.get(&(svc_ns.to_string(), svc.to_string())) else {
            continue;
        };
        let addresses = match &view.cluster_ip {
            Some(ip) => vec![ip.clone()],
            None => view.ready_addresses.clone(),
        };
        if !addresses.is_empty() {
            return Some((fqdn, addresses));
        }
    }
    None
}

/// busybox `nslookup NAME`'s output from a pod in `ns`: `Ok` (exit 0) or `Err` (exit 1).
pub(crate) fn nslookup(
    name: &str,
    old_busybox: bool,
    ns: &str,
    services: &Services,
) -> Result<Vec<String>, Vec<String>> {
    let found = resolve(name, ns, services);
    if old_busybox {
        let mut out = vec![
            format!("Server:    {CLUSTER_DNS}"),
            format!("Address 1: {CLUSTER_DNS} kube-dns.kube-system.svc.cluster.local"),
            String::new(),
        ];
        return match found {
            Some((fqdn, addrs)) => {
                out.push(format!("Name:      {name}"));
                for (n, a) in addrs.iter().enumerate() {
                    out.push(format!("Address {}: {a} {fqdn}", n + 1));
                }
                Ok(out)
            }
            None => {
                out.push(format!("nslookup: can't resolve '{name}'"));
                Err(out)
            }
        };
    }
    let mut out = vec![
        format!("Server:\t\t{CLUSTER_DNS}"),
        format!("Address:\t{CLUSTER_DNS}:53"),
        String::new(),
    ];
    match found {
        Some((fqdn, addrs)) => {
            out.push(format!("Name:\t{fqdn}"));
            out.extend(addrs.iter().map(|a| format!("Address: {a}")));
            out.push(String::new());
            Ok(out)
        }
        None => {
            let name = name.trim_end_matches('.');
            for domain in [
                format!("{ns}.svc.cluster.local"),
                "svc.cluster.local".to_string(),
                "cluster.local".to_string(),
            ] {
                out.push(format!("** server can't find {name}.{domain}: NXDOMAIN"));
                out.push(String::new());
            }
            Err(out)
        }
    }
}

/// One iteration of a loop of a container in namespace `ns`: `Ok(lines)` when the condition
/// holds (what the check printed), `Err(lines)` when it does not (the check's output, then the
/// body's lines).
pub(crate) fn check(l: &Loop, ns: &str, services: &Services) -> Result<Vec<String>, Vec<String>> {
    let failed = match &l.until {
        Until::Resolves { name, old_busybox } => nslookup(name, *old_busybox, ns, services),
        Until::Connects { host, port } => {
            let target = format!("{host}:{port}");
            match resolve(host, ns, services) {
                None => Err(vec![format!(
                    "could not connect to {target}: dial tcp: lookup {host} on {CLUSTER_DNS}:53: no such host"
                )]),
                Some(_) if connectable(host, ns, services) => {
                    Ok(vec![format!("connected to {target}")])
                }
                Some((_, addrs)) => {
                    let ip = addrs.first().cloned().unwrap_or_default();
                    Err(vec![format!(
                        "could not connect to {target}: dial tcp {ip}:{port}: connect: connection refused"
                    )])
                }
            }
        }
    };
    failed.map_err(|mut lines| {
        lines.extend(l.body.iter().cloned());
        lines
    })
}

/// Whether a connection to Service `host` reaches a backend: it has a ready endpoint.
fn connectable(host: &str, ns: &str, services: &Services) -> bool {
    let name = host.split('.').next().unwrap_or(host);
    let svc_ns = host.split('.').nth(1).unwrap_or(ns);
    services
        .get(&(svc_ns.to_string(), name.to_string()))
        .is_some_and(|v| !v.ready_addresses.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn services() -> Services {
        let mut s = Services::new();
        s.insert(
            ("default".into(), "db".into()),
            ServiceView {
                cluster_ip: Some("10.96.7.21".into()),
                ready_addresses: vec![],
            },
        );
        s
    }

    #[test]
    fn busybox_1_28_resolves_a_service_or_cannot() {
        let none = nslookup("db", true, "default", &Services::new()).expect_err("NXDOMAIN");
        assert_eq!(
            none,
            vec![
                "Server:    10.96.0.10",
                "Address 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local",
                "",
                "nslookup: can't resolve 'db'",
            ]
        );
        let ok = nslookup("db", true, "default", &services()).expect("resolves");
        assert_eq!(
            ok[3..],
            [
                "Name:      db",
                "Address 1: 10.96.7.21 db.default.svc.cluster.local"
            ]
        );
        let docs = format!("db.{NS_FILE}.svc.cluster.local");
        assert!(nslookup(&docs, true, "default", &services()).is_ok());
        assert!(nslookup("db", true, "other", &services()).is_err());
        assert!(nslookup("db.default", false, "other", &services()).is_ok());
    }

    #[test]
    fn a_connection_needs_a_ready_endpoint() {
        let l = Loop {
            at: SignedDuration::ZERO,
            every: SignedDuration::from_secs(5),
            until: Until::Connects {
                host: "db".into(),
                port: 5432,
            },
            body: vec![],
            stamped: true,
            gates_readiness: true,
            then: Box::default(),
        };
        let refused = check(&l, "default", &services()).expect_err("no endpoint");
        assert_eq!(
            refused,
            ["could not connect to db:5432: dial tcp 10.96.7.21:5432: connect: connection refused"]
        );
        let missing = check(&l, "default", &Services::new()).expect_err("no Service");
        assert!(missing[0].ends_with("lookup db on 10.96.0.10:53: no such host"));
        let mut up = services();
        if let Some(v) = up.get_mut(&("default".to_string(), "db".to_string())) {
            v.ready_addresses.push("10.244.1.9".into());
        }
        assert_eq!(
            check(&l, "default", &up).expect("connects"),
            ["connected to db:5432"]
        );
    }
}
