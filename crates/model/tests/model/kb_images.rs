//! The knowledge base's loader, registry and runtime tables (`crates/model/src/diagnosis/kb/`): every
//! row compiles, every row is found for a real message of the component that says it (with the
//! values worth quoting in its named groups), the specific rows win over the general ones, and
//! the corpus cases 40–52 (and the older image and start cases) meet the row their mechanism
//! names, read from their own pod.json / events.json / logs.

use std::path::Path;

use podscope_model::diagnosis::kb::{self, On, loader, registry, runtime};

/// `(where the text is read, text, row id, named groups that must be captured with these values)`.
type Case = (
    On<'static>,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const FAILED: On<'static> = On::Event("Failed");
const PULL: On<'static> = On::Waiting("ErrImagePull");

const MESSAGES: &[Case] = &[
    // ---------------------------------------------------------------- loader
    (
        On::Log,
        "exec /manager: exec format error",
        "loader-exec-format",
        &[("path", "/manager")],
    ),
    (
        On::Log,
        "exec /usr/local/bin/docker-entrypoint.sh: exec format error",
        "loader-exec-format",
        &[("path", "/usr/local/bin/docker-entrypoint.sh")],
    ),
    (
        On::Log,
        "standard_init_linux.go:211: exec user process caused \"exec format error\"",
        "loader-exec-format-legacy",
        &[],
    ),
    (
        On::Log,
        "standard_init_linux.go:228: exec user process caused: exec format error",
        "loader-exec-format-legacy",
        &[],
    ),
    (
        On::Log,
        "/docker-entrypoint.sh: line 12: /app/server: cannot execute binary file: Exec format error",
        "loader-exec-format-legacy",
        &[],
    ),
    (
        On::Waiting("RunContainerError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "./user": stat ./user: no such file or directory: unknown"#,
        "loader-entrypoint-missing",
        &[("path", "./user"), ("stat", "./user")],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "/manager": stat /manager: no such file or directory: unknown"#,
        "loader-entrypoint-missing",
        &[("path", "/manager")],
    ),
    (
        On::Log,
        "exec /docker-entrypoint.sh: no such file or directory",
        "loader-interpreter-missing",
        &[("path", "/docker-entrypoint.sh")],
    ),
    (
        On::Log,
        "standard_init_linux.go:228: exec user process caused: no such file or directory",
        "loader-interpreter-missing-legacy",
        &[],
    ),
    (
        On::Log,
        r#"standard_init_linux.go:195: exec user process caused "no such file or directory""#,
        "loader-interpreter-missing-legacy",
        &[],
    ),
    (
        FAILED,
        r#"Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "/opt/bridge/run.sh": permission denied: unknown"#,
        "loader-permission-denied",
        &[("path", "/opt/bridge/run.sh")],
    ),
    (
        On::Terminated("ContainerCannotRun"),
        r#"OCI runtime create failed: container_linux.go:349: starting container process caused "exec: \"/usr/bin/docker-entrypoint.sh\": permission denied": unknown"#,
        "loader-permission-denied",
        &[("path", "/usr/bin/docker-entrypoint.sh")],
    ),
    (
        On::Terminated("StartError"),
        r#"OCI runtime create failed: runc create failed: unable to start container process: exec: "./run.sh": permission denied: unknown"#,
        "loader-permission-denied",
        &[("path", "./run.sh")],
    ),
    (
        On::Log,
        "exec /shared/bin/agent: text file busy",
        "loader-text-file-busy",
        &[("path", "/shared/bin/agent")],
    ),
    (
        On::Log,
        "exec /usr/local/bin/java: argument list too long",
        "loader-arg-list-too-long",
        &[("path", "/usr/local/bin/java")],
    ),
    // ---------------------------------------------------------------- registry
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
    // ---------------------------------------------------------------- runtime
    (
        On::Waiting("CreateContainerError"),
        r#"failed to reserve container name "homebridge_homebridge-59788f6597-hmhm5_homebridge_5741ca94-e5bb-429e-a4dc-9aaf8fc7ec0a_1": name "homebridge_homebridge-59788f6597-hmhm5_homebridge_5741ca94-e5bb-429e-a4dc-9aaf8fc7ec0a_1" is reserved for "4ef2837e74c3b6c5d39ba120cdb6082de84a470b1da2845416e6690b04cb6f6c""#,
        "runtime-name-reserved",
        &[
            (
                "name",
                "homebridge_homebridge-59788f6597-hmhm5_homebridge_5741ca94-e5bb-429e-a4dc-9aaf8fc7ec0a_1",
            ),
            (
                "holder",
                "4ef2837e74c3b6c5d39ba120cdb6082de84a470b1da2845416e6690b04cb6f6c",
            ),
        ],
    ),
    (
        FAILED,
        "Error: Kubelet may be retrying requests that are timing out in CRI-O due to system load: context deadline exceeded: error reserving ctr name k8s_assisted-service_assisted-service-7795d8f895-x6tpx_open-cluster-management_c560ebd2-f6b4-4d58-9dce-50b57d1c5f93_2 for id ebb5ae1ea296d5bb7d7ca45295cbcb541a4f50c10b1d9c2a90fc1baf0b6c3814: name is reserved",
        "runtime-name-reserved-crio",
        &[
            (
                "name",
                "k8s_assisted-service_assisted-service-7795d8f895-x6tpx_open-cluster-management_c560ebd2-f6b4-4d58-9dce-50b57d1c5f93_2",
            ),
            (
                "holder",
                "ebb5ae1ea296d5bb7d7ca45295cbcb541a4f50c10b1d9c2a90fc1baf0b6c3814",
            ),
        ],
    ),
    (
        FAILED,
        "Error: context deadline exceeded",
        "runtime-request-timeout",
        &[],
    ),
    (
        On::Waiting("CreateContainerError"),
        "context deadline exceeded",
        "runtime-request-timeout",
        &[],
    ),
    (
        FAILED,
        r#"Error: container has runAsNonRoot and image will run as root (pod: "grafana-tempo-0_grafana(ee923a76-6eb3-4c7b-b2e0-597aef6d24c5)", container: tempo-query)"#,
        "runtime-run-as-non-root-root-image",
        &[
            (
                "pod_ref",
                "grafana-tempo-0_grafana(ee923a76-6eb3-4c7b-b2e0-597aef6d24c5)",
            ),
            ("name", "tempo-query"),
        ],
    ),
    (
        On::Waiting("CreateContainerConfigError"),
        "container has runAsNonRoot and image will run as root",
        "runtime-run-as-non-root-root-image",
        &[],
    ),
    (
        FAILED,
        "Error: container has runAsNonRoot and image has non-numeric user (node), cannot verify user is non-root",
        "runtime-run-as-non-root-non-numeric",
        &[("user", "node")],
    ),
    (
        On::Waiting("CreateContainerConfigError"),
        r#"container's runAsUser breaks non-root policy (pod: "ditto-gateway-74586fcb58-89h22_default(0d6f0ad1-2c3e-4f5a-9b1d-7e8f9a0b1c2d)", container: ditto-init)"#,
        "runtime-run-as-user-root",
        &[],
    ),
    (
        FAILED,
        r#"Error: failed to create containerd container: cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/unshare.json": open /var/lib/kubelet/seccomp/profiles/unshare.json: no such file or directory"#,
        "runtime-seccomp-profile-missing",
        &[("profile", "/var/lib/kubelet/seccomp/profiles/unshare.json")],
    ),
    (
        On::Waiting("CreateContainerError"),
        r#"failed to generate security options for container "test-container": failed to generate seccomp security options for container: cannot load seccomp profile "/var/lib/kubelet/seccomp/operator/profiles/audit.json": open /var/lib/kubelet/seccomp/operator/profiles/audit.json: no such file or directory"#,
        "runtime-seccomp-profile-missing",
        &[(
            "profile",
            "/var/lib/kubelet/seccomp/operator/profiles/audit.json",
        )],
    ),
    (
        FAILED,
        "Error: failed to get container spec opts: failed to generate apparmor spec opts: apparmor profile not found k8s-apparmor-example-allow-write",
        "runtime-apparmor-profile-missing",
        &[("profile", "k8s-apparmor-example-allow-write")],
    ),
    (
        On::Status("AppArmor"),
        r#"Cannot enforce AppArmor: profile "k8s-apparmor-example-deny-write" is not loaded"#,
        "runtime-apparmor-profile-missing",
        &[("unloaded", "k8s-apparmor-example-deny-write")],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "podsync/config.toml" to rootfs at "/app/config.toml": mount src=podsync/config.toml, dst=/app/config.toml, dstFd=/proc/thread-self/fd/8, flags=MS_BIND|MS_REC: not a directory: unknown"#,
        "runtime-mount-not-a-directory",
        &[
            ("source", "podsync/config.toml"),
            ("target", "/app/config.toml"),
        ],
    ),
    (
        FAILED,
        r#"Error: failed to start container "flannel": Error response from daemon: OCI runtime create failed: container_linux.go:296: starting container process caused "process_linux.go:398: container init caused \"rootfs_linux.go:58: mounting \\\"/var/lib/kubelet/pods/d1d4/volume-subpaths/flannel-net-conf/kube-flannel/2\\\" to rootfs \\\"/var/lib/docker/overlay2/9a9b/merged\\\" at \\\"/var/lib/docker/overlay2/9a9b/merged/etc/kube-flannel/net-conf.json\\\" caused \\\"not a directory\\\"\"": unknown: Are you trying to mount a directory onto a file (or vice-versa)? Check if the specified host path exists and is the expected type"#,
        "runtime-mount-not-a-directory",
        &[
            (
                "source",
                "/var/lib/kubelet/pods/d1d4/volume-subpaths/flannel-net-conf/kube-flannel/2",
            ),
            (
                "target",
                "/var/lib/docker/overlay2/9a9b/merged/etc/kube-flannel/net-conf.json",
            ),
        ],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "/data/exports/app" to rootfs at "/srv/app": mount src=/data/exports/app, dst=/srv/app, dstFd=/proc/thread-self/fd/8, flags=MS_BIND|MS_REC: no such file or directory: unknown"#,
        "runtime-mount-source-missing",
        &[("source", "/data/exports/app"), ("target", "/srv/app")],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: chdir to cwd ("/workspace") set in config.json failed: permission denied: unknown"#,
        "runtime-chdir-cwd",
        &[("dir", "/workspace"), ("error", "permission denied")],
    ),
    (
        FAILED,
        r#"Error: failed to create containerd task: failed to create shim task: failed to start shim: failed to resolve runtime path: exec: "containerd-shim-runsc-v1": executable file not found in $PATH: unknown"#,
        "runtime-shim-missing",
        &[("shim", "containerd-shim-runsc-v1")],
    ),
    (
        On::Waiting("RunContainerError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "edge-agnet": executable file not found in $PATH: unknown"#,
        "runtime-exec-not-found",
        &[("cmd", "edge-agnet")],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "registry.example/ml/big:1": failed to extract layer sha256:3f1c: write /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/812/fs/opt/model.bin: no space left on device: unknown"#,
        "runtime-no-space",
        &[(
            "path",
            "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/812/fs/opt/model.bin",
        )],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: unable to apply cgroup configuration: unable to start unit "cri-containerd-5f1e.scope" (properties [...]): Interactive authentication required.: unknown"#,
        "runtime-cgroup",
        &[],
    ),
    (
        On::Terminated("StartError"),
        r#"OCI runtime create failed: runc create failed: unable to start container process: error during container init: error setting cgroup config for procHooks process: failed to write "max 100000": write /sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/cpu.max: invalid argument: unknown"#,
        "runtime-cgroup",
        &[
            ("value", "max 100000"),
            (
                "file",
                "/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/cpu.max",
            ),
        ],
    ),
    (
        FAILED,
        "Error: failed to create containerd task: failed to create shim task: failed to mount rootfs component: mount /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/99/fs: device or resource busy: unknown",
        "runtime-device-busy",
        &[(
            "path",
            "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/99/fs",
        )],
    ),
    (
        On::Terminated("StartError"),
        "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: read init-p: connection reset by peer: unknown",
        "runtime-oci-failed",
        &[("op", "create")],
    ),
];

fn groups_of(hit: &kb::Hit) -> String {
    hit.groups
        .iter()
        .map(|(k, v)| format!("{k}={v:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn check(on: On<'_>, text: &str, id: &str, groups: &[(&str, &str)]) {
    let hit = kb::find(on, text).unwrap_or_else(|| panic!("no row for {on:?} {text:?}, want {id}"));
    assert_eq!(
        hit.entry.id,
        id,
        "{on:?} {text:?} (groups: {})",
        groups_of(&hit)
    );
    for (name, value) in groups {
        let got = hit
            .groups
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str());
        assert_eq!(
            got,
            Some(*value),
            "{id}: group {name} of {text:?} (groups: {})",
            groups_of(&hit)
        );
    }
}

#[test]
fn every_row_compiles() {
    assert!(kb::invalid_rows().is_empty(), "{:?}", kb::invalid_rows());
}

#[test]
fn every_message_meets_its_row_with_its_values() {
    for (on, text, id, groups) in MESSAGES {
        check(*on, text, id, groups);
    }
}

#[test]
fn every_row_of_the_three_tables_is_exercised() {
    let tested: Vec<&str> = MESSAGES.iter().map(|(_, _, id, _)| *id).collect();
    for table in [loader::ENTRIES, registry::ENTRIES, runtime::ENTRIES] {
        for e in table {
            assert!(
                tested.contains(&e.id),
                "row {} has no message in crates/model/tests/model/kb_images.rs",
                e.id
            );
        }
    }
}

#[test]
fn ids_are_unique_and_carry_their_table() {
    let mut seen = std::collections::BTreeSet::new();
    for (prefix, table) in [
        ("loader-", loader::ENTRIES),
        ("registry-", registry::ENTRIES),
        ("runtime-", runtime::ENTRIES),
    ] {
        for e in table {
            assert!(e.id.starts_with(prefix), "{} in the {prefix} table", e.id);
            assert!(seen.insert(e.id), "duplicate id {}", e.id);
            assert!(!e.on.is_empty() && !e.source.is_empty(), "{}", e.id);
        }
    }
}

#[test]
fn placeholders_in_meanings_and_actions_are_always_filled() {
    // A meaning or action may only name groups its pattern always captures, or the caller's
    // context; an optional group left unmatched would print `{name}` literally.
    let context = ["container", "pod", "namespace", "node", "reason"];
    for (on, text, id, _) in MESSAGES {
        let hit = kb::find(*on, text).expect("found");
        assert_eq!(hit.entry.id, *id);
        let ctx: Vec<(&str, &str)> = context.iter().map(|c| (*c, "X")).collect();
        for filled in [hit.meaning(&ctx), hit.action(&ctx)] {
            let open = filled.find('{');
            let unfilled = open.and_then(|i| {
                filled[i + 1..]
                    .find('}')
                    .map(|j| &filled[i + 1..i + 1 + j])
                    .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            });
            assert!(
                unfilled.is_none(),
                "{id}: unfilled {{{}}} in {filled:?}",
                unfilled.unwrap_or("")
            );
        }
    }
}

#[test]
fn the_specific_rows_win() {
    // The platform miss carries code NotFound and ends in "not found": not a missing tag.
    check(
        PULL,
        r#"rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/payments/ledger:4.1.0": no match for platform in manifest: not found"#,
        "registry-platform-mismatch",
        &[],
    );
    // A token request that times out is the network, not credentials.
    check(
        PULL,
        r#"failed to authorize: failed to fetch anonymous token: Get "https://auth.registry.example/token": dial tcp 10.9.9.9:443: i/o timeout"#,
        "registry-network-timeout",
        &[("addr", "10.9.9.9:443")],
    );
    // The kubelet's create timeout is not a pull timeout.
    check(
        FAILED,
        "Error: context deadline exceeded",
        "runtime-request-timeout",
        &[],
    );
    // The shim is missing, not the pod's command.
    check(
        FAILED,
        r#"Error: failed to create containerd task: failed to create shim task: failed to start shim: exec: "containerd-shim-runc-v2": executable file not found in $PATH: unknown"#,
        "runtime-shim-missing",
        &[],
    );
    // A Go program's own subprocess failure is the application's business, not the entrypoint's.
    let app = kb::find(On::Log, "fork/exec /usr/bin/helper: exec format error");
    assert!(
        app.as_ref()
            .is_none_or(|h| !h.entry.id.starts_with("loader-")),
        "{:?}",
        app.map(|h| h.entry.id)
    );
    // An OCI error whose cause has a row is read by that row, not the generic one.
    check(
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "/app/run": stat /app/run: no such file or directory: unknown"#,
        "loader-entrypoint-missing",
        &[("path", "/app/run")],
    );
}

#[test]
fn healthy_pull_and_start_messages_match_no_row_of_these_tables() {
    let quiet: &[(On<'static>, &str)] = &[
        (
            On::Event("Pulling"),
            r#"Pulling image "registry.example/app:1""#,
        ),
        (
            On::Event("Pulled"),
            r#"Successfully pulled image "registry.example/app:1" in 2.481s (2.481s including waiting). Image size: 48213760 bytes."#,
        ),
        (On::Event("Failed"), "Error: ErrImagePull"),
        (On::Event("Failed"), "Error: ImagePullBackOff"),
        (
            On::Waiting("ImagePullBackOff"),
            r#"Back-off pulling image "registry.example/app:1""#,
        ),
        (On::Event("Created"), "Created container: web"),
        (On::Log, "starting server on :8080"),
    ];
    for (on, text) in quiet {
        if let Some(hit) = kb::find(*on, text) {
            let id = hit.entry.id;
            assert!(
                !(id.starts_with("loader-")
                    || id.starts_with("registry-")
                    || id.starts_with("runtime-")),
                "{text:?} matched {id}"
            );
        }
    }
}

// ---------------------------------------------------------------- the corpus

fn case_dir(id: &str) -> std::path::PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(id)
}

fn json(id: &str, file: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(case_dir(id).join(file))
        .unwrap_or_else(|e| panic!("{id}/{file}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{id}/{file}: {e}"))
}

/// Every fact of a case as `(on, text)`: container waiting/terminated messages (init and main),
/// event messages, the pod's status message, log lines.
fn facts(id: &str) -> Vec<(On<'static>, String)> {
    let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
    let mut out = Vec::new();
    let pod = json(id, "pod.json");
    for key in ["initContainerStatuses", "containerStatuses"] {
        for c in pod["status"][key].as_array().into_iter().flatten() {
            for state in [&c["state"], &c["lastState"]] {
                if let Some(w) = state.get("waiting")
                    && let Some(m) = w["message"].as_str()
                {
                    out.push((
                        On::Waiting(leak(w["reason"].as_str().unwrap_or(""))),
                        m.to_owned(),
                    ));
                }
                if let Some(t) = state.get("terminated")
                    && let Some(m) = t["message"].as_str()
                {
                    out.push((
                        On::Terminated(leak(t["reason"].as_str().unwrap_or(""))),
                        m.to_owned(),
                    ));
                }
            }
        }
    }
    if let Some(m) = pod["status"]["message"].as_str() {
        out.push((
            On::Status(leak(pod["status"]["reason"].as_str().unwrap_or(""))),
            m.to_owned(),
        ));
    }
    for e in json(id, "events.json")["items"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if let (Some(r), Some(m)) = (e["reason"].as_str(), e["message"].as_str()) {
            out.push((On::Event(leak(r)), m.to_owned()));
        }
    }
    let mut logs: Vec<std::path::PathBuf> = ["logs-previous.txt", "logs-current.txt"]
        .iter()
        .map(|f| case_dir(id).join(f))
        .collect();
    if let Ok(dir) = std::fs::read_dir(case_dir(id).join("logs")) {
        logs.extend(dir.flatten().map(|e| e.path()));
    }
    for path in logs {
        if let Ok(text) = std::fs::read_to_string(&path) {
            out.extend(text.lines().map(|l| (On::Log, l.to_owned())));
        }
    }
    out
}

/// `(case, row id its mechanism names, a group value the row must quote)`.
const CORPUS: &[(&str, &str, (&str, &str))] = &[
    (
        "40-imagepull-unauthorized-pull-secret-missing",
        "registry-unauthorized",
        (
            "image",
            "harbor.registry.example/billing/invoice-api:2.14.0",
        ),
    ),
    (
        "41-imagepull-rate-limit-toomanyrequests",
        "registry-rate-limit",
        ("image", "redis:6.2.1-alpine"),
    ),
    (
        "42-imagepull-x509-unknown-authority",
        "registry-tls-unknown-authority",
        ("host", "registry.example:5443"),
    ),
    (
        "43-imagepull-dns-cluster-service-name",
        "registry-dns-no-such-host",
        ("resolver", "127.0.0.53"),
    ),
    (
        "44-imagepull-no-match-for-platform",
        "registry-platform-mismatch",
        ("image", "registry.example/payments/ledger:4.1.0"),
    ),
    (
        "45-imagepull-blob-host-io-timeout",
        "registry-network-timeout",
        ("addr", "198.51.100.37:443"),
    ),
    (
        "46-crashloop-exec-format-error-arch",
        "loader-exec-format",
        ("path", "/manager"),
    ),
    (
        "47-crashloop-entrypoint-crlf-no-such-file",
        "loader-interpreter-missing",
        ("path", "/docker-entrypoint.sh"),
    ),
    (
        "48-crashloop-starterror-entrypoint-permission-denied",
        "loader-permission-denied",
        ("path", "/opt/bridge/run.sh"),
    ),
    (
        "49-createcontainerconfigerror-runasnonroot-root-image",
        "runtime-run-as-non-root-root-image",
        ("name", "store"),
    ),
    (
        "50-createcontainererror-failed-to-reserve-name",
        "runtime-name-reserved",
        ("holder", ""),
    ),
    (
        "51-createcontainererror-seccomp-profile-missing",
        "runtime-seccomp-profile-missing",
        ("profile", "/var/lib/kubelet/seccomp/localhost/system-probe"),
    ),
    (
        "52-runcontainererror-subpath-file-onto-directory",
        "runtime-mount-not-a-directory",
        ("target", "/etc/nginx/conf.d"),
    ),
    (
        "03-runcontainererror-starterror-exit128",
        "runtime-exec-not-found",
        ("cmd", "edge-agnet"),
    ),
    (
        "13-imagepullbackoff-tag-not-found",
        "registry-not-found",
        ("ref", "registry.example/drain/leader:v1.0-rc9"),
    ),
    (
        "14-init-imagepullbackoff-restartpolicy-never",
        "registry-access-denied",
        ("image", ""),
    ),
];

#[test]
fn each_case_meets_the_row_of_its_mechanism() {
    for (case, id, (group, value)) in CORPUS {
        let hits: Vec<kb::Hit> = facts(case)
            .iter()
            .filter_map(|(on, text)| kb::find(*on, text))
            .collect();
        let mine = hits.iter().find(|h| h.entry.id == *id).unwrap_or_else(|| {
            panic!(
                "{case}: no fact meets {id}; rows met: {:?}",
                hits.iter().map(|h| h.entry.id).collect::<Vec<_>>()
            )
        });
        let got = mine
            .groups
            .iter()
            .find(|(n, _)| n == group)
            .map(|(_, v)| v.as_str());
        if value.is_empty() {
            assert!(
                got.is_some_and(|v| !v.is_empty()),
                "{case}: {id} quotes no {group}"
            );
        } else {
            assert_eq!(got, Some(*value), "{case}: {id} group {group}");
        }
        // No other row of these tables contradicts the mechanism on the same case.
        for h in &hits {
            let other = h.entry.id;
            let mine_table = id.split('-').next();
            if other != *id
                && (other.starts_with("loader-")
                    || other.starts_with("registry-")
                    || other.starts_with("runtime-"))
            {
                assert!(
                    other.split('-').next() == mine_table && related(id, other),
                    "{case}: {other} also met besides {id}"
                );
            }
        }
    }
}

/// Rows that may legitimately meet the same case beside its mechanism's row.
fn related(id: &str, other: &str) -> bool {
    matches!(
        (id, other),
        ("runtime-name-reserved", "runtime-request-timeout")
    )
}
