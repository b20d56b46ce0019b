//! The decisive lines of the corpus cases written for the application table find their rows;
//! the logs of the cases without an application message match no application row.

use podscope_model::diagnosis::kb::{self, On};

/// `(case log file, row id, group, value)`: the decisive line of each corpus case written for
/// this table is found by its row, with the value worth quoting.
const CASE_LINES: &[(&str, &str, &str, &str)] = &[
    (
        "79-readonly-root-filesystem/logs-previous.txt",
        "app-readonly-fs",
        "path",
        "/tmp/client_temp",
    ),
    (
        "80-volume-permission-denied-nonroot/logs-previous.txt",
        "app-permission-denied",
        "path",
        "/data/pgdata",
    ),
    (
        "81-port-in-use-two-containers/logs/metrics-exporter.previous.txt",
        "app-addr-in-use",
        "addr",
        ":8080",
    ),
    (
        "82-dns-enotfound-service-other-namespace/logs-previous.txt",
        "app-dns-enotfound",
        "host",
        "catalog-mongo",
    ),
    (
        "83-econnrefused-dependency-service/logs-previous.txt",
        "app-refused-node",
        "addr",
        "10.96.12.7:5432",
    ),
    (
        "84-app-crashloop-mesh-proxy-not-ready/logs/sync.previous.txt",
        "app-refused-go",
        "addr",
        "10.96.40.12:5432",
    ),
    (
        "84-app-crashloop-mesh-proxy-not-ready/logs/istio-proxy.current.txt",
        "app-proxy-x509",
        "",
        "",
    ),
    (
        "85-x509-unknown-authority-dependency/logs-previous.txt",
        "app-x509-unknown-authority",
        "",
        "",
    ),
    (
        "87-init-waits-forever-dns/logs-current.txt",
        "app-dns-bad-address",
        "host",
        "wiki-mysql.db.svc.cluster.local",
    ),
    (
        "88-readiness-503-dependency-timeout-in-log/logs-current.txt",
        "app-timeout-go",
        "addr",
        "10.96.88.20:6379",
    ),
    (
        "89-java-trace-caused-by-db-auth/logs-previous.txt",
        "app-auth-postgres",
        "user",
        "orders",
    ),
];

/// Logs of cases whose cause is not in an application message (an OOM kill, a probe): no row
/// of this table may claim one of their lines.
const CASE_LOGS_WITHOUT_APP_ROWS: &[&str] = &[
    "86-oomkilled-sidecar-app-fine/logs/log-shipper.previous.txt",
    "86-oomkilled-sidecar-app-fine/logs/web.current.txt",
    "90-liveness-kills-90s-startup/logs-previous.txt",
    "91-liveness-timeout-cpu-throttled/logs-previous.txt",
    "91-liveness-timeout-cpu-throttled/logs-current.txt",
];

fn case_file(rel: &str) -> String {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_corpus_cases_decisive_lines_find_their_rows() {
    let mut failures = Vec::new();
    for (file, id, group, value) in CASE_LINES {
        let text = case_file(file);
        let found = text
            .lines()
            .filter_map(|l| kb::find(On::Log, l))
            .any(|hit| {
                hit.entry.id == *id
                    && (group.is_empty()
                        || hit.groups.iter().any(|(n, v)| n == group && v == value))
            });
        if !found {
            failures.push(format!(
                "{file}: no line found by {id} with {group} = {value:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_corpus_cases_without_an_app_message_match_no_app_row() {
    for file in CASE_LOGS_WITHOUT_APP_ROWS {
        for line in case_file(file).lines() {
            if let Some(hit) = kb::find(On::Log, line) {
                assert!(
                    !hit.entry.id.starts_with("app-"),
                    "{file}: {line:?} matched {}",
                    hit.entry.id
                );
            }
        }
    }
}
