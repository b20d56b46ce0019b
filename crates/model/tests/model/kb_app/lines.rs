//! Log lines of the forms the runtimes and libraries print (the mesh proxy, the filesystem,
//! ports, names, refusals, silence, certificates, credentials, memory), each with the
//! application row it must meet.

use super::Expect;

/// The lines of every row.
pub(super) const LINES: &[Expect] = &[
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
