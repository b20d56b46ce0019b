//! The knowledge base's application table (`crates/model/src/diagnosis/kb/app.rs`): every row
//! compiles, every row is found for a real log line of the form its runtime prints (with the
//! values worth quoting in its named groups), the specific rows win over the general ones, and
//! lines of a healthy application match no row.

use podscope_model::diagnosis::kb::{self, On};

/// One log line, the row that must find it, and named groups it must capture with these values.
type Expect = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// The lines of every row.
const LINES: &[Expect] = &[
    // A token exchange refused for its audience (botocore, AWS IRSA).
    (
        "botocore.errorfactory.InvalidIdentityTokenException: An error occurred (InvalidIdentityToken) when calling the AssumeRoleWithWebIdentity operation: Incorrect token audience",
        "app-token-audience",
        &[],
    ),
    // The mesh proxy's ports.
    (
        r#"panic: failed to reach sidecar: Get "http://127.0.0.1:15021/healthz/ready": dial tcp 127.0.0.1:15021: connect: connection refused"#,
        "app-mesh-proxy-refused",
        &[("addr", "127.0.0.1:15021"), ("port", "15021")],
    ),
    (
        "curl: (7) Failed to connect to localhost port 15000 after 0 ms: Couldn't connect to server",
        "app-mesh-proxy-refused",
        &[("addr", "localhost port 15000"), ("port", "15000")],
    ),
    (
        "Error: connect ECONNREFUSED 127.0.0.1:4191",
        "app-mesh-proxy-econnrefused",
        &[("addr", "127.0.0.1:4191"), ("port", "4191")],
    ),
    (
        "Caused by: io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: localhost/127.0.0.1:15020",
        "app-mesh-proxy-econnrefused",
        &[("addr", "127.0.0.1:15020")],
    ),
    (
        r#"2024-05-02T10:01:02.114Z	warn	ca	ca request failed, starting attempt 1 in 91ms: rpc error: code = Unavailable desc = connection error: desc = "transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority""#,
        "app-proxy-x509",
        &[],
    ),
    // The filesystem.
    (
        r#"2023/08/01 10:00:00 [emerg] 1#1: mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)"#,
        "app-readonly-fs",
        &[("path", "/var/cache/nginx/client_temp")],
    ),
    (
        "mc: <ERROR> Unable to save new mc config. mkdir /tmp/minio: read-only file system.",
        "app-readonly-fs",
        &[("path", "/tmp/minio")],
    ),
    (
        "/config/add-user: line 86: /tmp/accessKey_and_secretKey_tmp: Read-only file system",
        "app-readonly-fs",
        &[("path", "/tmp/accessKey_and_secretKey_tmp")],
    ),
    (
        r#"create cache dir success: Os { code: 30, kind: ReadOnlyFilesystem, message: "Read-only file system" }"#,
        "app-readonly-fs-any",
        &[],
    ),
    (
        "/run.sh: line 23: cannot create temp file for here-document: Read-only file system",
        "app-readonly-fs-any",
        &[],
    ),
    (
        "mkdir: cannot create directory '/bitnami/postgresql/data': Permission denied",
        "app-permission-denied",
        &[("path", "/bitnami/postgresql/data")],
    ),
    (
        "creating data directory: mkdir /cockroach/cockroach-data/auxiliary: permission denied",
        "app-permission-denied",
        &[("path", "/cockroach/cockroach-data/auxiliary")],
    ),
    (
        "java.io.FileNotFoundException: /data/index/segments_1 (Permission denied)",
        "app-permission-denied",
        &[("path", "/data/index/segments_1")],
    ),
    (
        "Error: EACCES: permission denied, mkdir '/data/uploads'",
        "app-permission-denied-quoted",
        &[("path", "/data/uploads")],
    ),
    (
        "PermissionError: [Errno 13] Permission denied: '/var/lib/app/state.db'",
        "app-permission-denied-quoted",
        &[("path", "/var/lib/app/state.db")],
    ),
    (
        "level=fatal msg=\"failed to create fsnotify watcher: too many open files\"",
        "app-inotify-limit",
        &[],
    ),
    (
        "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'",
        "app-inotify-limit",
        &[],
    ),
    (
        "write /var/lib/prometheus/wal/00000012: no space left on device",
        "app-no-space",
        &[("path", "/var/lib/prometheus/wal/00000012")],
    ),
    (
        "2024/01/02 03:04:05 http: Accept error: accept tcp [::]:8080: accept4: too many open files; retrying in 1s",
        "app-too-many-open-files",
        &[],
    ),
    // Ports.
    (
        "listen tcp :8080: bind: address already in use",
        "app-addr-in-use",
        &[("addr", ":8080")],
    ),
    (
        "nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)",
        "app-addr-in-use",
        &[("addr", "0.0.0.0:80")],
    ),
    (
        "Error: listen EADDRINUSE: address already in use :::3000",
        "app-addr-in-use-node",
        &[("addr", ":::3000")],
    ),
    (
        "Caused by: java.net.BindException: Address already in use",
        "app-addr-in-use-any",
        &[],
    ),
    (
        "Web server failed to start. Port 8080 was already in use.",
        "app-addr-in-use-any",
        &[("port", "8080")],
    ),
    (
        "OSError: [Errno 98] Address already in use",
        "app-addr-in-use-any",
        &[],
    ),
    // Names.
    (
        "dial tcp: lookup postgres on 10.96.0.10:53: read udp 10.244.1.7:41234->10.96.0.10:53: i/o timeout",
        "app-dns-timeout",
        &[("host", "postgres"), ("server", "10.96.0.10:53")],
    ),
    (
        "dial tcp: lookup orders-db.shop.svc.cluster.local on 10.96.0.10:53: server misbehaving",
        "app-dns-timeout",
        &[
            ("host", "orders-db.shop.svc.cluster.local"),
            ("err", "server misbehaving"),
        ],
    ),
    (
        "failed to connect: dial tcp: lookup postgres on 10.96.0.10:53: no such host",
        "app-dns-no-such-host",
        &[("host", "postgres"), ("server", "10.96.0.10:53")],
    ),
    (
        "dial tcp: lookup postgres: no such host",
        "app-dns-no-such-host",
        &[("host", "postgres")],
    ),
    (
        "MongooseServerSelectionError: getaddrinfo ENOTFOUND mongo",
        "app-dns-enotfound",
        &[("host", "mongo")],
    ),
    (
        "Error: getaddrinfo EAI_AGAIN redis-master.cache.svc.cluster.local",
        "app-dns-eai-again",
        &[("host", "redis-master.cache.svc.cluster.local")],
    ),
    (
        r#"psql: could not translate host name "pg-0.pg-headless.db.svc.cluster.local" to address: Name or service not known"#,
        "app-dns-libpq",
        &[
            ("host", "pg-0.pg-headless.db.svc.cluster.local"),
            ("err", "Name or service not known"),
        ],
    ),
    (
        "Caused by: java.net.UnknownHostException: kafka-0.kafka-headless: Name or service not known",
        "app-dns-unknown-host-java",
        &[("host", "kafka-0.kafka-headless")],
    ),
    (
        "nc: bad address 'wiki-mysql.db.svc.cluster.local'",
        "app-dns-bad-address",
        &[("host", "wiki-mysql.db.svc.cluster.local")],
    ),
    (
        r#"WARNING: failed to connect to PostgreSQL server, getaddrinfo() failed with error "Temporary failure in name resolution""#,
        "app-dns-gai-again",
        &[],
    ),
    (
        "socket.gaierror: [Errno -2] Name or service not known",
        "app-dns-gai-noname",
        &[],
    ),
    // Refusals.
    (
        "panic: could not update database schema: dial tcp 100.65.158.99:5432: connect: connection refused",
        "app-refused-go",
        &[("addr", "100.65.158.99:5432")],
    ),
    (
        "Error: connect ECONNREFUSED 10.96.12.7:5432",
        "app-refused-node",
        &[("addr", "10.96.12.7:5432")],
    ),
    (
        r#"psql: error: connection to server at "pg.db.svc.cluster.local" (10.1.17.89), port 5432 failed: Connection refused"#,
        "app-refused-libpq",
        &[
            ("host", "pg.db.svc.cluster.local"),
            ("ip", "10.1.17.89"),
            ("port", "5432"),
        ],
    ),
    (
        "Caused by: java.net.ConnectException: Connection refused (Connection refused)",
        "app-refused-java",
        &[],
    ),
    (
        "Caused by: java.net.ConnectException: finishConnect(..) failed: Connection refused",
        "app-refused-java",
        &[],
    ),
    (
        "ConnectionRefusedError: [Errno 111] Connection refused",
        "app-refused",
        &[],
    ),
    (
        "Could not connect to Redis at 10.104.43.101:6379: Connection refused",
        "app-refused",
        &[],
    ),
    // Silence.
    (
        "health check failed: redis: dial tcp 10.96.88.20:6379: i/o timeout",
        "app-timeout-go",
        &[("addr", "10.96.88.20:6379")],
    ),
    (
        "Error: connect ETIMEDOUT 10.0.4.12:3306",
        "app-timeout-node",
        &[("addr", "10.0.4.12:3306")],
    ),
    (
        "Caused by: java.net.SocketTimeoutException: connect timed out",
        "app-timeout",
        &[],
    ),
    // Certificates.
    (
        r#"Get "https://search-es-http.search.svc:9200/": x509: certificate has expired or is not yet valid: current time 2021-04-26T10:18:22Z is after 2021-04-07T03:12:06Z"#,
        "app-x509-expired",
        &[
            ("now", "2021-04-26T10:18:22Z"),
            ("rel", "after"),
            ("bound", "2021-04-07T03:12:06Z"),
        ],
    ),
    (
        "tls: failed to verify certificate: x509: certificate is valid for es-http.search.svc, es-http.search.svc.cluster.local, not search",
        "app-x509-hostname",
        &[
            (
                "valid",
                "es-http.search.svc, es-http.search.svc.cluster.local",
            ),
            ("host", "search"),
        ],
    ),
    (
        r#"level=fatal msg="failed to create oidc provider: Get https://10.200.33.11:31885/.well-known/openid-configuration: x509: certificate signed by unknown authority""#,
        "app-x509-unknown-authority",
        &[],
    ),
    (
        "Error: unable to get local issuer certificate",
        "app-tls-untrusted-issuer",
        &[],
    ),
    (
        "requests.exceptions.SSLError: HTTPSConnectionPool(host='vault.sec.svc', port=8200): Max retries exceeded with url: /v1/sys/health (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self signed certificate in certificate chain (_ssl.c:1129)')))",
        "app-tls-untrusted-issuer",
        &[],
    ),
    (
        "javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target",
        "app-pkix-path",
        &[],
    ),
    ("Error: certificate has expired", "app-cert-expired", &[]),
    // Credentials.
    (
        r#"Caused by: org.postgresql.util.PSQLException: FATAL: password authentication failed for user "orders""#,
        "app-auth-postgres",
        &[("user", "orders")],
    ),
    (
        "ERROR 1045 (28000): Access denied for user 'wiki'@'10.244.2.17' (using password: NO)",
        "app-auth-mysql",
        &[("user", "wiki"), ("host", "10.244.2.17"), ("pw", "NO")],
    ),
    (
        "ReplyError: NOAUTH Authentication required.",
        "app-auth-redis",
        &[("code", "NOAUTH")],
    ),
    (
        "WRONGPASS invalid username-password pair or user is disabled.",
        "app-auth-redis",
        &[("code", "WRONGPASS")],
    ),
    // Memory.
    (
        "[ 8123.441200] Memory cgroup out of memory: Killed process 4121 (java) total-vm:5524436kB, anon-rss:1048576kB",
        "app-kernel-oom",
        &[
            ("scope", "Memory cgroup out of memory"),
            ("pid", "4121"),
            ("comm", "java"),
        ],
    ),
    (
        "Out of memory: Killed process 911 (node) total-vm:1833412kB",
        "app-kernel-oom",
        &[("scope", "Out of memory"), ("pid", "911"), ("comm", "node")],
    ),
    (
        "/entrypoint.sh: line 12:    57 Killed                  java $JAVA_OPTS -jar /app/app.jar",
        "app-shell-killed",
        &[("pid", "57"), ("cmd", "java $JAVA_OPTS -jar /app/app.jar")],
    ),
    (
        "Exception in thread \"main\" java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached",
        "app-jvm-native-thread",
        &[],
    ),
    (
        "Exception in thread \"http-nio-8080-exec-7\" java.lang.OutOfMemoryError: Java heap space",
        "app-jvm-heap",
        &[("kind", "Java heap space")],
    ),
    (
        "java.lang.OutOfMemoryError: GC overhead limit exceeded",
        "app-jvm-heap",
        &[("kind", "GC overhead limit exceeded")],
    ),
    (
        "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
        "app-node-heap",
        &[],
    ),
];

/// Lines of a healthy application, or of one retrying politely, that no row may claim.
const INNOCENT: &[&str] = &[
    "INFO connected to db",
    "retrying connection",
    "INFO  [main] o.s.b.w.e.tomcat.TomcatWebServer : Tomcat started on port(s): 8080 (http)",
    "2024-05-02T10:01:02Z info Envoy proxy is ready",
    "listening on 0.0.0.0:8080",
    "Server listening on 127.0.0.1:15000",
    "GET /healthz 200 1.2ms",
    "level=info msg=\"connection pool warmed up\" size=10",
    "Killed 3 stale sessions",
    "readOnlyRootFilesystem is enabled; writing to /tmp emptyDir",
];

#[test]
fn every_app_row_compiles() {
    let invalid = kb::invalid_rows();
    assert!(invalid.is_empty(), "rows that do not compile: {invalid:#?}");
}

#[test]
fn every_line_finds_its_row_and_groups() {
    let mut failures = Vec::new();
    for (line, id, groups) in LINES {
        let Some(hit) = kb::find(On::Log, line) else {
            failures.push(format!("{id}: no row for {line:?}"));
            continue;
        };
        if hit.entry.id != *id {
            failures.push(format!("{id}: got {} for {line:?}", hit.entry.id));
            continue;
        }
        for (name, value) in *groups {
            let got = hit
                .groups
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str());
            if got != Some(*value) {
                failures.push(format!(
                    "{id}: group {name} = {got:?}, want {value:?} in {line:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_app_row_has_a_line() {
    let missing: Vec<&str> = kb::app::ENTRIES
        .iter()
        .chain(kb::app_network::ENTRIES)
        .map(|e| e.id)
        .filter(|id| !LINES.iter().any(|(_, want, _)| want == id))
        .collect();
    assert!(missing.is_empty(), "rows without a test line: {missing:?}");
}

#[test]
fn app_rows_are_prefixed_unique_and_read_logs() {
    let mut seen = std::collections::HashSet::new();
    for e in kb::app::ENTRIES.iter().chain(kb::app_network::ENTRIES) {
        assert!(e.id.starts_with("app-"), "{}: id prefix", e.id);
        assert!(seen.insert(e.id), "{}: duplicate id", e.id);
        assert!(e.on.contains(&On::Log), "{}: reads log lines", e.id);
        assert!(!e.meaning.is_empty() && !e.action.is_empty() && !e.source.is_empty());
    }
}

#[test]
fn placeholders_name_a_group_or_the_context() {
    const CONTEXT: &[&str] = &["container", "pod", "namespace", "node", "reason"];
    for e in kb::app::ENTRIES.iter().chain(kb::app_network::ENTRIES) {
        for text in [e.meaning, e.action] {
            let mut rest = text;
            while let Some(open) = rest.find('{') {
                let after = &rest[open + 1..];
                let close = after.find('}').expect("a closing brace");
                let key = &after[..close];
                rest = &after[close + 1..];
                // `{ "holdApplicationUntilProxyStarts": true }` is JSON, not a placeholder.
                if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    continue;
                }
                let in_pattern = e.pattern.contains(&format!("(?P<{key}>"));
                assert!(
                    in_pattern || CONTEXT.contains(&key),
                    "{}: placeholder {{{key}}} names no group",
                    e.id
                );
            }
        }
    }
}

#[test]
fn innocent_lines_match_no_row() {
    for line in INNOCENT {
        let hit = kb::find(On::Log, line);
        assert!(
            hit.is_none(),
            "{line:?} matched {:?}",
            hit.map(|h| h.entry.id)
        );
    }
}

#[test]
fn a_termination_message_of_an_error_exit_is_read() {
    let hit = kb::find(
        On::Terminated("Error"),
        "Error: connect ECONNREFUSED 10.96.12.7:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
    )
    .expect("a row");
    assert_eq!(hit.entry.id, "app-refused-node");
}

#[test]
fn the_decisive_line_of_a_java_trace_is_found_among_frames() {
    // The trace's last lines are frames; the row is found on the `Caused by:` line it quotes.
    let trace = [
        "org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'entityManagerFactory'",
        "\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.initializeBean(AbstractAutowireCapableBeanFactory.java:1786)",
        "Caused by: org.postgresql.util.PSQLException: FATAL: password authentication failed for user \"orders\"",
        "\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:693)",
        "\t... 42 common frames omitted",
    ];
    let hits: Vec<&str> = trace
        .iter()
        .filter_map(|l| kb::find(On::Log, l))
        .map(|h| h.entry.id)
        .collect();
    assert_eq!(hits, ["app-auth-postgres"]);
}

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
