//! Messages of image pulls (the kubelet, containerd/CRI-O, registries), each with the registry
//! row it must meet.

use super::{FAILED, PULL};

use super::Case;

pub(super) const MESSAGES: &[Case] = &[
    (
        FAILED,
        r#"Failed to pull image "foundationdb/fdb-kubernetes-operator:v2.6.0": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/foundationdb/fdb-kubernetes-operator:v2.6.0": no match for platform in manifest: not found"#,
        "registry-platform-mismatch",
        &[("image", "foundationdb/fdb-kubernetes-operator:v2.6.0")],
    ),
    (
        FAILED,
        r#"Failed to pull image "registry.example/app:1": rpc error: code = Unknown desc = Error response from daemon: no matching manifest for linux/arm64/v8 in the manifest list entries"#,
        "registry-platform-mismatch",
        &[("platform", "linux/arm64/v8")],
    ),
    (
        PULL,
        r#"initializing source docker://registry.example/app:1: choosing an image from manifest list docker://registry.example/app:1: no image found in image index for architecture "arm64", variant "v8", OS "linux""#,
        "registry-platform-mismatch",
        &[("arch", "arm64")],
    ),
    (
        FAILED,
        r#"Failed to pull image "democraticcsi/democratic-csi:latest": rpc error: code = Unknown desc = Error reading manifest latest in docker.io/democraticcsi/democratic-csi: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit"#,
        "registry-rate-limit",
        &[("image", "democraticcsi/democratic-csi:latest")],
    ),
    (
        PULL,
        "toomanyrequests: You have reached your unauthenticated pull rate limit. https://www.docker.com/increase-rate-limit",
        "registry-rate-limit",
        &[],
    ),
    (
        FAILED,
        r#"Failed to pull image "repo.intranet.example/base-images/centos:7": rpc error: code = Unknown desc = failed to pull and unpack image "repo.intranet.example/base-images/centos:7": failed to resolve reference "repo.intranet.example/base-images/centos:7": failed to do request: Head "https://repo.intranet.example/v2/base-images/centos/manifests/7": x509: certificate signed by unknown authority"#,
        "registry-tls-unknown-authority",
        &[
            ("image", "repo.intranet.example/base-images/centos:7"),
            ("host", "repo.intranet.example"),
        ],
    ),
    (
        PULL,
        r#"Error response from daemon: Get https://registry.10.0.0.9.nip.io/v1/_ping: x509: certificate signed by unknown authority"#,
        "registry-tls-unknown-authority",
        &[("host", "registry.10.0.0.9.nip.io")],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "registry.example/app:1": failed to resolve reference "registry.example/app:1": failed to do request: Head "https://registry.example/v2/app/manifests/1": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2025-01-10T08:00:01Z is after 2025-01-09T23:59:59Z"#,
        "registry-tls-expired",
        &[
            ("now", "2025-01-10T08:00:01Z"),
            ("bound", "2025-01-09T23:59:59Z"),
        ],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "10.0.0.9:5000/app:1": failed to resolve reference "10.0.0.9:5000/app:1": failed to do request: Head "https://10.0.0.9:5000/v2/app/manifests/1": tls: failed to verify certificate: x509: cannot validate certificate for 10.0.0.9 because it doesn't contain any IP SANs"#,
        "registry-tls-hostname",
        &[("ip", "10.0.0.9")],
    ),
    (
        PULL,
        r#"failed to do request: Head "https://reg.example/v2/app/manifests/1": tls: failed to verify certificate: x509: certificate is valid for *.other.example, other.example, not reg.example"#,
        "registry-tls-hostname",
        &[
            ("names", "*.other.example, other.example"),
            ("host", "reg.example"),
        ],
    ),
    (
        FAILED,
        r#"Failed to pull image "192.168.8.204:5000/web:2": failed to pull and unpack image "192.168.8.204:5000/web:2": failed to resolve reference "192.168.8.204:5000/web:2": failed to do request: Head "https://192.168.8.204:5000/v2/web/manifests/2": http: server gave HTTP response to HTTPS client"#,
        "registry-http-to-https",
        &[("image", "192.168.8.204:5000/web:2")],
    ),
    (
        FAILED,
        r#"Failed to pull image "tinkerbell/operator:v0.1.0": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/tinkerbell/operator:v0.1.0": failed to resolve reference "docker.io/tinkerbell/operator:v0.1.0": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed"#,
        "registry-access-denied",
        &[("image", "tinkerbell/operator:v0.1.0")],
    ),
    (
        FAILED,
        r#"Failed to pull image "rmeuser-auth:latest": rpc error: code = Unknown desc = Error response from daemon: pull access denied for rmeuser-auth, repository does not exist or may require 'docker login'"#,
        "registry-access-denied",
        &[("repo", "rmeuser-auth")],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "registry.example/app:1": failed to resolve reference "registry.example/app:1": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://registry.example/token?scope=repository%3Aapp%3Apull&service=registry.example: 401 "#,
        "registry-unauthorized",
        &[("image", "registry.example/app:1")],
    ),
    (
        FAILED,
        r#"Failed to pull image "octarinesec/guardrails-enforcer:20.7": rpc error: code = Unknown desc = Error response from daemon: unauthorized: authentication required"#,
        "registry-unauthorized",
        &[],
    ),
    (
        PULL,
        r#"rpc error: code = Unknown desc = reading manifest 1.2 in quay.example/team/app: unauthorized: access to the requested resource is not authorized"#,
        "registry-unauthorized",
        &[],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "123456789012.dkr.ecr.eu-west-1.amazonaws.com/app:1": failed to resolve reference "123456789012.dkr.ecr.eu-west-1.amazonaws.com/app:1": pulling from host 123456789012.dkr.ecr.eu-west-1.amazonaws.com failed with status code [manifests 1]: 403 Forbidden"#,
        "registry-forbidden",
        &[],
    ),
    (
        FAILED,
        r#"Failed to pull image "hackinglab/private:1": rpc error: code = Unknown desc = Error response from daemon: denied: requested access to the resource is denied"#,
        "registry-forbidden",
        &[],
    ),
    (
        FAILED,
        r#"Failed to pull image "docker-registry.default.svc:5000/openshift/jenkins@sha256:a33d": rpc error: code = 2 desc = Get https://docker-registry.default.svc:5000/v2/: dial tcp: lookup docker-registry.default.svc on 10.224.20.20:53: no such host"#,
        "registry-dns-no-such-host",
        &[
            ("host", "docker-registry.default.svc"),
            ("resolver", "10.224.20.20"),
        ],
    ),
    (
        PULL,
        r#"Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io on 127.0.0.53:53: server misbehaving"#,
        "registry-dns-failure",
        &[("host", "registry-1.docker.io"), ("resolver", "127.0.0.53")],
    ),
    (
        FAILED,
        r#"Failed to pull image "k8s.gcr.io/echoserver:1.4": rpc error: code = Unknown desc = Error response from daemon: Get https://k8s.gcr.io/v2/: dial tcp: lookup k8s.gcr.io on 192.168.49.1:53: read udp 192.168.49.2:48049->192.168.49.1:53: i/o timeout"#,
        "registry-dns-failure",
        &[("host", "k8s.gcr.io")],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "docker.io/library/busybox:1.36": failed to resolve reference "docker.io/library/busybox:1.36": failed to do request: Head "https://registry-1.docker.io/v2/library/busybox/manifests/1.36": proxyconnect tcp: dial tcp 10.1.0.5:3128: connect: connection refused"#,
        "registry-proxy-unreachable",
        &[
            ("addr", "10.1.0.5:3128"),
            ("error", "connect: connection refused"),
        ],
    ),
    (
        FAILED,
        r#"Failed to pull image "localhost:5000/nginx-my:latest": rpc error: code = Unknown desc = Error response from daemon: Get http://localhost:5000/v2/: dial tcp 127.0.0.1:5000: connect: connection refused"#,
        "registry-connection-refused",
        &[
            ("addr", "127.0.0.1:5000"),
            ("image", "localhost:5000/nginx-my:latest"),
        ],
    ),
    (
        FAILED,
        r#"Failed to pull image "registry.example/app:1": failed to pull and unpack image "registry.example/app:1": failed to resolve reference "registry.example/app:1": failed to do request: Head "https://registry.example/v2/app/manifests/1": dial tcp 172.30.1.1:443: connect: no route to host"#,
        "registry-no-route",
        &[("addr", "172.30.1.1:443")],
    ),
    (
        FAILED,
        r#"Failed to pull image "msoap/shell2http:1.16.0": failed to pull and unpack image "docker.io/msoap/shell2http:1.16.0": failed to resolve reference "docker.io/msoap/shell2http:1.16.0": failed to do request: Head "https://registry-1.docker.io/v2/msoap/shell2http/manifests/1.16.0": dial tcp 199.96.61.1:443: connect: connection timed out"#,
        "registry-network-timeout",
        &[
            ("addr", "199.96.61.1:443"),
            ("image", "msoap/shell2http:1.16.0"),
        ],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "docker.io/library/nginx:latest": failed to resolve reference "docker.io/library/nginx:latest": failed to authorize: failed to fetch anonymous token: Get "https://auth.docker.io/token?scope=repository%3Alibrary%2Fnginx%3Apull&service=registry.docker.io": dial tcp 199.59.148.222:443: i/o timeout"#,
        "registry-network-timeout",
        &[("addr", "199.59.148.222:443")],
    ),
    (
        PULL,
        r#"Error response from daemon: Get "https://registry-1.docker.io/v2/": net/http: TLS handshake timeout"#,
        "registry-network-timeout",
        &[],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "registry.example/app:1": failed to resolve reference "registry.example/app:1": pulling from host registry.example failed with status code [manifests 1]: 503 Service Unavailable"#,
        "registry-server-error",
        &[("status", "503")],
    ),
    (
        FAILED,
        r#"Failed to pull image "private_registry.example/csg/idrac_to_kafka:20250429T0012": rpc error: code = Canceled desc = failed to pull and unpack image "private_registry.example/csg/idrac_to_kafka:20250429T0012": context canceled"#,
        "registry-pull-canceled",
        &[(
            "image",
            "private_registry.example/csg/idrac_to_kafka:20250429T0012",
        )],
    ),
    (
        FAILED,
        r#"Failed to pull image "noyandocker/authservice": rpc error: code = Unknown desc = context deadline exceeded"#,
        "registry-pull-deadline",
        &[("image", "noyandocker/authservice")],
    ),
    (
        PULL,
        "context deadline exceeded",
        "registry-pull-deadline",
        &[],
    ),
    (
        PULL,
        "rpc error: code = DeadlineExceeded desc = context deadline exceeded",
        "registry-pull-deadline",
        &[],
    ),
    (
        FAILED,
        r#"Failed to pull image "drainnode/leader:v1.0-rc9": rpc error: code = Unknown desc = Error response from daemon: manifest for drainnode/leader:v1.0-rc9 not found: manifest unknown: manifest unknown"#,
        "registry-not-found",
        &[("manifest", "drainnode/leader:v1.0-rc9")],
    ),
    (
        PULL,
        r#"rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/drain/leader:v1.0-rc9": failed to resolve reference "registry.example/drain/leader:v1.0-rc9": registry.example/drain/leader:v1.0-rc9: not found"#,
        "registry-not-found",
        &[("ref", "registry.example/drain/leader:v1.0-rc9")],
    ),
    (
        PULL,
        "rpc error: code = Unknown desc = reading manifest v9 in quay.example/team/app: manifest unknown: manifest unknown",
        "registry-not-found",
        &[],
    ),
];
